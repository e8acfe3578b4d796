// Interpreter mechanics, tested with small custom kernels defined here: resolution and
// its errors, arena planning, constant folding, resizing, dynamic tensors, variables,
// profiling. Builtin kernels have their own tests beside them.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "runtime/thread_pool.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/interpreter_options.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/mutable_op_resolver.h"

namespace {

using tflite_inspect::ModelBuilder;

class CapturingReporter : public tflite::ErrorReporter {
 public:
  using tflite::ErrorReporter::Report;
  int Report(const char* format, va_list args) override {
    char buf[4096];
    int n = std::vsnprintf(buf, sizeof buf, format, args);
    text += buf;
    text += "\n";
    return n;
  }
  std::string text;
};

int g_twice_invocations = 0;

// out = 2 * in (float), output shaped like the input.
TfLiteStatus TwicePrepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* in = tflite::GetInput(context, node, 0);
  TfLiteTensor* out = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_TYPES_EQ(context, in->type, kTfLiteFloat32);
  return context->ResizeTensor(context, out, TfLiteIntArrayCopy(in->dims));
}
TfLiteStatus TwiceInvoke(TfLiteContext* context, TfLiteNode* node) {
  ++g_twice_invocations;
  const TfLiteTensor* in = tflite::GetInput(context, node, 0);
  TfLiteTensor* out = tflite::GetOutput(context, node, 0);
  for (size_t i = 0; i < in->bytes / sizeof(float); ++i) out->data.f[i] = 2 * in->data.f[i];
  return kTfLiteOk;
}
TfLiteRegistration* RegisterTwice() {
  static TfLiteRegistration r = {nullptr, nullptr, TwicePrepare, TwiceInvoke};
  return &r;
}

// Output 0 gets as many elements as the value of input 0 says: a shape known only at
// run time, so the output is dynamic.
TfLiteStatus IotaPrepare(TfLiteContext* context, TfLiteNode* node) {
  tflite::SetTensorToDynamic(tflite::GetOutput(context, node, 0));
  return kTfLiteOk;
}
TfLiteStatus IotaInvoke(TfLiteContext* context, TfLiteNode* node) {
  const int n = static_cast<int>(tflite::GetInput(context, node, 0)->data.f[0]);
  TfLiteTensor* out = tflite::GetOutput(context, node, 0);
  TfLiteIntArray* dims = TfLiteIntArrayCreate(1);
  dims->data[0] = n;
  TF_LITE_ENSURE_STATUS(context->ResizeTensor(context, out, dims));
  for (int i = 0; i < n; ++i) out->data.f[i] = static_cast<float>(i);
  return kTfLiteOk;
}
TfLiteRegistration* RegisterIota() {
  static TfLiteRegistration r = {nullptr, nullptr, IotaPrepare, IotaInvoke};
  return &r;
}

// A chain in -> Twice -> t1 -> Twice -> ... -> out of `length` nodes.
std::vector<uint8_t> TwiceChain(int length, std::vector<int32_t> shape) {
  ModelBuilder b;
  int prev = b.AddTensor(tflite::TensorType_FLOAT32, shape, "in");
  b.SetInputs({prev});
  for (int i = 0; i < length; ++i) {
    int next = b.AddTensor(tflite::TensorType_FLOAT32, shape, "t" + std::to_string(i));
    b.AddCustomOperator("Twice", {prev}, {next});
    prev = next;
  }
  b.SetOutputs({prev});
  return b.Build();
}

struct Built {
  std::vector<uint8_t> bytes;
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::Interpreter> interpreter;
  TfLiteStatus status;
};

Built Build(std::vector<uint8_t> bytes, const tflite::OpResolver& resolver,
            tflite::ErrorReporter* reporter) {
  Built b;
  b.bytes = std::move(bytes);
  b.model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(b.bytes.data()),
                                                     b.bytes.size(), reporter);
  REQUIRE(b.model != nullptr);
  b.status = tflite::InterpreterBuilder(*b.model, resolver, reporter)(&b.interpreter);
  return b;
}

tflite::MutableOpResolver TestResolver() {
  tflite::MutableOpResolver r;
  r.AddCustom("Twice", RegisterTwice());
  r.AddCustom("Iota", RegisterIota());
  return r;
}

}  // namespace

TEST_CASE("a chain of custom kernels runs") {
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(TwiceChain(3, {1, 4}), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  tflite::Interpreter& interp = *b.interpreter;
  CHECK(interp.nodes_size() == 3);
  CHECK(interp.execution_plan() == std::vector<int>{0, 1, 2});
  REQUIRE(interp.AllocateTensors() == kTfLiteOk);
  float* in = interp.typed_input_tensor<float>(0);
  for (int i = 0; i < 4; ++i) in[i] = static_cast<float>(i + 1);
  REQUIRE(interp.Invoke() == kTfLiteOk);
  const float* out = interp.typed_output_tensor<float>(0);
  for (int i = 0; i < 4; ++i) CHECK(out[i] == 8.0f * (i + 1));
  CHECK(std::string(interp.GetInputName(0)) == "in");
}

TEST_CASE("the arena reuses memory of tensors whose lifetimes do not overlap") {
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(TwiceChain(8, {1, 1000}), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  // 9 tensors of 4000 bytes; input and output live throughout, and each intermediate
  // only across two nodes, so three or four buffers suffice.
  CHECK(b.interpreter->arena_bytes() <= 4 * 4032);
  CHECK(b.interpreter->arena_bytes() >= 3 * 4000);
  float* in = b.interpreter->typed_input_tensor<float>(0);
  for (int i = 0; i < 1000; ++i) in[i] = 1.0f;
  REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
  CHECK(b.interpreter->typed_output_tensor<float>(0)[999] == 256.0f);
}

TEST_CASE("a missing builtin fails the build with TFLite's message and lists every miss") {
  ModelBuilder mb;
  int a = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "a");
  int c = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "c");
  int d = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "d");
  int e = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "e");
  mb.AddOperator(tflite::BuiltinOperator_ADD, {a, a}, {c}, {}, 2);
  mb.AddOperator(tflite::BuiltinOperator_MUL, {c, c}, {d});
  mb.AddCustomOperator("Twice", {d}, {e});
  mb.SetInputs({a});
  mb.SetOutputs({e});
  CapturingReporter reporter;
  tflite::MutableOpResolver resolver = TestResolver();
  resolver.AddBuiltin(tflite::BuiltinOperator_ADD, RegisterTwice(), 1, 1);
  Built b = Build(mb.Build(), resolver, &reporter);
  CHECK(b.status == kTfLiteError);
  CHECK(b.interpreter == nullptr);
  CHECK_THAT(reporter.text, Catch::Contains("Didn't find op for builtin opcode 'ADD' version '2'. "
                                            "An older version of this builtin might be supported."));
  CHECK_THAT(reporter.text, Catch::Contains("ADD v2: version not supported (registered v1); node 0"));
  CHECK_THAT(reporter.text, Catch::Contains("MUL v1: op not implemented; node 1"));
}

TEST_CASE("every unresolved custom op left on the CPU is named, with its node, in one message") {
  ModelBuilder mb;
  int a = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "a");
  int c = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "c");
  int d = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "d");
  int e = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "e");
  mb.AddCustomOperator("FirstMissing", {a}, {c});
  mb.AddCustomOperator("Twice", {c}, {d});
  mb.AddCustomOperator("SecondMissing", {d}, {e});
  mb.SetInputs({a});
  mb.SetOutputs({e});
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(mb.Build(), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  CHECK(b.interpreter->AllocateTensors() == kTfLiteError);
  CHECK_THAT(reporter.text, Catch::Contains("Encountered unresolved custom op: FirstMissing."));
  CHECK_THAT(reporter.text,
             Catch::Contains("Unresolved custom ops in subgraph 0: 2 nodes: 0 (FirstMissing), "
                             "2 (SecondMissing)"));
}

TEST_CASE("an unresolved custom op fails at prepare, naming the op and the node") {
  ModelBuilder mb;
  int a = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "a");
  int c = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "c");
  int d = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "d");
  mb.AddCustomOperator("Twice", {a}, {c});
  mb.AddCustomOperator("MyMissingOp", {c}, {d});
  mb.SetInputs({a});
  mb.SetOutputs({d});
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(mb.Build(), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  CHECK(b.interpreter->AllocateTensors() == kTfLiteError);
  CHECK_THAT(reporter.text, Catch::Contains("Encountered unresolved custom op: MyMissingOp."));
  CHECK_THAT(reporter.text, Catch::Contains("Node number 1 (MyMissingOp) failed to prepare."));
  CHECK(b.interpreter->Invoke() == kTfLiteError);
  CHECK_THAT(reporter.text, Catch::Contains("Invoke called on model that is not ready."));
}

TEST_CASE("nodes whose inputs are all constant run once, at AllocateTensors") {
  ModelBuilder mb;
  int w = mb.AddConstTensor<float>(tflite::TensorType_FLOAT32, {3}, {1, 2, 3}, "w");
  int w2 = mb.AddTensor(tflite::TensorType_FLOAT32, {3}, "w2");
  int in = mb.AddTensor(tflite::TensorType_FLOAT32, {3}, "in");
  int out = mb.AddTensor(tflite::TensorType_FLOAT32, {3}, "out");
  mb.AddCustomOperator("Twice", {w}, {w2});
  mb.AddCustomOperator("Twice", {in}, {out});
  mb.SetInputs({in});
  mb.SetOutputs({out, w2});
  CapturingReporter reporter;
  auto resolver = TestResolver();
  // A custom op and a node feeding a graph output: neither is folded.
  Built b = Build(mb.Build(), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  CHECK_FALSE(b.interpreter->primary_subgraph().is_folded(0));

  // Folding applies to builtin ops only (a custom op may be stateful), so the test
  // kernel stands in for a builtin here.
  resolver.AddBuiltin(tflite::BuiltinOperator_NEG, RegisterTwice());
  ModelBuilder mb2;
  int cw = mb2.AddConstTensor<float>(tflite::TensorType_FLOAT32, {3}, {1, 2, 3}, "w");
  int cw2 = mb2.AddTensor(tflite::TensorType_FLOAT32, {3}, "w2");
  int cout = mb2.AddTensor(tflite::TensorType_FLOAT32, {3}, "out");
  mb2.AddOperator(tflite::BuiltinOperator_NEG, {cw}, {cw2});
  mb2.AddOperator(tflite::BuiltinOperator_NEG, {cw2}, {cout});
  mb2.SetInputs({});
  mb2.SetOutputs({cout});
  Built b2 = Build(mb2.Build(), resolver, &reporter);
  REQUIRE(b2.status == kTfLiteOk);
  g_twice_invocations = 0;
  REQUIRE(b2.interpreter->AllocateTensors() == kTfLiteOk);
  CHECK(b2.interpreter->primary_subgraph().is_folded(0));
  CHECK_FALSE(b2.interpreter->primary_subgraph().is_folded(1));  // feeds a graph output
  CHECK(g_twice_invocations == 1);
  REQUIRE(b2.interpreter->Invoke() == kTfLiteOk);
  REQUIRE(b2.interpreter->Invoke() == kTfLiteOk);
  CHECK(g_twice_invocations == 3);
  CHECK(b2.interpreter->typed_output_tensor<float>(0)[2] == 12.0f);
  CHECK(b2.interpreter->tensor(cw2)->allocation_type == kTfLitePersistentRo);
}

// A bool constant whose bytes are not 0 or 1 (a crafted file; an invoke_fuzzer finding in
// ONE_HOT): read as bools it is undefined behaviour in any kernel, so the builder hands
// kernels the bytes as 0 / 1 (non-zero is true).
TEST_CASE("bool constants holding bytes other than 0 and 1 reach kernels as 0 / 1") {
  ModelBuilder mb;
  const int c = mb.AddConstTensorBytes(tflite::TensorType_BOOL, {4}, {0, 254, 1, 2}, "c");
  const int in = mb.AddTensor(tflite::TensorType_BOOL, {4}, "in");
  const int out = mb.AddTensor(tflite::TensorType_BOOL, {4}, "out");
  mb.AddOperator(tflite::BuiltinOperator_LOGICAL_AND, {in, c}, {out});
  mb.SetInputs({in});
  mb.SetOutputs({out});
  tflite::ops::builtin::BuiltinOpResolver resolver;
  CapturingReporter reporter;
  Built b = Build(mb.Build(), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  const auto* bytes = reinterpret_cast<const uint8_t*>(b.interpreter->tensor(c)->data.raw);
  CHECK(std::vector<uint8_t>(bytes, bytes + 4) == std::vector<uint8_t>{0, 1, 1, 1});
  bool* x = b.interpreter->typed_input_tensor<bool>(0);
  for (int i = 0; i < 4; ++i) x[i] = true;
  REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
  const bool* y = b.interpreter->typed_output_tensor<bool>(0);
  CHECK(std::vector<bool>(y, y + 4) == std::vector<bool>{false, true, true, true});
}

TEST_CASE("ResizeInputTensor re-plans shapes and memory") {
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(TwiceChain(2, {1, 2}), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  tflite::Interpreter& interp = *b.interpreter;
  REQUIRE(interp.AllocateTensors() == kTfLiteOk);
  REQUIRE(interp.ResizeInputTensor(interp.inputs()[0], {3, 2}) == kTfLiteOk);
  CHECK(interp.Invoke() == kTfLiteError);  // must allocate first
  REQUIRE(interp.AllocateTensors() == kTfLiteOk);
  const TfLiteTensor* out = interp.output_tensor(0);
  REQUIRE(out->dims->size == 2);
  CHECK(out->dims->data[0] == 3);
  float* in = interp.typed_input_tensor<float>(0);
  for (int i = 0; i < 6; ++i) in[i] = static_cast<float>(i);
  REQUIRE(interp.Invoke() == kTfLiteOk);
  CHECK(interp.typed_output_tensor<float>(0)[5] == 20.0f);
  CHECK(interp.ResizeInputTensor(interp.outputs()[0], {1}) == kTfLiteError);
  CHECK_THAT(reporter.text, Catch::Contains("is not an input"));
}

namespace {

// n -> Iota -> seq (dynamic: as long as n says) -> Twice -> out; tensors 0, 1, 2.
std::vector<uint8_t> IotaTwiceModel() {
  ModelBuilder mb;
  int n = mb.AddTensor(tflite::TensorType_FLOAT32, {1}, "n");
  int seq = mb.AddTensor(tflite::TensorType_FLOAT32, {0}, "seq");
  int out = mb.AddTensor(tflite::TensorType_FLOAT32, {0}, "out");
  mb.AddCustomOperator("Iota", {n}, {seq});
  mb.AddCustomOperator("Twice", {seq}, {out});
  mb.SetInputs({n});
  mb.SetOutputs({out});
  return mb.Build();
}

}  // namespace

TEST_CASE("a dynamic output is sized at run time and later nodes are re-prepared") {
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(IotaTwiceModel(), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  for (int len : {5, 2, 7}) {
    b.interpreter->typed_input_tensor<float>(0)[0] = static_cast<float>(len);
    REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
    const TfLiteTensor* o = b.interpreter->output_tensor(0);
    REQUIRE(o->dims->data[0] == len);
    CHECK(o->data.f[len - 1] == 2.0f * (len - 1));
  }
}

TEST_CASE("released dynamic tensors: freed after their last use, every Invoke") {
  const std::vector<uint8_t> bytes = IotaTwiceModel();
  const int n = 0, seq = 1;
  for (const bool release : {false, true}) {
    CAPTURE(release);
    CapturingReporter reporter;
    auto resolver = TestResolver();
    auto model = tflite::FlatBufferModel::BuildFromBuffer(
        reinterpret_cast<const char*>(bytes.data()), bytes.size(), &reporter);
    REQUIRE(model != nullptr);
    tflite::InterpreterOptions options;
    options.SetEnsureDynamicTensorsAreReleased(release);
    std::unique_ptr<tflite::Interpreter> interp;
    REQUIRE(tflite::InterpreterBuilder(*model, resolver, &options)(&interp) == kTfLiteOk);
    REQUIRE(interp->AllocateTensors() == kTfLiteOk);
    for (int len : {5, 2, 7, 7}) {
      interp->typed_input_tensor<float>(0)[0] = static_cast<float>(len);
      REQUIRE(interp->Invoke() == kTfLiteOk);
      const TfLiteTensor* o = interp->output_tensor(0);
      REQUIRE(o->dims->data[0] == len);
      for (int i = 0; i < len; ++i) CHECK(o->data.f[i] == 2.0f * i);
      CHECK(interp->tensor(seq)->allocation_type == kTfLiteDynamic);
      CHECK((interp->tensor(seq)->data.raw == nullptr) == release);
      CHECK(interp->tensor(n)->data.raw != nullptr);  // subgraph inputs keep theirs
    }
  }
}

TEST_CASE("control flow that calls back into a subgraph being prepared is refused, not recursed") {
  // Built through the API, past the loader's call-cycle check: subgraph 0's CALL_ONCE
  // runs subgraph 1, whose CALL_ONCE runs subgraph 0 again. Each subgraph prepares its
  // callee in Prepare, so without the guard this recursed until the stack overflowed.
  CapturingReporter reporter;
  tflite::Interpreter interp(&reporter);
  interp.AddSubgraphs(1);
  for (int s = 0; s < 2; ++s) {
    auto* params = static_cast<TfLiteCallOnceParams*>(std::malloc(sizeof(TfLiteCallOnceParams)));
    params->init_subgraph_index = 1 - s;
    REQUIRE(interp.subgraph(s)->AddNodeWithParameters(
                {}, {}, {}, nullptr, 0, params, tflite::ops::builtin::Register_CALL_ONCE()) ==
            kTfLiteOk);
  }
  CHECK(interp.AllocateTensors() != kTfLiteOk);
  CHECK_THAT(reporter.text, Catch::Contains("AllocateTensors of subgraph 0 re-entered: the "
                                            "model's control flow calls the subgraph from itself"));
}

TEST_CASE("SetAllowFp16PrecisionForFp32 sets every subgraph's context flag") {
  tflite::Interpreter interp;
  interp.AddSubgraphs(1);
  CHECK_FALSE(interp.GetAllowFp16PrecisionForFp32());
  interp.SetAllowFp16PrecisionForFp32(true);
  interp.AddSubgraphs(1);  // a subgraph added later follows too
  CHECK(interp.GetAllowFp16PrecisionForFp32());
  for (int i = 0; i < 3; ++i) CHECK(interp.subgraph(i)->context()->allow_fp32_relax_to_fp16);
  interp.SetAllowFp16PrecisionForFp32(false);
  for (int i = 0; i < 3; ++i) CHECK_FALSE(interp.subgraph(i)->context()->allow_fp32_relax_to_fp16);
}

TEST_CASE("variable tensors persist and reset to zero") {
  ModelBuilder mb;
  int v = mb.AddVariableTensor(tflite::TensorType_FLOAT32, {2}, "state");
  int out = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "out");
  mb.AddCustomOperator("Twice", {v}, {out});
  mb.SetInputs({});
  mb.SetOutputs({out});
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(mb.Build(), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  CHECK(b.interpreter->variables() == std::vector<int>{v});
  TfLiteTensor* state = b.interpreter->tensor(v);
  CHECK(state->allocation_type == kTfLiteArenaRwPersistent);
  state->data.f[1] = 3.0f;
  REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
  CHECK(b.interpreter->typed_output_tensor<float>(0)[1] == 6.0f);
  REQUIRE(b.interpreter->ResetVariableTensors() == kTfLiteOk);
  CHECK(state->data.f[1] == 0.0f);
}

TEST_CASE("the profiler sees one event per invoked node") {
  struct CountingProfiler : tflite::Profiler {
    uint32_t BeginEvent(const char* tag, EventType type, int64_t node, int64_t) override {
      tags += std::string(tag) + "#" + std::to_string(node) + " ";
      CHECK(type == EventType::OPERATOR_INVOKE_EVENT);
      return 7;
    }
    void EndEvent(uint32_t handle) override { ends += handle == 7; }
    std::string tags;
    int ends = 0;
  } profiler;
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(TwiceChain(2, {1}), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  b.interpreter->SetProfiler(&profiler);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
  CHECK(profiler.tags == "Twice#0 Twice#1 ");
  CHECK(profiler.ends == 2);
}

// Found by invoke_fuzzer: L2_POOL_2D over 3 x 67,108,880 x 131,072 pixels of 0 channels
// looped over every pixel for hours (TFLite's kernel would too). Its output has no
// elements, so the kernel is not called: no profiler event, an instant Invoke.
TEST_CASE("a builtin node whose outputs are all empty is not invoked") {
  struct CountingProfiler : tflite::Profiler {
    uint32_t BeginEvent(const char* tag, EventType, int64_t, int64_t) override {
      tags += std::string(tag) + " ";
      return 1;
    }
    void EndEvent(uint32_t) override {}
    std::string tags;
  } profiler;
  ModelBuilder mb;
  const int in = mb.AddTensor(tflite::TensorType_FLOAT32, {3, 67108880, 131072, 0}, "in");
  const int pooled = mb.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 2}, "pooled");
  const int x = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "x");
  const int y = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "y");
  tflite::Pool2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_w = o.stride_h = 1;
  o.filter_width = o.filter_height = 1;
  mb.AddOperator(tflite::BuiltinOperator_L2_POOL_2D, {in}, {pooled}, tflite_inspect::Options(o));
  mb.AddOperator(tflite::BuiltinOperator_RELU, {x}, {y});
  mb.SetInputs({in, x});
  mb.SetOutputs({pooled, y});
  tflite::ops::builtin::BuiltinOpResolver resolver;
  CapturingReporter reporter;
  Built b = Build(mb.Build(), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  b.interpreter->SetProfiler(&profiler);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  CHECK(b.interpreter->output_tensor(0)->bytes == 0);
  b.interpreter->typed_input_tensor<float>(1)[0] = -1;
  b.interpreter->typed_input_tensor<float>(1)[1] = 2;
  REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
  CHECK(profiler.tags == "RELU ");
  CHECK(b.interpreter->typed_output_tensor<float>(1)[1] == 2);
}

TEST_CASE("threads: SetNumThreads validates and reaches the context") {
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(TwiceChain(1, {1}), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  CHECK(b.interpreter->SetNumThreads(-2) == kTfLiteError);
  CHECK(reporter.text.find("num_threads should be >= 0 or just -1") != std::string::npos);
  CHECK(b.interpreter->SetNumThreads(0) == kTfLiteOk);  // TFLite: 0 means one thread
  CHECK(b.interpreter->num_threads() == 1);
  const int cpus = tflite::thread_pool::AvailableCpus();
  REQUIRE(b.interpreter->SetNumThreads(2) == kTfLiteOk);
  CHECK(b.interpreter->primary_subgraph().context()->recommended_num_threads == 2);
  CHECK((b.interpreter->primary_subgraph().thread_pool() != nullptr) == (cpus >= 2));
  // More threads than CPUs: the pool has one per CPU; num_threads() says what was asked.
  REQUIRE(b.interpreter->SetNumThreads(cpus + 2) == kTfLiteOk);
  CHECK(b.interpreter->num_threads() == cpus + 2);
  CHECK(pthreadpool_get_threads_count(b.interpreter->primary_subgraph().thread_pool()) ==
        static_cast<size_t>(cpus));
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  CHECK(b.interpreter->Invoke() == kTfLiteOk);
}

TEST_CASE("models TFLite refuses are refused with TFLite's reason") {
  ModelBuilder mb;
  tflite_inspect::QuantSpec q{{0.5f}, {0}, 3};  // quantized_dimension beyond rank 1
  int a = mb.AddTensor(tflite::TensorType_INT8, {4}, "a", &q);
  mb.SetInputs({a});
  mb.SetOutputs({a});
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(mb.Build(), resolver, &reporter);
  CHECK(b.status == kTfLiteError);
  CHECK_THAT(reporter.text, Catch::Contains("quantized_dimension must be in range [0, 1). Was 3."));
}

TEST_CASE("preparation stops after a dynamic output, the nodes after it are prepared in Invoke") {
  // x [2,6] -SLICE(begin 0, size = input)-> y (declared [1,1], as converters write -1s)
  // -CONCATENATION(axis 0, c [1,4])-> out. Prepared together with y's declared shape the
  // concatenation would refuse [1,1] next to [1,4]; TFLite prepares it after SLICE ran.
  ModelBuilder mb;
  const auto f32 = tflite::TensorType_FLOAT32, i32 = tflite::TensorType_INT32;
  const int x = mb.AddTensor(f32, {2, 6}, "x");
  const int size = mb.AddTensor(i32, {2}, "size");
  const int begin = mb.AddConstTensor<int32_t>(i32, {2}, {0, 1}, "begin");
  const int y = mb.AddTensor(f32, {1, 1}, "y");
  const int c = mb.AddConstTensor<float>(f32, {1, 4}, {9, 9, 9, 9}, "c");
  const int out = mb.AddTensor(f32, {3, 4}, "out");
  mb.AddOperator(tflite::BuiltinOperator_SLICE, {x, begin, size}, {y},
                 tflite_inspect::Options(tflite::SliceOptionsT()));
  tflite::ConcatenationOptionsT co;
  co.axis = 0;
  mb.AddOperator(tflite::BuiltinOperator_CONCATENATION, {y, c}, {out}, tflite_inspect::Options(co));
  mb.SetInputs({x, size});
  mb.SetOutputs({out});
  CapturingReporter reporter;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  Built b = Build(mb.Build(), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  const TfLiteStatus allocated = b.interpreter->AllocateTensors();
  INFO(reporter.text);
  REQUIRE(allocated == kTfLiteOk);
  float* in = b.interpreter->typed_input_tensor<float>(0);
  for (int i = 0; i < 12; ++i) in[i] = static_cast<float>(i);
  int32_t* sz = b.interpreter->typed_input_tensor<int32_t>(1);
  sz[0] = 2;
  sz[1] = 4;
  REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
  const TfLiteTensor* o = b.interpreter->output_tensor(0);
  REQUIRE(o->dims->size == 2);
  CHECK(o->dims->data[0] == 3);
  CHECK(o->dims->data[1] == 4);
  CHECK(std::vector<float>(o->data.f, o->data.f + 12) ==
        std::vector<float>{1, 2, 3, 4, 7, 8, 9, 10, 9, 9, 9, 9});
}

TEST_CASE("shape arithmetic folds at prepare, so the RESHAPE after it is static") {
  // x [2,3,4] -SHAPE-> s -STRIDED_SLICE [0:1]-> n; PACK(n, 12) -> shape; RESHAPE(x, shape).
  ModelBuilder mb;
  const auto f32 = tflite::TensorType_FLOAT32, i32 = tflite::TensorType_INT32;
  const int x = mb.AddTensor(f32, {2, 3, 4}, "x");
  const int s = mb.AddTensor(i32, {3}, "s");
  tflite::ShapeOptionsT sho;
  sho.out_type = tflite::TensorType_INT32;
  mb.AddOperator(tflite::BuiltinOperator_SHAPE, {x}, {s}, tflite_inspect::Options(sho));
  const int b0 = mb.AddConstTensor<int32_t>(i32, {1}, {0}, "b0");
  const int e1 = mb.AddConstTensor<int32_t>(i32, {1}, {1}, "e1");
  const int one = mb.AddConstTensor<int32_t>(i32, {1}, {1}, "one");
  const int n = mb.AddTensor(i32, {}, "n");
  tflite::StridedSliceOptionsT so;
  so.shrink_axis_mask = 1;
  mb.AddOperator(tflite::BuiltinOperator_STRIDED_SLICE, {s, b0, e1, one}, {n}, tflite_inspect::Options(so));
  const int twelve = mb.AddConstTensor<int32_t>(i32, {}, {12}, "twelve");
  const int shape = mb.AddTensor(i32, {2}, "shape");
  tflite::PackOptionsT po;
  po.values_count = 2;
  mb.AddOperator(tflite::BuiltinOperator_PACK, {n, twelve}, {shape}, tflite_inspect::Options(po));
  const int y = mb.AddTensor(f32, {2, 12}, "y");
  mb.AddOperator(tflite::BuiltinOperator_RESHAPE, {x, shape}, {y},
                 tflite_inspect::Options(tflite::ReshapeOptionsT()));
  mb.SetInputs({x});
  mb.SetOutputs({y});
  CapturingReporter reporter;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  Built b = Build(mb.Build(), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  const TfLiteStatus allocated = b.interpreter->AllocateTensors();
  INFO(reporter.text);
  REQUIRE(allocated == kTfLiteOk);
  CHECK(b.interpreter->tensor(shape)->allocation_type == kTfLitePersistentRo);
  CHECK(b.interpreter->tensor(y)->allocation_type != kTfLiteDynamic);
  CHECK(b.interpreter->primary_subgraph().is_folded(2));  // PACK
  float* in = b.interpreter->typed_input_tensor<float>(0);
  for (int i = 0; i < 24; ++i) in[i] = static_cast<float>(i);
  REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
  CHECK(b.interpreter->typed_output_tensor<float>(0)[23] == 23.0f);
}

TEST_CASE("an op version of 2^31-1 is a resolver miss, not an endless lookup") {
  ModelBuilder mb;
  const int a = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "a");
  const int c = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "c");
  const int d = mb.AddTensor(tflite::TensorType_FLOAT32, {2}, "d");
  mb.AddOperator(tflite::BuiltinOperator_ADD, {a, a}, {c}, {}, 2147483647);
  mb.AddCustomOperator("Twice", {c}, {d}, {}, 2147483647);
  mb.SetInputs({a});
  mb.SetOutputs({d});
  CapturingReporter reporter;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  Built b = Build(mb.Build(), resolver, &reporter);
  CHECK(b.status == kTfLiteError);
  CHECK_THAT(reporter.text, Catch::Contains("ADD v2147483647: version not supported"));
}

TEST_CASE("resource limits: a memory limit refuses the arena with the size it needed") {
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(TwiceChain(2, {1, 1000}), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  CHECK(b.interpreter->memory_limit() > 0);  // the machine's memory by default
  b.interpreter->SetMemoryLimit(6000);
  // 3 tensors of 4000 bytes, input and output live throughout: 12032 bytes of arena.
  CHECK(b.interpreter->AllocateTensors() == kTfLiteError);
  CHECK_THAT(reporter.text, Catch::Contains("the tensor arena of subgraph 0 needs 12"));
  CHECK_THAT(reporter.text, Catch::Contains("more than the memory limit of 6000 bytes"));
  b.interpreter->SetMemoryLimit(0);  // no limit
  CHECK(b.interpreter->AllocateTensors() == kTfLiteOk);
}

TEST_CASE("resource limits: a single tensor over the limit is refused by name") {
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(TwiceChain(1, {1, 1000}), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  b.interpreter->SetMemoryLimit(6000);
  CHECK(b.interpreter->ResizeInputTensor(b.interpreter->inputs()[0], {1, 2000}) == kTfLiteError);
  CHECK_THAT(reporter.text, Catch::Contains("tensor 'in' needs 8000 bytes (0.0 MiB), more than "
                                            "the memory limit of 6000 bytes"));
}

TEST_CASE("resource limits: tensors over a limit set after building fail before any prepare") {
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(TwiceChain(1, {1, 1000}), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  b.interpreter->SetMemoryLimit(3000);  // the model's 4000-byte tensors were made before
  CHECK(b.interpreter->AllocateTensors() == kTfLiteError);
  CHECK_THAT(reporter.text, Catch::Contains("tensor 'in' needs 4000 bytes"));
  CHECK_THAT(reporter.text, !Catch::Contains("failed to prepare"));
}

TEST_CASE("resource limits: the limit is on what is allocated in all, and can be shared") {
  auto resolver = TestResolver();
  CapturingReporter ra, rb;
  Built a = Build(TwiceChain(2, {1, 1000}), resolver, &ra);
  Built b = Build(TwiceChain(2, {1, 1000}), resolver, &rb);
  REQUIRE(a.status == kTfLiteOk);
  REQUIRE(b.status == kTfLiteOk);
  CHECK(a.interpreter->AllocatedBytes() == 0);
  a.interpreter->SetMemoryLimit(20000);
  // Allocating again, or after a resize back and forth, counts the arena once.
  for (int i = 0; i < 3; ++i) REQUIRE(a.interpreter->AllocateTensors() == kTfLiteOk);
  const size_t arena = a.interpreter->AllocatedBytes();  // the arena, with its padding
  CHECK(arena >= a.interpreter->primary_subgraph().arena_bytes());
  CHECK(arena > 12000);
  REQUIRE(a.interpreter->ResizeInputTensor(a.interpreter->inputs()[0], {1, 500}) == kTfLiteOk);
  REQUIRE(a.interpreter->AllocateTensors() == kTfLiteOk);
  REQUIRE(a.interpreter->ResizeInputTensor(a.interpreter->inputs()[0], {1, 1000}) == kTfLiteOk);
  REQUIRE(a.interpreter->AllocateTensors() == kTfLiteOk);
  CHECK(a.interpreter->AllocatedBytes() == arena);
  // Each arena fits alone; the two together do not.
  b.interpreter->ShareMemoryLimitWith(a.interpreter.get());
  CHECK(b.interpreter->memory_limit() == 20000);
  CHECK(b.interpreter->AllocateTensors() == kTfLiteError);
  const size_t wanted = b.interpreter->primary_subgraph().arena_bytes();  // without padding
  CHECK_THAT(rb.text, Catch::Contains(
                          "the tensor arena of subgraph 0 needs " + std::to_string(wanted) +
                          " bytes (0.0 MiB) more; with the " + std::to_string(arena) +
                          " bytes (0.0 MiB) already allocated by the interpreters that share "
                          "the limit, that is over the memory limit of 20000 bytes"));
  // What a destroyed interpreter held is free again.
  a.interpreter.reset();
  CHECK(b.interpreter->AllocateTensors() == kTfLiteOk);
  CHECK(b.interpreter->AllocatedBytes() == arena);
}

TEST_CASE("cancellation: the check runs before every node, a cancel fails the Invoke") {
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(TwiceChain(3, {1, 4}), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  static int checks = 0;
  checks = 0;
  // Answers "cancelled" at the second check: node 0 runs, node 1 does not.
  b.interpreter->SetCancellationFunction(nullptr, [](void*) { return ++checks >= 2; });
  g_twice_invocations = 0;
  CHECK(b.interpreter->Invoke() == kTfLiteError);
  CHECK(g_twice_invocations == 1);
  CHECK(checks == 2);
  CHECK(reporter.text == "Client requested cancel during Invoke()\n");
  b.interpreter->SetCancellationFunction(nullptr, nullptr);
  CHECK(b.interpreter->Invoke() == kTfLiteOk);
  CHECK(g_twice_invocations == 4);
}

TEST_CASE("cancellation: Cancel needs EnableCancellation and affects the Invoke in flight only") {
  CapturingReporter reporter;
  auto resolver = TestResolver();
  Built b = Build(TwiceChain(2, {1, 4}), resolver, &reporter);
  REQUIRE(b.status == kTfLiteOk);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  CHECK(b.interpreter->Cancel() == kTfLiteError);
  REQUIRE(b.interpreter->EnableCancellation() == kTfLiteOk);
  REQUIRE(b.interpreter->Cancel() == kTfLiteOk);
  // As TFLite: each Invoke starts uncancelled, so a Cancel before it has no effect.
  CHECK(b.interpreter->Invoke() == kTfLiteOk);
  CHECK(reporter.text.empty());
}

// A crafted file can put a constant's bytes at any offset; kernels read them as arrays of
// their type. Loaded from an odd address (so every buffer is misaligned), an int64 and a
// float constant still reach the interpreter aligned, with their values, and run.
TEST_CASE("constants at misaligned offsets reach kernels aligned, with their values") {
  ModelBuilder b;
  const int wide = b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {2}, {3, 2}, "wide");
  const int shape = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {2}, {3, 2}, "shape");
  const int c = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {6}, {1, 2, 3, 4, 5, 6}, "c");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {3, 2}, "out");
  tflite::ReshapeOptionsT o;
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {c, shape}, {out}, tflite_inspect::Options(o));
  b.SetInputs({});
  b.SetOutputs({out});
  const std::vector<uint8_t> bytes = b.Build();
  std::vector<uint8_t> shifted(bytes.size() + 8);
  uint8_t* odd = shifted.data() + 1;
  std::memcpy(odd, bytes.data(), bytes.size());
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(odd), bytes.size());
  REQUIRE(model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  REQUIRE(tflite::InterpreterBuilder(*model, resolver)(&interpreter) == kTfLiteOk);
  const TfLiteTensor* s = interpreter->tensor(wide);
  const TfLiteTensor* f = interpreter->tensor(c);
  CHECK(reinterpret_cast<uintptr_t>(s->data.raw) % alignof(int64_t) == 0);
  CHECK(reinterpret_cast<uintptr_t>(f->data.raw) % alignof(float) == 0);
  CHECK(s->data.i64[0] == 3);
  CHECK(s->data.i64[1] == 2);
  CHECK(f->data.f[5] == 6.0f);
  REQUIRE(interpreter->AllocateTensors() == kTfLiteOk);
  REQUIRE(interpreter->Invoke() == kTfLiteOk);
  CHECK(interpreter->tensor(out)->data.f[4] == 5.0f);
}

// RESHAPE / EXPAND_DIMS / SQUEEZE whose input nothing reads after them share its bytes (as
// TFLite's arena does): x -ADD-> a -RESHAPE-> r -EXPAND_DIMS-> e -SQUEEZE-> s -ADD-> out,
// and a second chain where the reshaped tensor is read again later (no sharing there) and
// one whose output is a graph output (no sharing either). Values checked over two Invokes.
TEST_CASE("reshapes whose input dies share its bytes, values unchanged") {
  ModelBuilder b;
  const int x = b.AddTensor(tflite::TensorType_FLOAT32, {2, 6}, "x");
  const int one = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1}, {1.0f}, "one");
  const int shape = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {2}, {3, 4}, "shape");
  const int axis = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {}, {0}, "axis");
  const int a = b.AddTensor(tflite::TensorType_FLOAT32, {2, 6}, "a");
  const int r = b.AddTensor(tflite::TensorType_FLOAT32, {3, 4}, "r");
  const int e = b.AddTensor(tflite::TensorType_FLOAT32, {1, 3, 4}, "e");
  const int s = b.AddTensor(tflite::TensorType_FLOAT32, {3, 4}, "s");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {3, 4}, "out");
  const int c = b.AddTensor(tflite::TensorType_FLOAT32, {2, 6}, "c");
  const int cr = b.AddTensor(tflite::TensorType_FLOAT32, {3, 4}, "cr");
  const int cout = b.AddTensor(tflite::TensorType_FLOAT32, {2, 6}, "cout");
  const int g = b.AddTensor(tflite::TensorType_FLOAT32, {3, 4}, "g");
  tflite::AddOptionsT add;
  tflite::ReshapeOptionsT reshape;
  tflite::ExpandDimsOptionsT expand;
  tflite::SqueezeOptionsT squeeze;
  squeeze.squeeze_dims = {0};
  using tflite_inspect::Options;
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, one}, {a}, Options(add));
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {a, shape}, {r}, Options(reshape));
  b.AddOperator(tflite::BuiltinOperator_EXPAND_DIMS, {r, axis}, {e}, Options(expand));
  b.AddOperator(tflite::BuiltinOperator_SQUEEZE, {e}, {s}, Options(squeeze));
  b.AddOperator(tflite::BuiltinOperator_ADD, {s, one}, {out}, Options(add));
  // c is reshaped, then read again: cr keeps bytes of its own.
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, x}, {c}, Options(add));
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {c, shape}, {cr}, Options(reshape));
  b.AddOperator(tflite::BuiltinOperator_ADD, {c, one}, {cout}, Options(add));
  // g, a graph output, is not given the bytes of its input (cr dies here).
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {cr, shape}, {g}, Options(reshape));
  b.SetInputs({x});
  b.SetOutputs({out, cout, g});
  const std::vector<uint8_t> bytes = b.Build();
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size());
  REQUIRE(model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  REQUIRE(tflite::InterpreterBuilder(*model, resolver)(&interpreter) == kTfLiteOk);
  REQUIRE(interpreter->AllocateTensors() == kTfLiteOk);
  CHECK(interpreter->tensor(r)->data.raw == interpreter->tensor(a)->data.raw);
  CHECK(interpreter->tensor(e)->data.raw == interpreter->tensor(a)->data.raw);
  CHECK(interpreter->tensor(s)->data.raw == interpreter->tensor(a)->data.raw);
  CHECK(interpreter->tensor(cr)->data.raw != interpreter->tensor(c)->data.raw);
  CHECK(interpreter->tensor(g)->data.raw != interpreter->tensor(cr)->data.raw);
  for (int run = 0; run < 2; ++run) {
    float* in = interpreter->typed_tensor<float>(x);
    for (int i = 0; i < 12; ++i) in[i] = static_cast<float>(i * (run + 1));
    REQUIRE(interpreter->Invoke() == kTfLiteOk);
    for (int i = 0; i < 12; ++i) {
      CAPTURE(run, i);
      CHECK(interpreter->typed_tensor<float>(out)[i] == static_cast<float>(i * (run + 1)) + 2.0f);
      CHECK(interpreter->typed_tensor<float>(cout)[i] == 2.0f * static_cast<float>(i * (run + 1)) + 1.0f);
      CHECK(interpreter->typed_tensor<float>(g)[i] == 2.0f * static_cast<float>(i * (run + 1)));
    }
  }
}
