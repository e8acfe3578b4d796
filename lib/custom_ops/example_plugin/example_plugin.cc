// An example custom-op plugin for `--custom_op_library` (docs/custom_ops.md): one op,
// "ExampleTwice" v1, float32 out = 2 * in, same shape.
//
// Built against the runtime's headers only, never its library: the one runtime symbol
// it uses, tflite::MutableOpResolver::AddCustom, comes from the process that loads it
// (tools and tests that load plugins export their symbols). The kernel itself reaches
// the runtime only through TfLiteContext's function pointers (ReportError), so it does
// not depend on inline helpers that call into the runtime.
#include <cstdint>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/mutable_op_resolver.h"

namespace {

int64_t ElementCount(const TfLiteIntArray* dims) {
  int64_t n = 1;
  for (int i = 0; i < dims->size; ++i) n *= dims->data[i];
  return n;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  if (node->inputs->size != 1 || node->outputs->size != 1) {
    context->ReportError(context, "ExampleTwice: expected 1 input and 1 output, got %d and %d",
                         node->inputs->size, node->outputs->size);
    return kTfLiteError;
  }
  const TfLiteTensor& in = context->tensors[node->inputs->data[0]];
  const TfLiteTensor& out = context->tensors[node->outputs->data[0]];
  if (in.type != kTfLiteFloat32 || out.type != kTfLiteFloat32) {
    context->ReportError(context, "ExampleTwice: only float32 is supported (got types %d, %d)",
                         in.type, out.type);
    return kTfLiteError;
  }
  // The output keeps the shape the model declares; it must match the input's size.
  if (ElementCount(in.dims) != ElementCount(out.dims)) {
    context->ReportError(context, "ExampleTwice: output size differs from input size");
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor& in = context->tensors[node->inputs->data[0]];
  TfLiteTensor& out = context->tensors[node->outputs->data[0]];
  const int64_t n = ElementCount(in.dims);
  for (int64_t i = 0; i < n; ++i) out.data.f[i] = 2.f * in.data.f[i];
  return kTfLiteOk;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) TfLiteStatus TfliteInspectRegisterCustomOps(
    tflite::MutableOpResolver* resolver) {
  if (resolver == nullptr) return kTfLiteError;
  static TfLiteRegistration twice = {nullptr, nullptr, Prepare, Eval};
  resolver->AddCustom("ExampleTwice", &twice, /*version=*/1);
  return kTfLiteOk;
}
