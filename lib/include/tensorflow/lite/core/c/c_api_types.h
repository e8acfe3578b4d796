// Types shared by the TFLite C API, kernels and delegates (tflite-inspect's
// source-compatible rewrite of upstream tensorflow/lite/core/c/c_api_types.h).
//
// Every enum value here equals upstream's: kernels, delegates and serialized
// data compare against these numbers, so they are part of the contract.
// NOTE: TfLiteType numbering is NOT the schema's TensorType numbering (e.g.
// kTfLiteFloat32 == 1 but TensorType_FLOAT32 == 0); convert explicitly.
#ifndef TENSORFLOW_LITE_CORE_C_C_API_TYPES_H_
#define TENSORFLOW_LITE_CORE_C_C_API_TYPES_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Marks functions exported from a shared-library build of the C API.
#if defined(SWIG) || defined(TFL_STATIC_LIBRARY_BUILD)
#define TFL_CAPI_EXPORT
#elif defined(_WIN32)
#ifdef TFL_COMPILE_LIBRARY
#define TFL_CAPI_EXPORT __declspec(dllexport)
#else
#define TFL_CAPI_EXPORT __declspec(dllimport)
#endif
#else
#define TFL_CAPI_EXPORT __attribute__((visibility("default")))
#endif

// Result of every C API call and kernel callback. New values may appear;
// callers should treat anything but kTfLiteOk as failure.
typedef enum TfLiteStatus {
  kTfLiteOk = 0,
  kTfLiteError = 1,                    // runtime / kernel failure
  kTfLiteDelegateError = 2,            // failure inside a delegate
  kTfLiteApplicationError = 3,         // delegate cannot apply to this graph
  kTfLiteDelegateDataNotFound = 4,     // delegate serialization: no data
  kTfLiteDelegateDataWriteError = 5,   // delegate serialization: write failed
  kTfLiteDelegateDataReadError = 6,    // delegate serialization: read failed
  kTfLiteUnresolvedOps = 7,            // model has ops no resolver provides
  kTfLiteCancelled = 8,                // invocation cancelled by the user
  kTfLiteOutputShapeNotKnown = 9,      // Prepare: size known, shape not yet
} TfLiteStatus;

// Element types of tensors. Values follow upstream's tflite_types.h.
typedef enum {
  kTfLiteNoType = 0,
  kTfLiteFloat32 = 1,
  kTfLiteInt32 = 2,
  kTfLiteUInt8 = 3,
  kTfLiteInt64 = 4,
  kTfLiteString = 5,
  kTfLiteBool = 6,
  kTfLiteInt16 = 7,
  kTfLiteComplex64 = 8,
  kTfLiteInt8 = 9,
  kTfLiteFloat16 = 10,
  kTfLiteFloat64 = 11,
  kTfLiteComplex128 = 12,
  kTfLiteUInt64 = 13,
  kTfLiteResource = 14,
  kTfLiteVariant = 15,
  kTfLiteUInt32 = 16,
  kTfLiteUInt16 = 17,
  kTfLiteInt4 = 18,
  kTfLiteBFloat16 = 19,
  kTfLiteInt2 = 20,
  kTfLiteUInt4 = 21,
  kTfLiteFloat8E4M3FN = 22,
  kTfLiteFloat8E5M2 = 23,
} TfLiteType;

// Legacy per-tensor affine quantization: real = scale * (q - zero_point).
// Still filled in alongside TfLiteAffineQuantization for per-tensor params.
typedef struct TfLiteQuantizationParams {
  float scale;
  int32_t zero_point;
} TfLiteQuantizationParams;

// Storage format of one dimension of a sparse tensor.
typedef enum TfLiteDimensionType {
  kTfLiteDimDense = 0,
  kTfLiteDimSparseCSR,
} TfLiteDimensionType;

// Opaque handles of the ABI-stable API; declared so common.h can name them.
typedef struct TfLiteOpaqueContext TfLiteOpaqueContext;
typedef struct TfLiteOpaqueNode TfLiteOpaqueNode;
typedef struct TfLiteOpaqueTensor TfLiteOpaqueTensor;
typedef struct TfLiteDelegate TfLiteDelegate;
typedef struct TfLiteOpaqueDelegateStruct TfLiteOpaqueDelegateStruct;

// As in upstream's non-stable-ABI build, an "opaque" delegate is the plain
// TfLiteDelegate unless a stable-ABI build asks for the opaque struct.
#if defined(TFLITE_WITH_STABLE_ABI) || defined(TFLITE_USE_OPAQUE_DELEGATE)
#if TFLITE_WITH_STABLE_ABI || TFLITE_USE_OPAQUE_DELEGATE
typedef TfLiteOpaqueDelegateStruct TfLiteOpaqueDelegate;
#else
typedef TfLiteDelegate TfLiteOpaqueDelegate;
#endif
#else
typedef TfLiteDelegate TfLiteOpaqueDelegate;
#endif

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // TENSORFLOW_LITE_CORE_C_C_API_TYPES_H_
