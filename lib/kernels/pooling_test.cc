// MAX_POOL_2D and AVERAGE_POOL_2D: goldens, random shapes/strides/filters/padding
// against a double (float) or independent integer reference (uint8/int8/int16,
// bit-exact), fused activations, and errors.
#include <algorithm>
#include <cmath>
#include <limits>
#include <cstring>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/internal/pooling.h"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT
using tflite::ActivationFunctionType;
using tflite::TensorType_FLOAT32;

struct PoolSpec {
  tflite::Padding padding = tflite::Padding_VALID;
  int stride_h = 1, stride_w = 1, filter_h = 1, filter_w = 1;
  ActivationFunctionType act = tflite::ActivationFunctionType_NONE;
};

OpOptions PoolOptions(const PoolSpec& s) {
  tflite::Pool2DOptionsT o;
  o.padding = s.padding;
  o.stride_h = s.stride_h;
  o.stride_w = s.stride_w;
  o.filter_height = s.filter_h;
  o.filter_width = s.filter_w;
  o.fused_activation_function = s.act;
  return Options(o);
}

// Output size and leading padding, from TensorFlow's definitions.
void Geometry(bool same, int in, int filter, int stride, int* out, int* pad) {
  *out = same ? (in + stride - 1) / stride : (in - filter + stride) / stride;
  *pad = std::max((*out - 1) * stride + filter - in, 0) / 2;
}

// Pools `in` (NHWC); returns per output element the list of window values.
template <typename T>
std::vector<std::vector<T>> Windows(const std::vector<T>& in, const std::vector<int32_t>& shape,
                                    const PoolSpec& s, std::vector<int32_t>* out_shape) {
  int oh, ow, ph, pw;
  const bool same = s.padding == tflite::Padding_SAME;
  Geometry(same, shape[1], s.filter_h, s.stride_h, &oh, &ph);
  Geometry(same, shape[2], s.filter_w, s.stride_w, &ow, &pw);
  *out_shape = {shape[0], oh, ow, shape[3]};
  std::vector<std::vector<T>> w;
  for (int b = 0; b < shape[0]; ++b)
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x)
        for (int c = 0; c < shape[3]; ++c) {
          std::vector<T> vals;
          for (int fy = 0; fy < s.filter_h; ++fy)
            for (int fx = 0; fx < s.filter_w; ++fx) {
              const int iy = y * s.stride_h - ph + fy, ix = x * s.stride_w - pw + fx;
              if (iy < 0 || iy >= shape[1] || ix < 0 || ix >= shape[2]) continue;
              vals.push_back(in[((b * shape[1] + iy) * shape[2] + ix) * shape[3] + c]);
            }
          w.push_back(vals);
        }
  return w;
}

PoolSpec RandomSpec(std::mt19937& rng, const std::vector<int32_t>& shape) {
  PoolSpec s;
  s.padding = rng() % 2 ? tflite::Padding_SAME : tflite::Padding_VALID;
  s.stride_h = 1 + rng() % 3;
  s.stride_w = 1 + rng() % 3;
  s.filter_h = 1 + rng() % shape[1];
  s.filter_w = 1 + rng() % shape[2];
  const ActivationFunctionType acts[] = {
      tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU,
      tflite::ActivationFunctionType_RELU6, tflite::ActivationFunctionType_RELU_N1_TO_1};
  s.act = acts[rng() % 4];
  return s;
}

double ActClamp(double v, ActivationFunctionType act) {
  switch (act) {
    case tflite::ActivationFunctionType_RELU:
      return std::max(v, 0.0);
    case tflite::ActivationFunctionType_RELU6:
      return std::min(std::max(v, 0.0), 6.0);
    case tflite::ActivationFunctionType_RELU_N1_TO_1:
      return std::min(std::max(v, -1.0), 1.0);
    default:
      return v;
  }
}

TEST_CASE("AVERAGE_POOL_2D and MAX_POOL_2D float golden, SAME padding") {
  PoolSpec s;
  s.padding = tflite::Padding_SAME;
  s.filter_h = s.filter_w = 2;
  s.stride_h = s.stride_w = 2;
  const std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // 1x3x3x1
  auto r =
      Run(tflite::BuiltinOperator_AVERAGE_POOL_2D, {Input(TensorType_FLOAT32, {1, 3, 3, 1}, in)},
          {TensorType_FLOAT32, {1, 2, 2, 1}}, PoolOptions(s));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 2, 2, 1});
  CHECK(r.As<float>() == std::vector<float>{3, 4.5f, 7.5f, 9});
  r = Run(tflite::BuiltinOperator_MAX_POOL_2D, {Input(TensorType_FLOAT32, {1, 3, 3, 1}, in)},
          {TensorType_FLOAT32, {1, 2, 2, 1}}, PoolOptions(s));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>() == std::vector<float>{5, 6, 8, 9});
}

TEST_CASE("AVERAGE_POOL_2D int8 rounds half away from zero") {
  PoolSpec s;
  s.filter_h = 1;
  s.filter_w = 2;
  s.stride_w = 2;
  // Pairs: (1,2) -> 1.5 -> 2; (-1,-2) -> -1.5 -> -2; (-3,4) -> 0.5 -> 1; (0,-1) -> -1.
  const auto r = Run(
      tflite::BuiltinOperator_AVERAGE_POOL_2D,
      {Input<int8_t>(tflite::TensorType_INT8, {1, 1, 8, 1}, {1, 2, -1, -2, -3, 4, 0, -1}, 0.5f, 0)},
      {tflite::TensorType_INT8, {1, 1, 4, 1}, 0.5f, 0}, PoolOptions(s));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{2, -2, 1, -1});
}

TEST_CASE("Pooling float random against double") {
  std::mt19937 rng(31);
  for (int iter = 0; iter < 40; ++iter) {
    const std::vector<int32_t> shape = {
        1 + static_cast<int>(rng() % 2), 1 + static_cast<int>(rng() % 7),
        1 + static_cast<int>(rng() % 7), 1 + static_cast<int>(rng() % 3)};
    const PoolSpec s = RandomSpec(rng, shape);
    std::vector<float> in(Count(shape));
    for (auto& x : in) x = std::uniform_real_distribution<float>(-8, 8)(rng);
    std::vector<int32_t> out_shape;
    const auto windows = Windows(in, shape, s, &out_shape);
    CAPTURE(iter, shape, s.padding, s.stride_h, s.stride_w, s.filter_h, s.filter_w, s.act);
    for (bool is_max : {false, true}) {
      CAPTURE(is_max);
      const auto r = Run(
          is_max ? tflite::BuiltinOperator_MAX_POOL_2D : tflite::BuiltinOperator_AVERAGE_POOL_2D,
          {Input(TensorType_FLOAT32, shape, in)}, {TensorType_FLOAT32, out_shape}, PoolOptions(s));
      REQUIRE(r.invoke == kTfLiteOk);
      REQUIRE(r.shape == std::vector<int>(out_shape.begin(), out_shape.end()));
      const auto out = r.As<float>();
      for (size_t k = 0; k < windows.size(); ++k) {
        double v = is_max ? -1e300 : 0;
        for (float w : windows[k]) v = is_max ? std::max<double>(v, w) : v + w;
        if (!is_max) v /= windows[k].size();
        v = ActClamp(v, s.act);
        REQUIRE(out[k] == Approx(v).epsilon(1e-5).margin(1e-5));
      }
    }
  }
}

// Bit for bit: TFLite's builtin AVERAGE_POOL_2D adds the window's values in (fy, fx)
// order in float and divides by the count (dynamic-range graphs keep it on the CPU for
// these bits). Channel counts across the 16-lane vectors and the 64-channel blocks of the
// vector rows.
TEST_CASE("AVERAGE_POOL_2D float: the window added in order, divided (bits, wide channels)") {
  std::mt19937 rng(37);
  for (int iter = 0; iter < 40; ++iter) {
    const std::vector<int32_t> shape = {
        1 + static_cast<int>(rng() % 2), 1 + static_cast<int>(rng() % 7),
        1 + static_cast<int>(rng() % 7), 1 + static_cast<int>(rng() % 140)};
    const PoolSpec s = RandomSpec(rng, shape);
    std::vector<float> in(Count(shape));
    for (auto& x : in) x = std::uniform_real_distribution<float>(-8, 8)(rng);
    std::vector<int32_t> out_shape;
    const auto windows = Windows(in, shape, s, &out_shape);
    CAPTURE(iter, shape, s.padding, s.stride_h, s.stride_w, s.filter_h, s.filter_w, s.act);
    const auto r = Run(tflite::BuiltinOperator_AVERAGE_POOL_2D,
                       {Input(TensorType_FLOAT32, shape, in)}, {TensorType_FLOAT32, out_shape},
                       PoolOptions(s));
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.As<float>();
    for (size_t k = 0; k < windows.size(); ++k) {
      float v = 0.0f;
      for (float w : windows[k]) v = v + w;
      v = v / static_cast<float>(windows[k].size());
      const float want = static_cast<float>(ActClamp(v, s.act));
      CAPTURE(k, out[k], want);
      REQUIRE(std::memcmp(&out[k], &want, sizeof want) == 0);
    }
  }
}

template <typename T>
void RandomQuantizedPool(tflite::TensorType type, uint32_t seed) {
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 40; ++iter) {
    const std::vector<int32_t> shape = {1, 1 + static_cast<int>(rng() % 6),
                                        1 + static_cast<int>(rng() % 6),
                                        1 + static_cast<int>(rng() % 3)};
    const PoolSpec s = RandomSpec(rng, shape);
    const float scale = 0.02f + (rng() % 100) / 400.f;
    const int zp =
        std::is_same<T, int16_t>::value
            ? 0
            : static_cast<int>(std::numeric_limits<T>::min()) + static_cast<int>(rng() % 256);
    std::vector<T> in(Count(shape));
    for (auto& x : in) {
      x = static_cast<T>(std::uniform_int_distribution<int>(std::numeric_limits<T>::min(),
                                                            std::numeric_limits<T>::max())(rng));
    }
    // Clamp range of the activation in the quantized domain (TFLite's definition).
    auto q = [&](double real) { return zp + static_cast<int>(std::round(real / scale)); };
    int lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    if (s.act == tflite::ActivationFunctionType_RELU) lo = std::max(lo, q(0));
    if (s.act == tflite::ActivationFunctionType_RELU6) {
      lo = std::max(lo, q(0));
      hi = std::min(hi, q(6));
    }
    if (s.act == tflite::ActivationFunctionType_RELU_N1_TO_1) {
      lo = std::max(lo, q(-1));
      hi = std::min(hi, q(1));
    }
    std::vector<int32_t> out_shape;
    const auto windows = Windows(in, shape, s, &out_shape);
    CAPTURE(seed, iter, shape, s.padding, s.stride_h, s.stride_w, s.filter_h, s.filter_w, s.act,
            scale, zp);
    for (bool is_max : {false, true}) {
      CAPTURE(is_max);
      const auto r = Run(
          is_max ? tflite::BuiltinOperator_MAX_POOL_2D : tflite::BuiltinOperator_AVERAGE_POOL_2D,
          {Input(type, shape, in, scale, zp)}, {type, out_shape, scale, zp}, PoolOptions(s));
      REQUIRE(r.invoke == kTfLiteOk);
      const auto out = r.template As<T>();
      for (size_t k = 0; k < windows.size(); ++k) {
        int64_t v;
        if (is_max) {
          v = *std::max_element(windows[k].begin(), windows[k].end());
        } else {
          int64_t sum = 0;
          for (T w : windows[k]) sum += w;
          v = static_cast<int64_t>(std::round(static_cast<double>(sum) / windows[k].size()));
        }
        v = std::min<int64_t>(std::max<int64_t>(v, lo), hi);
        REQUIRE(static_cast<int64_t>(out[k]) == v);
      }
    }
  }
}

TEST_CASE("Pooling quantized random bit-exact") {
  RandomQuantizedPool<int8_t>(tflite::TensorType_INT8, 41);
  RandomQuantizedPool<uint8_t>(tflite::TensorType_UINT8, 42);
  RandomQuantizedPool<int16_t>(tflite::TensorType_INT16, 43);
}

TEST_CASE("RoundedAverage is the reference's integer rounding, at the edges of its range") {
  auto reference = [](int64_t acc, int64_t count) {
    return acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
  };
  std::mt19937 rng(7);
  std::vector<int> counts = {1, 2, 3, 4, 7, 9, 16, 49, 255, 256, 1000, 65535, 65536, (1 << 21) - 1,
                             1 << 21, (1 << 21) + 1, 1 << 24};
  for (int count : counts) {
    const int64_t limit = std::min<int64_t>(int64_t{1} << 30, int64_t{32768} * count);
    std::vector<int64_t> accs = {0, 1, -1, limit, -limit};
    // Exact halves and their neighbours, where the rounding turns.
    for (int64_t q : {int64_t{0}, int64_t{1}, int64_t{5}, limit / count - 1}) {
      for (int64_t d : {-1, 0, 1}) {
        accs.push_back(q * count + count / 2 + d);
        accs.push_back(-(q * count + count / 2 + d));
      }
    }
    for (int i = 0; i < 2000; ++i) {
      accs.push_back(std::uniform_int_distribution<int64_t>(-limit, limit)(rng));
    }
    for (int64_t acc : accs) {
      CAPTURE(count, acc);
      REQUIRE(tflite::ops::builtin::pooling::RoundedAverage(static_cast<int32_t>(acc), count) ==
              reference(acc, count));
    }
  }
}

TEST_CASE("Pooling on 2 threads gives the single-threaded results") {
  std::mt19937 rng(44);
  const std::vector<int32_t> shape = {2, 48, 48, 16};
  std::vector<int8_t> in(Count(shape));
  for (auto& x : in) x = static_cast<int8_t>(rng());
  PoolSpec s;
  s.padding = tflite::Padding_SAME;
  s.filter_h = s.filter_w = 3;
  const std::vector<int32_t> out_shape = {2, 48, 48, 16};
  for (auto op : {tflite::BuiltinOperator_AVERAGE_POOL_2D, tflite::BuiltinOperator_MAX_POOL_2D}) {
    const auto one = Run(op, {Input(tflite::TensorType_INT8, shape, in, 0.1f, 3)},
                         {tflite::TensorType_INT8, out_shape, 0.1f, 3}, PoolOptions(s), 2, 1);
    const auto two = Run(op, {Input(tflite::TensorType_INT8, shape, in, 0.1f, 3)},
                         {tflite::TensorType_INT8, out_shape, 0.1f, 3}, PoolOptions(s), 2, 2);
    REQUIRE(one.invoke == kTfLiteOk);
    REQUIRE(two.invoke == kTfLiteOk);
    CHECK(one.bytes == two.bytes);
  }
}

TEST_CASE("Pooling errors") {
  PoolSpec s;
  s.filter_h = s.filter_w = 2;
  s.stride_h = s.stride_w = 1;
  SECTION("not 4-D") {
    const auto r = Run(tflite::BuiltinOperator_MAX_POOL_2D,
                       {Input<float>(TensorType_FLOAT32, {3, 3, 1}, std::vector<float>(9))},
                       {TensorType_FLOAT32, {2, 2, 1}}, PoolOptions(s));
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("MAX_POOL_2D"));
  }
  SECTION("zero stride") {
    s.stride_h = 0;
    const auto r = Run(tflite::BuiltinOperator_AVERAGE_POOL_2D,
                       {Input<float>(TensorType_FLOAT32, {1, 3, 3, 1}, std::vector<float>(9))},
                       {TensorType_FLOAT32, {1, 2, 2, 1}}, PoolOptions(s));
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("VALID filter larger than the input") {
    s.filter_h = 4;
    const auto r = Run(tflite::BuiltinOperator_AVERAGE_POOL_2D,
                       {Input<float>(TensorType_FLOAT32, {1, 3, 3, 1}, std::vector<float>(9))},
                       {TensorType_FLOAT32, {1, 1, 2, 1}}, PoolOptions(s));
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("AVERAGE_POOL_2D"));
  }
  SECTION("int32 input") {
    const auto r = Run(tflite::BuiltinOperator_MAX_POOL_2D,
                       {Input<int32_t>(tflite::TensorType_INT32, {1, 2, 2, 1}, {1, 2, 3, 4})},
                       {tflite::TensorType_INT32, {1, 1, 1, 1}}, PoolOptions(s));
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("not supported"));
  }
}

}  // namespace
}  // namespace tflite_inspect
