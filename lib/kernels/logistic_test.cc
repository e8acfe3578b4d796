// LOGISTIC: float golden and random inputs (including large |x|) against a
// double-precision evaluation; uint8 / int8 lookup tables bit-exact over every
// input value; int16 goldens, every input against a model of TFLite's reference table
// path and within 2 steps of the real sigmoid; errors.
#include <cmath>

#include "catch2/catch.hpp"
#include "kernels/internal/sigmoid_int16.h"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT

TEST_CASE("LOGISTIC float golden and random") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_LOGISTIC, {{tflite::TensorType_FLOAT32, {3}}},
                              {{0.0f, 100.0f, -100.0f}}, {tflite::TensorType_FLOAT32, {3}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output[0] == 0.5f);
  CHECK(r.output[1] == 1.0f);
  CHECK(RelClose(r.output[2], 1.0 / (1.0 + std::exp(100.0))));
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_LOGISTIC, {}, [](double x) { return 1.0 / (1.0 + std::exp(-x)); },
      31u, -30.0f, 30.0f);
}

float SigmoidFloat(float x) { return 1.0f / (1.0f + std::exp(-x)); }

TEST_CASE("LOGISTIC uint8 (version 1) and int8 (version 2) lookup table bit-exact") {
  CheckByteLutOp<uint8_t>(tflite::BuiltinOperator_LOGISTIC, tflite::TensorType_UINT8, SigmoidFloat,
                          {0.05f, 128}, {1.0f / 256, 0}, 1);
  CheckByteLutOp<uint8_t>(tflite::BuiltinOperator_LOGISTIC, tflite::TensorType_UINT8, SigmoidFloat,
                          {0.1f, 30}, {1.0f / 256, 0}, 1);
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_LOGISTIC, tflite::TensorType_INT8, SigmoidFloat,
                         {0.0625f, -5}, {1.0f / 256, -128}, 2);
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_LOGISTIC, tflite::TensorType_INT8, SigmoidFloat,
                         {0.02f, 10}, {1.0f / 256, -128}, 2);
}

TEST_CASE("LOGISTIC errors: 8-bit output scale must be 1/256") {
  const auto r =
      RunOp<int8_t>(tflite::BuiltinOperator_LOGISTIC, {{tflite::TensorType_INT8, {2}, 0.1f, 0}}, {},
                    {tflite::TensorType_INT8, {2}, 1.0f / 128, -128}, {}, 2);
  CHECK(r.prepare == kTfLiteError);
}

// --- int16 (version 3): TFLite's reference_integer_ops table path ------------------
// Every int16 input at input scale `in_scale`, output scale 2^-15: returns the outputs.
std::vector<int16_t> RunAllInt16(tflite::BuiltinOperator op, float in_scale) {
  std::vector<int16_t> x(65536);
  for (int i = 0; i < 65536; ++i) x[i] = static_cast<int16_t>(i - 32768);
  const auto r = RunOp<int16_t>(op, {{tflite::TensorType_INT16, {65536}, in_scale, 0}}, {x},
                                {tflite::TensorType_INT16, {65536}, 1.0f / 32768, 0}, {}, 3);
  REQUIRE(r.invoke == kTfLiteOk);
  return r.output;
}

// The reference's input rescaling (TFLite's Prepare): steps of 1 / (3 * 4096) before the
// table, by 3 << shift for the power-of-two scales, else by the largest 15-bit multiplier.
int64_t ModelRescale(int16_t x, float in_scale, bool tanh) {
  const double log2 = std::log(in_scale) / std::log(2.0);
  const int shift = 12 + static_cast<int>(std::lround(log2));
  if (std::abs(log2 - std::lround(log2)) < 1e-3 && (shift == 0 || (tanh && shift == 1))) {
    return static_cast<int64_t>(x) * (3 << shift);
  }
  double m = in_scale * 4096.0 * 3.0;
  int s = 0;
  while (m <= 32767.0 / 2.0 && s <= 30) {
    m *= 2;
    ++s;
  }
  const int64_t v = static_cast<int64_t>(x) * static_cast<int64_t>(m) + (s > 0 ? 1 << (s - 1) : 0);
  return v >= 0 ? v >> s : -((-v + (int64_t{1} << s) - 1) >> s);  // floor
}

// sigmoid(x) in Q0.15 from TFLite's table of sigmoid(i / 24) (Q0.16), interpolated in
// 512 steps per entry, halves rounded up; negative x by symmetry, rounded down.
int16_t ModelLogistic(int64_t x) {
  const uint16_t* t = tflite::sigmoid_int16::SigmoidTable();
  const int64_t ax = x < 0 ? -x : x;
  const int64_t seg = ax / 512, frac = ax % 512;
  const int64_t q25 =
      seg >= 255 ? int64_t{0x7FFF} << 10 : t[seg] * 512 + frac * (t[seg + 1] - t[seg]);
  const int64_t v = x >= 0 ? q25 + 512 : (int64_t{1} << 25) - q25 + 511;
  return static_cast<int16_t>(v / 1024);
}

TEST_CASE("LOGISTIC int16 (version 3) golden at input scale 2^-12") {
  const auto r = RunOp<int16_t>(
      tflite::BuiltinOperator_LOGISTIC, {{tflite::TensorType_INT16, {5}, 1.0f / 4096, 0}},
      {{0, 4096, -4096, 32767, -32768}}, {tflite::TensorType_INT16, {5}, 1.0f / 32768, 0}, {}, 3);
  REQUIRE(r.invoke == kTfLiteOk);
  // 0.5; sigmoid(1): table entry 24 (47911 / 65536) halved and rounded up, 23956 (the
  // real value is 23955.1); sigmoid(-1) = (2^25 - 47911 * 512 + 511) / 1024, rounded down:
  // 8812; sigmoid(8) and sigmoid(-8) (32757.0 and 11.0).
  CHECK(r.output == std::vector<int16_t>{16384, 23956, 8812, 32757, 11});
}

TEST_CASE("LOGISTIC int16 matches the reference model and the real sigmoid on every input") {
  for (float in_scale : {1.0f / 4096, 1.0f / 2048, 0.0003f, 0.001f, 1.0f / 8192}) {
    CAPTURE(in_scale);
    const auto out = RunAllInt16(tflite::BuiltinOperator_LOGISTIC, in_scale);
    for (int i = 0; i < 65536; ++i) {
      const int16_t x = static_cast<int16_t>(i - 32768);
      const int16_t want = ModelLogistic(ModelRescale(x, in_scale, false));
      const double real = 32768.0 / (1.0 + std::exp(-static_cast<double>(x) * in_scale));
      if (out[i] != want || std::abs(out[i] - real) > 2.0) {
        CAPTURE(x, out[i], want, real);
        FAIL("LOGISTIC int16 mismatch");
      }
    }
  }
}

TEST_CASE("LOGISTIC int16 errors: zero points, output scale") {
  const auto zp = RunOp<int16_t>(tflite::BuiltinOperator_LOGISTIC,
                                 {{tflite::TensorType_INT16, {2}, 1.0f / 4096, 3}}, {},
                                 {tflite::TensorType_INT16, {2}, 1.0f / 32768, 0}, {}, 3);
  CHECK(zp.prepare == kTfLiteError);
  CHECK_THAT(zp.errors, Catch::Contains("LOGISTIC with int16 activations needs zero point 0 on "
                                        "input and output (got input zero_point 3, output "
                                        "zero_point 0)."));
  const auto scale = RunOp<int16_t>(tflite::BuiltinOperator_LOGISTIC,
                                    {{tflite::TensorType_INT16, {2}, 1.0f / 4096, 0}}, {},
                                    {tflite::TensorType_INT16, {2}, 1.0f / 16384, 0}, {}, 3);
  CHECK(scale.prepare == kTfLiteError);
}


}  // namespace
}  // namespace tflite_inspect
