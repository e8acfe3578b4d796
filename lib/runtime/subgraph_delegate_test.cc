// Delegate mechanics of the runtime: TFLite's partitioning (chains, diamonds, greedy
// merging across independent nodes, several outputs), the node-list mistakes delegates
// make, failing delegates, several delegates in a row, buffer handles, and undo/redo on
// resize. Graphs are built from ADD (claimed) and MUL (left on the CPU).
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "runtime/delegation_record.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_options.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"

namespace {

using tflite_inspect::ModelBuilder;

class CapturingReporter : public tflite::ErrorReporter {
 public:
  using tflite::ErrorReporter::Report;
  int Report(const char* format, va_list args) override {
    char buf[4096];
    const int n = std::vsnprintf(buf, sizeof buf, format, args);
    text += buf;
    text += "\n";
    return n;
  }
  std::string text;
};

// One operator of a test graph: ADD or MUL of two tensors (names index `tensors`).
struct Op {
  tflite::BuiltinOperator op;
  int a, b, out;
};

// Builds a float [1,4] graph: tensors 0..num_tensors-1, inputs and outputs as given,
// tensor `constant` (if >= 0) a constant of ones.
std::vector<uint8_t> BuildGraph(int num_tensors, const std::vector<Op>& ops,
                                const std::vector<int>& inputs, const std::vector<int>& outputs,
                                int constant = -1) {
  ModelBuilder b;
  for (int t = 0; t < num_tensors; ++t) {
    if (t == constant) {
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 4}, {1, 1, 1, 1}, "c");
    } else {
      b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "t" + std::to_string(t));
    }
  }
  for (const Op& op : ops) {
    if (op.op == tflite::BuiltinOperator_ADD) {
      b.AddOperator(op.op, {op.a, op.b}, {op.out}, tflite_inspect::Options(tflite::AddOptionsT{}));
    } else {
      b.AddOperator(op.op, {op.a, op.b}, {op.out}, tflite_inspect::Options(tflite::MulOptionsT{}));
    }
  }
  b.SetInputs(inputs);
  b.SetOutputs(outputs);
  return b.Build();
}

// What a delegate kernel saw at init.
struct SeenPartition {
  std::vector<int> nodes, inputs, outputs;
};

// A hand-written delegate in the style of TFLite's docs: its Prepare walks the plan with
// GetExecutionPlan + GetNodeAndRegistration and claims nodes with
// ReplaceNodeSubsetsWithDelegateKernels. Its kernel runs nothing but records params.
struct ManualDelegate {
  TfLiteDelegate delegate = TfLiteDelegateCreate();
  std::set<int> claim_ops = {kTfLiteBuiltinAdd};  // builtin codes to claim
  std::vector<int> explicit_nodes;                 // claim exactly these when set
  bool use_explicit = false;
  TfLiteStatus prepare_result = kTfLiteOk;
  std::vector<SeenPartition> seen;
  std::vector<int> replace_list;

  ManualDelegate() {
    delegate.data_ = this;
    delegate.Prepare = [](TfLiteContext* context, TfLiteDelegate* d) -> TfLiteStatus {
      auto* self = static_cast<ManualDelegate*>(d->data_);
      std::vector<int> nodes;
      if (self->use_explicit) {
        nodes = self->explicit_nodes;
      } else {
        TfLiteIntArray* plan = nullptr;
        TF_LITE_ENSURE_STATUS(context->GetExecutionPlan(context, &plan));
        for (int i = 0; i < plan->size; ++i) {
          TfLiteNode* node;
          TfLiteRegistration* reg;
          TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, plan->data[i], &node, &reg));
          if (self->claim_ops.count(reg->builtin_code)) nodes.push_back(plan->data[i]);
        }
      }
      self->replace_list = nodes;
      TfLiteIntArray* list = TfLiteIntArrayCreate(static_cast<int>(nodes.size()));
      for (size_t i = 0; i < nodes.size(); ++i) list->data[i] = nodes[i];
      TfLiteRegistration reg{};
      reg.custom_name = "ManualDelegate";
      reg.init = [](TfLiteContext*, const char* buffer, size_t) -> void* {
        const auto* p = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
        auto* owner = static_cast<ManualDelegate*>(p->delegate->data_);
        auto vec = [](const TfLiteIntArray* a) { return std::vector<int>(a->data, a->data + a->size); };
        owner->seen.push_back({vec(p->nodes_to_replace), vec(p->input_tensors), vec(p->output_tensors)});
        return nullptr;
      };
      const TfLiteStatus st = context->ReplaceNodeSubsetsWithDelegateKernels(context, reg, list, d);
      TfLiteIntArrayFree(list);
      if (st != kTfLiteOk) return st;
      return self->prepare_result;
    };
  }
};

struct Built {
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::Interpreter> interpreter;
};

Built Build(const std::vector<uint8_t>& bytes, CapturingReporter* reporter) {
  Built b;
  b.model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                     bytes.size(), reporter);
  REQUIRE(b.model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  REQUIRE(tflite::InterpreterBuilder(*b.model, resolver, reporter)(&b.interpreter) == kTfLiteOk);
  return b;
}

// Plan entries as op names: "ADD", "MUL" or "ManualDelegate".
std::vector<std::string> PlanOps(tflite::Interpreter& interpreter) {
  std::vector<std::string> out;
  for (int n : interpreter.execution_plan()) out.push_back(interpreter.primary_subgraph().OpName(n));
  return out;
}

using Strings = std::vector<std::string>;
using Ints = std::vector<int>;
constexpr auto ADD = tflite::BuiltinOperator_ADD;
constexpr auto MUL = tflite::BuiltinOperator_MUL;

TEST_CASE("a chain alternating claimed and unclaimed nodes gives one partition per run") {
  // t0 -ADD-> t2 -MUL-> t3 -ADD-> t4 -MUL-> t5 (t1 constant)
  const auto bytes = BuildGraph(6, {{ADD, 0, 1, 2}, {MUL, 2, 1, 3}, {ADD, 3, 1, 4}, {MUL, 4, 1, 5}},
                                {0}, {5}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  ManualDelegate d;
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteOk);
  CHECK(PlanOps(*b.interpreter) == Strings{"ManualDelegate", "MUL", "ManualDelegate", "MUL"});
  REQUIRE(d.seen.size() == 2);
  CHECK(d.seen[0].nodes == Ints{0});
  CHECK(d.seen[0].inputs == Ints{0, 1});  // constants are partition inputs too
  CHECK(d.seen[0].outputs == Ints{2});
  CHECK(d.seen[1].nodes == Ints{2});
  // Original nodes and registrations stay; delegate nodes are appended.
  CHECK(b.interpreter->nodes_size() == 6);
  CHECK(b.interpreter->node_and_registration(4)->second.builtin_code == kTfLiteBuiltinDelegate);
  CHECK(b.interpreter->node_and_registration(4)->first.delegate == &d.delegate);
  const auto& records = b.interpreter->primary_subgraph().delegation_records();
  REQUIRE(records.size() == 1);
  CHECK(records[0]->log.at(0) ==
        "Replacing 2 out of 4 node(s) with delegate (ManualDelegate) node, yielding 2 partitions "
        "for subgraph 0.");
}

TEST_CASE("greedy partitioning merges claimed nodes across an independent CPU node") {
  // n0: t0+c -> t2 (ADD)   n1: t0*c -> t3 (MUL)   n2: t2+c -> t4 (ADD)   n3: t3+t4 -> t5 (ADD)
  const auto bytes = BuildGraph(
      6, {{ADD, 0, 1, 2}, {MUL, 0, 1, 3}, {ADD, 2, 1, 4}, {ADD, 3, 4, 5}}, {0}, {5}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  ManualDelegate d;
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteOk);
  // TFLite's epochs: {n0, n2} (n2 is ready once n0 ran), then {n1}, then {n3}.
  CHECK(PlanOps(*b.interpreter) == Strings{"ManualDelegate", "MUL", "ManualDelegate"});
  REQUIRE(d.seen.size() == 2);
  CHECK(d.seen[0].nodes == Ints{0, 2});
  CHECK(d.seen[0].inputs == Ints{0, 1});
  CHECK(d.seen[0].outputs == Ints{4});
  CHECK(d.seen[1].nodes == Ints{3});
  CHECK(d.seen[1].inputs == Ints{3, 4});
}

TEST_CASE("with delegate clustering disabled the partitions follow the plan's order") {
  // The graph above; InterpreterOptions::SetDisableDelegateClustering (benchmark_model
  // --disable_delegate_clustering) stops an epoch at the first node of the other kind.
  const auto bytes = BuildGraph(
      6, {{ADD, 0, 1, 2}, {MUL, 0, 1, 3}, {ADD, 2, 1, 4}, {ADD, 3, 4, 5}}, {0}, {5}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  tflite::InterpreterOptions options;
  options.SetDisableDelegateClustering();
  REQUIRE(b.interpreter->ApplyOptions(&options) == kTfLiteOk);
  ManualDelegate d;
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteOk);
  CHECK(PlanOps(*b.interpreter) == Strings{"ManualDelegate", "MUL", "ManualDelegate"});
  REQUIRE(d.seen.size() == 2);
  CHECK(d.seen[0].nodes == Ints{0});
  CHECK(d.seen[1].nodes == Ints{2, 3});
  CHECK(d.seen[1].inputs == Ints{1, 2, 3});
}

TEST_CASE("a CPU node between claimed nodes of one path splits the partition") {
  // n0: ADD t0+c -> t2; n1: MUL t2*c -> t3; n2: ADD t2+t3 -> t4
  const auto bytes =
      BuildGraph(5, {{ADD, 0, 1, 2}, {MUL, 2, 1, 3}, {ADD, 2, 3, 4}}, {0}, {4}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  ManualDelegate d;
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteOk);
  CHECK(PlanOps(*b.interpreter) == Strings{"ManualDelegate", "MUL", "ManualDelegate"});
  REQUIRE(d.seen.size() == 2);
  CHECK(d.seen[0].outputs == Ints{2});  // read by MUL and by the second partition
  CHECK(d.seen[1].inputs == Ints{2, 3});
}

TEST_CASE("a diamond of claimed nodes is one partition with every graph output") {
  // n0: ADD t0+c -> t2 (also a graph output); n1: ADD t2+c -> t3; n2: ADD t2+t3 -> t4
  const auto bytes =
      BuildGraph(5, {{ADD, 0, 1, 2}, {ADD, 2, 1, 3}, {ADD, 2, 3, 4}}, {0}, {4, 2}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  ManualDelegate d;
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteOk);
  CHECK(PlanOps(*b.interpreter) == Strings{"ManualDelegate"});
  REQUIRE(d.seen.size() == 1);
  CHECK(d.seen[0].nodes == Ints{0, 1, 2});
  CHECK(d.seen[0].outputs == Ints{2, 4});
}

TEST_CASE("node lists in any order and with duplicates partition the same") {
  const auto bytes = BuildGraph(
      6, {{ADD, 0, 1, 2}, {MUL, 0, 1, 3}, {ADD, 2, 1, 4}, {ADD, 3, 4, 5}}, {0}, {5}, 1);
  for (const Ints& list : {Ints{0, 2, 3}, Ints{3, 0, 2}, Ints{2, 2, 0, 3, 0}}) {
    CapturingReporter reporter;
    Built b = Build(bytes, &reporter);
    ManualDelegate d;
    d.use_explicit = true;
    d.explicit_nodes = list;
    REQUIRE(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteOk);
    REQUIRE(d.seen.size() == 2);
    CHECK(d.seen[0].nodes == Ints{0, 2});
    CHECK(d.seen[1].nodes == Ints{3});
  }
}

TEST_CASE("an empty node list changes nothing") {
  const auto bytes = BuildGraph(3, {{MUL, 0, 1, 2}}, {0}, {2}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  ManualDelegate d;
  d.use_explicit = true;
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteOk);
  CHECK(PlanOps(*b.interpreter) == Strings{"MUL"});
  CHECK(d.seen.empty());
}

TEST_CASE("bad node lists are refused with a reason and the CPU plan is restored") {
  const auto bytes = BuildGraph(4, {{ADD, 0, 1, 2}, {ADD, 2, 1, 3}}, {0}, {3}, 1);
  for (const auto& [list, expected] :
       std::vector<std::pair<Ints, std::string>>{
           {{0, 7}, "node index 7 (entry 1 of nodes_to_replace) is out of range: the subgraph has 2 nodes"},
           {{-1}, "node index -1 (entry 0 of nodes_to_replace) is out of range"}}) {
    CapturingReporter reporter;
    Built b = Build(bytes, &reporter);
    ManualDelegate d;
    d.use_explicit = true;
    d.explicit_nodes = list;
    CHECK(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteDelegateError);
    CHECK_THAT(reporter.text, Catch::Contains(expected));
    CHECK_THAT(reporter.text, Catch::Contains("Restored original execution plan"));
    CHECK(PlanOps(*b.interpreter) == Strings{"ADD", "ADD"});
    REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
    b.interpreter->typed_input_tensor<float>(0)[0] = 5;
    REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
    CHECK(b.interpreter->typed_output_tensor<float>(0)[0] == 7);
  }
}

TEST_CASE("a delegate without Prepare is refused, not run") {
  const auto bytes = BuildGraph(3, {{ADD, 0, 1, 2}}, {0}, {2}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  TfLiteDelegate d = TfLiteDelegateCreate();
  CHECK(b.interpreter->ModifyGraphWithDelegate(&d) == kTfLiteDelegateError);
  CHECK_THAT(reporter.text, Catch::Contains("the delegate has no Prepare function"));
  CHECK(b.interpreter->ModifyGraphWithDelegate(static_cast<TfLiteDelegate*>(nullptr)) ==
        kTfLiteDelegateError);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
}

TEST_CASE("a delegate whose Prepare fails after replacing nodes leaves the CPU graph intact") {
  const auto bytes = BuildGraph(4, {{ADD, 0, 1, 2}, {MUL, 2, 1, 3}}, {0}, {3}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  ManualDelegate d;
  d.prepare_result = kTfLiteError;
  CHECK(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteDelegateError);
  CHECK(PlanOps(*b.interpreter) == Strings{"ADD", "MUL"});
  CHECK(b.interpreter->nodes_size() == 2);  // the delegate node is gone
  CHECK_FALSE(b.interpreter->HasDelegates());
  const auto& records = b.interpreter->primary_subgraph().delegation_records();
  REQUIRE(records.size() == 1);
  CHECK(records[0]->status == kTfLiteDelegateError);
  CHECK_THAT(records[0]->error, Catch::Contains("Restored original execution plan"));
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  b.interpreter->typed_input_tensor<float>(0)[1] = 2;
  REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
  CHECK(b.interpreter->typed_output_tensor<float>(0)[1] == 3);
}

TEST_CASE("a later delegate cannot take an earlier delegate's nodes") {
  const auto bytes = BuildGraph(4, {{ADD, 0, 1, 2}, {MUL, 2, 1, 3}}, {0}, {3}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  ManualDelegate first;
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&first.delegate) == kTfLiteOk);
  REQUIRE(PlanOps(*b.interpreter) == Strings{"ManualDelegate", "MUL"});
  ManualDelegate second;
  second.use_explicit = true;
  second.explicit_nodes = {2};  // the first delegate's kernel node
  CHECK(b.interpreter->ModifyGraphWithDelegate(&second.delegate) == kTfLiteDelegateError);
  CHECK_THAT(reporter.text, Catch::Contains("node 2 is the kernel of delegate 'ManualDelegate'"));
  // As in TFLite, a failing delegate removes every delegate: the CPU plan is back.
  CHECK(PlanOps(*b.interpreter) == Strings{"ADD", "MUL"});
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&first.delegate) == kTfLiteOk);
  ManualDelegate third;
  third.use_explicit = true;
  third.explicit_nodes = {0};  // already replaced
  CHECK(b.interpreter->ModifyGraphWithDelegate(&third.delegate) == kTfLiteDelegateError);
  CHECK_THAT(reporter.text, Catch::Contains("node 0 (ADD) is not in the execution plan"));
}

TEST_CASE("two delegates apply in order, the second takes what is left") {
  const auto bytes = BuildGraph(4, {{ADD, 0, 1, 2}, {MUL, 2, 1, 3}}, {0}, {3}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  ManualDelegate first;
  ManualDelegate second;
  second.claim_ops = {kTfLiteBuiltinMul};
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&first.delegate) == kTfLiteOk);
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&second.delegate) == kTfLiteOk);
  CHECK(PlanOps(*b.interpreter) == Strings{"ManualDelegate", "ManualDelegate"});
  CHECK(b.interpreter->node_and_registration(b.interpreter->execution_plan()[1])->first.delegate ==
        &second.delegate);
  CHECK(second.seen.at(0).nodes == Ints{1});
}

TEST_CASE("replacing nodes is refused outside a delegate's Prepare") {
  const auto bytes = BuildGraph(3, {{ADD, 0, 1, 2}}, {0}, {2}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  TfLiteContext* context = b.interpreter->primary_subgraph().context();
  TfLiteIntArray* list = TfLiteIntArrayCreate(1);
  list->data[0] = 0;
  TfLiteDelegate d = TfLiteDelegateCreate();
  CHECK(context->ReplaceNodeSubsetsWithDelegateKernels(context, TfLiteRegistration{}, list, &d) ==
        kTfLiteError);
  TfLiteDelegateParams* params = nullptr;
  int n = 0;
  CHECK(context->PreviewDelegatePartitioning(context, list, &params, &n) == kTfLiteError);
  TfLiteIntArrayFree(list);
  CHECK_THAT(reporter.text, Catch::Contains("only allowed inside a delegate's Prepare"));
}

TEST_CASE("PreviewDelegatePartitioning shows the partitions without changing the graph") {
  const auto bytes = BuildGraph(
      6, {{ADD, 0, 1, 2}, {MUL, 0, 1, 3}, {ADD, 2, 1, 4}, {ADD, 3, 4, 5}}, {0}, {5}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  struct Preview {
    TfLiteDelegate delegate = TfLiteDelegateCreate();
    std::vector<SeenPartition> seen;
  } p;
  p.delegate.data_ = &p;
  p.delegate.Prepare = [](TfLiteContext* context, TfLiteDelegate* d) -> TfLiteStatus {
    auto* self = static_cast<Preview*>(d->data_);
    TfLiteIntArray* list = TfLiteIntArrayCreate(3);
    list->data[0] = 0;
    list->data[1] = 2;
    list->data[2] = 3;
    TfLiteDelegateParams* params = nullptr;
    int n = 0;
    const TfLiteStatus st = context->PreviewDelegatePartitioning(context, list, &params, &n);
    TfLiteIntArrayFree(list);
    auto vec = [](const TfLiteIntArray* a) { return std::vector<int>(a->data, a->data + a->size); };
    for (int i = 0; i < n; ++i) {
      self->seen.push_back({vec(params[i].nodes_to_replace), vec(params[i].input_tensors),
                            vec(params[i].output_tensors)});
    }
    return st;
  };
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&p.delegate) == kTfLiteOk);
  REQUIRE(p.seen.size() == 2);
  CHECK(p.seen[0].nodes == Ints{0, 2});
  CHECK(p.seen[1].nodes == Ints{3});
  CHECK(PlanOps(*b.interpreter) == Strings{"ADD", "MUL", "ADD", "ADD"});
}

// A delegate that computes ADD itself into a buffer of its own and leaves the output
// tensor stale: CPU readers and the graph outputs must get the data through
// CopyFromBufferHandle.
struct BufferDelegate {
  TfLiteDelegate delegate = TfLiteDelegateCreate();
  std::vector<float> buffer;
  int copies = 0;
  int out_tensor = -1;

  BufferDelegate() {
    delegate.data_ = this;
    delegate.Prepare = [](TfLiteContext* context, TfLiteDelegate* d) -> TfLiteStatus {
      TfLiteIntArray* list = TfLiteIntArrayCreate(1);
      list->data[0] = 0;
      TfLiteRegistration reg{};
      reg.custom_name = "BufferDelegate";
      reg.init = [](TfLiteContext* ctx, const char* buffer, size_t) -> void* {
        const auto* p = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
        auto* self = static_cast<BufferDelegate*>(p->delegate->data_);
        self->out_tensor = p->output_tensors->data[0];
        TfLiteTensor& t = ctx->tensors[self->out_tensor];
        t.buffer_handle = 7;
        return self;
      };
      reg.invoke = [](TfLiteContext* ctx, TfLiteNode* node) -> TfLiteStatus {
        auto* self = static_cast<BufferDelegate*>(node->user_data);
        const TfLiteTensor& a = ctx->tensors[node->inputs->data[0]];
        const TfLiteTensor& b = ctx->tensors[node->inputs->data[1]];
        self->buffer.assign(4, 0.0f);
        for (int i = 0; i < 4; ++i) self->buffer[i] = a.data.f[i] + b.data.f[i];
        ctx->tensors[self->out_tensor].data_is_stale = true;
        return kTfLiteOk;
      };
      const TfLiteStatus st = context->ReplaceNodeSubsetsWithDelegateKernels(context, reg, list, d);
      TfLiteIntArrayFree(list);
      return st;
    };
    delegate.CopyFromBufferHandle = [](TfLiteContext*, TfLiteDelegate* d, TfLiteBufferHandle h,
                                       TfLiteTensor* t) -> TfLiteStatus {
      auto* self = static_cast<BufferDelegate*>(d->data_);
      if (h != 7) return kTfLiteError;
      ++self->copies;
      std::memcpy(t->data.raw, self->buffer.data(), t->bytes);
      return kTfLiteOk;
    };
    delegate.FreeBufferHandle = [](TfLiteContext*, TfLiteDelegate*, TfLiteBufferHandle* h) {
      *h = kTfLiteNullBufferHandle;
    };
  }
};

TEST_CASE("stale delegate buffers are copied out for CPU readers and for outputs") {
  // n0 ADD (delegated, output t2 stays in the delegate's buffer) -> n1 MUL on the CPU.
  const auto bytes = BuildGraph(4, {{ADD, 0, 1, 2}, {MUL, 2, 1, 3}}, {0}, {3, 2}, 1);
  CapturingReporter reporter;
  // The delegate outlives the interpreter, which frees its buffer handle through it.
  BufferDelegate d;
  Built b = Build(bytes, &reporter);
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteOk);
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  float* in = b.interpreter->typed_input_tensor<float>(0);
  for (int i = 0; i < 4; ++i) in[i] = static_cast<float>(i);
  REQUIRE(b.interpreter->Invoke() == kTfLiteOk);
  CHECK(d.copies == 1);  // for MUL; the output t2 is then fresh
  CHECK(b.interpreter->typed_output_tensor<float>(0)[3] == 4.0f);
  CHECK(b.interpreter->typed_output_tensor<float>(1)[3] == 4.0f);
  CHECK_FALSE(b.interpreter->tensor(2)->data_is_stale);
}

TEST_CASE("resizing an input undoes a static-shape delegate and the next allocation redoes it") {
  const auto bytes = BuildGraph(4, {{ADD, 0, 1, 2}, {MUL, 2, 0, 3}}, {0}, {3}, 1);
  CapturingReporter reporter;
  Built b = Build(bytes, &reporter);
  ManualDelegate d;
  REQUIRE(b.interpreter->ModifyGraphWithDelegate(&d.delegate) == kTfLiteOk);
  REQUIRE(PlanOps(*b.interpreter) == Strings{"ManualDelegate", "MUL"});
  REQUIRE(b.interpreter->ResizeInputTensor(0, {1, 4}) == kTfLiteOk);  // same shape: no-op
  CHECK(PlanOps(*b.interpreter) == Strings{"ManualDelegate", "MUL"});
  REQUIRE(b.interpreter->ResizeInputTensor(0, {2, 4}) == kTfLiteOk);
  CHECK(PlanOps(*b.interpreter) == Strings{"ADD", "MUL"});
  // ADD's constant is [1,4] and the input [2,4]: broadcasting makes it fine.
  REQUIRE(b.interpreter->AllocateTensors() == kTfLiteOk);
  CHECK(PlanOps(*b.interpreter) == Strings{"ManualDelegate", "MUL"});
  CHECK(d.seen.size() == 2);  // a fresh kernel for the re-applied delegate
}

}  // namespace
