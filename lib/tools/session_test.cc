#include "tools/session.h"

#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "runtime/delegation_record.h"
#include "runtime/thread_pool.h"
#include "tensorflow/lite/kernels/register.h"
#include "tools/providers/sample_provider.h"

namespace tflite_inspect {
namespace {

const std::string kModel = std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_float.tflite";

TEST_CASE("Session::Open runs the steps in order and owns what it made") {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  SessionOptions o;
  o.graph = kModel;
  std::vector<SessionStage> seen;
  o.progress = [&](SessionStage done, Session&) { seen.push_back(done); };
  int hooks = 0;
  o.after_build = [&](tflite::Interpreter&) { return ++hooks == 1 ? Status::Ok() : InvalidArgument("order"); };
  o.before_allocate = [&](tflite::Subgraph&) { return ++hooks == 2 ? Status::Ok() : InvalidArgument("order"); };
  auto s = Session::Open(o, resolver, DelegatePlan());
  REQUIRE(s.ok());
  CHECK(hooks == 2);
  CHECK(seen == std::vector<SessionStage>{SessionStage::kLoad, SessionStage::kBuild,
                                          SessionStage::kCreateDelegates,
                                          SessionStage::kApplyDelegates,
                                          SessionStage::kBeforeAllocate, SessionStage::kAllocate});
  CHECK(s.value()->delegates().empty());
  CHECK(s.value()->interpreter().Invoke() == kTfLiteOk);
  CHECK(s.value()->interpreter().arena_bytes() > 0);
}

TEST_CASE("Session::Open warns once when threads exceed the CPUs it may run on") {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  const int cpus = tflite::thread_pool::AvailableCpus();
  for (int threads : {cpus, cpus + 2}) {
    SessionOptions o;
    o.graph = kModel;
    o.num_threads = threads;
    std::vector<std::string> warnings;
    o.warn = [&](const std::string& w) { warnings.push_back(w); };
    auto s = Session::Open(o, resolver, DelegatePlan());
    REQUIRE(s.ok());
    CHECK(s.value()->interpreter().Invoke() == kTfLiteOk);
    if (threads == cpus) {
      CHECK(warnings.empty());
    } else {
      REQUIRE(warnings.size() == 1);
      CHECK(warnings[0] == std::to_string(cpus + 2) + " threads requested, this process may run on " +
                               std::to_string(cpus) + " CPUs: " + std::to_string(cpus) +
                               " threads run (more would only take turns on them)");
    }
  }
}

TEST_CASE("Session::Open names the step that failed, and the tool words it") {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  SessionOptions o;
  o.graph = "/nonexistent.tflite";
  SessionStage at = SessionStage::kOpen;
  auto s = Session::Open(o, resolver, DelegatePlan(), &at);
  REQUIRE_FALSE(s.ok());
  CHECK(at == SessionStage::kLoad);
  const Status st = SessionError(at, s.status(), {"cannot load: ", "", ""});
  CHECK(st.code() == StatusCode::kInvalidModel);
  CHECK(st.message().rfind("cannot load: ", 0) == 0);
  CHECK_THAT(st.message(), Catch::Contains("/nonexistent.tflite"));

  // An unknown --target_runtime fails the load step with its own message.
  o.graph = kModel;
  o.target_runtime = "0.1";
  s = Session::Open(o, resolver, DelegatePlan(), &at);
  REQUIRE_FALSE(s.ok());
  CHECK(at == SessionStage::kLoad);
  CHECK(SessionError(at, s.status(), {"x", "", ""}).code() == StatusCode::kInvalidArgument);

  // A hook's failure is the hook's status, at its step.
  o.target_runtime.clear();
  o.before_allocate = [](tflite::Subgraph&) { return InvalidArgument("no such input"); };
  s = Session::Open(o, resolver, DelegatePlan(), &at);
  REQUIRE_FALSE(s.ok());
  CHECK(at == SessionStage::kBeforeAllocate);
  CHECK(s.status().message() == "no such input");
}

// The plan's order is the parse order of the delegates' flags, whatever the registry's.
TEST_CASE("Session::Open reports a default delegate that could not be made, and runs without it") {
  // What the XNNPACK provider returns when XNNPACK cannot initialize (cpuinfo without /sys).
  tflite::ops::builtin::BuiltinOpResolver resolver;
  SessionOptions o;
  o.graph = kModel;
  std::vector<DelegateInstance> made(1);
  made[0].provider = "xnnpack";
  made[0].label = "XNNPACK";
  made[0].by_default = true;
  made[0].unavailable = "XNNPACK cannot initialize: cpuinfo cannot describe this CPU";
  auto s = Session::Open(o, resolver, DelegatePlan::Of(std::move(made), /*strict=*/true));
  REQUIRE(s.ok());  // not an error, even under --delegate_strict: nobody asked for it
  REQUIRE(s.value()->applied().size() == 1);
  const AppliedDelegate& a = s.value()->applied()[0];
  CHECK(a.label == "XNNPACK");
  CHECK(a.status != kTfLiteOk);
  CHECK(a.message == "XNNPACK cannot initialize: cpuinfo cannot describe this CPU");
  tflite::Interpreter& interpreter = s.value()->interpreter();
  for (int n : interpreter.execution_plan()) {
    CHECK(interpreter.node_and_registration(n)->first.delegate == nullptr);
  }
  CHECK(interpreter.Invoke() == kTfLiteOk);
}

TEST_CASE("DelegateRegistry::Plan orders delegates by where their flags were parsed") {
  for (const bool sample_first : {true, false}) {
    DelegateRegistry registry;
    registry.Add(CreateSampleDelegateProvider());
    registry.Add(CreateTestDelegateProvider());
    CLI::App app{"test"};
    registry.AddFlags(app);
    std::vector<const char*> argv = {"test", "--use_sample_delegate", "--test_delegate_ops=ADD"};
    if (!sample_first) std::swap(argv[1], argv[2]);
    app.parse(static_cast<int>(argv.size()), argv.data());
    DelegatePlan plan = registry.Plan(app);
    auto made = plan.create(1);
    REQUIRE(made.ok());
    REQUIRE(made->size() == 2);
    CAPTURE(sample_first);
    CHECK(made.value()[0].provider == (sample_first ? "sample" : "test"));
    CHECK(made.value()[1].provider == (sample_first ? "test" : "sample"));
  }
}

TEST_CASE("OptionsAsFlags replaces whole option names only") {
  const OptionFlags flags = {{"options.ops", "--test_delegate_ops"}};
  CHECK(OptionsAsFlags("MUL is not in options.ops", flags) == "MUL is not in --test_delegate_ops");
  CHECK(OptionsAsFlags("options.ops, options.ops_limit and options.ops.", flags) ==
        "--test_delegate_ops, options.ops_limit and --test_delegate_ops.");
  CHECK(OptionsAsFlags("options.ops_limit", flags) == "options.ops_limit");
}

TEST_CASE("A delegate names its options, the tools name the flags") {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  SessionOptions o;
  o.graph = kModel;
  auto reasons_with = [&](DelegatePlan plan) {
    auto s = Session::Open(o, resolver, std::move(plan));
    REQUIRE(s.ok());
    const auto& records = s.value()->interpreter().primary_subgraph().delegation_records();
    REQUIRE(records.size() == 1);
    REQUIRE_FALSE(records[0]->unsupported.empty());
    return records[0]->unsupported.begin()->second;
  };
  // Made by the registry from parsed flags: the flag.
  DelegateRegistry registry;
  registry.Add(CreateTestDelegateProvider());
  CLI::App app{"test"};
  registry.AddFlags(app);
  std::vector<const char*> argv = {"test", "--test_delegate_ops=NO_SUCH_OP"};
  app.parse(static_cast<int>(argv.size()), argv.data());
  const std::string from_flags = reasons_with(registry.Plan(app));
  CHECK(from_flags.find(" is not in --test_delegate_ops") != std::string::npos);
  // Made by a library user: the option.
  auto made = registry.Plan(app).create(1);
  REQUIRE(made.ok());
  made.value()[0].option_flags.clear();
  const std::string from_options = reasons_with(DelegatePlan::Of(std::move(made.value())));
  CHECK(from_options.find(" is not in options.ops") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
