// delegate_report on small graphs whose partitions, reasons and boundary bytes are
// worked out by hand in the comments: the test delegate alone, with partition limits,
// after the sample delegate, a delegate that gives no reasons, a failing delegate, and
// a WHILE model (every subgraph is reported).
#include "report/delegate_report.h"

#include <memory>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "report/delegate_report_format.h"
#include "sample/sample_delegate.h"
#include "sample/test_delegate.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"

namespace tflite_inspect {
namespace {

const auto kF32 = tflite::TensorType_FLOAT32;

// Five float32 [1,8] nodes (32 bytes per tensor), c a constant:
//   n0 ADD(in, c) -> a;  n1 MUL(a, a) -> b;  n2 ADD(b, c) -> d;  n3 SUB(d, c) -> e;
//   n4 MUL(e, a) -> out
std::vector<uint8_t> ChainModel() {
  ModelBuilder b;
  const int in = b.AddTensor(kF32, {1, 8}, "in");
  const int c = b.AddConstTensor<float>(kF32, {1, 8}, std::vector<float>(8, 0.5f), "c");
  const int a = b.AddTensor(kF32, {1, 8}, "a");
  const int bb = b.AddTensor(kF32, {1, 8}, "b");
  const int d = b.AddTensor(kF32, {1, 8}, "d");
  const int e = b.AddTensor(kF32, {1, 8}, "e");
  const int out = b.AddTensor(kF32, {1, 8}, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, c}, {a}, Options(tflite::AddOptionsT()));
  b.AddOperator(tflite::BuiltinOperator_MUL, {a, a}, {bb}, Options(tflite::MulOptionsT()));
  b.AddOperator(tflite::BuiltinOperator_ADD, {bb, c}, {d}, Options(tflite::AddOptionsT()));
  b.AddOperator(tflite::BuiltinOperator_SUB, {d, c}, {e}, Options(tflite::SubOptionsT()));
  b.AddOperator(tflite::BuiltinOperator_MUL, {e, a}, {out}, Options(tflite::MulOptionsT()));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Build();
}

// Holds what the interpreter points into; destroys the interpreter first.
struct Harness {
  std::vector<uint8_t> bytes;
  std::unique_ptr<tflite::FlatBufferModel> model;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::vector<DelegateInstance> delegates;
  std::unique_ptr<tflite::Interpreter> interpreter;

  explicit Harness(std::vector<uint8_t> b) : bytes(std::move(b)) {
    model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                     bytes.size());
    REQUIRE(model != nullptr);
    REQUIRE(tflite::InterpreterBuilder(*model, resolver)(&interpreter) == kTfLiteOk);
  }
  ~Harness() { interpreter.reset(); }

  void Add(const std::string& label, tflite::TfLiteDelegateUniquePtr d) {
    DelegateInstance i;
    i.label = label;
    auto deleter = d.get_deleter();
    i.delegate = {d.release(), deleter};
    delegates.push_back(std::move(i));
  }
  void AddTest(std::vector<std::string> ops, int max_partitions = 0, int min_nodes = 0) {
    TestDelegateOptions o;
    o.ops = std::move(ops);
    o.max_delegated_partitions = max_partitions;
    o.min_nodes_per_partition = min_nodes;
    Add("TestDelegate", CreateTestDelegate(o));
  }

  DelegateReport Report() {
    auto applied = ApplyDelegates(interpreter.get(), delegates, /*strict=*/false);
    REQUIRE(applied.ok());
    REQUIRE(interpreter->AllocateTensors() == kTfLiteOk);
    std::vector<ReportedDelegate> reported;
    for (size_t i = 0; i < delegates.size(); ++i) {
      reported.push_back({delegates[i].label, delegates[i].delegate.get(), applied->at(i).status,
                          applied->at(i).message});
    }
    auto report = BuildDelegateReport(*interpreter, reported);
    if (!report.ok()) FAIL(report.status().message());
    return std::move(report).value();
  }
};

const NodeLeft* LeftFor(const DelegateInSubgraph& d, int node) {
  for (const NodeLeft& l : d.left) {
    if (l.node == node) return &l;
  }
  return nullptr;
}

// Boundary bytes of `tensor` copied into (into=true) or out of partition `p`; -1: none.
long long Crossing(const SubgraphReport& sr, int tensor, int p, bool into) {
  for (const BoundaryTensor& b : sr.boundary) {
    if (b.tensor == tensor && b.partition == p && b.into == into)
      return static_cast<long long>(b.bytes);
  }
  return -1;
}

TEST_CASE("test delegate: claimed nodes, reasons, partitions and boundary bytes") {
  Harness h(ChainModel());
  h.AddTest({"ADD", "SUB"});
  const DelegateReport r = h.Report();
  REQUIRE(r.subgraphs.size() == 1);
  const SubgraphReport& sr = r.subgraphs[0];
  // ADD/SUB: {n0} and {n2, n3}; the MULs stay on the CPU.
  REQUIRE(sr.partitions.size() == 2);
  CHECK(sr.partitions[0].nodes == std::vector<int>{0});
  CHECK(sr.partitions[1].nodes == std::vector<int>{2, 3});
  CHECK(sr.partitions[0].kernel_node == 5);  // delegate kernels follow the model's 5 nodes
  CHECK(sr.partitions[1].kernel_node == 6);
  CHECK(sr.execution_plan == std::vector<int>{5, 1, 6, 4});
  REQUIRE(sr.delegates.size() == 1);
  const DelegateInSubgraph& d = sr.delegates[0];
  CHECK(d.live);
  CHECK(d.has_reasons);
  CHECK(d.claimed == std::vector<int>{0, 2, 3});
  REQUIRE(d.left.size() == 2);
  CHECK(d.left[0].node == 1);
  CHECK(d.left[0].kind == LeftReason::kUnsupported);
  CHECK(d.left[0].reason == "MUL is not in options.ops");
  CHECK(d.left[1].node == 4);
  CHECK(sr.nodes[1].op == "MUL");
  CHECK(sr.nodes[1].version == 1);
  CHECK(sr.nodes[1].reasons.size() == 1);
  // Tensors: in=0 c=1 a=2 b=3 d=4 e=5 out=6. P0 reads `in` (graph input), writes `a`
  // (read by n1 and n4); P1 reads `b` (from n1), writes `e` (read by n4). The constant
  // `c` never crosses. 4 x 32 bytes.
  CHECK(Crossing(sr, 0, 0, true) == 32);
  CHECK(Crossing(sr, 2, 0, false) == 32);
  CHECK(Crossing(sr, 3, 1, true) == 32);
  CHECK(Crossing(sr, 5, 1, false) == 32);
  CHECK(Crossing(sr, 1, 0, true) == -1);
  CHECK(sr.boundary.size() == 4);
  CHECK(sr.boundary_bytes == 128);
  CHECK(sr.partitions[0].bytes_in == 32);
  CHECK(sr.partitions[0].bytes_out == 32);
  const BoundaryTensor& a_out = sr.boundary[1];
  REQUIRE(a_out.peers.size() == 2);
  CHECK(a_out.peers[0].kind == Endpoint::kCpuNode);
  CHECK(a_out.peers[0].id == 1);
  CHECK(a_out.peers[1].id == 4);
  CHECK(sr.cpu_nodes == 2);
  CHECK(sr.summary ==
        "3 of 5 nodes in 2 partitions on TestDelegate; 2 nodes on CPU; 128 bytes cross "
        "boundaries per inference");
  CHECK(r.summary == sr.summary);
}

// n0 ADD(in, c) -> a; n1 MUL(a, a) -> b; n2 ADD(b, a) -> out: with ADD delegated, `a`
// goes from partition 0 to the CPU (counted) and straight to partition 1 (not counted:
// it stays in the delegate).
TEST_CASE("a tensor between two partitions of one delegate does not cross") {
  ModelBuilder b;
  const int in = b.AddTensor(kF32, {1, 8}, "in");
  const int c = b.AddConstTensor<float>(kF32, {1, 8}, std::vector<float>(8, 0.5f), "c");
  const int a = b.AddTensor(kF32, {1, 8}, "a");
  const int bb = b.AddTensor(kF32, {1, 8}, "b");
  const int out = b.AddTensor(kF32, {1, 8}, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, c}, {a}, Options(tflite::AddOptionsT()));
  b.AddOperator(tflite::BuiltinOperator_MUL, {a, a}, {bb}, Options(tflite::MulOptionsT()));
  b.AddOperator(tflite::BuiltinOperator_ADD, {bb, a}, {out}, Options(tflite::AddOptionsT()));
  b.SetInputs({in});
  b.SetOutputs({out});
  Harness h(b.Build());
  h.AddTest({"ADD"});
  const SubgraphReport sr = h.Report().subgraphs[0];
  REQUIRE(sr.partitions.size() == 2);
  CHECK(Crossing(sr, 2, 0, false) == 32);  // a, to the CPU's MUL
  CHECK(Crossing(sr, 2, 1, true) == -1);   // a, partition 0 -> partition 1
  CHECK(Crossing(sr, 3, 1, true) == 32);   // b, from the CPU
  // in + a out + b in + out = 4 x 32.
  CHECK(sr.boundary_bytes == 128);
}

TEST_CASE("limits: max_delegated_partitions=1 drops the smaller partition, with its nodes") {
  Harness h(ChainModel());
  h.AddTest({"ADD", "SUB"}, /*max_partitions=*/1);
  const DelegateReport r = h.Report();
  const SubgraphReport& sr = r.subgraphs[0];
  REQUIRE(sr.partitions.size() == 1);
  CHECK(sr.partitions[0].nodes == std::vector<int>{2, 3});
  const DelegateInSubgraph& d = sr.delegates[0];
  REQUIRE(d.dropped.size() == 1);
  CHECK(d.dropped[0].nodes == std::vector<int>{0});
  CHECK(d.dropped[0].reason.find("max_delegated_partitions=1") != std::string::npos);
  const NodeLeft* n0 = LeftFor(d, 0);
  REQUIRE(n0 != nullptr);
  CHECK(n0->kind == LeftReason::kDropped);
  CHECK(n0->reason == "in a partition dropped by limits: " + d.dropped[0].reason);
  CHECK(d.limits.find("max_delegated_partitions=1") != std::string::npos);
  // n0 runs on the CPU now: P reads b (32) and writes e (32).
  CHECK(sr.boundary_bytes == 64);
  CHECK(sr.summary ==
        "2 of 5 nodes in 1 partition on TestDelegate; 3 nodes on CPU; 64 bytes cross "
        "boundaries per inference");
}

TEST_CASE("limits: min_nodes_per_partition=2 drops the one-node partition") {
  Harness h(ChainModel());
  h.AddTest({"ADD", "SUB"}, 0, /*min_nodes=*/2);
  const DelegateReport r = h.Report();
  const DelegateInSubgraph& d = r.subgraphs[0].delegates[0];
  REQUIRE(d.dropped.size() == 1);
  CHECK(d.dropped[0].reason == "1 node(s), fewer than min_nodes_per_partition=2");
  CHECK(LeftFor(d, 0)->kind == LeftReason::kDropped);
  CHECK(r.subgraphs[0].nodes[0].partition == -1);
}

TEST_CASE("two delegates in sequence: sample, then test") {
  Harness h(ChainModel());
  h.Add("SampleDelegate", CreateSampleDelegate({}));
  h.AddTest({"MUL"});
  const DelegateReport r = h.Report();
  REQUIRE(r.delegates.size() == 2);
  const SubgraphReport& sr = r.subgraphs[0];
  REQUIRE(sr.delegates.size() == 2);
  const DelegateInSubgraph& sample = sr.delegates[0];
  const DelegateInSubgraph& test = sr.delegates[1];
  CHECK(r.delegates[sample.delegate].name == "SampleDelegate");
  CHECK(sample.claimed == std::vector<int>{0, 2, 3});
  CHECK(LeftFor(sample, 1)->reason == "only ADD and SUB are supported");
  CHECK(test.claimed == std::vector<int>{1, 4});
  for (int n : {0, 2, 3}) {
    const NodeLeft* l = LeftFor(test, n);
    REQUIRE(l != nullptr);
    CHECK(l->kind == LeftReason::kEarlierDelegate);
    CHECK(l->reason == "taken by earlier delegate SampleDelegate");
  }
  // Four partitions alternate sample / test: S{n0} T{n1} S{n2,n3} T{n4}.
  REQUIRE(sr.partitions.size() == 4);
  CHECK(sr.partitions[0].delegate == sample.delegate);
  CHECK(sr.partitions[1].delegate == test.delegate);
  CHECK(sr.partitions[3].nodes == std::vector<int>{4});
  // Every tensor between the two delegates crosses once, into the partition that reads
  // it: S0 in, T1 a, S2 b, T3 e and a; and T3's out goes to the graph output. 6 x 32.
  CHECK(Crossing(sr, 0, 0, true) == 32);   // in, graph input -> sample
  CHECK(Crossing(sr, 2, 0, false) == -1);  // a leaves S0 for test partitions only
  CHECK(Crossing(sr, 2, 1, true) == 32);   // a, sample -> test
  CHECK(Crossing(sr, 3, 2, true) == 32);   // b, test -> sample
  CHECK(Crossing(sr, 5, 3, true) == 32);   // e, sample -> test
  CHECK(Crossing(sr, 2, 3, true) == 32);
  CHECK(Crossing(sr, 6, 3, false) == 32);  // out, to the graph output
  CHECK(sr.boundary.size() == 6);
  CHECK(sr.boundary_bytes == 6 * 32);
  CHECK(sr.cpu_nodes == 0);
  CHECK(sr.summary ==
        "3 of 5 nodes in 2 partitions on SampleDelegate, 2 of 5 nodes in 2 partitions on "
        "TestDelegate; 0 nodes on CPU; 192 bytes cross boundaries per inference");
}

// A delegate that bypasses the shared helper: it claims node 0 and says nothing else.
TfLiteStatus RawPrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  TfLiteRegistration reg{};
  reg.custom_name = "RawDelegate";
  TfLiteIntArray* nodes = TfLiteIntArrayCreate(1);
  nodes->data[0] = 0;
  const TfLiteStatus s =
      context->ReplaceNodeSubsetsWithDelegateKernels(context, reg, nodes, delegate);
  TfLiteIntArrayFree(nodes);
  return s;
}

TfLiteStatus FailingPrepare(TfLiteContext* context, TfLiteDelegate*) {
  context->ReportError(context, "FailingDelegate: cannot compile node 0 (ADD v1)");
  return kTfLiteError;
}

tflite::TfLiteDelegateUniquePtr RawDelegate(TfLiteStatus (*prepare)(TfLiteContext*,
                                                                    TfLiteDelegate*)) {
  auto* d = new TfLiteDelegate(TfLiteDelegateCreate());
  d->Prepare = prepare;
  return tflite::TfLiteDelegateUniquePtr(d, [](TfLiteDelegate* p) { delete p; });
}

TEST_CASE("a delegate without the shared helper gives no reasons") {
  Harness h(ChainModel());
  h.Add("raw", RawDelegate(RawPrepare));
  const DelegateReport r = h.Report();
  CHECK(r.delegates[0].name == "RawDelegate");
  const DelegateInSubgraph& d = r.subgraphs[0].delegates[0];
  CHECK_FALSE(d.has_reasons);
  CHECK(d.claimed == std::vector<int>{0});
  REQUIRE(d.left.size() == 4);
  for (const NodeLeft& l : d.left) {
    CHECK(l.kind == LeftReason::kNoReasons);
    CHECK(l.reason == "not claimed by RawDelegate (it gives no reasons)");
  }
}

TEST_CASE("a failing delegate: its error, the CPU, and the delegates before it kept") {
  Harness h(ChainModel());
  h.AddTest({"ADD"});
  h.Add("FailingDelegate", RawDelegate(FailingPrepare));
  const DelegateReport r = h.Report();
  REQUIRE(r.delegates.size() == 2);
  CHECK(r.delegates[0].status == kTfLiteOk);
  CHECK(r.delegates[1].status == kTfLiteDelegateError);
  CHECK(r.delegates[1].error.find("cannot compile node 0") != std::string::npos);
  const SubgraphReport& sr = r.subgraphs[0];
  // The test delegate was applied again after the failure: its partitions are live.
  CHECK(sr.partitions.size() == 2);
  const DelegateInSubgraph* failed = nullptr;
  for (const auto& d : sr.delegates) {
    if (d.delegate == 1) failed = &d;
  }
  REQUIRE(failed != nullptr);
  CHECK_FALSE(failed->live);
  CHECK(failed->error.find("cannot compile node 0") != std::string::npos);
  const NodeEntry* mul = sr.FindNode(1);
  REQUIRE(mul->reasons.size() == 2);
  CHECK(mul->reasons[1].kind == LeftReason::kNotApplied);
  const std::string text = FormatDelegateReportText(r);
  CHECK(text.find("running on the CPU") != std::string::npos);
}

// WHILE over a body that adds: subgraph 1 (cond) has LESS, subgraph 2 (body) two ADDs.
std::vector<uint8_t> WhileModel() {
  const auto kI32 = tflite::TensorType_INT32;
  ModelBuilder b;
  const int i = b.AddTensor(kI32, {1}, "i");
  const int n = b.AddTensor(kI32, {1}, "n");
  const int acc = b.AddTensor(kF32, {4}, "acc");
  const int i_out = b.AddTensor(kI32, {1}, "i_out");
  const int n_out = b.AddTensor(kI32, {1}, "n_out");
  const int acc_out = b.AddTensor(kF32, {4}, "acc_out");
  tflite::WhileOptionsT w;
  w.cond_subgraph_index = 1;
  w.body_subgraph_index = 2;
  b.AddOperator(tflite::BuiltinOperator_WHILE, {i, n, acc}, {i_out, n_out, acc_out}, Options(w));
  b.SetInputs({i, n, acc});
  b.SetOutputs({i_out, n_out, acc_out});
  b.UseSubgraph(b.AddSubgraph("cond"));
  const int ci = b.AddTensor(kI32, {1}, "i");
  const int cn = b.AddTensor(kI32, {1}, "n");
  const int cacc = b.AddTensor(kF32, {4}, "acc");
  const int less = b.AddTensor(tflite::TensorType_BOOL, {1}, "less");
  b.AddOperator(tflite::BuiltinOperator_LESS, {ci, cn}, {less});
  b.SetInputs({ci, cn, cacc});
  b.SetOutputs({less});
  b.UseSubgraph(b.AddSubgraph("body"));
  const int bi = b.AddTensor(kI32, {1}, "i");
  const int bn = b.AddTensor(kI32, {1}, "n");
  const int bacc = b.AddTensor(kF32, {4}, "acc");
  const int one = b.AddConstTensor<int32_t>(kI32, {1}, {1}, "one");
  const int bi2 = b.AddTensor(kI32, {1}, "i2");
  const int bacc2 = b.AddTensor(kF32, {4}, "acc2");
  b.AddOperator(tflite::BuiltinOperator_ADD, {bi, one}, {bi2}, Options(tflite::AddOptionsT()));
  b.AddOperator(tflite::BuiltinOperator_ADD, {bacc, bacc}, {bacc2}, Options(tflite::AddOptionsT()));
  b.SetInputs({bi, bn, bacc});
  b.SetOutputs({bi2, bn, bacc2});
  return b.Build();
}

TEST_CASE("control flow: every subgraph is reported") {
  Harness h(WhileModel());
  h.AddTest({"ADD"});
  const DelegateReport r = h.Report();
  REQUIRE(r.subgraphs.size() == 3);
  CHECK(r.subgraphs[0].partitions.empty());
  CHECK(r.subgraphs[0].nodes[0].op == "WHILE");
  CHECK(r.subgraphs[0].nodes[0].reasons[0].reason == "WHILE is not in options.ops");
  CHECK(r.subgraphs[1].name == "cond");
  CHECK(r.subgraphs[1].cpu_nodes == 1);
  const SubgraphReport& body = r.subgraphs[2];
  REQUIRE(body.partitions.size() == 1);
  CHECK(body.partitions[0].nodes == std::vector<int>{0, 1});
  // Reads i (4 bytes) and acc (16) from the subgraph's inputs, writes i2 and acc2 to its
  // outputs; `one` is a constant and n only passes through.
  CHECK(body.boundary_bytes == 4 + 16 + 4 + 16);
  CHECK(body.summary ==
        "2 of 2 nodes in 1 partition on TestDelegate; 0 nodes on CPU; 40 bytes cross "
        "boundaries per inference");
  CHECK(r.summary ==
        "2 of 4 nodes in 1 partition on TestDelegate; 2 nodes on CPU; 40 bytes cross "
        "boundaries per inference");
}

TEST_CASE("no delegates: everything on the CPU, nothing crosses") {
  Harness h(ChainModel());
  const DelegateReport r = h.Report();
  CHECK(r.summary ==
        "0 of 5 nodes delegated; 5 nodes on CPU; 0 bytes cross boundaries per inference");
  CHECK(r.subgraphs[0].nodes[4].reasons.empty());
}

// in -> ADD(c16) -> MUL -> out, where c16 is a DEQUANTIZE of fp16 weights (folded: it
// runs once in AllocateTensors), as in fp16 models.
std::vector<uint8_t> Fp16ConstModel() {
  ModelBuilder b;
  const int in = b.AddTensor(kF32, {1, 8}, "in");
  const int h = b.AddConstTensor<uint16_t>(tflite::TensorType_FLOAT16, {1, 8},
                                           std::vector<uint16_t>(8, 0x3800), "half");  // 0.5
  const int c = b.AddTensor(kF32, {1, 8}, "c");
  const int a = b.AddTensor(kF32, {1, 8}, "a");
  const int out = b.AddTensor(kF32, {1, 8}, "out");
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {h}, {c}, {}, 3);
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, c}, {a}, Options(tflite::AddOptionsT()));
  b.AddOperator(tflite::BuiltinOperator_MUL, {a, c}, {out}, Options(tflite::MulOptionsT()));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Build();
}

TEST_CASE("DOT and HTML draw a folded constant as a property of its readers, not a node") {
  Harness h(Fp16ConstModel());
  DelegateReport r = h.Report();
  const SubgraphReport& sr = r.subgraphs[0];
  REQUIRE(sr.FindNode(0) != nullptr);
  REQUIRE(sr.FindNode(0)->folded);
  CHECK(sr.FindNode(0)->constant_only);
  CHECK_FALSE(sr.FindNode(1)->constant_only);
  const auto by_reader = ConstantInputsByReader(sr);
  CHECK(by_reader.size() == 2);  // ADD and MUL both read it
  CHECK(ConstantSummary(by_reader.at(1)) == "1 constant (DEQUANTIZE)");
  const std::string dot = FormatDelegateReportDot(r);
  CHECK(dot.find("s0_n0 ") == std::string::npos);     // no node of its own
  CHECK(dot.find("s0_n0 ->") == std::string::npos);   // no edges from it
  CHECK(dot.find("s0_n1 [label=\"#1 ADD v1\\n+ 1 constant (DEQUANTIZE)\"") != std::string::npos);
  CHECK(dot.find("reads #0 DEQUANTIZE (constant)") != std::string::npos);
  const std::string html = FormatDelegateReportHtml(r);
  CHECK(html.find("data-search=\"#0 dequantize") == std::string::npos);  // (the plan strip keeps it)
  CHECK(html.find("+ 1 constant (DEQUANTIZE): #0 DEQUANTIZE") != std::string::npos);
  CHECK(html.find(">+1</text>") != std::string::npos);
}

TEST_CASE("formats: JSON fields, DOT edges with bytes, HTML with nothing fetched") {
  Harness h(ChainModel());
  h.AddTest({"ADD", "SUB"});
  DelegateReport r = h.Report();
  r.model = "chain.tflite";
  const nlohmann::json j = DelegateReportToJson(r);
  CHECK(j["schema_version"] == 1);
  CHECK(j["boundary_bytes"] == 128);
  CHECK(j["delegates"][0]["status"] == "applied");
  const auto& sg = j["subgraphs"][0];
  CHECK(sg["partitions"][1]["nodes"] == nlohmann::json::array({2, 3}));
  CHECK(sg["nodes"][1]["owner"] == "cpu");
  CHECK(sg["nodes"][1]["cpu_reasons"][0]["kind"] == "unsupported");
  CHECK(sg["nodes"][0]["owner"] == "TestDelegate");
  CHECK(sg["boundary"]["tensors"][0]["peers"][0]["kind"] == "graph_input");
  CHECK(sg["delegates"][0]["left"][0]["reason"] == "MUL is not in options.ops");

  const std::string dot = FormatDelegateReportDot(r);
  CHECK(dot.rfind("digraph delegate_report {", 0) == 0);
  CHECK(dot.find("s0_n0 -> s0_n1 [label=\"t2: 32 B\"") != std::string::npos);  // a, P0 -> CPU
  CHECK(dot.find("s0_n2 -> s0_n3;") != std::string::npos);  // inside P1: no label
  CHECK(dot.find("s0_in0 -> s0_n0 [label=\"t0: 32 B\"") != std::string::npos);
  CHECK(dot.find("subgraph cluster_s0_p1") != std::string::npos);

  const std::string html = FormatDelegateReportHtml(r);
  CHECK(html.find("<svg") != std::string::npos);
  // One inline script (zoom, pan, search), nothing fetched.
  CHECK(html.find("<script src") == std::string::npos);
  CHECK(html.find("http") == std::string::npos);
  CHECK(html.find("data-search=\"#1 mul v1: cpu") != std::string::npos);
  CHECK(html.find("<input id=\"q\" type=\"search\"") != std::string::npos);
  CHECK(html.find(r.summary) != std::string::npos);
  CHECK(html.find("MUL is not in options.ops") != std::string::npos);

  const std::string text = FormatDelegateReportText(r);
  CHECK(text.find("summary: " + r.summary) != std::string::npos);
  CHECK(text.find("    not taken (2):\n      MUL is not in options.ops (2):\n"
                  "        #1 MUL v1, #4 MUL v1\n") != std::string::npos);
  CHECK(text.find("    TestDelegate partition 0 (DELEGATE node 5):\n"
                  "      in:  tensor 0 'in' float32[1,8]: 32 bytes, from graph input\n"
                  "      out: tensor 2 'a' float32[1,8]: 32 bytes, to CPU #1 MUL, CPU #4 MUL\n") !=
        std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
