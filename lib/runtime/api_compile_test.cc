// A custom op written the way TFLite's custom-operator guide writes one, to
// prove that such sources compile unchanged against tflite-inspect's headers,
// then run through prepare/invoke with a hand-made TfLiteContext.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "catch2/catch.hpp"

// ---- The op, as a TFLite user would write it ----------------------------------
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace custom {
namespace square_act {

// out = activation(x * x); the activation comes from TfLiteMulParams when
// the node has builtin data.
constexpr int kInputTensor = 0;
constexpr int kOutputTensor = 0;

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);

  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kInputTensor, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context,
                    GetOutputSafe(context, node, kOutputTensor, &output));
  TF_LITE_ENSURE_TYPES_EQ(context, input->type, kTfLiteFloat32);
  output->type = input->type;

  TfLiteIntArray* output_size = TfLiteIntArrayCopy(input->dims);
  return context->ResizeTensor(context, output, output_size);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kInputTensor, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context,
                    GetOutputSafe(context, node, kOutputTensor, &output));

  float activation_min, activation_max;
  const auto* params = reinterpret_cast<TfLiteMulParams*>(node->builtin_data);
  CalculateActivationRange(params ? params->activation : kTfLiteActNone,
                           &activation_min, &activation_max);

  const float* input_data = GetTensorData<float>(input);
  float* output_data = GetTensorData<float>(output);
  const int64_t count = NumElements(input);
  for (int64_t i = 0; i < count; ++i) {
    const float value = input_data[i] * input_data[i];
    output_data[i] = std::min(std::max(value, activation_min), activation_max);
  }
  return kTfLiteOk;
}

}  // namespace square_act

TfLiteRegistration* Register_SQUARE_ACT() {
  // The guide's aggregate style leaves the trailing fields to zero-init;
  // -Wextra flags that style, so silence it here as upstream users would.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
  static TfLiteRegistration r = {nullptr, nullptr, square_act::Prepare,
                                 square_act::Eval};
#pragma GCC diagnostic pop
  r.builtin_code = kTfLiteBuiltinCustom;
  r.custom_name = "SquareAct";
  r.version = 1;
  return &r;
}

}  // namespace custom
}  // namespace ops
}  // namespace tflite

// ---- A minimal runtime for the test ----------------------------------------------
namespace {

struct FakeRuntime {
  std::vector<TfLiteTensor> tensors;
  std::vector<std::string> errors;
  TfLiteContext context = {};
};

void ReportError(TfLiteContext* context, const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  static_cast<FakeRuntime*>(context->impl_)->errors.emplace_back(buffer);
}

// Takes ownership of new_size, as TFLite's ResizeTensor does, and gives the
// tensor a fresh dynamic buffer.
TfLiteStatus ResizeTensor(TfLiteContext*, TfLiteTensor* tensor,
                          TfLiteIntArray* new_size) {
  TfLiteIntArrayFree(tensor->dims);
  tensor->dims = new_size;
  tensor->allocation_type = kTfLiteDynamic;
  const size_t bytes = static_cast<size_t>(tflite::NumElements(new_size)) *
                       tflite::TfLiteTypeGetSize(tensor->type);
  return TfLiteTensorRealloc(bytes, tensor);
}

TfLiteIntArray* IntArray(std::initializer_list<int> values) {
  TfLiteIntArray* a = TfLiteIntArrayCreate(static_cast<int>(values.size()));
  int i = 0;
  for (int v : values) a->data[i++] = v;
  return a;
}

void InitRuntime(FakeRuntime* rt, int num_tensors) {
  rt->tensors.assign(num_tensors, TfLiteTensor{});
  rt->context.tensors = rt->tensors.data();
  rt->context.tensors_size = rt->tensors.size();
  rt->context.impl_ = rt;
  rt->context.ReportError = ReportError;
  rt->context.ResizeTensor = ResizeTensor;
}

void FreeRuntime(FakeRuntime* rt) {
  // Frees dims and the dynamic output buffers; arena data is left alone.
  for (TfLiteTensor& t : rt->tensors) TfLiteTensorFree(&t);
}

}  // namespace

TEST_CASE("A TFLite-style custom op prepares and runs") {
  FakeRuntime rt;
  InitRuntime(&rt, 2);
  float input_values[6] = {-3.f, -1.f, 0.f, 0.5f, 2.f, 3.f};
  TfLiteTensor& input = rt.tensors[0];
  input.type = kTfLiteFloat32;
  input.dims = IntArray({2, 3});
  input.data.f = input_values;
  input.bytes = sizeof(input_values);
  input.allocation_type = kTfLiteArenaRw;
  rt.tensors[1].type = kTfLiteNoType;
  rt.tensors[1].allocation_type = kTfLiteArenaRw;

  TfLiteNode node = {};
  node.inputs = IntArray({0});
  node.outputs = IntArray({1});
  TfLiteMulParams params = {kTfLiteActRelu6};
  node.builtin_data = &params;

  TfLiteRegistration* reg = tflite::ops::custom::Register_SQUARE_ACT();
  CHECK(reg->init == nullptr);
  CHECK(reg->builtin_code == kTfLiteBuiltinCustom);
  CHECK(reg->inplace_operator == kTfLiteInplaceOpNone);
  REQUIRE(reg->prepare(&rt.context, &node) == kTfLiteOk);
  const TfLiteTensor& output = rt.tensors[1];
  CHECK(output.type == kTfLiteFloat32);
  CHECK(TfLiteIntArrayEqual(output.dims, input.dims) == 1);
  CHECK(output.bytes == sizeof(input_values));

  REQUIRE(reg->invoke(&rt.context, &node) == kTfLiteOk);
  const std::vector<float> got(output.data.f, output.data.f + 6);
  CHECK(got == std::vector<float>{6.f, 1.f, 0.f, 0.25f, 4.f, 6.f});
  CHECK(rt.errors.empty());

  TfLiteIntArrayFree(node.inputs);
  TfLiteIntArrayFree(node.outputs);
  FreeRuntime(&rt);
}

TEST_CASE("The op's checks report through the context") {
  FakeRuntime rt;
  InitRuntime(&rt, 2);
  rt.tensors[0].type = kTfLiteInt32;
  rt.tensors[0].dims = IntArray({1});
  TfLiteRegistration* reg = tflite::ops::custom::Register_SQUARE_ACT();

  TfLiteNode two_inputs = {};
  two_inputs.inputs = IntArray({0, 0});
  two_inputs.outputs = IntArray({1});
  CHECK(reg->prepare(&rt.context, &two_inputs) == kTfLiteError);
  REQUIRE(rt.errors.size() == 1);
  CHECK(rt.errors[0].find("NumInputs(node) != 1 (2 != 1)") !=
        std::string::npos);

  TfLiteNode wrong_type = {};
  wrong_type.inputs = IntArray({0});
  wrong_type.outputs = IntArray({1});
  CHECK(reg->prepare(&rt.context, &wrong_type) == kTfLiteError);
  REQUIRE(rt.errors.size() == 2);
  CHECK(rt.errors[1].find("input->type != kTfLiteFloat32 (INT32 != FLOAT32)") !=
        std::string::npos);

  TfLiteNode optional_input = {};
  optional_input.inputs = IntArray({kTfLiteOptionalTensor});
  optional_input.outputs = IntArray({1});
  CHECK(reg->prepare(&rt.context, &optional_input) == kTfLiteError);
  REQUIRE(rt.errors.size() == 3);
  CHECK(rt.errors[2] == "Tensor at index 0 was optional but was expected\n");

  for (TfLiteNode* n : {&two_inputs, &wrong_type, &optional_input}) {
    TfLiteIntArrayFree(n->inputs);
    TfLiteIntArrayFree(n->outputs);
  }
  FreeRuntime(&rt);
}
