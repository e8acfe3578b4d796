// MEAN: goldens, random axes (negative, repeated) with and without keep_dims against
// a double reference (float) and an independent integer model of TFLite's quantized
// mean (uint8/int8/int16, bit-exact), int32, run-time axes, and errors.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;

OpOptions MeanOptions(bool keep_dims) {
  tflite::ReducerOptionsT o;
  o.keep_dims = keep_dims;
  return Options(o);
}

TEST_CASE("MEAN float golden over H,W of NHWC (global average pooling)") {
  const auto r = Run(tflite::BuiltinOperator_MEAN,
                     {Input<float>(TensorType_FLOAT32, {1, 2, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40}),
                      Const<int32_t>(TensorType_INT32, {2}, {1, 2})},
                     {TensorType_FLOAT32, {1, 1, 1, 2}}, MeanOptions(true));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 1, 1, 2});
  CHECK(r.As<float>() == std::vector<float>{2.5f, 25.f});
}

TEST_CASE("MEAN int32 truncates, no axes copies") {
  auto r = Run(tflite::BuiltinOperator_MEAN,
               {Input<int32_t>(TensorType_INT32, {2, 2}, {1, 2, -3, -4}),
                Const<int32_t>(TensorType_INT32, {1}, {-1})},
               {TensorType_INT32, {2}}, MeanOptions(false));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{2});
  CHECK(r.As<int32_t>() == std::vector<int32_t>{1, -3});
  r = Run(tflite::BuiltinOperator_MEAN,
          {Input<int32_t>(TensorType_INT32, {2, 2}, {1, 2, -3, -4}),
           Const<int32_t>(TensorType_INT32, {0}, {})},
          {TensorType_INT32, {2, 2}}, MeanOptions(false));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int32_t>() == std::vector<int32_t>{1, 2, -3, -4});
}

struct Case {
  std::vector<int32_t> shape, axes, out_shape;
  std::vector<bool> reduced;
};

Case RandomCase(std::mt19937& rng, bool keep_dims) {
  Case c;
  const int rank = 1 + static_cast<int>(rng() % 5);
  c.shape.resize(rank);
  for (auto& d : c.shape) d = 1 + static_cast<int>(rng() % 4);
  c.reduced.assign(rank, false);
  const int n_axes = 1 + static_cast<int>(rng() % (rank + 1));
  for (int i = 0; i < n_axes; ++i) {
    const int a = static_cast<int>(rng() % rank);
    c.reduced[a] = true;
    c.axes.push_back(rng() % 2 ? a - rank : a);
  }
  for (int d = 0; d < rank; ++d) {
    if (!c.reduced[d])
      c.out_shape.push_back(c.shape[d]);
    else if (keep_dims)
      c.out_shape.push_back(1);
  }
  return c;
}

// Sums of the input per output element (reduced coordinates dropped).
template <typename T>
std::vector<double> RefSums(const Case& c, const std::vector<T>& in, int64_t* count) {
  std::vector<int32_t> kept;
  *count = 1;
  for (size_t d = 0; d < c.shape.size(); ++d) {
    if (c.reduced[d])
      *count *= c.shape[d];
    else
      kept.push_back(c.shape[d]);
  }
  std::vector<double> sums(Count(kept), 0.0);
  const auto kst = Strides(kept);
  for (int64_t i = 0; i < Count(c.shape); ++i) {
    const auto co = Unravel(i, c.shape);
    int64_t o = 0;
    for (size_t d = 0, k = 0; d < c.shape.size(); ++d) {
      if (!c.reduced[d]) o += co[d] * kst[k++];
    }
    sums[o] += in[i];
  }
  return sums;
}

TEST_CASE("MEAN float random axes against double") {
  std::mt19937 rng(91);
  for (int iter = 0; iter < 60; ++iter) {
    const bool keep = rng() % 2;
    const Case c = RandomCase(rng, keep);
    std::vector<float> in(Count(c.shape));
    for (auto& x : in) x = std::uniform_real_distribution<float>(-10, 10)(rng);
    const bool runtime_axes = rng() % 2;
    CAPTURE(iter, c.shape, c.axes, keep, runtime_axes);
    const int n = static_cast<int>(c.axes.size());
    const auto r = Run(tflite::BuiltinOperator_MEAN,
                       {Input(TensorType_FLOAT32, c.shape, in),
                        runtime_axes ? Input(TensorType_INT32, {n}, c.axes)
                                     : Const(TensorType_INT32, {n}, c.axes)},
                       {TensorType_FLOAT32, c.out_shape}, MeanOptions(keep));
    REQUIRE(r.invoke == kTfLiteOk);
    REQUIRE(r.shape == std::vector<int>(c.out_shape.begin(), c.out_shape.end()));
    int64_t count;
    const auto sums = RefSums(c, in, &count);
    const auto out = r.As<float>();
    REQUIRE(out.size() == sums.size());
    for (size_t i = 0; i < out.size(); ++i) {
      REQUIRE(out[i] == Approx(sums[i] / count).epsilon(1e-5).margin(1e-6));
    }
  }
}

// Case c of a quantized MEAN with random scales, zero points and values from rng, against an
// independent model of reference_ops::QuantizedMeanOrSum.
template <typename T>
void CheckQuantizedMean(tflite::TensorType type, const Case& c, bool keep, std::mt19937& rng,
                        uint32_t seed, int iter) {
  {
    const bool is16 = std::is_same<T, int16_t>::value;
    const float in_scale = std::exp(std::uniform_real_distribution<float>(-5, 0)(rng));
    const float out_scale =
        in_scale * std::exp(std::uniform_real_distribution<float>(-1.5, 1.5)(rng));
    auto zp = [&] {
      return is16 ? 0
                  : std::uniform_int_distribution<int>(std::numeric_limits<T>::min(),
                                                       std::numeric_limits<T>::max())(rng);
    };
    const int in_zp = zp(), out_zp = zp();
    std::vector<T> in(Count(c.shape));
    for (auto& x : in) {
      x = static_cast<T>(std::uniform_int_distribution<int>(std::numeric_limits<T>::min(),
                                                            std::numeric_limits<T>::max())(rng));
    }
    CAPTURE(seed, iter, c.shape, c.axes, keep, in_scale, out_scale, in_zp, out_zp);
    const int n = static_cast<int>(c.axes.size());
    const auto r =
        Run(tflite::BuiltinOperator_MEAN,
            {Input(type, c.shape, in, in_scale, in_zp), Const(TensorType_INT32, {n}, c.axes)},
            {type, c.out_shape, out_scale, out_zp}, MeanOptions(keep));
    REQUIRE(r.invoke == kTfLiteOk);
    int64_t count;
    const auto sums = RefSums(c, in, &count);
    // Independent model of reference_ops::QuantizedMeanOrSum.
    int32_t q;
    int shift;
    RefQuantizeMultiplier(static_cast<double>(in_scale) / out_scale, &q, &shift);
    int fold = 0;
    while ((int64_t{2} << fold) <= count) ++fold;  // floor(log2(count))
    fold = std::min({fold, 32, 31 + shift});
    const int32_t mq = static_cast<int32_t>((static_cast<int64_t>(q) << fold) / count);
    const auto out = r.template As<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      const int32_t shifted = static_cast<int32_t>(static_cast<int64_t>(sums[i]) - in_zp * count);
      int32_t v = RefMultiply(shifted, mq, shift - fold) + out_zp;
      v = std::min<int32_t>(std::max<int32_t>(v, std::numeric_limits<T>::min()),
                            std::numeric_limits<T>::max());
      REQUIRE(static_cast<int32_t>(out[i]) == v);
      // And it is a mean: within one step of the real value.
      const double real = in_scale * (sums[i] / count - in_zp) / out_scale + out_zp;
      const double clamped = std::min<double>(std::max<double>(real, std::numeric_limits<T>::min()),
                                              std::numeric_limits<T>::max());
      REQUIRE(std::abs(out[i] - clamped) <= 1.0);
    }
  }
}

template <typename T>
void RandomQuantizedMean(tflite::TensorType type, uint32_t seed) {
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 60; ++iter) {
    const bool keep = rng() % 2;
    CheckQuantizedMean<T>(type, RandomCase(rng, keep), keep, rng, seed, iter);
  }
}

// A Case of `shape` reducing `axes` (non-negative), keep_dims false.
Case FixedCase(std::vector<int32_t> shape, std::vector<int32_t> axes) {
  Case c;
  c.shape = shape;
  c.axes = axes;
  c.reduced.assign(shape.size(), false);
  for (int32_t a : axes) c.reduced[a] = true;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!c.reduced[d]) c.out_shape.push_back(shape[d]);
  }
  return c;
}

TEST_CASE("MEAN quantized with the outer dimensions reduced (rows summed as blocks)") {
  // A group norm's moments; leading 1s and merged neighbours; all reduced; int16 past the
  // rows its int32 lanes hold before they are flushed (2^14).
  std::mt19937 rng(104);
  const Case group_norm = FixedCase({1, 16, 16, 8, 4}, {1, 2, 4});
  const Case merged = FixedCase({5, 3, 1, 4, 6}, {0, 1, 4});
  const Case all = FixedCase({7, 9}, {0, 1});
  const Case long_rows = FixedCase({40000, 3}, {0});
  for (int iter = 0; iter < 3; ++iter) {
    CheckQuantizedMean<int8_t>(tflite::TensorType_INT8, group_norm, false, rng, 104, iter);
    CheckQuantizedMean<uint8_t>(tflite::TensorType_UINT8, merged, false, rng, 104, iter);
    CheckQuantizedMean<int8_t>(tflite::TensorType_INT8, all, false, rng, 104, iter);
    CheckQuantizedMean<int16_t>(tflite::TensorType_INT16, long_rows, false, rng, 104, iter);
    CheckQuantizedMean<int16_t>(tflite::TensorType_INT16, group_norm, false, rng, 104, iter);
  }
}

TEST_CASE("MEAN quantized random bit-exact") {
  RandomQuantizedMean<int8_t>(tflite::TensorType_INT8, 101);
  RandomQuantizedMean<uint8_t>(tflite::TensorType_UINT8, 102);
  RandomQuantizedMean<int16_t>(tflite::TensorType_INT16, 103);
}

TEST_CASE("MEAN errors") {
  SECTION("axis out of range") {
    const auto r = Run(tflite::BuiltinOperator_MEAN,
                       {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
                        Const<int32_t>(TensorType_INT32, {1}, {2})},
                       {TensorType_FLOAT32, {2}}, MeanOptions(false));
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("MEAN"));
  }
  SECTION("int64 axis tensor") {
    const auto r = Run(tflite::BuiltinOperator_MEAN,
                       {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
                        Const<int64_t>(tflite::TensorType_INT64, {1}, {0})},
                       {TensorType_FLOAT32, {2}}, MeanOptions(false));
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("bool input") {
    const auto r = Run(tflite::BuiltinOperator_MEAN,
                       {Input<uint8_t>(tflite::TensorType_BOOL, {2}, {1, 0}),
                        Const<int32_t>(TensorType_INT32, {1}, {0})},
                       {tflite::TensorType_BOOL, {}}, MeanOptions(false));
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("not supported"));
  }
}

}  // namespace
}  // namespace tflite_inspect
