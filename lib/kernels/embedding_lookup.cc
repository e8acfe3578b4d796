// EMBEDDING_LOOKUP: output row i = value row lookup[i] (lookup: 1-D int32;
// value: rank >= 2, rows on dimension 0), as TFLite's embedding_lookup.cc.
// v1-3: float32 rows copied; int8 or uint8 rows copied into an output of the
// same type, or, with a float32 output, dequantized (hybrid: value * scale,
// zero point 0 as TFLite requires; a scale per row when the value tensor is
// quantized on dimension 0). As in TFLite, hybrid uint8 bytes are read as int8.
// An index outside [0, rows) fails Eval with TFLite's message. Not v4-5 (int4 /
// int2 tables).
#include <cstdint>
#include <cstring>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace embedding_lookup {
namespace {

bool IsHybrid(const TfLiteTensor* value, const TfLiteTensor* output) {
  return (value->type == kTfLiteInt8 || value->type == kTfLiteUInt8) &&
         output->type == kTfLiteFloat32;
}

const TfLiteAffineQuantization* Affine(const TfLiteTensor* t) {
  if (t->quantization.type != kTfLiteAffineQuantization) return nullptr;
  return static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
}

TfLiteStatus CheckQuantization(TfLiteContext* context, const TfLiteTensor* value,
                               const TfLiteTensor* output) {
  const TfLiteAffineQuantization* q = Affine(value);
  if (q == nullptr) return kTfLiteOk;
  TF_LITE_ENSURE(context, q->scale != nullptr && q->scale->size > 0);
  TF_LITE_ENSURE(context, q->zero_point != nullptr && q->zero_point->size > 0);
  // Hybrid lookups are symmetric only.
  if (IsHybrid(value, output)) TF_LITE_ENSURE(context, q->zero_point->data[0] == 0);
  if (q->scale->size > 1) {
    // Per-row scales: hybrid only, on dimension 0, one per row.
    TF_LITE_ENSURE(context, IsHybrid(value, output));
    TF_LITE_ENSURE(context, q->quantized_dimension == 0);
    TF_LITE_ENSURE(context, q->scale->size == SizeOfDimension(value, 0));
    TF_LITE_ENSURE(context, q->zero_point->size == q->scale->size || q->zero_point->size == 1);
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* lookup;
  const TfLiteTensor* value;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &lookup));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &value));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_EQ(context, NumDimensions(lookup), 1);
  TF_LITE_ENSURE_TYPES_EQ(context, lookup->type, kTfLiteInt32);
  TF_LITE_ENSURE(context, NumDimensions(value) >= 2);
  const TfLiteType t = value->type;
  if (t != kTfLiteFloat32 && t != kTfLiteInt8 && t != kTfLiteUInt8) {
    TF_LITE_KERNEL_LOG(context, "Type not currently supported.");
    return kTfLiteError;
  }
  // A copy needs the output's element size to be the value's (TFLite copies raw
  // bytes).
  if (!IsHybrid(value, output)) TF_LITE_ENSURE_TYPES_EQ(context, output->type, t);
  TF_LITE_ENSURE_OK(context, CheckQuantization(context, value, output));
  TfLiteIntArray* shape = TfLiteIntArrayCopy(value->dims);
  shape->data[0] = SizeOfDimension(lookup, 0);
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* lookup = GetInput(context, node, 0);
  const TfLiteTensor* value = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int rows = SizeOfDimension(value, 0);
  const int count = SizeOfDimension(lookup, 0);
  const int32_t* indices = GetTensorData<int32_t>(lookup);
  for (int i = 0; i < count; ++i) {
    if (indices[i] < 0 || indices[i] >= rows) {
      TF_LITE_KERNEL_LOG(context,
                         "Embedding Lookup: index out of bounds. Got %d, and "
                         "bounds are [0, %d]",
                         indices[i], rows - 1);
      return kTfLiteError;
    }
  }
  if (rows == 0) return kTfLiteOk;
  const int64_t cols = NumElements(value) / rows;
  if (!IsHybrid(value, output)) {
    const size_t row_bytes = value->bytes / rows;
    for (int i = 0; i < count; ++i) {
      std::memcpy(output->data.raw + i * row_bytes, value->data.raw_const + indices[i] * row_bytes,
                  row_bytes);
    }
    return kTfLiteOk;
  }
  const TfLiteAffineQuantization* q = Affine(value);
  const bool per_row = q != nullptr && q->scale->size > 1;
  const int8_t* values = reinterpret_cast<const int8_t*>(value->data.raw_const);
  float* out = GetTensorData<float>(output);
  for (int i = 0; i < count; ++i) {
    const int32_t row = indices[i];
    const float scale = per_row ? q->scale->data[row] : value->params.scale;
    // int8 * float is exact in double and rounded once, as TFLite's float or
    // double product.
    for (int64_t j = 0; j < cols; ++j) out[i * cols + j] = values[row * cols + j] * scale;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace embedding_lookup

TfLiteRegistration* Register_EMBEDDING_LOOKUP() {
  static TfLiteRegistration r = {nullptr, nullptr, embedding_lookup::Prepare,
                                 embedding_lookup::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
