// End to end: MediaPipe models that need the custom ops, run with BuiltinOpResolver plus
// RegisterMediaPipeOps. selfie_segmentation is compared with a golden from TFLite +
// XNNPACK (max abs error <= 1e-4 * max(1, max|ref|)); face_landmark_with_attention has
// no golden (stock TFLite cannot run it), so it must build, run and give finite outputs.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "custom_ops/mediapipe/mediapipe_ops.h"
#include "tensorflow/lite/kernels/register.h"
#include "tools/run_model.h"

namespace fs = std::filesystem;

namespace tflite_inspect {
namespace {

const fs::path kShared = fs::path(TFI_SHARED_DIR) / "models";

std::vector<uint8_t> ReadBytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::vector<float> AsFloats(const std::vector<uint8_t>& bytes) {
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
  return v;
}

struct MediaPipeResolver : tflite::ops::builtin::BuiltinOpResolver {
  MediaPipeResolver() { RegisterMediaPipeOps(this); }
};

TEST_CASE("selfie_segmentation matches TFLite's output (Convolution2DTransposeBias)") {
  const fs::path model = kShared / "mediapipe" / "selfie_segmentation.tflite";
  const fs::path golden = kShared / "goldens" / "mediapipe" / "selfie_segmentation";
  if (!fs::exists(model) || !fs::exists(golden / "output_0.bin")) {
    WARN("skipped: " << model << " or its golden is absent");
    return;
  }
  RunOptions options;
  options.graph = model.string();
  options.input_files = {(golden / "input_0.bin").string()};
  MediaPipeResolver resolver;
  auto result = RunModel(options, resolver);
  INFO((result.ok() ? std::string() : result.status().message()));
  REQUIRE(result.ok());
  REQUIRE(result->outputs.size() == 1);
  const std::vector<float> got = AsFloats(result->outputs[0].data);
  const std::vector<float> want = AsFloats(ReadBytes(golden / "output_0.bin"));
  REQUIRE(got.size() == want.size());
  double max_err = 0, max_ref = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    max_err = std::max(max_err, std::fabs(double(got[i]) - want[i]));
    max_ref = std::max(max_ref, std::fabs(double(want[i])));
  }
  CAPTURE(max_err, max_ref);
  CHECK(max_err <= 1e-4 * std::max(1.0, max_ref));
}

TEST_CASE("face_landmark_with_attention runs with finite outputs") {
  const fs::path model = kShared / "mediapipe" / "face_landmark_with_attention.tflite";
  if (!fs::exists(model)) {
    WARN("skipped: " << model << " is absent");
    return;
  }
  RunOptions options;
  options.graph = model.string();
  options.seed = 1;
  MediaPipeResolver resolver;
  auto result = RunModel(options, resolver);
  INFO((result.ok() ? std::string() : result.status().message()));
  REQUIRE(result.ok());
  REQUIRE(result->outputs.size() == 7);
  for (const auto& out : result->outputs) {
    CAPTURE(out.name);
    REQUIRE(out.type == kTfLiteFloat32);
    const std::vector<float> v = AsFloats(out.data);
    REQUIRE(!v.empty());
    size_t non_finite = 0;
    for (float x : v) non_finite += std::isfinite(x) ? 0 : 1;
    CHECK(non_finite == 0);
  }
}

TEST_CASE("without the MediaPipe ops the models fail with a resolver miss") {
  const fs::path model = kShared / "mediapipe" / "selfie_segmentation.tflite";
  if (!fs::exists(model)) {
    WARN("skipped: " << model << " is absent");
    return;
  }
  RunOptions options;
  options.graph = model.string();
  tflite::ops::builtin::BuiltinOpResolver builtins;
  auto result = RunModel(options, builtins);
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.status().message(), Catch::Contains("Convolution2DTransposeBias"));
}

}  // namespace
}  // namespace tflite_inspect
