// External delegates: the option syntax, every way loading a plugin can fail, and the
// example plugin (the ADD/SUB sample delegate) loaded through the tools' provider,
// computing what the CPU computes with the partitions the sample delegate makes.
#include "external/external_delegate.h"

#include <fstream>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "tools/providers/external_provider.h"
#include "runtime/delegation_record.h"
#include "tools/providers/sample_provider.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"

namespace tflite_inspect {
namespace {

using Pairs = std::vector<ExternalDelegateOption>;

// --- Option strings ------------------------------------------------------------------

TEST_CASE("external delegate options: good strings") {
  auto parse = [](const std::string& s) {
    auto r = ParseExternalDelegateOptions(s);
    REQUIRE(r.ok());
    return r.value();
  };
  CHECK(parse("").empty());
  CHECK(parse(";;;").empty());
  CHECK(parse("a:1") == Pairs{{"a", "1"}});
  CHECK(parse("a:1;b:2") == Pairs{{"a", "1"}, {"b", "2"}});
  CHECK(parse(";a:1;;b:2;") == Pairs{{"a", "1"}, {"b", "2"}});
  CHECK(parse("a:") == Pairs{{"a", ""}});
  CHECK(parse("path:/x/y:z;url:http://h:80/p") ==
        Pairs{{"path", "/x/y:z"}, {"url", "http://h:80/p"}});
  CHECK(parse(" a : 1 ") == Pairs{{" a ", " 1 "}});  // as written: no trimming
  CHECK(parse("a:1;a:2") == Pairs{{"a", "1"}, {"a", "2"}});  // order kept, plugin decides
}

TEST_CASE("external delegate options: bad strings name the pair and its position") {
  auto error = [](const std::string& s) {
    auto r = ParseExternalDelegateOptions(s);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == StatusCode::kInvalidArgument);
    return r.status().message();
  };
  CHECK(error("nocolon") ==
        "option pair 1 'nocolon' in 'nocolon' has no ':' (expected key:value pairs separated by "
        "';')");
  CHECK(error("a:1;;b") ==
        "option pair 3 'b' in 'a:1;;b' has no ':' (expected key:value pairs separated by ';')");
  CHECK(error("a:1;:2") == "option pair 2 ':2' in 'a:1;:2' has an empty key (expected key:value)");
  CHECK(error(":") == "option pair 1 ':' in ':' has an empty key (expected key:value)");
  CHECK(error("a:1,b:2;c") ==
        "option pair 2 'c' in 'a:1,b:2;c' has no ':' (expected key:value pairs separated by ';')");
}

// --- Loading: every failure path -----------------------------------------------------

std::string LoadError(const std::string& path, const Pairs& options = {},
                      std::vector<std::string>* log = nullptr) {
  auto r = LoadExternalDelegate(path, options, [log](const std::string& line) {
    if (log != nullptr) log->push_back(line);
  });
  REQUIRE_FALSE(r.ok());
  return r.status().message();
}

TEST_CASE("external delegate: a missing file, a folder, a file that is no shared object") {
  CHECK(LoadError("/nonexistent/libnothing.so") ==
        "failed to load external delegate '/nonexistent/libnothing.so': file not found");
  CHECK(LoadError(TFI_SOURCE_DIR) ==
        std::string("failed to load external delegate '") + TFI_SOURCE_DIR +
            "': not a regular file");
  const std::string text = std::string(TFI_BINARY_DIR) + "/external_delegate_test_not_elf.so";
  {
    std::ofstream f(text);
    for (int i = 0; i < 16; ++i) f << "this is not an ELF file\n";  // longer than an ELF header
  }
  const std::string e = LoadError(text);
  CHECK(e.rfind("failed to load external delegate '" + text + "': dlopen failed: " + text, 0) == 0);
  CHECK(e.find("invalid ELF header") != std::string::npos);
}

TEST_CASE("external delegate: missing symbols are named with the path") {
  const std::string none = TFI_EXTERNAL_NO_SYMBOLS;
  CHECK(LoadError(none) == "failed to load external delegate '" + none +
                               "': it does not export tflite_plugin_create_delegate (declare it "
                               "extern \"C\" with default visibility; see docs/delegates.md)");
  const std::string no_destroy = TFI_EXTERNAL_NO_DESTROY;
  CHECK(LoadError(no_destroy) == "failed to load external delegate '" + no_destroy +
                                     "': it does not export tflite_plugin_destroy_delegate "
                                     "(declare it extern \"C\" with default visibility; see "
                                     "docs/delegates.md)");
}

TEST_CASE("external delegate: create returning NULL carries what the plugin reported") {
  const std::string path = TFI_EXTERNAL_CREATE_FAILS;
  std::vector<std::string> log;
  CHECK(LoadError(path, {{"k", "v"}}, &log) ==
        "failed to create external delegate '" + path +
            "': tflite_plugin_create_delegate returned NULL; the plugin reported: test plugin: "
            "cannot reach the accelerator; test plugin: got options");
  CHECK(log == std::vector<std::string>{
                   "external delegate " + path + ": test plugin: cannot reach the accelerator",
                   "external delegate " + path + ": test plugin: got options"});

  const std::string example = TFI_EXAMPLE_EXTERNAL_DELEGATE;
  log.clear();
  CHECK(LoadError(example, {{"max_delegated_partitions", "1"}, {"colour", "red"}}, &log) ==
        "failed to create external delegate '" + example +
            "': tflite_plugin_create_delegate returned NULL; the plugin reported: sample external "
            "delegate: unknown option 'colour' (known: max_delegated_partitions, "
            "min_nodes_per_partition)");
  CHECK(log.size() == 1);
  CHECK(LoadError(example, {{"min_nodes_per_partition", "two"}}) ==
        "failed to create external delegate '" + example +
            "': tflite_plugin_create_delegate returned NULL; the plugin reported: sample external "
            "delegate: option 'min_nodes_per_partition' needs an integer, got 'two'");
}

// --- The example plugin through the provider -----------------------------------------

// in -ADD c-> a -SUB c-> s -MUL c-> m -ADD(RELU) m-> r -ADD row(broadcast)-> out.
// The sample delegate takes {ADD, SUB} and {ADD(RELU)}; MUL and the broadcasting ADD stay.
std::vector<uint8_t> AddSubGraph() {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "in");
  const int c = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 2, 2}, {1, -2, 3, -4}, "c");
  const int row = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2}, {1, 1}, "row");
  const int a = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "a");
  const int s = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "s");
  const int m = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "m");
  const int r = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "r");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, c}, {a}, Options(tflite::AddOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_SUB, {a, c}, {s}, Options(tflite::SubOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_MUL, {s, c}, {m}, Options(tflite::MulOptionsT{}));
  tflite::AddOptionsT relu;
  relu.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_ADD, {m, m}, {r}, Options(relu));
  b.AddOperator(tflite::BuiltinOperator_ADD, {r, row}, {out}, Options(tflite::AddOptionsT{}));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Build();
}

struct Ran {
  std::vector<float> out;
  std::vector<std::string> plan;                       // op names in execution order
  std::vector<std::vector<std::vector<int>>> records;  // per delegate: partitions' nodes
  std::vector<AppliedDelegate> applied;
};

// Builds the graph, applies `delegates` in order as the tools do, runs it once.
Ran RunGraph(std::vector<DelegateInstance>* delegates) {
  const auto bytes = AddSubGraph();
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size());
  REQUIRE(model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  REQUIRE(tflite::InterpreterBuilder(*model, resolver)(&interpreter) == kTfLiteOk);
  Ran ran;
  if (delegates != nullptr) {
    auto applied = ApplyDelegates(interpreter.get(), *delegates, /*strict=*/true);
    REQUIRE(applied.ok());
    ran.applied = applied.value();
  }
  REQUIRE(interpreter->AllocateTensors() == kTfLiteOk);
  float* in = interpreter->typed_input_tensor<float>(0);
  for (int i = 0; i < 4; ++i) in[i] = 0.75f * static_cast<float>(i) - 1.5f;
  REQUIRE(interpreter->Invoke() == kTfLiteOk);
  const float* out = interpreter->typed_output_tensor<float>(0);
  ran.out.assign(out, out + 4);
  for (int n : interpreter->execution_plan()) {
    ran.plan.push_back(interpreter->primary_subgraph().OpName(n));
  }
  for (const auto& r : interpreter->primary_subgraph().delegation_records()) {
    std::vector<std::vector<int>> parts;
    for (const auto& p : r->partitions) parts.push_back(p.nodes);
    ran.records.push_back(parts);
  }
  return ran;  // the interpreter goes before the delegates (the caller's)
}

// Parses `args` with a registry holding the external provider (and the sample one, for
// ordering) and returns the delegates in application order, or the error.
Result<std::vector<DelegateInstance>> FromFlags(std::vector<std::string> args,
                                                std::vector<std::string>* log = nullptr) {
  DelegateRegistry registry;
  registry.Add(CreateSampleDelegateProvider());
  registry.Add(CreateExternalDelegateProvider([log](const std::string& line) {
    if (log != nullptr) log->push_back(line);
  }));
  CLI::App app{"test"};
  registry.AddFlags(app);
  args.insert(args.begin(), "test");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  return registry.Plan(app).create(/*num_threads=*/1);
}

const std::string kPlugin = TFI_EXAMPLE_EXTERNAL_DELEGATE;

TEST_CASE("external delegate: the example plugin runs ADD/SUB as the CPU does") {
  const Ran cpu = RunGraph(nullptr);
  CHECK(cpu.plan == std::vector<std::string>{"ADD", "SUB", "MUL", "ADD", "ADD"});

  auto delegates = FromFlags({"--external_delegate_path=" + kPlugin});
  REQUIRE(delegates.ok());
  REQUIRE(delegates->size() == 1);
  CHECK(delegates.value()[0].label == "external(" + kPlugin + ")");
  CHECK(delegates.value()[0].keepalive != nullptr);
  const Ran ran = RunGraph(&delegates.value());
  CHECK(ran.out == cpu.out);
  CHECK(ran.plan == std::vector<std::string>{"SampleDelegate", "MUL", "SampleDelegate", "ADD"});
  REQUIRE(ran.records.size() == 1);
  CHECK(ran.records[0] == std::vector<std::vector<int>>{{0, 1}, {3}});
  REQUIRE(ran.applied.size() == 1);
  CHECK(ran.applied[0].status == kTfLiteOk);
}

TEST_CASE("external delegate: plugin options reach the plugin") {
  const Ran cpu = RunGraph(nullptr);
  SECTION("max_delegated_partitions:1 keeps the larger partition") {
    auto delegates = FromFlags({"--external_delegate_path", kPlugin,
                                "--external_delegate_options=max_delegated_partitions:1"});
    REQUIRE(delegates.ok());
    const Ran ran = RunGraph(&delegates.value());
    CHECK(ran.out == cpu.out);
    CHECK(ran.plan == std::vector<std::string>{"SampleDelegate", "MUL", "ADD", "ADD"});
    CHECK(ran.records.at(0) == std::vector<std::vector<int>>{{0, 1}});
  }
  SECTION("min_nodes_per_partition:3 leaves everything on the CPU") {
    auto delegates = FromFlags({"--external_delegate_path", kPlugin, "--external_delegate_options",
                                "min_nodes_per_partition:3;"});
    REQUIRE(delegates.ok());
    const Ran ran = RunGraph(&delegates.value());
    CHECK(ran.out == cpu.out);
    CHECK(ran.plan == cpu.plan);
    CHECK(ran.records.at(0).empty());
  }
}

TEST_CASE("external delegate: several plugins apply in command-line order") {
  const Ran cpu = RunGraph(nullptr);
  SECTION("limited first: the second one takes the partition the first left") {
    auto delegates = FromFlags({"--external_delegate_path=" + kPlugin,
                                "--external_delegate_options=max_delegated_partitions:1",
                                "--external_delegate_path=" + kPlugin,
                                "--external_delegate_options", ""});
    REQUIRE(delegates.ok());
    REQUIRE(delegates->size() == 2);
    const Ran ran = RunGraph(&delegates.value());
    CHECK(ran.out == cpu.out);
    CHECK(ran.plan == std::vector<std::string>{"SampleDelegate", "MUL", "SampleDelegate", "ADD"});
    CHECK(ran.records == std::vector<std::vector<std::vector<int>>>{{{0, 1}}, {{3}}});
  }
  SECTION("unlimited first: nothing is left for the second") {
    auto delegates = FromFlags({"--external_delegate_path=" + kPlugin,
                                "--external_delegate_options=;", "--external_delegate_path",
                                kPlugin, "--external_delegate_options",
                                "max_delegated_partitions:1"});
    REQUIRE(delegates.ok());
    const Ran ran = RunGraph(&delegates.value());
    CHECK(ran.out == cpu.out);
    CHECK(ran.records == std::vector<std::vector<std::vector<int>>>{{{0, 1}, {3}}, {}});
  }
  SECTION("interleaved with another provider's flag") {
    auto delegates = FromFlags({"--external_delegate_path=" + kPlugin, "--use_sample_delegate",
                                "--external_delegate_path=" + kPlugin});
    REQUIRE(delegates.ok());
    std::vector<std::string> order;
    for (const auto& d : delegates.value()) order.push_back(d.provider);
    CHECK(order == std::vector<std::string>{"external", "sample", "external"});
  }
}

TEST_CASE("external delegate flags: usage errors explain the rule") {
  auto error = [](std::vector<std::string> args) {
    auto r = FromFlags(std::move(args));
    REQUIRE_FALSE(r.ok());
    return r.status().message();
  };
  const std::string rule =
      "give --external_delegate_options once per --external_delegate_path (the n-th options go "
      "to the n-th path; use '' for a plugin without options), or not at all";
  CHECK(error({"--external_delegate_path=" + kPlugin, "--external_delegate_path=" + kPlugin,
               "--external_delegate_options=max_delegated_partitions:1"}) ==
        "2 --external_delegate_path and 1 --external_delegate_options: " + rule);
  CHECK(error({"--external_delegate_options=a:1"}) ==
        "0 --external_delegate_path and 1 --external_delegate_options: " + rule);
  CHECK(error({"--external_delegate_path=" + kPlugin, "--external_delegate_options=a:1",
               "--external_delegate_path=/nonexistent.so", "--external_delegate_options=b"}) ==
        "--external_delegate_options #2 (for '/nonexistent.so'): option pair 1 'b' in 'b' has no "
        "':' (expected key:value pairs separated by ';')");
  // Options are checked before any plugin loads; then the first failing plugin is named.
  CHECK(error({"--external_delegate_path=" + kPlugin, "--external_delegate_path=/nonexistent.so"}) ==
        "failed to load external delegate '/nonexistent.so': file not found");
}

TEST_CASE("external delegate: the plugin's messages reach the log with its path") {
  std::vector<std::string> log;
  auto r = FromFlags({"--external_delegate_path=" + kPlugin, "--external_delegate_options=x:1"},
                     &log);
  REQUIRE_FALSE(r.ok());
  CHECK(log == std::vector<std::string>{"external delegate " + kPlugin +
                                        ": sample external delegate: unknown option 'x' (known: "
                                        "max_delegated_partitions, min_nodes_per_partition)"});
  CHECK(r.status().message().find("unknown option 'x'") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
