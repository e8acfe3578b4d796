// Tests of the TFLite C API functions (c_common.cc) and of the C API
// contract: enum values and struct member order as upstream TFLite has them.
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "catch2/catch.hpp"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace {

TfLiteIntArray* MakeDims(std::initializer_list<int> values) {
  TfLiteIntArray* dims = TfLiteIntArrayCreate(static_cast<int>(values.size()));
  int i = 0;
  for (int v : values) dims->data[i++] = v;
  return dims;
}

}  // namespace

TEST_CASE("TfLiteIntArrayGetSizeInBytes counts the size field and elements") {
  CHECK(TfLiteIntArrayGetSizeInBytes(0) == sizeof(int));
  CHECK(TfLiteIntArrayGetSizeInBytes(1) == 2 * sizeof(int));
  CHECK(TfLiteIntArrayGetSizeInBytes(3) == 4 * sizeof(int));
  CHECK(TfLiteFloatArrayGetSizeInBytes(2) ==
        static_cast<int>(sizeof(int) + 2 * sizeof(float)));
}

TEST_CASE("TfLiteIntArray create, copy, compare, free") {
  TfLiteIntArray* a = MakeDims({2, 3, 4});
  REQUIRE(a != nullptr);
  CHECK(a->size == 3);

  TfLiteIntArray* b = TfLiteIntArrayCopy(a);
  REQUIRE(b != nullptr);
  CHECK(b != a);
  CHECK(TfLiteIntArrayEqual(a, b) == 1);
  const int same[] = {2, 3, 4};
  const int other[] = {2, 3, 5};
  CHECK(TfLiteIntArrayEqualsArray(a, 3, same) == 1);
  CHECK(TfLiteIntArrayEqualsArray(a, 3, other) == 0);
  CHECK(TfLiteIntArrayEqualsArray(a, 2, same) == 0);

  b->data[2] = 5;
  CHECK(TfLiteIntArrayEqual(a, b) == 0);

  TfLiteIntArray* empty = TfLiteIntArrayCreate(0);
  REQUIRE(empty != nullptr);
  CHECK(empty->size == 0);
  CHECK(TfLiteIntArrayEqualsArray(empty, 0, nullptr) == 1);

  // NULL arrays: equal to each other and to an empty list only.
  CHECK(TfLiteIntArrayEqual(nullptr, nullptr) == 1);
  CHECK(TfLiteIntArrayEqual(a, nullptr) == 0);
  CHECK(TfLiteIntArrayEqualsArray(nullptr, 0, nullptr) == 1);
  CHECK(TfLiteIntArrayEqualsArray(nullptr, 3, same) == 0);
  CHECK(TfLiteIntArrayCopy(nullptr) == nullptr);
  CHECK(TfLiteIntArrayCreate(-1) == nullptr);

  TfLiteIntArrayFree(a);
  TfLiteIntArrayFree(b);
  TfLiteIntArrayFree(empty);
  TfLiteIntArrayFree(nullptr);
}

TEST_CASE("TfLiteFloatArray create, copy, free") {
  TfLiteFloatArray* a = TfLiteFloatArrayCreate(2);
  REQUIRE(a != nullptr);
  a->data[0] = 0.5f;
  a->data[1] = -2.0f;
  TfLiteFloatArray* b = TfLiteFloatArrayCopy(a);
  REQUIRE(b != nullptr);
  CHECK(b->size == 2);
  CHECK(b->data[0] == 0.5f);
  CHECK(b->data[1] == -2.0f);
  TfLiteFloatArrayFree(a);
  TfLiteFloatArrayFree(b);
}

TEST_CASE("TfLiteTypeGetName and TfLiteTypeGetSize") {
  CHECK(std::strcmp(TfLiteTypeGetName(kTfLiteNoType), "NOTYPE") == 0);
  CHECK(std::strcmp(TfLiteTypeGetName(kTfLiteFloat32), "FLOAT32") == 0);
  CHECK(std::strcmp(TfLiteTypeGetName(kTfLiteInt8), "INT8") == 0);
  CHECK(std::strcmp(TfLiteTypeGetName(kTfLiteUInt16), "UINT16") == 0);
  CHECK(std::strcmp(TfLiteTypeGetName(kTfLiteInt4), "INT4") == 0);
  CHECK(std::strcmp(TfLiteTypeGetName(kTfLiteBFloat16), "BFLOAT16") == 0);
  CHECK(std::strcmp(TfLiteTypeGetName(kTfLiteInt2), "INT2") == 0);
  CHECK(std::strcmp(TfLiteTypeGetName(kTfLiteComplex128), "COMPLEX128") == 0);
  // 31: no type has it, and it is inside the enum's range (0..31 for values up to 23), so
  // the sanitizers' enum check passes.
  CHECK(std::strcmp(TfLiteTypeGetName(static_cast<TfLiteType>(31)),
                    "Unknown type") == 0);

  CHECK(tflite::TfLiteTypeGetSize(kTfLiteFloat32) == 4);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteInt8) == 1);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteUInt8) == 1);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteInt16) == 2);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteFloat16) == 2);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteBFloat16) == 2);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteInt64) == 8);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteFloat64) == 8);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteComplex64) == 8);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteComplex128) == 16);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteBool) == static_cast<int>(sizeof(bool)));
  // Strings and sub-byte types have no fixed byte size.
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteString) == 0);
  CHECK(tflite::TfLiteTypeGetSize(kTfLiteInt4) == 0);
  CHECK(tflite::TfLiteTypeGetSizeBits(kTfLiteInt4) == 4);
  CHECK(tflite::TfLiteTypeGetSizeBits(kTfLiteInt2) == 2);
}

TEST_CASE("C API enum values are upstream's") {
  STATIC_REQUIRE(kTfLiteOk == 0);
  STATIC_REQUIRE(kTfLiteCancelled == 8);
  STATIC_REQUIRE(kTfLiteOutputShapeNotKnown == 9);
  STATIC_REQUIRE(kTfLiteFloat32 == 1);
  STATIC_REQUIRE(kTfLiteString == 5);
  STATIC_REQUIRE(kTfLiteInt8 == 9);
  STATIC_REQUIRE(kTfLiteFloat16 == 10);
  STATIC_REQUIRE(kTfLiteUInt16 == 17);
  STATIC_REQUIRE(kTfLiteInt4 == 18);
  STATIC_REQUIRE(kTfLiteBFloat16 == 19);
  STATIC_REQUIRE(kTfLiteInt2 == 20);
  STATIC_REQUIRE(kTfLiteVariantObject == 7);
  STATIC_REQUIRE(kTfLiteNullBufferHandle == -1);
  STATIC_REQUIRE(kTfLiteOptionalTensor == -1);
  STATIC_REQUIRE(kTfLiteDelegateFlagsPerOperatorProfiling == 4);
  STATIC_REQUIRE(kTfLiteActRelu6 == 3);
  STATIC_REQUIRE(kTfLiteActSigmoid == 6);
  STATIC_REQUIRE(kTfLiteBuiltinAdd == 0);
  STATIC_REQUIRE(kTfLiteBuiltinCustom == 32);
  STATIC_REQUIRE(kTfLiteBuiltinStablehloCase == 209);
  STATIC_REQUIRE(TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT == 8);
}

// Members must appear in upstream's order: delegates index into these.
#define TFI_BEFORE(type, a, b) CHECK(offsetof(type, a) < offsetof(type, b))
TEST_CASE("C API struct members are in upstream order") {
  TFI_BEFORE(TfLiteTensor, type, data);
  TFI_BEFORE(TfLiteTensor, data, dims);
  TFI_BEFORE(TfLiteTensor, dims, params);
  TFI_BEFORE(TfLiteTensor, params, allocation_type);
  TFI_BEFORE(TfLiteTensor, allocation_type, bytes);
  TFI_BEFORE(TfLiteTensor, bytes, allocation);
  TFI_BEFORE(TfLiteTensor, allocation, name);
  TFI_BEFORE(TfLiteTensor, name, delegate);
  TFI_BEFORE(TfLiteTensor, delegate, buffer_handle);
  TFI_BEFORE(TfLiteTensor, buffer_handle, data_is_stale);
  TFI_BEFORE(TfLiteTensor, data_is_stale, is_variable);
  TFI_BEFORE(TfLiteTensor, is_variable, quantization);
  TFI_BEFORE(TfLiteTensor, quantization, sparsity);
  TFI_BEFORE(TfLiteTensor, sparsity, dims_signature);

  TFI_BEFORE(TfLiteNode, inputs, outputs);
  TFI_BEFORE(TfLiteNode, outputs, intermediates);
  TFI_BEFORE(TfLiteNode, intermediates, temporaries);
  TFI_BEFORE(TfLiteNode, temporaries, user_data);
  TFI_BEFORE(TfLiteNode, user_data, builtin_data);
  TFI_BEFORE(TfLiteNode, builtin_data, custom_initial_data);
  TFI_BEFORE(TfLiteNode, custom_initial_data, custom_initial_data_size);
  TFI_BEFORE(TfLiteNode, custom_initial_data_size, delegate);
  TFI_BEFORE(TfLiteNode, delegate, might_have_side_effect);

  TFI_BEFORE(TfLiteContext, tensors_size, GetExecutionPlan);
  TFI_BEFORE(TfLiteContext, GetExecutionPlan, tensors);
  TFI_BEFORE(TfLiteContext, tensors, impl_);
  TFI_BEFORE(TfLiteContext, impl_, ResizeTensor);
  TFI_BEFORE(TfLiteContext, ResizeTensor, ReportError);
  TFI_BEFORE(TfLiteContext, ReportError, AddTensors);
  TFI_BEFORE(TfLiteContext, AddTensors, GetNodeAndRegistration);
  TFI_BEFORE(TfLiteContext, GetNodeAndRegistration,
             ReplaceNodeSubsetsWithDelegateKernels);
  TFI_BEFORE(TfLiteContext, ReplaceNodeSubsetsWithDelegateKernels,
             recommended_num_threads);
  TFI_BEFORE(TfLiteContext, recommended_num_threads, GetExternalContext);
  TFI_BEFORE(TfLiteContext, GetExternalContext, SetExternalContext);
  TFI_BEFORE(TfLiteContext, SetExternalContext, allow_fp32_relax_to_fp16);
  TFI_BEFORE(TfLiteContext, allow_fp32_relax_to_fp16, profiler);
  TFI_BEFORE(TfLiteContext, profiler, AllocatePersistentBuffer);
  TFI_BEFORE(TfLiteContext, AllocatePersistentBuffer, AllocateBufferForEval);
  TFI_BEFORE(TfLiteContext, AllocateBufferForEval, RequestScratchBufferInArena);
  TFI_BEFORE(TfLiteContext, RequestScratchBufferInArena, GetScratchBuffer);
  TFI_BEFORE(TfLiteContext, GetScratchBuffer, ResizeTensorExplicit);
  TFI_BEFORE(TfLiteContext, ResizeTensorExplicit, PreviewDelegatePartitioning);
  TFI_BEFORE(TfLiteContext, PreviewDelegatePartitioning, GetTensor);
  TFI_BEFORE(TfLiteContext, GetTensor, GetEvalTensor);
  TFI_BEFORE(TfLiteContext, GetEvalTensor, GetModelMetadata);
  TFI_BEFORE(TfLiteContext, GetModelMetadata, AcquireSubgraphContext);
  TFI_BEFORE(TfLiteContext, AcquireSubgraphContext, ReleaseSubgraphContext);

  TFI_BEFORE(TfLiteRegistration, init, free);
  TFI_BEFORE(TfLiteRegistration, free, prepare);
  TFI_BEFORE(TfLiteRegistration, prepare, invoke);
  TFI_BEFORE(TfLiteRegistration, invoke, profiling_string);
  TFI_BEFORE(TfLiteRegistration, profiling_string, builtin_code);
  TFI_BEFORE(TfLiteRegistration, builtin_code, custom_name);
  TFI_BEFORE(TfLiteRegistration, custom_name, version);
  TFI_BEFORE(TfLiteRegistration, version, registration_external);
  TFI_BEFORE(TfLiteRegistration, registration_external, async_kernel);
  TFI_BEFORE(TfLiteRegistration, async_kernel, inplace_operator);

  TFI_BEFORE(TfLiteDelegate, data_, Prepare);
  TFI_BEFORE(TfLiteDelegate, Prepare, CopyFromBufferHandle);
  TFI_BEFORE(TfLiteDelegate, CopyFromBufferHandle, CopyToBufferHandle);
  TFI_BEFORE(TfLiteDelegate, CopyToBufferHandle, FreeBufferHandle);
  TFI_BEFORE(TfLiteDelegate, FreeBufferHandle, flags);
  TFI_BEFORE(TfLiteDelegate, flags, opaque_delegate_builder);

  TFI_BEFORE(TfLiteFullyConnectedParams, asymmetric_quantize_inputs,
             quantized_bias_type);
  CHECK(offsetof(TfLiteReshapeParams, num_dimensions) ==
        TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT * sizeof(int32_t));
}
#undef TFI_BEFORE

TEST_CASE("TfLiteDelegateCreate zeroes every field") {
  const TfLiteDelegate d = TfLiteDelegateCreate();
  CHECK(d.data_ == nullptr);
  CHECK(d.Prepare == nullptr);
  CHECK(d.CopyFromBufferHandle == nullptr);
  CHECK(d.CopyToBufferHandle == nullptr);
  CHECK(d.FreeBufferHandle == nullptr);
  CHECK(d.flags == kTfLiteDelegateFlagsNone);
  CHECK(d.opaque_delegate_builder == nullptr);
}

TEST_CASE("Dynamic tensor: reset, realloc, copy, free") {
  TfLiteTensor t = {};
  TfLiteTensorReset(kTfLiteFloat32, "t", MakeDims({2, 2}), {0.f, 0}, nullptr,
                    0, kTfLiteDynamic, nullptr, false, &t);
  CHECK(t.type == kTfLiteFloat32);
  CHECK(t.quantization.type == kTfLiteNoQuantization);
  REQUIRE(TfLiteTensorRealloc(4 * sizeof(float), &t) == kTfLiteOk);
  REQUIRE(t.data.f != nullptr);
  CHECK(t.bytes == 4 * sizeof(float));
  for (int i = 0; i < 4; ++i) t.data.f[i] = static_cast<float>(i) + 0.5f;

  // Growing keeps the data.
  REQUIRE(TfLiteTensorRealloc(8 * sizeof(float), &t) == kTfLiteOk);
  CHECK(t.data.f[3] == 3.5f);
  REQUIRE(TfLiteTensorRealloc(4 * sizeof(float), &t) == kTfLiteOk);

  // Per-channel quantization owned by the tensor is freed with it.
  auto* affine = static_cast<TfLiteAffineQuantization*>(
      std::calloc(1, sizeof(TfLiteAffineQuantization)));
  affine->scale = TfLiteFloatArrayCreate(1);
  affine->scale->data[0] = 0.25f;
  affine->zero_point = MakeDims({0});
  t.quantization = {kTfLiteAffineQuantization, affine};

  TfLiteTensor copy = {};
  copy.allocation_type = kTfLiteDynamic;
  REQUIRE(TfLiteTensorRealloc(4 * sizeof(float), &copy) == kTfLiteOk);
  REQUIRE(TfLiteTensorCopy(&t, &copy) == kTfLiteOk);
  CHECK(copy.data.f[2] == 2.5f);
  CHECK(TfLiteIntArrayEqual(copy.dims, t.dims) == 1);

  TfLiteTensor clone = TfLiteTensorClone(t);
  CHECK(clone.data.f != t.data.f);
  CHECK(clone.data.f[1] == 1.5f);
  REQUIRE(clone.quantization.type == kTfLiteAffineQuantization);
  const auto* cloned =
      static_cast<const TfLiteAffineQuantization*>(clone.quantization.params);
  CHECK(cloned != affine);
  CHECK(cloned->scale->data[0] == 0.25f);

  // Mismatched sizes are refused.
  TfLiteTensor small = {};
  small.bytes = 4;
  CHECK(TfLiteTensorCopy(&t, &small) == kTfLiteError);
  CHECK(TfLiteTensorCopy(nullptr, &small) == kTfLiteOk);

  TfLiteTensorFree(&t);
  CHECK(t.data.raw == nullptr);
  CHECK(t.dims == nullptr);
  CHECK(t.quantization.params == nullptr);
  CHECK(t.quantization.type == kTfLiteNoQuantization);
  TfLiteTensorFree(&copy);
  TfLiteTensorFree(&clone);
}

TEST_CASE("Realloc leaves non-owned buffers alone") {
  float storage[2] = {1.f, 2.f};
  TfLiteTensor t = {};
  t.allocation_type = kTfLiteMmapRo;
  t.data.f = storage;
  t.bytes = sizeof(storage);
  CHECK(TfLiteTensorRealloc(64, &t) == kTfLiteOk);
  CHECK(t.data.f == storage);
  CHECK(t.bytes == sizeof(storage));
}

TEST_CASE("TfLiteTensorGetDimsSignature falls back to dims") {
  TfLiteTensor t = {};
  t.dims = MakeDims({1, 4});
  CHECK(TfLiteTensorGetDimsSignature(&t) == t.dims);
  TfLiteIntArray* signature = MakeDims({-1, 4});
  t.dims_signature = signature;
  CHECK(TfLiteTensorGetDimsSignature(&t) == signature);
  CHECK(tflite::HasUnspecifiedDimension(&t));
  TfLiteTensorFree(&t);
}
