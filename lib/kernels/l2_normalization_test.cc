// L2_NORMALIZATION: float32 and TFLite's uint8 / int8 goldens, random shapes against a
// double reference (quantized: within one step of round(128 * x / |x|), and uint8 and
// int8 agreeing), the epsilon floor on an all-zero row, and errors.
#include <cmath>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT

OpOptions Act(tflite::ActivationFunctionType a) {
  tflite::L2NormOptionsT o;
  o.fused_activation_function = a;
  return Options(o);
}

OpRun L2(std::vector<int32_t> shape, const std::vector<float>& in, int threads = 1) {
  return Run(tflite::BuiltinOperator_L2_NORMALIZATION,
             {Input<float>(tflite::TensorType_FLOAT32, shape, in)},
             {tflite::TensorType_FLOAT32, shape}, Act(tflite::ActivationFunctionType_NONE), 1,
             threads);
}

TEST_CASE("L2_NORMALIZATION goldens") {
  const auto r = L2({1, 1, 1, 6}, {-1.1f, 0.6f, 0.7f, 1.2f, -0.7f, 0.1f});
  REQUIRE(r.invoke == kTfLiteOk);
  const std::vector<float> want{-0.55f, 0.3f, 0.35f, 0.6f, -0.35f, 0.05f};
  const auto got = r.As<float>();
  for (size_t i = 0; i < want.size(); ++i) CHECK(std::abs(got[i] - want[i]) < 1e-6);
  const auto z = L2({2, 3}, {0, 0, 0, 3, 0, 4});
  REQUIRE(z.invoke == kTfLiteOk);
  CHECK(z.As<float>() == std::vector<float>{0, 0, 0, 0.6f, 0, 0.8f});
}

TEST_CASE("L2_NORMALIZATION random shapes match a double reference") {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rank = 1 + rng() % 4;
    std::vector<int32_t> shape(rank);
    for (auto& d : shape) d = 1 + rng() % 6;
    shape[rank - 1] = 1 + rng() % 100;
    std::uniform_real_distribution<float> dist(-5, 5);
    std::vector<float> in(Count(shape));
    for (auto& v : in) v = dist(rng);
    const auto r = L2(shape, in, 1 + seed % 2);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto got = r.As<float>();
    const int depth = shape[rank - 1];
    for (size_t row = 0; row < in.size() / depth; ++row) {
      double sq = 0;
      for (int c = 0; c < depth; ++c)
        sq += static_cast<double>(in[row * depth + c]) * in[row * depth + c];
      const double norm = std::max(std::sqrt(sq), 1e-6);
      for (int c = 0; c < depth; ++c) {
        const double want = in[row * depth + c] / norm;
        REQUIRE(std::abs(got[row * depth + c] - want) <= 1e-5 * std::max(1.0, std::abs(want)));
      }
    }
  }
}

template <typename T>
OpRun L2Q(tflite::TensorType type, std::vector<int32_t> shape, const std::vector<T>& in,
          float in_scale, int in_zp, float out_scale, int out_zp, int version) {
  return Run(tflite::BuiltinOperator_L2_NORMALIZATION, {Input<T>(type, shape, in, in_scale, in_zp)},
             {type, shape, out_scale, out_zp}, Act(tflite::ActivationFunctionType_NONE), version);
}

TEST_CASE("L2_NORMALIZATION quantized goldens") {
  // TFLite's l2norm_test: {-1.1, 0.6, 0.7, 1.2, -0.7, 0.1} quantized over [-2, 2].
  const std::vector<float> x{-1.1f, 0.6f, 0.7f, 1.2f, -0.7f, 0.1f};
  const float scale = 4.0f / 255;
  std::vector<uint8_t> u;
  std::vector<int8_t> s;
  for (float v : x) {
    u.push_back(static_cast<uint8_t>(std::round(v / scale) + 128));
    s.push_back(static_cast<int8_t>(std::round(v / scale)));
  }
  auto r = L2Q<uint8_t>(tflite::TensorType_UINT8, {1, 1, 1, 6}, u, scale, 128, 1.0f / 128, 128, 1);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{58, 166, 173, 205, 83, 134});
  r = L2Q<int8_t>(tflite::TensorType_INT8, {1, 1, 1, 6}, s, scale, 0, 1.0f / 128, 0, 2);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{-70, 38, 45, 77, -45, 6});
  // An all-zero-point row stays at the zero point.
  r = L2Q<int8_t>(tflite::TensorType_INT8, {2}, {3, 3}, 0.1f, 3, 1.0f / 128, 0, 2);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{0, 0});
}

TEST_CASE("L2_NORMALIZATION quantized random rows are within one step of the double result") {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rows = 1 + rng() % 4, depth = 1 + rng() % 64;
    const int zp = static_cast<int>(rng() % 256) - 128;
    std::vector<int8_t> s(rows * depth);
    std::vector<uint8_t> u(rows * depth);
    for (size_t i = 0; i < s.size(); ++i) {
      s[i] = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
      u[i] = static_cast<uint8_t>(s[i] + 128);
    }
    const auto rs =
        L2Q<int8_t>(tflite::TensorType_INT8, {rows, depth}, s, 0.05f, zp, 1.0f / 128, 0, 2);
    const auto ru = L2Q<uint8_t>(tflite::TensorType_UINT8, {rows, depth}, u, 0.05f, zp + 128,
                                 1.0f / 128, 128, 1);
    REQUIRE(rs.invoke == kTfLiteOk);
    REQUIRE(ru.invoke == kTfLiteOk);
    const auto gs = rs.As<int8_t>();
    const auto gu = ru.As<uint8_t>();
    for (int r = 0; r < rows; ++r) {
      double sq = 0;
      for (int c = 0; c < depth; ++c) sq += std::pow(s[r * depth + c] - zp, 2);
      for (int c = 0; c < depth; ++c) {
        const int i = r * depth + c;
        const double d = s[i] - zp;
        const double want =
            sq <= 1 ? d * 128 : std::min(127.0, std::max(-128.0, 128 * d / std::sqrt(sq)));
        CAPTURE(r, c, want);
        if (sq > 1) REQUIRE(std::abs(gs[i] - want) <= 1.0);
        REQUIRE(std::abs((gu[i] - 128) - std::min(127.0, want)) <= 1.0);
      }
    }
  }
}

TEST_CASE("L2_NORMALIZATION rejects bad models") {
  auto q = L2Q<int8_t>(tflite::TensorType_INT8, {2}, {1, 2}, 0.1f, 0, 1.0f / 64, 0, 2);
  CHECK(q.prepare == kTfLiteError);
  auto r = Run(tflite::BuiltinOperator_L2_NORMALIZATION,
               {Input<float>(tflite::TensorType_FLOAT32, {1, 2}, {1, 2})},
               {tflite::TensorType_FLOAT32, {1, 2}}, Act(tflite::ActivationFunctionType_RELU));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("fused activation") != std::string::npos);
  r = Run(tflite::BuiltinOperator_L2_NORMALIZATION,
          {Input<int32_t>(tflite::TensorType_INT32, {1, 2}, {1, 2})},
          {tflite::TensorType_INT32, {1, 2}}, Act(tflite::ActivationFunctionType_NONE));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type INT32 (2) not supported.") != std::string::npos);
  r = L2({1, 1, 1, 1, 2}, {1, 2});
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
