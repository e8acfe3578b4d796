// TANH: float golden and random inputs against a double-precision
// evaluation; uint8 / int8 lookup tables bit-exact over every input value; int16
// goldens, every input against a model of TFLite's reference table path and within 4
// steps of the real tanh; errors.
#include <cmath>

#include "catch2/catch.hpp"
#include "kernels/internal/sigmoid_int16.h"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT

TEST_CASE("TANH float golden and random") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_TANH, {{tflite::TensorType_FLOAT32, {3}}},
                              {{0.0f, 50.0f, -50.0f}}, {tflite::TensorType_FLOAT32, {3}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{0.0f, 1.0f, -1.0f});
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_TANH, {}, [](double x) { return std::tanh(x); }, 41u, -8.0f, 8.0f);
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_TANH, {}, [](double x) { return std::tanh(x); }, 42u, -1e-3f, 1e-3f);
}

float TanhFloat(float x) { return std::tanh(x); }

TEST_CASE("TANH uint8 (version 1) and int8 (version 2) lookup table bit-exact") {
  CheckByteLutOp<uint8_t>(tflite::BuiltinOperator_TANH, tflite::TensorType_UINT8, TanhFloat,
                          {0.03f, 128}, {1.0f / 128, 128}, 1);
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_TANH, tflite::TensorType_INT8, TanhFloat,
                         {0.05f, 3}, {1.0f / 128, 0}, 2);
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_TANH, tflite::TensorType_INT8, TanhFloat,
                         {0.01f, -20}, {0.02f, 7}, 2);
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

// tanh(x) = 2 sigmoid(2x) - 1 in Q0.15 from TFLite's sigmoid table read at twice the rate
// (256 steps per entry); negative x by symmetry, rounded down.
int16_t ModelTanh(int64_t x) {
  const uint16_t* t = tflite::sigmoid_int16::SigmoidTable();
  const int64_t ax = x < 0 ? -x : x;
  const int64_t seg = ax / 256, frac = ax % 256;
  const int64_t q24 =
      seg >= 255 ? int64_t{0xFFFF} << 8 : t[seg] * 256 + frac * (t[seg + 1] - t[seg]);
  const int64_t v = x >= 0 ? q24 - (1 << 23) + 128 : -q24 + (1 << 23) + 127;
  return static_cast<int16_t>(v >= 0 ? v / 256 : -((-v + 255) / 256));  // floor
}

TEST_CASE("TANH int16 (version 3) golden at input scale 2^-12") {
  const auto r = RunOp<int16_t>(
      tflite::BuiltinOperator_TANH, {{tflite::TensorType_INT16, {5}, 1.0f / 4096, 0}},
      {{0, 4096, -4096, 32767, -32768}}, {tflite::TensorType_INT16, {5}, 1.0f / 32768, 0}, {}, 3);
  REQUIRE(r.invoke == kTfLiteOk);
  // 0; tanh(1): table entry 48 (sigmoid(2) = 57724 / 65536) gives 24956 (0.761594), and
  // its negation; |x| past the table saturates: 32767 and -32767 (the reference rounds
  // the saturated negative value down from -32766.5).
  CHECK(r.output == std::vector<int16_t>{0, 24956, -24956, 32767, -32767});
}

TEST_CASE("TANH int16 matches the reference model and the real tanh on every input") {
  for (float in_scale : {1.0f / 4096, 1.0f / 2048, 0.0003f, 0.001f, 1.0f / 8192}) {
    CAPTURE(in_scale);
    const auto out = RunAllInt16(tflite::BuiltinOperator_TANH, in_scale);
    for (int i = 0; i < 65536; ++i) {
      const int16_t x = static_cast<int16_t>(i - 32768);
      const int16_t want = ModelTanh(ModelRescale(x, in_scale, true));
      const double real = 32768.0 * std::tanh(static_cast<double>(x) * in_scale);
      if (out[i] != want || std::abs(out[i] - real) > 4.0) {
        CAPTURE(x, out[i], want, real);
        FAIL("TANH int16 mismatch");
      }
    }
  }
}

TEST_CASE("TANH int16 errors: zero points, output scale") {
  const auto zp = RunOp<int16_t>(tflite::BuiltinOperator_TANH,
                                 {{tflite::TensorType_INT16, {2}, 1.0f / 4096, 0}}, {},
                                 {tflite::TensorType_INT16, {2}, 1.0f / 32768, -2}, {}, 3);
  CHECK(zp.prepare == kTfLiteError);
  CHECK_THAT(zp.errors, Catch::Contains("TANH with int16 activations needs zero point 0 on "
                                        "input and output (got input zero_point 0, output "
                                        "zero_point -2)."));
  const auto scale = RunOp<int16_t>(tflite::BuiltinOperator_TANH,
                                    {{tflite::TensorType_INT16, {2}, 1.0f / 4096, 0}}, {},
                                    {tflite::TensorType_INT16, {2}, 0.0001f, 0}, {}, 3);
  CHECK(scale.prepare == kTfLiteError);
  CHECK_THAT(scale.errors, Catch::Contains("TANH int16 output scale must be 2^-15"));
}

}  // namespace
}  // namespace tflite_inspect
