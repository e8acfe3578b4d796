// LOG_SOFTMAX (float32): TFLite's golden, random shapes against a double-precision
// reference (also with a thread pool), and errors.
#include <cmath>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT

void CheckClose(const std::vector<float>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i, got[i], want[i]);
    REQUIRE(std::abs(got[i] - want[i]) <= 1e-5 * std::max(1.0, std::abs(want[i])));
  }
}

std::vector<double> Reference(const std::vector<float>& x, int depth) {
  std::vector<double> y(x.size());
  for (size_t r = 0; r < x.size() / depth; ++r) {
    double max = x[r * depth];
    for (int c = 0; c < depth; ++c) max = std::max(max, static_cast<double>(x[r * depth + c]));
    double sum = 0;
    for (int c = 0; c < depth; ++c) sum += std::exp(x[r * depth + c] - max);
    for (int c = 0; c < depth; ++c) y[r * depth + c] = x[r * depth + c] - max - std::log(sum);
  }
  return y;
}

TEST_CASE("LOG_SOFTMAX golden") {
  // TFLite's log_softmax_test SimpleTest.
  const std::vector<float> in{0, -6, 2, 4, 3, -2, 10, 1, 0, -6, 2, 4, 3, -2, 10, 1};
  const auto r = Run(tflite::BuiltinOperator_LOG_SOFTMAX,
                     {Input<float>(tflite::TensorType_FLOAT32, {2, 1, 2, 4}, in)},
                     {tflite::TensorType_FLOAT32, {2, 1, 2, 4}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{2, 1, 2, 4});
  const std::vector<double> want{-4.14297,   -10.14297, -2.14297,   -.142971,  -7.00104, -12.00104,
                                 -.00104087, -9.00104,  -4.14297,   -10.14297, -2.14297, -.142971,
                                 -7.00104,   -12.00104, -.00104087, -9.00104};
  const auto got = r.As<float>();
  for (size_t i = 0; i < got.size(); ++i) CHECK(std::abs(got[i] - want[i]) < 1e-4);
}

TEST_CASE("LOG_SOFTMAX random shapes match a double reference") {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rows = 1 + rng() % 20, depth = 1 + rng() % 300;
    std::uniform_real_distribution<float> dist(-30, 30);
    std::vector<float> in(rows * depth);
    for (auto& v : in) v = dist(rng);
    const auto r = Run(tflite::BuiltinOperator_LOG_SOFTMAX,
                       {Input<float>(tflite::TensorType_FLOAT32, {rows, depth}, in)},
                       {tflite::TensorType_FLOAT32, {rows, depth}}, {}, 1, 1 + seed % 3);
    REQUIRE(r.invoke == kTfLiteOk);
    CheckClose(r.As<float>(), Reference(in, depth));
  }
}

TEST_CASE("LOG_SOFTMAX rejects bad models") {
  auto r = Run(tflite::BuiltinOperator_LOG_SOFTMAX,
               {Input<int8_t>(tflite::TensorType_INT8, {1, 2}, {1, 2}, 0.1f, 0)},
               {tflite::TensorType_INT8, {1, 2}, 16.0f / 256, 127});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type INT8 (9) not supported.") != std::string::npos);
  r = Run(tflite::BuiltinOperator_LOG_SOFTMAX, {}, {tflite::TensorType_FLOAT32, {1, 2}});
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
