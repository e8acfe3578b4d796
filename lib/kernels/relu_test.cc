// RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1: float goldens and random inputs;
// int8 / uint8 / int16 bit-exact against an independent integer model
// (rescale input -> output, then clamp at the quantized activation bounds).
#include <cmath>
#include <limits>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT
using tflite::TensorType_FLOAT32;

struct ReluCase {
  tflite::BuiltinOperator op;
  float lo, hi;  // hi = inf for RELU
};

const ReluCase kCases[] = {
    {tflite::BuiltinOperator_RELU, 0.0f, std::numeric_limits<float>::infinity()},
    {tflite::BuiltinOperator_RELU6, 0.0f, 6.0f},
    {tflite::BuiltinOperator_RELU_N1_TO_1, -1.0f, 1.0f},
    {tflite::BuiltinOperator_RELU_0_TO_1, 0.0f, 1.0f},
};

TEST_CASE("RELU family float golden") {
  const std::vector<float> x = {-7.0f, -1.0f, -0.5f, 0.0f, 0.25f, 1.0f, 5.0f, 8.0f};
  const std::vector<std::vector<float>> want = {
      {0, 0, 0, 0, 0.25f, 1, 5, 8},
      {0, 0, 0, 0, 0.25f, 1, 5, 6},
      {-1, -1, -0.5f, 0, 0.25f, 1, 1, 1},
      {0, 0, 0, 0, 0.25f, 1, 1, 1},
  };
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    const auto r = RunOp<float>(kCases[i].op, {{TensorType_FLOAT32, {2, 4}}}, {x},
                                {TensorType_FLOAT32, {2, 4}});
    REQUIRE(r.invoke == kTfLiteOk);
    CHECK(r.output == want[i]);
    CHECK(r.shape == std::vector<int>{2, 4});
  }
}

TEST_CASE("RELU family float random") {
  for (const auto& c : kCases) {
    CheckFloatUnaryRandom(
        c.op, {}, [c](double x) { return std::min<double>(std::max<double>(x, c.lo), c.hi); }, 11u,
        -10.0f, 10.0f, 500);
  }
}

template <typename T>
void CheckQuantizedRelu(tflite::TensorType type, const ReluCase& c, uint32_t seed) {
  CAPTURE(seed, static_cast<int>(c.op));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> scale(0.01f, 0.1f);
  std::uniform_int_distribution<int32_t> zp(std::numeric_limits<T>::min(),
                                            std::numeric_limits<T>::max());
  for (int k = 0; k < 10; ++k) {
    const QParams qi{scale(rng), zp(rng)};
    const QParams qo{k == 0 ? qi.scale : scale(rng), k == 0 ? qi.zero_point : zp(rng)};
    CAPTURE(qi.scale, qi.zero_point, qo.scale, qo.zero_point);
    std::vector<T> x;
    for (int v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
      x.push_back(static_cast<T>(v));
    }
    const int n = static_cast<int>(x.size());
    const auto r = RunOp<T>(c.op, {{type, {n}, qi.scale, qi.zero_point}}, {x},
                            {type, {n}, qo.scale, qo.zero_point});
    CAPTURE(r.errors);
    REQUIRE(r.invoke == kTfLiteOk);
    int32_t m;
    int s;
    RefQuantizeMultiplier(static_cast<float>(qi.scale / qo.scale), &m, &s);
    const int32_t lo =
        std::max<int32_t>(std::numeric_limits<T>::min(),
                          qo.zero_point + static_cast<int32_t>(std::round(c.lo / qo.scale)));
    const int32_t hi =
        std::isinf(c.hi)
            ? std::numeric_limits<T>::max()
            : std::min<int32_t>(std::numeric_limits<T>::max(),
                                qo.zero_point + static_cast<int32_t>(std::round(c.hi / qo.scale)));
    for (int i = 0; i < n; ++i) {
      const int32_t v = qo.zero_point + RefMultiply(x[i] - qi.zero_point, m, s);
      const T want = static_cast<T>(std::min(hi, std::max(lo, v)));
      if (r.output[i] != want) {
        CAPTURE(i, int(x[i]), int(r.output[i]), int(want));
        FAIL("quantized result differs");
      }
    }
  }
}

TEST_CASE("RELU family int8 / uint8 bit-exact over every input value") {
  uint32_t seed = 100;
  for (const auto& c : kCases) {
    CheckQuantizedRelu<int8_t>(tflite::TensorType_INT8, c, seed++);
    CheckQuantizedRelu<uint8_t>(tflite::TensorType_UINT8, c, seed++);
  }
}

TEST_CASE("RELU / RELU6 int16 (version 3) bit-exact, zero points 0") {
  uint32_t seed = 300;
  for (const auto& c : {kCases[0], kCases[1]}) {
    CAPTURE(static_cast<int>(c.op));
    std::mt19937 rng(seed++);
    std::uniform_real_distribution<float> scale(1e-4f, 1e-3f);
    for (int k = 0; k < 5; ++k) {
      const QParams qi{scale(rng), 0};
      const QParams qo{scale(rng), 0};
      CAPTURE(qi.scale, qo.scale);
      auto x = RandomValues<int16_t>(rng, 4000, -32768, 32767);
      const auto r = RunOp<int16_t>(c.op, {{tflite::TensorType_INT16, {4000}, qi.scale, 0}}, {x},
                                    {tflite::TensorType_INT16, {4000}, qo.scale, 0}, {}, 3);
      CAPTURE(r.errors);
      REQUIRE(r.invoke == kTfLiteOk);
      int32_t m;
      int s;
      RefQuantizeMultiplier(static_cast<float>(qi.scale / qo.scale), &m, &s);
      const int32_t lo =
          std::max<int32_t>(-32768, static_cast<int32_t>(std::round(c.lo / qo.scale)));
      const int32_t hi =
          std::isinf(c.hi)
              ? 32767
              : std::min<int32_t>(32767, static_cast<int32_t>(std::round(c.hi / qo.scale)));
      for (int i = 0; i < 4000; ++i) {
        const int32_t want = std::min(hi, std::max(lo, RefMultiply(x[i], m, s)));
        if (r.output[i] != want) {
          CAPTURE(i, x[i], r.output[i], want);
          FAIL("int16 result differs");
        }
      }
    }
  }
}

TEST_CASE("RELU errors: int16 needs zero points 0, RELU_N1_TO_1 has no int16, two inputs") {
  const auto r =
      RunOp<int16_t>(tflite::BuiltinOperator_RELU, {{tflite::TensorType_INT16, {2}, 1.0f, 1}}, {},
                     {tflite::TensorType_INT16, {2}, 1.0f, 0}, {}, 3);
  CHECK(r.prepare == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("zero_point"));
  const auto r1 = RunOp<int16_t>(tflite::BuiltinOperator_RELU_N1_TO_1,
                                 {{tflite::TensorType_INT16, {2}, 1.0f, 0}}, {},
                                 {tflite::TensorType_INT16, {2}, 1.0f, 0});
  CHECK(r1.prepare == kTfLiteError);
  CHECK_THAT(r1.errors, Catch::Contains("Type INT16 (7) not supported."));
  const auto r2 = RunOp<float>(tflite::BuiltinOperator_RELU6,
                               {{TensorType_FLOAT32, {2}}, {TensorType_FLOAT32, {2}}}, {},
                               {TensorType_FLOAT32, {2}});
  CHECK(r2.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
