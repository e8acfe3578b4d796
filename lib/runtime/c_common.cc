// The C functions declared in tensorflow/lite/core/c/common.h, plus
// compile-time checks that the C API enums agree with the flatbuffer schema.
//
// Allocation uses malloc/free (not new/delete) because kernels and delegates
// written in C free these arrays with free() or the *Free functions.
#include "runtime/tensor_type_map.h"
#include "tensorflow/lite/core/c/common.h"

#include <cstdlib>
#include <cstring>
#include <utility>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/c_api_types.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace {

// --- Schema agreement -------------------------------------------------------------
// builtin_ops.h is written by hand from the schema; these catch drift.
#define TFI_EXPECT_SAME_OP(c_name, schema_name)                      \
  static_assert(static_cast<int>(c_name) ==                          \
                    static_cast<int>(tflite::BuiltinOperator_##schema_name), \
                #c_name " != BuiltinOperator_" #schema_name)
TFI_EXPECT_SAME_OP(kTfLiteBuiltinAdd, ADD);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinAveragePool2d, AVERAGE_POOL_2D);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinConv2d, CONV_2D);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinDepthwiseConv2d, DEPTHWISE_CONV_2D);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinFullyConnected, FULLY_CONNECTED);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinReluN1To1, RELU_N1_TO_1);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinSoftmax, SOFTMAX);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinCustom, CUSTOM);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinDelegate, DELEGATE);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinPadv2, PADV2);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinUnidirectionalSequenceLstm,
                   UNIDIRECTIONAL_SEQUENCE_LSTM);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinTopkV2, TOPK_V2);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinHardSwish, HARD_SWISH);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinBatchMatmul, BATCH_MATMUL);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinPlaceholderForGreaterOpCodes,
                   PLACEHOLDER_FOR_GREATER_OP_CODES);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinCumsum, CUMSUM);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinConv3dTranspose, CONV_3D_TRANSPOSE);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinGelu, GELU);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinRelu0To1, RELU_0_TO_1);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinRightShift, RIGHT_SHIFT);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinStablehloLogistic, STABLEHLO_LOGISTIC);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinStablehloTranspose, STABLEHLO_TRANSPOSE);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinDilate, DILATE);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinStablehloRngBitGenerator,
                   STABLEHLO_RNG_BIT_GENERATOR);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinReduceWindow, REDUCE_WINDOW);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinStablehloComposite, STABLEHLO_COMPOSITE);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinStablehloShiftLeft, STABLEHLO_SHIFT_LEFT);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinStablehloCbrt, STABLEHLO_CBRT);
TFI_EXPECT_SAME_OP(kTfLiteBuiltinStablehloCase, STABLEHLO_CASE);
#undef TFI_EXPECT_SAME_OP
static_assert(static_cast<int>(kTfLiteBuiltinStablehloCase) ==
                  static_cast<int>(tflite::BuiltinOperator_MAX),
              "builtin_ops.h is missing operators the schema has");

// Every schema type has a distinct TfLiteType.
constexpr bool EverySchemaTypeMaps() {
  bool seen[64] = {};
  for (int t = tflite::TensorType_MIN; t <= tflite::TensorType_MAX; ++t) {
    const TfLiteType c = tflite_inspect::TfLiteTypeFromSchema(static_cast<tflite::TensorType>(t));
    if (c == kTfLiteNoType || seen[c]) return false;
    seen[c] = true;
  }
  return true;
}
static_assert(EverySchemaTypeMaps(), "a schema TensorType has no TfLiteType");
static_assert(tflite_inspect::TfLiteTypeFromSchema(tflite::TensorType_FLOAT32) == 1 &&
                  tflite_inspect::TfLiteTypeFromSchema(tflite::TensorType_INT8) == 9 &&
                  tflite_inspect::TfLiteTypeFromSchema(tflite::TensorType_BFLOAT16) == 19 &&
                  tflite_inspect::TfLiteTypeFromSchema(tflite::TensorType_INT2) == 20,
              "TfLiteType values differ from upstream");
static_assert(tflite::TensorType_MAX == tflite::TensorType_INT2,
              "schema gained a TensorType; extend TfLiteTypeFromSchema");

// --- Variable-length arrays -------------------------------------------------------
template <class T>
size_t VarArrayBytes(int size) {
  const size_t element = sizeof(std::declval<T&>().data[0]);
  size_t bytes = sizeof(T) + element * static_cast<size_t>(size < 0 ? 0 : size);
#if defined(_MSC_VER)
  bytes -= element;  // the one-element array stands in for a flexible member
#endif
  return bytes;
}

template <class T>
T* VarArrayCreate(int size) {
  if (size < 0) return nullptr;
  T* array = static_cast<T*>(std::malloc(VarArrayBytes<T>(size)));
  if (array == nullptr) return nullptr;
  array->size = size;
  return array;
}

template <class T>
T* VarArrayCopy(const T* src) {
  if (src == nullptr) return nullptr;
  T* copy = VarArrayCreate<T>(src->size);
  if (copy != nullptr && src->size > 0) {
    std::memcpy(copy->data, src->data, src->size * sizeof(src->data[0]));
  }
  return copy;
}

TfLiteSparsity* SparsityClone(const TfLiteSparsity* src) {
  if (src == nullptr) return nullptr;
  auto* dst = static_cast<TfLiteSparsity*>(std::calloc(1, sizeof(TfLiteSparsity)));
  if (dst == nullptr) return nullptr;
  *dst = *src;
  dst->traversal_order = TfLiteIntArrayCopy(src->traversal_order);
  dst->block_map = TfLiteIntArrayCopy(src->block_map);
  dst->dim_metadata = nullptr;
  if (src->dim_metadata != nullptr && src->dim_metadata_size > 0) {
    dst->dim_metadata = static_cast<TfLiteDimensionMetadata*>(std::calloc(
        static_cast<size_t>(src->dim_metadata_size),
        sizeof(TfLiteDimensionMetadata)));
    if (dst->dim_metadata == nullptr) {
      dst->dim_metadata_size = 0;
      return dst;
    }
    for (int i = 0; i < src->dim_metadata_size; ++i) {
      dst->dim_metadata[i] = src->dim_metadata[i];
      dst->dim_metadata[i].array_segments =
          TfLiteIntArrayCopy(src->dim_metadata[i].array_segments);
      dst->dim_metadata[i].array_indices =
          TfLiteIntArrayCopy(src->dim_metadata[i].array_indices);
    }
  }
  return dst;
}

}  // namespace

TfLiteQuantization TfLiteQuantizationClone(const TfLiteQuantization& src) {
  TfLiteQuantization dst = {kTfLiteNoQuantization, nullptr};
  if (src.params == nullptr) return dst;
  switch (src.type) {
    case kTfLiteNoQuantization:
      break;
    case kTfLiteAffineQuantization: {
      const auto* from = static_cast<const TfLiteAffineQuantization*>(src.params);
      auto* to = static_cast<TfLiteAffineQuantization*>(
          std::calloc(1, sizeof(TfLiteAffineQuantization)));
      if (to == nullptr) break;
      to->scale = TfLiteFloatArrayCopy(from->scale);
      to->zero_point = TfLiteIntArrayCopy(from->zero_point);
      to->quantized_dimension = from->quantized_dimension;
      dst = {kTfLiteAffineQuantization, to};
      break;
    }
    case kTfLiteBlockwiseQuantization: {
      auto* to = static_cast<TfLiteBlockwiseQuantization*>(
          std::malloc(sizeof(TfLiteBlockwiseQuantization)));
      if (to == nullptr) break;
      *to = *static_cast<const TfLiteBlockwiseQuantization*>(src.params);
      dst = {kTfLiteBlockwiseQuantization, to};
      break;
    }
    case kTfLiteMultiAxisQuantization: {
      const auto* from =
          static_cast<const TfLiteMultiAxisQuantization*>(src.params);
      auto* to = static_cast<TfLiteMultiAxisQuantization*>(
          std::malloc(sizeof(TfLiteMultiAxisQuantization)));
      if (to == nullptr) break;
      *to = *from;
      to->quantized_dimensions = TfLiteIntArrayCopy(from->quantized_dimensions);
      dst = {kTfLiteMultiAxisQuantization, to};
      break;
    }
  }
  return dst;
}

extern "C" {

size_t TfLiteIntArrayGetSizeInBytes(int size) {
  return VarArrayBytes<TfLiteIntArray>(size);
}

TfLiteIntArray* TfLiteIntArrayCreate(int size) {
  return VarArrayCreate<TfLiteIntArray>(size);
}

int TfLiteIntArrayEqual(const TfLiteIntArray* a, const TfLiteIntArray* b) {
  if (a == b) return 1;
  if (a == nullptr || b == nullptr) return 0;
  return TfLiteIntArrayEqualsArray(a, b->size, b->data);
}

int TfLiteIntArrayEqualsArray(const TfLiteIntArray* a, int b_size,
                              const int b_data[]) {
  if (a == nullptr) return b_size == 0;
  if (a->size != b_size) return 0;
  if (b_size == 0) return 1;
  return std::memcmp(a->data, b_data, b_size * sizeof(int)) == 0;
}

TfLiteIntArray* TfLiteIntArrayCopy(const TfLiteIntArray* src) {
  return VarArrayCopy(src);
}

void TfLiteIntArrayFree(TfLiteIntArray* a) { std::free(a); }

int TfLiteFloatArrayGetSizeInBytes(int size) {
  return static_cast<int>(VarArrayBytes<TfLiteFloatArray>(size));
}

TfLiteFloatArray* TfLiteFloatArrayCreate(int size) {
  return VarArrayCreate<TfLiteFloatArray>(size);
}

TfLiteFloatArray* TfLiteFloatArrayCopy(const TfLiteFloatArray* src) {
  return VarArrayCopy(src);
}

void TfLiteFloatArrayFree(TfLiteFloatArray* a) { std::free(a); }

void TfLiteTensorDataFree(TfLiteTensor* t) {
  if (t->allocation_type == kTfLiteVariantObject && t->data.data != nullptr) {
    delete static_cast<VariantData*>(t->data.data);
  } else if (t->allocation_type == kTfLiteDynamic ||
             t->allocation_type == kTfLitePersistentRo) {
    std::free(t->data.raw);
  }
  // Upstream clears the pointer for every allocation type.
  t->data.raw = nullptr;
}

void TfLiteQuantizationFree(TfLiteQuantization* quantization) {
  if (quantization->params != nullptr) {
    switch (quantization->type) {
      case kTfLiteAffineQuantization: {
        auto* params =
            static_cast<TfLiteAffineQuantization*>(quantization->params);
        TfLiteFloatArrayFree(params->scale);
        TfLiteIntArrayFree(params->zero_point);
        std::free(params);
        break;
      }
      case kTfLiteBlockwiseQuantization:
        std::free(quantization->params);
        break;
      case kTfLiteMultiAxisQuantization: {
        auto* params =
            static_cast<TfLiteMultiAxisQuantization*>(quantization->params);
        TfLiteIntArrayFree(params->quantized_dimensions);
        std::free(params);
        break;
      }
      case kTfLiteNoQuantization:
        break;
    }
  }
  quantization->params = nullptr;
  quantization->type = kTfLiteNoQuantization;
}

void TfLiteSparsityFree(TfLiteSparsity* sparsity) {
  if (sparsity == nullptr) return;
  TfLiteIntArrayFree(sparsity->traversal_order);
  TfLiteIntArrayFree(sparsity->block_map);
  if (sparsity->dim_metadata != nullptr) {
    // Only sparse (CSR) dimensions own segment / index arrays.
    for (int i = 0; i < sparsity->dim_metadata_size; i++) {
      TfLiteDimensionMetadata& metadata = sparsity->dim_metadata[i];
      if (metadata.format == kTfLiteDimSparseCSR) {
        TfLiteIntArrayFree(metadata.array_segments);
        TfLiteIntArrayFree(metadata.array_indices);
      }
    }
    std::free(sparsity->dim_metadata);
  }
  std::free(sparsity);
}

void TfLiteTensorFree(TfLiteTensor* t) {
  TfLiteTensorDataFree(t);
  TfLiteIntArrayFree(t->dims);
  t->dims = nullptr;
  TfLiteIntArrayFree(const_cast<TfLiteIntArray*>(t->dims_signature));
  t->dims_signature = nullptr;
  TfLiteQuantizationFree(&t->quantization);
  TfLiteSparsityFree(t->sparsity);
  t->sparsity = nullptr;
}

TfLiteTensor TfLiteTensorClone(TfLiteTensor src) {
  TfLiteTensor dst = src;
  // Buffers the tensor owns are duplicated; mmapped, arena and custom
  // buffers are shared (the clone does not own them either).
  if (src.data.data != nullptr) {
    switch (TfLiteTensorGetAllocationStrategy(&src)) {
      case kTfLiteAllocationStrategyMalloc:
        dst.data.data = std::malloc(src.bytes);
        if (dst.data.data != nullptr) {
          std::memcpy(dst.data.data, src.data.data, src.bytes);
        }
        break;
      case kTfLiteAllocationStrategyNew:
        if (src.allocation_type == kTfLiteVariantObject) {
          dst.data.data =
              static_cast<const VariantData*>(src.data.data)->CloneTo(nullptr);
        } else {
          dst.data.data = new char[src.bytes];
          std::memcpy(dst.data.data, src.data.data, src.bytes);
        }
        break;
      default:
        break;
    }
  }
  dst.dims = TfLiteIntArrayCopy(src.dims);
  dst.dims_signature = TfLiteIntArrayCopy(src.dims_signature);
  dst.quantization = TfLiteQuantizationClone(src.quantization);
  dst.sparsity = SparsityClone(src.sparsity);
  return dst;
}

void TfLiteTensorReset(TfLiteType type, const char* name, TfLiteIntArray* dims,
                       TfLiteQuantizationParams quantization, char* buffer,
                       size_t size, TfLiteAllocationType allocation_type,
                       const void* allocation, bool is_variable,
                       TfLiteTensor* tensor) {
  TfLiteTensorFree(tensor);
  tensor->type = type;
  tensor->name = name;
  tensor->dims = dims;
  tensor->params = quantization;
  tensor->data.raw = buffer;
  tensor->bytes = size;
  tensor->allocation_type = allocation_type;
  tensor->allocation = allocation;
  tensor->is_variable = is_variable;
  tensor->quantization.type = kTfLiteNoQuantization;
  tensor->quantization.params = nullptr;
}

TfLiteStatus TfLiteTensorCopy(const TfLiteTensor* src, TfLiteTensor* dst) {
  if (src == nullptr || dst == nullptr) return kTfLiteOk;
  if (src->bytes != dst->bytes) return kTfLiteError;
  if (src == dst) return kTfLiteOk;
  dst->type = src->type;
  TfLiteIntArrayFree(dst->dims);
  dst->dims = TfLiteIntArrayCopy(src->dims);
  if (src->allocation_type == kTfLiteVariantObject) {
    // Control-flow ops may copy into an output not yet marked as variant.
    if (dst->allocation_type != kTfLiteVariantObject) {
      TfLiteTensorDataFree(dst);
      dst->allocation_type = kTfLiteVariantObject;
    }
    auto* dst_vd = static_cast<VariantData*>(dst->data.data);
    const auto* src_vd = static_cast<const VariantData*>(src->data.data);
    dst->data.data = src_vd->CloneTo(dst_vd);
  } else if (src->bytes > 0) {
    std::memcpy(dst->data.raw, src->data.raw, src->bytes);
  }
  dst->buffer_handle = src->buffer_handle;
  dst->data_is_stale = src->data_is_stale;
  dst->delegate = src->delegate;
  return kTfLiteOk;
}

TfLiteStatus TfLiteTensorResizeMaybeCopy(size_t num_bytes, TfLiteTensor* tensor,
                                         bool preserve_data) {
  if (tensor == nullptr) return kTfLiteError;
  if (tensor->allocation_type != kTfLiteDynamic &&
      tensor->allocation_type != kTfLitePersistentRo) {
    return kTfLiteOk;
  }
  // 16 spare bytes: XNNPACK may read (never write) past the end.
  const size_t alloc_bytes = num_bytes + 16;
  if (tensor->data.data == nullptr) {
    tensor->data.data = std::malloc(alloc_bytes);
  } else if (num_bytes > tensor->bytes) {
    void* grown = nullptr;
    if (preserve_data) {
      grown = std::realloc(tensor->data.data, alloc_bytes);
    } else {
      grown = std::malloc(alloc_bytes);  // no copy needed
      if (grown != nullptr) std::free(tensor->data.data);
    }
    if (grown == nullptr) return kTfLiteError;  // old buffer stays valid
    tensor->data.data = grown;
  }
  if (tensor->data.data == nullptr) return kTfLiteError;
  tensor->bytes = num_bytes;
  return kTfLiteOk;
}

TfLiteStatus TfLiteTensorRealloc(size_t num_bytes, TfLiteTensor* tensor) {
  return TfLiteTensorResizeMaybeCopy(num_bytes, tensor, true);
}

const TfLiteIntArray* TfLiteTensorGetDimsSignature(const TfLiteTensor* t) {
  if (t->dims_signature != nullptr && t->dims_signature->size != 0) {
    return t->dims_signature;
  }
  return t->dims;
}

const char* TfLiteTypeGetName(TfLiteType type) {
  switch (type) {
    case kTfLiteNoType: return "NOTYPE";
    case kTfLiteFloat32: return "FLOAT32";
    case kTfLiteUInt16: return "UINT16";
    case kTfLiteInt16: return "INT16";
    case kTfLiteInt32: return "INT32";
    case kTfLiteUInt32: return "UINT32";
    case kTfLiteUInt8: return "UINT8";
    case kTfLiteInt8: return "INT8";
    case kTfLiteInt64: return "INT64";
    case kTfLiteUInt64: return "UINT64";
    case kTfLiteBool: return "BOOL";
    case kTfLiteComplex64: return "COMPLEX64";
    case kTfLiteComplex128: return "COMPLEX128";
    case kTfLiteString: return "STRING";
    case kTfLiteFloat16: return "FLOAT16";
    case kTfLiteBFloat16: return "BFLOAT16";
    case kTfLiteFloat64: return "FLOAT64";
    case kTfLiteResource: return "RESOURCE";
    case kTfLiteVariant: return "VARIANT";
    case kTfLiteInt4: return "INT4";
    case kTfLiteInt2: return "INT2";
    case kTfLiteUInt4: return "UINT4";
    case kTfLiteFloat8E4M3FN: return "FLOAT8E4M3FN";
    case kTfLiteFloat8E5M2: return "FLOAT8E5M2";
  }
  return "Unknown type";
}

TfLiteDelegate TfLiteDelegateCreate(void) { return TfLiteDelegate{}; }

TfLiteAllocationStrategy TfLiteTensorGetAllocationStrategy(
    const TfLiteTensor* t) {
  switch (t->allocation_type) {
    case kTfLiteMemNone: return kTfLiteAllocationStrategyNone;
    case kTfLiteMmapRo: return kTfLiteAllocationStrategyMMap;
    case kTfLiteArenaRw: return kTfLiteAllocationStrategyArena;
    case kTfLiteArenaRwPersistent: return kTfLiteAllocationStrategyArena;
    case kTfLiteDynamic: return kTfLiteAllocationStrategyMalloc;
    case kTfLitePersistentRo: return kTfLiteAllocationStrategyMalloc;
    case kTfLiteCustom: return kTfLiteAllocationStrategyUnknown;
    case kTfLiteVariantObject: return kTfLiteAllocationStrategyNew;
    case kTfLiteNonCpu: return kTfLiteAllocationStrategyUnknown;
  }
  return kTfLiteAllocationStrategyUnknown;
}

TfLiteRunStability TfLiteTensorGetBufferAddressStability(
    const TfLiteTensor* t) {
  switch (t->allocation_type) {
    case kTfLiteMemNone: return kTfLiteRunStabilityAcrossRuns;
    case kTfLiteMmapRo: return kTfLiteRunStabilityAcrossRuns;
    case kTfLiteArenaRw: return kTfLiteRunStabilityUnstable;
    case kTfLiteArenaRwPersistent: return kTfLiteRunStabilityUnstable;
    case kTfLiteDynamic: return kTfLiteRunStabilitySingleRun;
    case kTfLitePersistentRo: return kTfLiteRunStabilitySingleRun;
    case kTfLiteCustom: return kTfLiteRunStabilityUnknown;
    case kTfLiteVariantObject: return kTfLiteRunStabilityAcrossRuns;
    case kTfLiteNonCpu: return kTfLiteRunStabilityUnknown;
  }
  return kTfLiteRunStabilityUnknown;
}

TfLiteRunStability TfLiteTensorGetDataStability(const TfLiteTensor* t) {
  switch (t->allocation_type) {
    case kTfLiteMemNone: return kTfLiteRunStabilityAcrossRuns;
    case kTfLiteMmapRo: return kTfLiteRunStabilityAcrossRuns;
    case kTfLiteArenaRw: return kTfLiteRunStabilitySingleRun;
    case kTfLiteArenaRwPersistent: return kTfLiteRunStabilityAcrossRuns;
    case kTfLiteDynamic: return kTfLiteRunStabilitySingleRun;
    case kTfLitePersistentRo: return kTfLiteRunStabilitySingleRun;
    case kTfLiteCustom: return kTfLiteRunStabilityUnknown;
    case kTfLiteVariantObject: return kTfLiteRunStabilitySingleRun;
    case kTfLiteNonCpu: return kTfLiteRunStabilityUnknown;
  }
  return kTfLiteRunStabilityUnknown;
}

TfLiteRunStep TfLiteTensorGetDataKnownStep(const TfLiteTensor* t) {
  switch (t->allocation_type) {
    case kTfLiteMemNone: return kTfLiteRunStepInit;
    case kTfLiteMmapRo: return kTfLiteRunStepInit;
    case kTfLiteArenaRw: return kTfLiteRunStepEval;
    case kTfLiteArenaRwPersistent: return kTfLiteRunStepEval;
    case kTfLiteDynamic: return kTfLiteRunStepEval;
    case kTfLitePersistentRo: return kTfLiteRunStepPrepare;
    case kTfLiteCustom: return kTfLiteRunStepUnknown;
    case kTfLiteVariantObject: return kTfLiteRunStepEval;
    case kTfLiteNonCpu: return kTfLiteRunStepUnknown;
  }
  return kTfLiteRunStepUnknown;
}

TfLiteRunStep TfLiteTensorGetShapeKnownStep(const TfLiteTensor* t) {
  switch (t->allocation_type) {
    case kTfLiteMemNone: return kTfLiteRunStepInit;
    case kTfLiteMmapRo: return kTfLiteRunStepInit;
    case kTfLiteArenaRw: return kTfLiteRunStepPrepare;
    case kTfLiteArenaRwPersistent: return kTfLiteRunStepPrepare;
    case kTfLiteDynamic: return kTfLiteRunStepEval;
    case kTfLitePersistentRo: return kTfLiteRunStepPrepare;
    case kTfLiteCustom: return kTfLiteRunStepUnknown;
    case kTfLiteVariantObject: return kTfLiteRunStepEval;
    case kTfLiteNonCpu: return kTfLiteRunStepUnknown;
  }
  return kTfLiteRunStepUnknown;
}

void* TfLiteKernelInitFailed(void) { return reinterpret_cast<void*>(-1); }

}  // extern "C"
