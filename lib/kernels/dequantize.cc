// DEQUANTIZE to float32: uint8 (v1), int8 (v2), float16 and int16 (v3; older converters
// also write v2 for float16, as the MediaPipe models do), per-channel int8 (v5).
// Same arithmetic as TFLite's reference Dequantize (double scale * (q - zero_point),
// rounded to float) and PerChannelDequantize (float scale[c] * (q - zero_point[c])).
//
// Not implemented: sparse inputs (v4) and int4 (v6).
#include <cstdint>
#include <cstring>

#include "kernels/internal/conv_util.h"
#include "kernels/internal/fp16.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace dequantize {
namespace {

const TfLiteAffineQuantization* PerChannel(const TfLiteTensor* t) {
  const TfLiteAffineQuantization* q = conv_util::Affine(t);
  return q != nullptr && q->scale != nullptr && q->scale->size > 1 ? q : nullptr;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (input->type) {
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
    case kTfLiteFloat16:
      break;
    default:
      return conv_util::UnsupportedType(context, input->type);
  }
  if (output->type != kTfLiteFloat32) return conv_util::UnsupportedType(context, output->type);
  if (input->type == kTfLiteInt16) TF_LITE_ENSURE_EQ(context, input->params.zero_point, 0);
  if (const TfLiteAffineQuantization* q = PerChannel(input)) {
    if (input->type != kTfLiteInt8) {
      TF_LITE_KERNEL_LOG(context, "Per-channel DEQUANTIZE of %s not supported.",
                         TfLiteTypeGetName(input->type));
      return kTfLiteError;
    }
    TF_LITE_ENSURE(context, q->zero_point != nullptr && q->zero_point->size == q->scale->size);
    TF_LITE_ENSURE(context,
                   q->quantized_dimension >= 0 && q->quantized_dimension < NumDimensions(input));
    TF_LITE_ENSURE_EQ(context, SizeOfDimension(input, q->quantized_dimension), q->scale->size);
  }
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

template <typename T>
void DequantizePerTensor(const TfLiteTensor* input, float* out) {
  const T* in = GetTensorData<T>(input);
  const int64_t n = NumElements(input);
  const double scale = input->params.scale;
  const int32_t zero_point = input->params.zero_point;
  for (int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<float>(scale * (static_cast<int32_t>(in[i]) - zero_point));
  }
}

void DequantizePerChannel(const TfLiteTensor* input, const TfLiteAffineQuantization& q,
                          float* out) {
  const int8_t* in = input->data.int8;
  const int axis = q.quantized_dimension;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= SizeOfDimension(input, d);
  for (int d = axis + 1; d < NumDimensions(input); ++d) inner *= SizeOfDimension(input, d);
  const int channels = SizeOfDimension(input, axis);
  int64_t i = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int c = 0; c < channels; ++c) {
      const float scale = q.scale->data[c];
      const int32_t zero_point = q.zero_point->data[c];
      for (int64_t k = 0; k < inner; ++k, ++i) {
        out[i] = static_cast<float>(scale * (static_cast<int32_t>(in[i]) - zero_point));
      }
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  float* out = output->data.f;
  switch (input->type) {
    case kTfLiteUInt8:
      DequantizePerTensor<uint8_t>(input, out);
      return kTfLiteOk;
    case kTfLiteInt8:
      if (const TfLiteAffineQuantization* q = PerChannel(input)) {
        DequantizePerChannel(input, *q, out);
      } else {
        DequantizePerTensor<int8_t>(input, out);
      }
      return kTfLiteOk;
    case kTfLiteInt16:
      DequantizePerTensor<int16_t>(input, out);
      return kTfLiteOk;
    case kTfLiteFloat16: {
      const auto* in = static_cast<const uint16_t*>(static_cast<const void*>(input->data.raw));
      const int64_t n = NumElements(input);
      for (int64_t i = 0; i < n; ++i) out[i] = tflite::fp16::HalfToFloat(in[i]);
      return kTfLiteOk;
    }
    default:
      return conv_util::UnsupportedType(context, input->type);
  }
}

}  // namespace
}  // namespace dequantize

TfLiteRegistration* Register_DEQUANTIZE() {
  static TfLiteRegistration r = {nullptr, nullptr, dequantize::Prepare, dequantize::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
