// BROADCAST_ARGS (v1): the shape two shapes broadcast to (int32 or int64 vectors, right
// aligned: equal dimensions, or one of them 1), as TFLite's broadcast_args.cc; the output
// has the longer input's length. Shapes that do not broadcast fail Eval with both shapes.
#include <algorithm>
#include <cstdint>
#include <string>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace broadcast_args {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor *s0, *s1;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &s0));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &s1));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE(context, s0->type == kTfLiteInt32 || s0->type == kTfLiteInt64);
  TF_LITE_ENSURE_EQ(context, s0->type, s1->type);
  TF_LITE_ENSURE_EQ(context, NumDimensions(s0), 1);
  TF_LITE_ENSURE_EQ(context, NumDimensions(s1), 1);
  output->type = s0->type;
  TfLiteIntArray* dims = TfLiteIntArrayCreate(1);
  dims->data[0] = std::max(SizeOfDimension(s0, 0), SizeOfDimension(s1, 0));
  return context->ResizeTensor(context, output, dims);
}

template <typename T>
std::string ShapeText(const T* d, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

template <typename T>
TfLiteStatus Broadcast(TfLiteContext* context, const TfLiteTensor* s0, const TfLiteTensor* s1,
                       TfLiteTensor* output) {
  const T* a = reinterpret_cast<const T*>(s0->data.raw);
  const T* b = reinterpret_cast<const T*>(s1->data.raw);
  T* out = reinterpret_cast<T*>(output->data.raw);
  const int na = SizeOfDimension(s0, 0), nb = SizeOfDimension(s1, 0);
  const int n = std::max(na, nb);
  for (int i = 0; i < n; ++i) {  // from the right
    const T da = i < na ? a[na - 1 - i] : T(1), db = i < nb ? b[nb - 1 - i] : T(1);
    if (da != db && da != 1 && db != 1) {
      TF_LITE_KERNEL_LOG(context, "BROADCAST_ARGS: shapes %s and %s do not broadcast.",
                         ShapeText(a, na).c_str(), ShapeText(b, nb).c_str());
      return kTfLiteError;
    }
    out[n - 1 - i] = da == 1 ? db : da;
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* s0 = GetInput(context, node, 0);
  const TfLiteTensor* s1 = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (s0->type == kTfLiteInt32) return Broadcast<int32_t>(context, s0, s1, output);
  return Broadcast<int64_t>(context, s0, s1, output);
}

}  // namespace
}  // namespace broadcast_args

TfLiteRegistration* Register_BROADCAST_ARGS() {
  static TfLiteRegistration r = {nullptr, nullptr, broadcast_args::Prepare, broadcast_args::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
