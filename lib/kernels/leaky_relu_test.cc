// LEAKY_RELU: float golden and random; int8 / uint8 bit-exact over every
// input value and int16 on random values against an independent integer
// model, and against TFLite Micro's seanet reference goldens.
#include <limits>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT
using tflite::TensorType_FLOAT32;

OpOptions LeakyOptions(float alpha) {
  tflite::LeakyReluOptionsT o;
  o.alpha = alpha;
  return Options(o);
}

TEST_CASE("LEAKY_RELU float golden and random") {
  const auto r =
      RunOp<float>(tflite::BuiltinOperator_LEAKY_RELU, {{TensorType_FLOAT32, {4}}},
                   {{-2.0f, -0.5f, 0.0f, 3.0f}}, {TensorType_FLOAT32, {4}}, LeakyOptions(0.5f));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{-1.0f, -0.25f, 0.0f, 3.0f});
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_LEAKY_RELU, LeakyOptions(0.1f),
      [](double x) { return x > 0 ? x : x * static_cast<double>(0.1f); }, 12u, -10.0f, 10.0f);
}

template <typename T>
void CheckQuantizedLeaky(tflite::TensorType type, uint32_t seed) {
  CAPTURE(seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> scale(0.01f, 0.1f);
  std::uniform_real_distribution<float> alpha_dist(-0.5f, 1.5f);
  std::uniform_int_distribution<int32_t> zp(std::numeric_limits<T>::min(),
                                            std::numeric_limits<T>::max());
  std::vector<T> x;
  for (int v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
    x.push_back(static_cast<T>(v));
  }
  const int n = static_cast<int>(x.size());
  for (int k = 0; k < 10; ++k) {
    const QParams qi{scale(rng), zp(rng)};
    const QParams qo{scale(rng), zp(rng)};
    const float alpha = alpha_dist(rng);
    CAPTURE(qi.scale, qi.zero_point, qo.scale, qo.zero_point, alpha);
    const auto r =
        RunOp<T>(tflite::BuiltinOperator_LEAKY_RELU, {{type, {n}, qi.scale, qi.zero_point}}, {x},
                 {type, {n}, qo.scale, qo.zero_point}, LeakyOptions(alpha));
    CAPTURE(r.errors);
    REQUIRE(r.invoke == kTfLiteOk);
    int32_t m_id, m_alpha;
    int s_id, s_alpha;
    RefQuantizeMultiplier(static_cast<float>(qi.scale / qo.scale), &m_id, &s_id);
    RefQuantizeMultiplier(static_cast<float>(qi.scale * alpha / qo.scale), &m_alpha, &s_alpha);
    for (int i = 0; i < n; ++i) {
      const int32_t v = x[i] - qi.zero_point;
      const int32_t out =
          qo.zero_point + (v >= 0 ? RefMultiply(v, m_id, s_id) : RefMultiply(v, m_alpha, s_alpha));
      const T want = static_cast<T>(std::min<int32_t>(
          std::numeric_limits<T>::max(), std::max<int32_t>(std::numeric_limits<T>::min(), out)));
      if (r.output[i] != want) {
        CAPTURE(i, int(x[i]), int(r.output[i]), int(want));
        FAIL("quantized result differs");
      }
    }
  }
}

TEST_CASE("LEAKY_RELU int8 / uint8 bit-exact") {
  CheckQuantizedLeaky<int8_t>(tflite::TensorType_INT8, 21u);
  CheckQuantizedLeaky<uint8_t>(tflite::TensorType_UINT8, 22u);
}

TEST_CASE("LEAKY_RELU int16 (version 2) bit-exact") {
  std::mt19937 rng(23u);
  CAPTURE(23u);
  std::uniform_real_distribution<float> scale(1e-4f, 1e-3f);
  for (int k = 0; k < 5; ++k) {
    const float si = scale(rng), so = scale(rng), alpha = 0.3f - 0.1f * k;
    CAPTURE(si, so, alpha);
    auto x = RandomValues<int16_t>(rng, 4000, -32768, 32767);
    const auto r = RunOp<int16_t>(
        tflite::BuiltinOperator_LEAKY_RELU, {{tflite::TensorType_INT16, {4000}, si, 0}}, {x},
        {tflite::TensorType_INT16, {4000}, so, 0}, LeakyOptions(alpha), 2);
    CAPTURE(r.errors);
    REQUIRE(r.invoke == kTfLiteOk);
    int32_t m_id, m_alpha;
    int s_id, s_alpha;
    RefQuantizeMultiplier(static_cast<float>(si / so), &m_id, &s_id);
    RefQuantizeMultiplier(static_cast<float>(si * alpha / so), &m_alpha, &s_alpha);
    for (int i = 0; i < 4000; ++i) {
      const int32_t v = x[i];
      const int32_t out = v >= 0 ? RefMultiply(v, m_id, s_id) : RefMultiply(v, m_alpha, s_alpha);
      REQUIRE(r.output[i] == std::min(32767, std::max(-32768, out)));
    }
  }
}

TEST_CASE("LEAKY_RELU errors: int16 zero point, int32 unsupported") {
  const auto r =
      RunOp<int16_t>(tflite::BuiltinOperator_LEAKY_RELU, {{tflite::TensorType_INT16, {2}, 1.0f, 5}},
                     {}, {tflite::TensorType_INT16, {2}, 1.0f, 0}, LeakyOptions(0.2f), 2);
  CHECK(r.prepare == kTfLiteError);
  const auto ri =
      RunOp<int32_t>(tflite::BuiltinOperator_LEAKY_RELU, {{tflite::TensorType_INT32, {2}}}, {},
                     {tflite::TensorType_INT32, {2}}, LeakyOptions(0.2f));
  CHECK(ri.prepare == kTfLiteError);
  CHECK_THAT(ri.errors, Catch::Contains("Type INT32 (2) not supported."));
}

TEST_CASE("LEAKY_RELU int16 seanet models match TFLite's reference goldens exactly", "[real]") {
  CheckSeanetModels("leaky_relu", "leaky_relu", 1);
}

}  // namespace
}  // namespace tflite_inspect
