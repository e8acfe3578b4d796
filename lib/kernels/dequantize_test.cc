#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace {

// One DEQUANTIZE node from a constant or input tensor of `type`.
template <typename T>
std::vector<float> Dequantize(tflite::TensorType type, const std::vector<int32_t>& shape,
                              const std::vector<T>& values, const QuantSpec* q, int version,
                              bool constant) {
  ModelBuilder b;
  const int in = constant ? b.AddConstTensor<T>(type, shape, values, "in", q)
                          : b.AddTensor(type, shape, "in", q);
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, shape, "out");
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {in}, {out}, {}, version);
  if (!constant) b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  if (!constant) m.SetInput<T>(0, values);
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>(shape.begin(), shape.end()));
  return m.Output<float>(0);
}

TEST_CASE("DEQUANTIZE uint8 / int8 / int16 goldens") {
  QuantSpec q{{0.5f}, {128}, 0};
  CHECK(Dequantize<uint8_t>(tflite::TensorType_UINT8, {4}, {0, 127, 128, 255}, &q, 1, false) ==
        std::vector<float>{-64, -0.5f, 0, 63.5f});
  QuantSpec q8{{0.25f}, {-1}, 0};
  CHECK(Dequantize<int8_t>(tflite::TensorType_INT8, {2, 2}, {-128, -1, 0, 127}, &q8, 2, true) ==
        std::vector<float>{-31.75f, 0, 0.25f, 32});
  QuantSpec q16{{0.001f}, {0}, 0};
  const auto got =
      Dequantize<int16_t>(tflite::TensorType_INT16, {3}, {-32768, 1000, 32767}, &q16, 3, false);
  // TFLite computes in double: float(double(0.001f) * q).
  CHECK(got == std::vector<float>{static_cast<float>(static_cast<double>(0.001f) * -32768),
                                  static_cast<float>(static_cast<double>(0.001f) * 1000),
                                  static_cast<float>(static_cast<double>(0.001f) * 32767)});
}

TEST_CASE("DEQUANTIZE random int8 matches double(scale) * (q - zero_point)") {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const float scale = std::uniform_real_distribution<float>(1e-4f, 2.f)(rng);
    const int32_t zp = std::uniform_int_distribution<int>(-128, 127)(rng);
    std::vector<int8_t> v(37);
    for (auto& x : v) x = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
    QuantSpec q{{scale}, {zp}, 0};
    const auto got = Dequantize<int8_t>(tflite::TensorType_INT8, {37}, v, &q, 2, false);
    for (size_t i = 0; i < v.size(); ++i) {
      CHECK(got[i] == static_cast<float>(static_cast<double>(scale) * (v[i] - zp)));
    }
  }
}

TEST_CASE("DEQUANTIZE float16 to float32 is exact (normals, subnormals, inf, zero)") {
  // 1.0, -2.5, 65504 (max), 2^-14 (min normal), 2^-24 (min subnormal), 3 * 2^-24, -0, inf.
  const std::vector<uint16_t> bits = {0x3C00, 0xC100, 0x7BFF, 0x0400,
                                      0x0001, 0x0003, 0x8000, 0x7C00};
  const auto got = Dequantize<uint16_t>(tflite::TensorType_FLOAT16, {8}, bits, nullptr, 2, true);
  const std::vector<float> want = {1.0f,
                                   -2.5f,
                                   65504.0f,
                                   std::ldexp(1.0f, -14),
                                   std::ldexp(1.0f, -24),
                                   3 * std::ldexp(1.0f, -24),
                                   -0.0f,
                                   std::numeric_limits<float>::infinity()};
  CHECK(got == want);
  CHECK(std::signbit(got[6]));
  const auto nan =
      Dequantize<uint16_t>(tflite::TensorType_FLOAT16, {1}, {0x7E00}, nullptr, 3, false);
  CHECK(std::isnan(nan[0]));
}

TEST_CASE("DEQUANTIZE per-channel int8 (v5)") {
  QuantSpec q;
  q.scale = {0.5f, 2.0f};
  q.zero_point = {1, -1};
  q.quantized_dimension = 1;
  const auto got = Dequantize<int8_t>(tflite::TensorType_INT8, {2, 2, 2}, {1, 3, -1, 0, 5, 7, 1, 2},
                                      &q, 5, true);
  // [o][c][i]: channel 0 -> 0.5 * (q - 1), channel 1 -> 2 * (q + 1).
  CHECK(got == std::vector<float>{0, 1, 0, 2, 2, 3, 4, 6});
}

TEST_CASE("DEQUANTIZE rejects bad models in Prepare") {
  SECTION("float32 input") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {2}, "in");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {2}, "out");
    b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {in}, {out});
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("Type FLOAT32 (1) not supported.") != std::string::npos);
  }
  SECTION("two inputs") {
    ModelBuilder b;
    QuantSpec q{{0.5f}, {0}, 0};
    const int in = b.AddTensor(tflite::TensorType_INT8, {2}, "in", &q);
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {2}, "out");
    b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {in, in}, {out}, {}, 2);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("failed to prepare") != std::string::npos);
  }
  SECTION("int16 with a zero point") {
    ModelBuilder b;
    QuantSpec q{{0.5f}, {3}, 0};
    const int in = b.AddTensor(tflite::TensorType_INT16, {2}, "in", &q);
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {2}, "out");
    b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {in}, {out}, {}, 3);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
  }
}

}  // namespace
}  // namespace tflite_inspect
