// PAD and PADV2: pads each dimension (up to 5) with paddings[d] = {before, after}
// taken from an int32 or int64 [rank, 2] tensor, constant or computed at run time.
// The pad value is 0 (float, int32, int64), the output zero point (8/16-bit
// quantized), or PADV2's scalar constant_values input.
#include <cstring>
#include <limits>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace pad {
namespace {

constexpr int kMaxDims = 5;

struct PadContext {
  PadContext(TfLiteContext* context, TfLiteNode* node) {
    input = GetInput(context, node, 0);
    paddings = GetInput(context, node, 1);
    constant_values = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
    output = GetOutput(context, node, 0);
  }
  const TfLiteTensor* input;
  const TfLiteTensor* paddings;
  const TfLiteTensor* constant_values;
  TfLiteTensor* output;
};

int64_t PaddingAt(const TfLiteTensor* paddings, int i) {
  return paddings->type == kTfLiteInt64 ? paddings->data.i64[i] : paddings->data.i32[i];
}

TfLiteStatus ResizeOutput(TfLiteContext* context, const PadContext& c) {
  const int dims = NumDimensions(c.input);
  TF_LITE_ENSURE_EQ(context, NumDimensions(c.paddings), 2);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(c.paddings, 0), dims);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(c.paddings, 1), 2);
  TfLiteIntArray* out = TfLiteIntArrayCreate(dims);
  for (int d = 0; d < dims; ++d) {
    const int64_t before = PaddingAt(c.paddings, 2 * d);
    const int64_t after = PaddingAt(c.paddings, 2 * d + 1);
    const int64_t size = c.input->dims->data[d] + before + after;
    if (before < 0 || after < 0 || size > std::numeric_limits<int32_t>::max()) {
      TfLiteIntArrayFree(out);
      TF_LITE_KERNEL_LOG(context,
                         "PAD: paddings of dimension %d must be >= 0 and keep the size "
                         "in int32 (got %lld, %lld).",
                         d, static_cast<long long>(before), static_cast<long long>(after));
      return kTfLiteError;
    }
    out->data[d] = static_cast<int>(size);
  }
  return context->ResizeTensor(context, c.output, out);
}

bool TypeSupported(TfLiteType t) {
  return t == kTfLiteFloat32 || t == kTfLiteUInt8 || t == kTfLiteInt8 || t == kTfLiteInt16 ||
         t == kTfLiteInt32 || t == kTfLiteInt64;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE(context, NumInputs(node) == 2 || NumInputs(node) == 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  PadContext c(context, node);
  TF_LITE_ENSURE(context, c.input != nullptr && c.paddings != nullptr && c.output != nullptr);
  if (!TypeSupported(c.input->type)) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(c.input->type),
                       c.input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, c.input->type, c.output->type);
  if (c.paddings->type != kTfLiteInt32 && c.paddings->type != kTfLiteInt64) {
    TF_LITE_KERNEL_LOG(context, "Paddings type %s (%d) not supported.",
                       TfLiteTypeGetName(c.paddings->type), c.paddings->type);
    return kTfLiteError;
  }
  if (c.constant_values != nullptr) {
    TF_LITE_ENSURE_TYPES_EQ(context, c.input->type, c.constant_values->type);
  }
  TF_LITE_ENSURE_MSG(context, NumDimensions(c.input) <= kMaxDims,
                     "PAD supports inputs of at most 5 dimensions.");
  const TfLiteType t = c.input->type;
  if (t == kTfLiteUInt8 || t == kTfLiteInt8 || t == kTfLiteInt16) {
    // Like upstream, values are copied as they are (the converter gives input and
    // output the same quantization); a PADV2 constant must share the output's.
    if (c.constant_values != nullptr) {
      TF_LITE_ENSURE_EQ(context, c.output->params.zero_point, c.constant_values->params.zero_point);
      TF_LITE_ENSURE_EQ(context, c.output->params.scale, c.constant_values->params.scale);
    }
  }
  if (NumDimensions(c.input) == 0 || !IsConstantOrPersistentTensor(c.paddings)) {
    SetTensorToDynamic(c.output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, c);
}

template <typename T>
void PadImpl(const TfLiteTensor* input, const int* before, TfLiteTensor* output, T pad_value) {
  const int dims = NumDimensions(output);
  const int64_t out_count = NumElements(output);
  T* out = reinterpret_cast<T*>(output->data.raw);
  for (int64_t i = 0; i < out_count; ++i) out[i] = pad_value;
  if (NumElements(input) == 0) return;
  // Copies input rows (the last dimension) to their place in the output.
  int in_dims[kMaxDims], out_dims[kMaxDims], pre[kMaxDims];
  for (int d = 0; d < kMaxDims; ++d) {
    const int s = d - (kMaxDims - dims);
    in_dims[d] = s < 0 ? 1 : input->dims->data[s];
    out_dims[d] = s < 0 ? 1 : output->dims->data[s];
    pre[d] = s < 0 ? 0 : before[s];
  }
  const T* in = reinterpret_cast<const T*>(input->data.raw);
  const int row = in_dims[4];
  for (int a = 0; a < in_dims[0]; ++a)
    for (int b = 0; b < in_dims[1]; ++b)
      for (int c = 0; c < in_dims[2]; ++c)
        for (int e = 0; e < in_dims[3]; ++e) {
          const int64_t out_off =
              ((((static_cast<int64_t>(a + pre[0]) * out_dims[1] + b + pre[1]) * out_dims[2] + c +
                 pre[2]) *
                    out_dims[3] +
                e + pre[3]) *
               out_dims[4]) +
              pre[4];
          std::memcpy(out + out_off, in, row * sizeof(T));
          in += row;
        }
}

template <typename T>
TfLiteStatus PadTyped(TfLiteContext* context, const PadContext& c, const int* before) {
  T pad_value = 0;
  if (c.constant_values != nullptr) {
    pad_value = *reinterpret_cast<const T*>(c.constant_values->data.raw);
  } else if (c.input->type == kTfLiteUInt8 || c.input->type == kTfLiteInt8 ||
             c.input->type == kTfLiteInt16) {
    const int32_t zp = c.output->params.zero_point;
    TF_LITE_ENSURE(context, zp >= std::numeric_limits<T>::min());
    TF_LITE_ENSURE(context, zp <= std::numeric_limits<T>::max());
    pad_value = static_cast<T>(zp);
  }
  PadImpl<T>(c.input, before, c.output, pad_value);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  PadContext c(context, node);
  if (c.constant_values != nullptr) {
    TF_LITE_ENSURE_EQ(context, NumElements(c.constant_values), 1);
  }
  if (IsDynamicTensor(c.output)) TF_LITE_ENSURE_OK(context, ResizeOutput(context, c));
  int before[kMaxDims] = {0};
  for (int d = 0; d < NumDimensions(c.input); ++d) {
    before[d] = static_cast<int>(PaddingAt(c.paddings, 2 * d));
  }
  switch (c.input->type) {
    case kTfLiteFloat32:
      return PadTyped<float>(context, c, before);
    case kTfLiteUInt8:
      return PadTyped<uint8_t>(context, c, before);
    case kTfLiteInt8:
      return PadTyped<int8_t>(context, c, before);
    case kTfLiteInt16:
      return PadTyped<int16_t>(context, c, before);
    case kTfLiteInt32:
      return PadTyped<int32_t>(context, c, before);
    case kTfLiteInt64:
      return PadTyped<int64_t>(context, c, before);
    default:
      TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(c.input->type),
                         c.input->type);
      return kTfLiteError;
  }
}

}  // namespace
}  // namespace pad

TfLiteRegistration* Register_PAD() {
  static TfLiteRegistration r = {nullptr, nullptr, pad::Prepare, pad::Eval};
  return &r;
}

TfLiteRegistration* Register_PADV2() {
  static TfLiteRegistration r = {nullptr, nullptr, pad::Prepare, pad::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
