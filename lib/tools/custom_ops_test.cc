// Custom-op libraries for the tools: the bundled "mediapipe" library, the example plugin
// (loaded with dlopen, run in a one-node model) and each way loading a plugin can fail.
#include "tools/custom_ops.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "kernels/testing/op_test_util.h"
#include "resolver/op_catalog.h"
#include "tensorflow/lite/kernels/register.h"

namespace fs = std::filesystem;

namespace tflite_inspect {
namespace {

TEST_CASE("the bundled mediapipe library adds the MediaPipe ops with their versions") {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  CHECK(resolver.FindOp("Convolution2DTransposeBias", 1) == nullptr);
  CustomOpLibraryHandles handles;
  REQUIRE(AddCustomOpLibraries({"mediapipe"}, {}, &resolver, &handles).ok());
  CHECK(handles.size() == 0);
  CHECK(resolver.FindOp("Convolution2DTransposeBias", 1) != nullptr);
  CHECK(resolver.FindOp("MaxPoolingWithArgmax2D", 1) != nullptr);
  CHECK(resolver.FindOp("MaxUnpooling2D", 1) != nullptr);
  for (const char* op :
       {"Landmarks2TransformMatrix", "TransformLandmarks", "TransformTensorBilinear"}) {
    CAPTURE(op);
    CHECK(resolver.FindOp(op, 1) == nullptr);
    CHECK(resolver.FindOp(op, 2) != nullptr);
  }
  // The catalog inspect_ops --check_resolver uses now lists them.
  CHECK(resolver.Catalog().HasCustom("TransformLandmarks", 2));
  CHECK(BundledCustomOpLibraries() == std::vector<std::string>{"mediapipe"});
}

TEST_CASE("an unknown bundled library is an error that lists the known ones") {
  tflite::MutableOpResolver resolver;
  CustomOpLibraryHandles handles;
  Status st = AddCustomOpLibraries({"mediapipe", "opencv"}, {}, &resolver, &handles);
  REQUIRE_FALSE(st.ok());
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message() == "unknown custom op library 'opencv' in --custom_ops (known: mediapipe)");
}

TEST_CASE("the example plugin registers ExampleTwice, which runs") {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  CustomOpLibraryHandles handles;
  Status st = AddCustomOpLibraries({}, {TFI_EXAMPLE_PLUGIN}, &resolver, &handles);
  INFO(st.message());
  REQUIRE(st.ok());
  CHECK(handles.size() == 1);
  REQUIRE(resolver.FindOp("ExampleTwice", 1) != nullptr);

  ModelBuilder mb;
  int in = mb.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "in");
  int out = mb.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "out");
  mb.AddCustomOperator("ExampleTwice", {in}, {out});
  mb.SetInputs({in});
  mb.SetOutputs({out});
  OpTestModel m(mb, 1, &resolver);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1, -2, 3.5f, 0, 10, -0.25f});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{2, -4, 7, 0, 20, -0.5f});

  // Its Prepare reports through the context like a builtin.
  ModelBuilder bad;
  int i8 = bad.AddTensor(tflite::TensorType_INT8, {2}, "in");
  int o8 = bad.AddTensor(tflite::TensorType_INT8, {2}, "out");
  bad.AddCustomOperator("ExampleTwice", {i8}, {o8});
  bad.SetInputs({i8});
  bad.SetOutputs({o8});
  OpTestModel mbad(bad, 1, &resolver);
  CHECK(mbad.Prepare() == kTfLiteError);
  CHECK_THAT(mbad.errors(), Catch::Contains("ExampleTwice: only float32"));
}

Status Load(const std::string& path) {
  tflite::MutableOpResolver resolver;
  CustomOpLibraryHandles handles;
  return AddCustomOpLibraries({}, {path}, &resolver, &handles);
}

TEST_CASE("plugin load failures name the path and the reason") {
  SECTION("missing file") {
    Status st = Load("/nonexistent/libnothing.so");
    CHECK(st.message() ==
          "failed to load custom op library '/nonexistent/libnothing.so': file not found");
  }
  SECTION("not a shared object: dlopen's own message") {
    const fs::path p = fs::temp_directory_path() / "tfi_custom_ops_test_not_a_library.so";
    std::ofstream(p) << "this is text, not ELF\n";
    Status st = Load(p.string());
    fs::remove(p);
    CHECK_THAT(st.message(), Catch::StartsWith("failed to load custom op library '" + p.string() +
                                               "': dlopen failed: "));
    CHECK_THAT(st.message(),
               Catch::Contains("invalid ELF header") || Catch::Contains("file too short"));
  }
  SECTION("a directory") {
    Status st = Load(fs::temp_directory_path().string());
    CHECK_THAT(st.message(), Catch::EndsWith("not a regular file"));
  }
  SECTION("no registration symbol") {
    Status st = Load(TFI_PLUGIN_NO_SYMBOL);
    CHECK_THAT(st.message(), Catch::Contains(TFI_PLUGIN_NO_SYMBOL));
    CHECK_THAT(st.message(), Catch::Contains("it does not export TfliteInspectRegisterCustomOps"));
  }
  SECTION("the registration function fails") {
    Status st = Load(TFI_PLUGIN_FAILS);
    CHECK_THAT(st.message(), Catch::Contains(TFI_PLUGIN_FAILS));
    CHECK_THAT(st.message(), Catch::EndsWith("TfliteInspectRegisterCustomOps returned an error"));
  }
}

TEST_CASE("custom-op flags repeat or take comma-separated lists") {
  CLI::App app{"t"};
  std::string graph;
  app.add_option("model", graph);
  CustomOpFlags flags;
  AddCustomOpFlags(app, &flags);
  const char* argv[] = {"t",
                        "--custom_ops=mediapipe",
                        "--custom_op_library=a.so,b.so",
                        "--custom_op_library",
                        "c.so",
                        "m.tflite"};
  REQUIRE_NOTHROW(app.parse(6, argv));
  CHECK(flags.custom_ops == std::vector<std::string>{"mediapipe"});
  CHECK(flags.custom_op_library == std::vector<std::string>{"a.so", "b.so", "c.so"});
  CHECK(graph == "m.tflite");
}

}  // namespace
}  // namespace tflite_inspect
