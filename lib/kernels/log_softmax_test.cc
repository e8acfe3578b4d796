// LOG_SOFTMAX: float32 golden and random shapes against a double-precision reference
// (also with a thread pool); uint8/int8 TFLite goldens (bit-exact with the reference
// kernel), random rows within one output step of double, and errors.
#include <algorithm>
#include <cmath>
#include <limits>
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

// TFLite's test quantization of [-10, 10] (SingleOpModel::QuantizationParams and
// Quantize): scale 20/255, zero point round(qmin + 10 / scale).
template <typename T>
std::vector<T> QuantizeLikeTflite(const std::vector<float>& x, float* scale, int* zero_point) {
  const double qmin = std::numeric_limits<T>::min(), qmax = std::numeric_limits<T>::max();
  *scale = static_cast<float>(20.0 / (qmax - qmin));
  *zero_point = static_cast<int>(std::round(qmin + 10.0 / *scale));
  std::vector<T> q;
  for (float f : x) {
    q.push_back(static_cast<T>(std::max<float>(
        qmin, std::min<float>(qmax, std::round(*zero_point + (f / *scale))))));
  }
  return q;
}

TEST_CASE("LOG_SOFTMAX uint8 (v1) and int8 (v2) TFLite goldens, bit-exact") {
  // TFLite's activations_test LogSoftmaxUint8 / LogSoftmaxInt8 (reference kernel).
  const std::vector<float> x{0, -6, 2, 4, 3, -2, 10, 1};
  float scale;
  int zp;
  {
    const auto q = QuantizeLikeTflite<uint8_t>(x, &scale, &zp);
    const auto r = Run(tflite::BuiltinOperator_LOG_SOFTMAX,
                       {Input<uint8_t>(tflite::TensorType_UINT8, {2, 4}, q, scale, zp)},
                       {tflite::TensorType_UINT8, {2, 4}, 16.0f / 256, 255});
    REQUIRE(r.invoke == kTfLiteOk);
    CHECK(r.As<uint8_t>() == std::vector<uint8_t>{189, 93, 221, 253, 142, 63, 255, 111});
  }
  {
    const auto q = QuantizeLikeTflite<int8_t>(x, &scale, &zp);
    const auto r = Run(tflite::BuiltinOperator_LOG_SOFTMAX,
                       {Input<int8_t>(tflite::TensorType_INT8, {2, 4}, q, scale, zp)},
                       {tflite::TensorType_INT8, {2, 4}, 16.0f / 256, 127}, {}, 2);
    REQUIRE(r.invoke == kTfLiteOk);
    CHECK(r.As<int8_t>() == std::vector<int8_t>{61, -36, 93, 125, 15, -65, 127, -16});
  }
}

TEST_CASE("LOG_SOFTMAX quantized: equal inputs give -log(depth)") {
  // 4 equal values: log(1/4) = -1.386 -> round(-22.18) + 127 = 105.
  const auto r = Run(tflite::BuiltinOperator_LOG_SOFTMAX,
                     {Input<int8_t>(tflite::TensorType_INT8, {1, 4}, {7, 7, 7, 7}, 0.05f, 3)},
                     {tflite::TensorType_INT8, {1, 4}, 16.0f / 256, 127}, {}, 2);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{105, 105, 105, 105});
}

// Random rows: within one output step (1/16) of round(16 * log_softmax) + zero point
// evaluated in double on the dequantized inputs.
template <typename T>
void RandomQuantized(tflite::TensorType type, uint32_t seed) {
  std::mt19937 rng(seed);
  const int zp_out = std::numeric_limits<T>::max();
  int worst = 0;
  for (int iter = 0; iter < 60; ++iter) {
    const int rows = 1 + rng() % 4, depth = 1 + rng() % 200;
    const float scale = std::exp(std::uniform_real_distribution<float>(-6, 0.5f)(rng));
    const int zp = std::numeric_limits<T>::min() + static_cast<int>(rng() % 256);
    std::vector<T> in(rows * depth);
    for (auto& v : in) {
      v = static_cast<T>(std::uniform_int_distribution<int>(std::numeric_limits<T>::min(),
                                                           std::numeric_limits<T>::max())(rng));
    }
    CAPTURE(seed, iter, rows, depth, scale, zp);
    const auto r = Run(tflite::BuiltinOperator_LOG_SOFTMAX, {Input<T>(type, {rows, depth}, in, scale, zp)},
                       {type, {rows, depth}, 16.0f / 256, zp_out}, {},
                       type == tflite::TensorType_INT8 ? 2 : 1, 1 + iter % 2);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.template As<T>();
    for (int row = 0; row < rows; ++row) {
      const T* x = &in[row * depth];
      double max = *std::max_element(x, x + depth), sum = 0;
      for (int c = 0; c < depth; ++c) sum += std::exp((x[c] - max) * scale);
      for (int c = 0; c < depth; ++c) {
        const double v = (x[c] - max) * scale - std::log(sum);
        const double want = std::max<double>(std::numeric_limits<T>::min(),
                                              std::min<double>(zp_out, std::round(v * 16) + zp_out));
        CAPTURE(row, c, v, want, static_cast<int>(out[row * depth + c]));
        const int err = static_cast<int>(std::abs(out[row * depth + c] - want));
        REQUIRE(err <= 1);
        worst = std::max(worst, err);
      }
    }
  }
  CHECK(worst <= 1);
}

TEST_CASE("LOG_SOFTMAX quantized random rows against double") {
  RandomQuantized<int8_t>(tflite::TensorType_INT8, 21);
  RandomQuantized<uint8_t>(tflite::TensorType_UINT8, 22);
}

TEST_CASE("LOG_SOFTMAX rejects bad models") {
  // TFLite requires output scale 16/256 and zero point 127 (int8) / 255 (uint8).
  auto r = Run(tflite::BuiltinOperator_LOG_SOFTMAX,
               {Input<int8_t>(tflite::TensorType_INT8, {1, 2}, {1, 2}, 0.1f, 0)},
               {tflite::TensorType_INT8, {1, 2}, 0.1f, 127}, {}, 2);
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("output->params.scale != 16.0 / 256") != std::string::npos);
  r = Run(tflite::BuiltinOperator_LOG_SOFTMAX,
          {Input<int8_t>(tflite::TensorType_INT8, {1, 2}, {1, 2}, 0.1f, 0)},
          {tflite::TensorType_INT8, {1, 2}, 16.0f / 256, 0}, {}, 2);
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("output->params.zero_point != 127") != std::string::npos);
  r = Run(tflite::BuiltinOperator_LOG_SOFTMAX,
          {Input<uint8_t>(tflite::TensorType_UINT8, {1, 2}, {1, 2}, 0.1f, 0)},
          {tflite::TensorType_UINT8, {1, 2}, 16.0f / 256, 127});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("output->params.zero_point != 255") != std::string::npos);
  r = Run(tflite::BuiltinOperator_LOG_SOFTMAX,
          {Input<int16_t>(tflite::TensorType_INT16, {1, 2}, {1, 2}, 0.1f, 0)},
          {tflite::TensorType_INT16, {1, 2}, 16.0f / 256, 0});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Only float32, uint8 and int8 are supported currently, got INT16.") !=
        std::string::npos);
  r = Run(tflite::BuiltinOperator_LOG_SOFTMAX, {}, {tflite::TensorType_FLOAT32, {1, 2}});
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
