// Tests of kernel_util.cc, quantization_util.cc and the fixed-point helpers.
// Integer goldens are exact: they were computed by hand from upstream's
// definitions (shown next to each case) and must not be loosened.
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/fixedpoint.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/internal/runtime_shape.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace {

constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();

// A context that only records ReportError messages (in impl_).
struct ErrorLog {
  std::vector<std::string> messages;
};

void RecordError(TfLiteContext* context, const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  static_cast<ErrorLog*>(context->impl_)->messages.emplace_back(buffer);
}

struct LoggingContext {
  ErrorLog log;
  TfLiteContext context = {};
  LoggingContext() {
    context.impl_ = &log;
    context.ReportError = RecordError;
  }
};

// A tensor that owns its dims (freed by the destructor).
struct ShapedTensor {
  TfLiteTensor tensor = {};
  explicit ShapedTensor(std::initializer_list<int> dims) {
    tensor.dims = TfLiteIntArrayCreate(static_cast<int>(dims.size()));
    int i = 0;
    for (int d : dims) tensor.dims->data[i++] = d;
  }
  ~ShapedTensor() { TfLiteIntArrayFree(tensor.dims); }
  ShapedTensor(const ShapedTensor&) = delete;
  ShapedTensor& operator=(const ShapedTensor&) = delete;
};

std::vector<int> ToVector(const TfLiteIntArray* array) {
  return std::vector<int>(array->data, array->data + array->size);
}

}  // namespace

TEST_CASE("CalculateShapeForBroadcast, two inputs") {
  LoggingContext ctx;
  TfLiteIntArray* out = nullptr;

  ShapedTensor a({2, 1, 3}), b({4, 1});
  REQUIRE(tflite::CalculateShapeForBroadcast(&ctx.context, &a.tensor,
                                             &b.tensor, &out) == kTfLiteOk);
  CHECK(ToVector(out) == std::vector<int>{2, 4, 3});
  TfLiteIntArrayFree(out);

  // Scalar against anything.
  ShapedTensor scalar({}), m({5, 6});
  REQUIRE(tflite::CalculateShapeForBroadcast(&ctx.context, &scalar.tensor,
                                             &m.tensor, &out) == kTfLiteOk);
  CHECK(ToVector(out) == std::vector<int>{5, 6});
  TfLiteIntArrayFree(out);

  // A zero dimension only broadcasts against 1 and stays 0.
  ShapedTensor zero({0, 3}), row({1, 3});
  REQUIRE(tflite::CalculateShapeForBroadcast(&ctx.context, &zero.tensor,
                                             &row.tensor, &out) == kTfLiteOk);
  CHECK(ToVector(out) == std::vector<int>{0, 3});
  TfLiteIntArrayFree(out);
  CHECK(ctx.log.messages.empty());

  ShapedTensor c({2, 3}), d({4, 3});
  out = nullptr;
  CHECK(tflite::CalculateShapeForBroadcast(&ctx.context, &c.tensor, &d.tensor,
                                           &out) == kTfLiteError);
  CHECK(out == nullptr);
  REQUIRE(ctx.log.messages.size() == 1);
  CHECK(ctx.log.messages[0] ==
        "Given shapes, [2,3] and [4,3], are not broadcastable.");
}

TEST_CASE("CalculateShapeForBroadcast, three inputs") {
  LoggingContext ctx;
  TfLiteIntArray* out = nullptr;
  ShapedTensor a({1, 3}), b({2, 1}), c({1});
  REQUIRE(tflite::CalculateShapeForBroadcast(&ctx.context, &a.tensor,
                                             &b.tensor, &c.tensor,
                                             &out) == kTfLiteOk);
  CHECK(ToVector(out) == std::vector<int>{2, 3});
  TfLiteIntArrayFree(out);

  ShapedTensor e({2, 3}), f({3, 3});
  CHECK(tflite::CalculateShapeForBroadcast(&ctx.context, &e.tensor, &f.tensor,
                                           &c.tensor, &out) == kTfLiteError);
  CHECK(ctx.log.messages.size() == 1);
}

TEST_CASE("QuantizeMultiplier goldens") {
  int32_t m = 0;
  int shift = 0;
  // frexp(x) = (q, e) with q in [0.5, 1); multiplier = round(q * 2^31).
  tflite::QuantizeMultiplier(0.5, &m, &shift);
  CHECK(m == (1 << 30));
  CHECK(shift == 0);
  tflite::QuantizeMultiplier(1.0, &m, &shift);
  CHECK(m == (1 << 30));
  CHECK(shift == 1);
  tflite::QuantizeMultiplier(0.25, &m, &shift);
  CHECK(m == (1 << 30));
  CHECK(shift == -1);
  tflite::QuantizeMultiplier(3.0, &m, &shift);  // 0.75 * 2^2
  CHECK(m == 1610612736);
  CHECK(shift == 2);
  // 0.7 * 2^31 = 1503238553.6 -> 1503238554.
  tflite::QuantizeMultiplier(0.7, &m, &shift);
  CHECK(m == 1503238554);
  CHECK(shift == 0);
  // Negative multipliers keep their sign in the significand.
  tflite::QuantizeMultiplier(-0.5, &m, &shift);
  CHECK(m == -(1 << 30));
  CHECK(shift == 0);
  // q rounds up to exactly 2^31: renormalized to 2^30 with shift + 1.
  tflite::QuantizeMultiplier(1.0 - std::ldexp(1.0, -40), &m, &shift);
  CHECK(m == (1 << 30));
  CHECK(shift == 1);
  // Below 2^-31 everything flushes to zero.
  tflite::QuantizeMultiplier(std::ldexp(1.0, -40), &m, &shift);
  CHECK(m == 0);
  CHECK(shift == 0);
  tflite::QuantizeMultiplier(0.0, &m, &shift);
  CHECK(m == 0);
  CHECK(shift == 0);

  tflite::QuantizeMultiplierSmallerThanOneExp(0.375, &m, &shift);  // 0.75/2
  CHECK(m == 1610612736);
  CHECK(shift == -1);
  tflite::QuantizeMultiplierGreaterThanOne(1.5, &m, &shift);  // 0.75 * 2
  CHECK(m == 1610612736);
  CHECK(shift == 1);
}

TEST_CASE("IntegerFrExp agrees with frexp") {
  int shift = 0;
  CHECK(tflite::IntegerFrExp(0.5, &shift) == 0x40000000);
  CHECK(shift == 0);
  CHECK(tflite::IntegerFrExp(1.0, &shift) == 0x40000000);
  CHECK(shift == 1);
  CHECK(tflite::IntegerFrExp(-3.0, &shift) == -0x60000000);
  CHECK(shift == 2);
  CHECK(tflite::IntegerFrExp(0.0, &shift) == 0);
  CHECK(shift == 0);
  CHECK(tflite::DoubleFromFractionAndShift(0x40000000, 1) == 1.0);
  CHECK(tflite::DoubleFromFractionAndShift(-0x60000000, 2) == -3.0);
  CHECK(tflite::IntegerDoubleCompare(2.0, 3.0) == -1);
  CHECK(tflite::IntegerDoubleCompare(3.0, 3.0) == 0);
  CHECK(tflite::IntegerDoubleMultiply(1.5, 2.0) == 3.0);
}

TEST_CASE("SaturatingRoundingDoublingHighMul") {
  using gemmlowp::SaturatingRoundingDoublingHighMul;
  // The one overflow: -1 * -1 in Q0.31 saturates to the largest value.
  CHECK(SaturatingRoundingDoublingHighMul(kInt32Min, kInt32Min) == kInt32Max);
  // -1 * (1 - 2^-31) is exactly -(2^31 - 1) / 2^31: no rounding needed.
  CHECK(SaturatingRoundingDoublingHighMul(kInt32Min, kInt32Max) == -kInt32Max);
  CHECK(SaturatingRoundingDoublingHighMul(kInt32Max, kInt32Max) ==
        kInt32Max - 1);
  // x * 0.5: ties round toward +infinity (VQRDMULH), so 1.5 -> 2, -1.5 -> -1.
  CHECK(SaturatingRoundingDoublingHighMul(3, 1 << 30) == 2);
  CHECK(SaturatingRoundingDoublingHighMul(-3, 1 << 30) == -1);
  CHECK(SaturatingRoundingDoublingHighMul(100, 1 << 30) == 50);
  CHECK(SaturatingRoundingDoublingHighMul(0, kInt32Min) == 0);
  CHECK(SaturatingRoundingDoublingHighMul(int16_t{-32768}, int16_t{-32768}) ==
        32767);
}

TEST_CASE("RoundingDivideByPOT rounds ties away from zero") {
  using gemmlowp::RoundingDivideByPOT;
  CHECK(RoundingDivideByPOT(5, 1) == 3);     // 2.5
  CHECK(RoundingDivideByPOT(-5, 1) == -3);   // -2.5
  CHECK(RoundingDivideByPOT(3, 1) == 2);     // 1.5
  CHECK(RoundingDivideByPOT(-3, 1) == -2);   // -1.5
  CHECK(RoundingDivideByPOT(6, 2) == 2);     // 1.5
  CHECK(RoundingDivideByPOT(-6, 2) == -2);   // -1.5
  CHECK(RoundingDivideByPOT(5, 2) == 1);     // 1.25
  CHECK(RoundingDivideByPOT(-5, 2) == -1);   // -1.25
  CHECK(RoundingDivideByPOT(7, 2) == 2);     // 1.75
  CHECK(RoundingDivideByPOT(-7, 2) == -2);   // -1.75
  CHECK(RoundingDivideByPOT(-4, 1) == -2);
  CHECK(RoundingDivideByPOT(12345, 0) == 12345);
  CHECK(RoundingDivideByPOT(kInt32Min, 31) == -1);
  CHECK(RoundingDivideByPOT(kInt32Max, 31) == 1);
}

TEST_CASE("MultiplyByQuantizedMultiplier, default double rounding") {
  using tflite::MultiplyByQuantizedMultiplier;
  // x * 0.5 * 2^0: one rounding, ties toward +inf.
  CHECK(MultiplyByQuantizedMultiplier(100, 1 << 30, 0) == 50);
  CHECK(MultiplyByQuantizedMultiplier(3, 1 << 30, 0) == 2);
  CHECK(MultiplyByQuantizedMultiplier(-3, 1 << 30, 0) == -1);
  // 5 * 0.25 = 1.25: the high mul rounds 2.5 -> 3, the shift 1.5 -> 2.
  // (Single rounding would give 1; upstream's default gives 2.)
  CHECK(MultiplyByQuantizedMultiplier(5, 1 << 30, -1) == 2);
  CHECK(MultiplyByQuantizedMultiplier(-5, 1 << 30, -1) == -1);
  // Left shift is applied before the multiply: 7 * 2^3 * 0.75 = 42.
  CHECK(MultiplyByQuantizedMultiplier(7, 1610612736, 3) == 42);
  CHECK(MultiplyByQuantizedMultiplier(-7, 1610612736, 3) == -42);
  // Round trip with a real multiplier: 1000 * 0.7 = 700.
  int32_t m;
  int shift;
  tflite::QuantizeMultiplier(0.7, &m, &shift);
  CHECK(MultiplyByQuantizedMultiplier(1000, m, shift) == 700);
  CHECK(MultiplyByQuantizedMultiplier(-1000, m, shift) == -700);
  CHECK(MultiplyByQuantizedMultiplier(0, m, shift) == 0);

  CHECK(tflite::MultiplyByQuantizedMultiplierSmallerThanOneExp(5, 1 << 30,
                                                               -1) == 2);
  CHECK(tflite::MultiplyByQuantizedMultiplierGreaterThanOne(7, 1610612736,
                                                            3) == 42);
}

TEST_CASE("MultiplyByQuantizedMultiplier, 64-bit input") {
  using tflite::MultiplyByQuantizedMultiplier;
  // Multiplier reduced to 15 bits: (2^30 + 2^15) >> 16 = 2^14; one rounding
  // shift by 15 - shift with ties toward +inf.
  CHECK(MultiplyByQuantizedMultiplier(int64_t{1000}, 1 << 30, 0) == 500);
  CHECK(MultiplyByQuantizedMultiplier(int64_t{3}, 1 << 30, 0) == 2);
  CHECK(MultiplyByQuantizedMultiplier(int64_t{-3}, 1 << 30, 0) == -1);
  CHECK(MultiplyByQuantizedMultiplier(int64_t{1} << 40, 1 << 30, -10) ==
        (1 << 29));
  CHECK(MultiplyByQuantizedMultiplier(-(int64_t{1} << 40), 1 << 30, -10) ==
        -(1 << 29));
  // Multipliers >= 0x7FFF0000 saturate to 0x7FFF: 2^20 * 32767 / 2^15.
  CHECK(MultiplyByQuantizedMultiplier(int64_t{1} << 20, kInt32Max, 0) ==
        1048544);
}

TEST_CASE("CalculateActivationRangeQuantized") {
  LoggingContext ctx;
  TfLiteTensor out = {};
  out.type = kTfLiteInt8;
  out.params = {0.05f, -10};
  int32_t lo = 0, hi = 0;

  // RELU6: [q(0), q(6)] = [-10, -10 + 120] clamped to int8.
  REQUIRE(tflite::CalculateActivationRangeQuantized(
              &ctx.context, kTfLiteActRelu6, &out, &lo, &hi) == kTfLiteOk);
  CHECK(lo == -10);
  CHECK(hi == 110);
  REQUIRE(tflite::CalculateActivationRangeQuantized(
              &ctx.context, kTfLiteActRelu, &out, &lo, &hi) == kTfLiteOk);
  CHECK(lo == -10);
  CHECK(hi == 127);
  REQUIRE(tflite::CalculateActivationRangeQuantized(
              &ctx.context, kTfLiteActReluN1To1, &out, &lo, &hi) == kTfLiteOk);
  CHECK(lo == -30);
  CHECK(hi == 10);
  REQUIRE(tflite::CalculateActivationRangeQuantized(
              &ctx.context, kTfLiteActNone, &out, &lo, &hi) == kTfLiteOk);
  CHECK(lo == -128);
  CHECK(hi == 127);

  // q(6) = 600 is beyond int8: clamped to 127.
  out.params = {0.01f, 0};
  REQUIRE(tflite::CalculateActivationRangeQuantized(
              &ctx.context, kTfLiteActRelu6, &out, &lo, &hi) == kTfLiteOk);
  CHECK(lo == 0);
  CHECK(hi == 127);

  // uint8 with zero point 128 and scale 1/32: q(6) = 128 + 192 clamps to 255.
  out.type = kTfLiteUInt8;
  out.params = {0.03125f, 128};
  REQUIRE(tflite::CalculateActivationRangeQuantized(
              &ctx.context, kTfLiteActRelu6, &out, &lo, &hi) == kTfLiteOk);
  CHECK(lo == 128);
  CHECK(hi == 255);
  CHECK(ctx.log.messages.empty());

  out.type = kTfLiteFloat32;
  CHECK(tflite::CalculateActivationRangeQuantized(
            &ctx.context, kTfLiteActRelu6, &out, &lo, &hi) == kTfLiteError);
  CHECK(ctx.log.messages.size() == 1);

  float fmin, fmax;
  tflite::CalculateActivationRange(kTfLiteActRelu6, &fmin, &fmax);
  CHECK(fmin == 0.f);
  CHECK(fmax == 6.f);
}

// A scale so small that q(6) leaves int32 (a 16x8 MobileNet as TensorFlow 2.21 converts it
// has one): refused with TFLite's words, as its kernel_util.cc prints them.
TEST_CASE("CalculateActivationRangeQuantized: a quantized bound beyond int32, TFLite's message") {
  LoggingContext ctx;
  TfLiteTensor out = {};
  out.type = kTfLiteInt16;
  out.params = {1e-12f, 0};
  int32_t lo = 0, hi = 0;
  CHECK(tflite::CalculateActivationRangeQuantized(&ctx.context, kTfLiteActRelu6, &out, &lo,
                                                  &hi) == kTfLiteError);
  REQUIRE(ctx.log.messages.size() == 1);
  CHECK_THAT(ctx.log.messages[0],
             Catch::EndsWith("no_integer_overflow_from_quantization was not true."));
}

TEST_CASE("PopulateConvolutionQuantizationParams, per-channel int8") {
  LoggingContext ctx;
  TfLiteAffineQuantization input_q = {}, filter_q = {};
  TfLiteTensor input = {}, filter = {}, output = {};
  input.type = kTfLiteInt8;
  input.params = {0.5f, 0};
  input.quantization = {kTfLiteAffineQuantization, &input_q};
  output.type = kTfLiteInt8;
  output.params = {1.0f, 0};

  ShapedTensor filter_shape({2, 1, 1, 1});
  filter = filter_shape.tensor;
  filter.type = kTfLiteInt8;
  filter_q.scale = TfLiteFloatArrayCreate(2);
  filter_q.scale->data[0] = 0.25f;
  filter_q.scale->data[1] = 0.125f;
  filter_q.quantized_dimension = 0;
  filter.quantization = {kTfLiteAffineQuantization, &filter_q};

  int32_t multiplier = 0, act_min = 0, act_max = 0;
  int shift = 0;
  int32_t channel_multiplier[2], channel_shift[2];
  REQUIRE(tflite::PopulateConvolutionQuantizationParams(
              &ctx.context, &input, &filter, nullptr, &output, kTfLiteActRelu,
              &multiplier, &shift, &act_min, &act_max, channel_multiplier,
              channel_shift) == kTfLiteOk);
  // 0.5 * 0.25 / 1 = 0.125 = 0.5 * 2^-2; 0.0625 = 0.5 * 2^-3.
  CHECK(channel_multiplier[0] == (1 << 30));
  CHECK(channel_shift[0] == -2);
  CHECK(channel_multiplier[1] == (1 << 30));
  CHECK(channel_shift[1] == -3);
  CHECK(act_min == 0);
  CHECK(act_max == 127);
  TfLiteFloatArrayFree(filter_q.scale);
}

TEST_CASE("Tensor getters map positions and optional tensors") {
  LoggingContext ctx;
  TfLiteTensor tensors[3] = {};
  tensors[2].is_variable = true;
  ctx.context.tensors = tensors;
  ctx.context.tensors_size = 3;

  TfLiteNode node = {};
  node.inputs = TfLiteIntArrayCreate(3);
  node.inputs->data[0] = 1;
  node.inputs->data[1] = kTfLiteOptionalTensor;
  node.inputs->data[2] = 2;
  node.outputs = TfLiteIntArrayCreate(1);
  node.outputs->data[0] = 0;

  CHECK(tflite::NumInputs(&node) == 3);
  CHECK(tflite::NumOutputs(&node) == 1);
  CHECK(tflite::GetInput(&ctx.context, &node, 0) == &tensors[1]);
  CHECK(tflite::GetInput(&ctx.context, &node, 1) == nullptr);
  CHECK(tflite::GetOptionalInputTensor(&ctx.context, &node, 1) == nullptr);
  CHECK(tflite::GetInput(&ctx.context, &node, 3) == nullptr);
  CHECK(tflite::GetVariableInput(&ctx.context, &node, 0) == nullptr);
  CHECK(tflite::GetVariableInput(&ctx.context, &node, 2) == &tensors[2]);
  CHECK(tflite::GetOutput(&ctx.context, &node, 0) == &tensors[0]);

  const TfLiteTensor* in = nullptr;
  CHECK(tflite::GetInputSafe(&ctx.context, &node, 0, &in) == kTfLiteOk);
  CHECK(in == &tensors[1]);
  CHECK(tflite::GetInputSafe(&ctx.context, &node, 1, &in) == kTfLiteError);
  CHECK(tflite::GetInputSafe(&ctx.context, &node, 7, &in) == kTfLiteError);
  TfLiteTensor* out = nullptr;
  CHECK(tflite::GetOutputSafe(&ctx.context, &node, 0, &out) == kTfLiteOk);
  CHECK(out == &tensors[0]);
  REQUIRE(ctx.log.messages.size() == 2);
  CHECK(ctx.log.messages[0] ==
        "Tensor at index 1 was optional but was expected\n");
  CHECK(ctx.log.messages[1] == "Invalid tensor index 7 (not in [0, 3))\n");

  TfLiteIntArrayFree(node.inputs);
  TfLiteIntArrayFree(node.outputs);
}

TEST_CASE("RuntimeShape inline and heap storage") {
  tflite::RuntimeShape small({2, 3, 4});
  CHECK(small.DimensionsCount() == 3);
  CHECK(small.FlatSize() == 24);
  CHECK(small.Dims(2) == 4);

  tflite::RuntimeShape big({1, 2, 3, 4, 5, 6, 7});  // > kMaxSmallSize
  CHECK(big.FlatSize() == 5040);
  tflite::RuntimeShape big_copy(big);
  CHECK(big_copy == big);
  CHECK(big_copy.DimsData() != big.DimsData());
  big.Resize(2);  // heap -> inline keeps the leading dims
  CHECK(big.DimensionsCount() == 2);
  CHECK(big.Dims(1) == 2);
  big.Resize(8);  // inline -> heap
  CHECK(big.Dims(0) == 1);
  CHECK(big.Dims(1) == 2);

  const tflite::RuntimeShape extended =
      tflite::RuntimeShape::ExtendedShape(5, small);
  CHECK(extended == tflite::RuntimeShape({1, 1, 2, 3, 4}));
  CHECK(tflite::Offset(tflite::RuntimeShape({2, 3, 4, 5}), 1, 2, 3, 4) == 119);

  size_t flat = 0;
  CHECK(small.CheckedFlatSize(flat));
  CHECK(flat == 24);
  CHECK_FALSE(tflite::RuntimeShape({2, -1}).CheckedFlatSize(flat));

  TfLiteTensor t = {};
  t.dims = TfLiteIntArrayCreate(2);
  t.dims->data[0] = 3;
  t.dims->data[1] = 1;
  CHECK(tflite::GetTensorShape(&t) == tflite::RuntimeShape({3, 1}));
  CHECK(tflite::GetTensorShape(nullptr).DimensionsCount() == 0);
  TfLiteIntArrayFree(t.dims);
}

TEST_CASE("NdArrayDescsForElementwiseBroadcast") {
  tflite::NdArrayDesc<4> d0, d1;
  tflite::NdArrayDescsForElementwiseBroadcast(tflite::RuntimeShape({2, 1, 3}),
                                              tflite::RuntimeShape({4, 1}),
                                              &d0, &d1);
  // Extended shapes: {1, 2, 1, 3} and {1, 1, 4, 1}.
  CHECK(d0.extents[1] == 2);
  CHECK(d0.extents[2] == 4);
  CHECK(d0.strides[2] == 0);
  CHECK(d0.strides[1] == 3);
  CHECK(d1.extents[1] == 2);
  CHECK(d1.strides[1] == 0);
  CHECK(d1.strides[3] == 0);
  CHECK(d1.strides[2] == 1);
  CHECK(tflite::SubscriptToIndex(d0, 0, 1, 3, 2) == 5);
  CHECK(tflite::SubscriptToIndex(d1, 0, 1, 3, 2) == 3);
}

TEST_CASE("Softmax helpers and ChooseQuantizationParams") {
  // ((1 << 5) - 1) * 2^26 / 2^20 = 31 * 64.
  CHECK(tflite::CalculateInputRadius(5, 20) == 1984);
  // [-2, 6] in uint8: scale 8/255, zero point 2 / scale = 63.75 -> 64.
  const auto params = tflite::ChooseQuantizationParams<uint8_t>(-2.0, 6.0);
  CHECK(params.zero_point == 64);
  CHECK(params.scale == 8.0 / 255.0);
  int log2 = 0;
  CHECK(tflite::CheckedLog2(0.25f, &log2));
  CHECK(log2 == -2);
  CHECK_FALSE(tflite::CheckedLog2(0.3f, &log2));
}
