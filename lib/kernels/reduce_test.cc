#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels/testing/shape2_test_util.h"

namespace tflite_inspect {
namespace {

using namespace shape2_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;
using tflite::TensorType_INT64;

OpOptions Keep(bool keep) {
  tflite::ReducerOptionsT o;
  o.keep_dims = keep;
  return Options(o);
}

TEST_CASE("SUM / REDUCE_PROD / REDUCE_MAX / REDUCE_MIN goldens") {
  const T x = Input<float>(TensorType_FLOAT32, {2, 3}, {1, -2, 3, 4, 5, -6});
  const T axis1 = Const<int32_t>(TensorType_INT32, {1}, {1});
  auto r =
      Run(tflite::BuiltinOperator_SUM, {x, axis1}, {Output(TensorType_FLOAT32, {2})}, Keep(false));
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{2, 3});
  r = Run(tflite::BuiltinOperator_REDUCE_PROD, {x, axis1}, {Output(TensorType_FLOAT32, {2, 1})},
          Keep(true));
  REQUIRE(r.ok());
  CHECK(r.shape() == std::vector<int>{2, 1});
  CHECK(r.As<float>() == std::vector<float>{-6, -120});
  // Negative and repeated axes; reduce everything.
  const T all = Const<int32_t>(TensorType_INT32, {3}, {0, -1, 1});
  r = Run(tflite::BuiltinOperator_REDUCE_MAX, {x, all}, {Output(TensorType_FLOAT32, {})},
          Keep(false));
  REQUIRE(r.ok());
  CHECK(r.shape().empty());
  CHECK(r.As<float>() == std::vector<float>{5});
  r = Run(tflite::BuiltinOperator_REDUCE_MIN, {x, Input<int32_t>(TensorType_INT32, {}, {0})},
          {Output(TensorType_FLOAT32, {3})}, Keep(false));
  REQUIRE(r.ok());
  CHECK(r.shape() == std::vector<int>{3});
  CHECK(r.As<float>() == std::vector<float>{1, -2, -6});
  // int8 max keeps quantization (v2).
  r = Run(tflite::BuiltinOperator_REDUCE_MAX,
          {Input<int8_t>(tflite::TensorType_INT8, {3}, {-5, 7, 2}, 0.5f, 1),
           Const<int32_t>(TensorType_INT32, {1}, {0})},
          {Output(tflite::TensorType_INT8, {}, 0.5f, 1)}, Keep(false), 2);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>() == std::vector<int8_t>{7});
  r = Run(tflite::BuiltinOperator_SUM,
          {Input<int32_t>(TensorType_INT32, {2, 2}, {1, 2, 3, 4}),
           Const<int32_t>(TensorType_INT32, {1}, {0})},
          {Output(TensorType_INT32, {2})}, Keep(false));
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{4, 6});
}

TEST_CASE("reductions random vs double reference") {
  // Also the float sums bit for bit against TFLite's reference walk (each output adds its
  // inputs in row-major order), whichever loop the kernel takes.
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rank = 1 + static_cast<int>(rng() % 4);
    std::vector<int32_t> shape(rank);
    for (auto& d : shape) d = 1 + static_cast<int>(rng() % 6);
    std::vector<bool> reduced(rank);
    std::vector<int32_t> axes;
    for (int d = 0; d < rank; ++d) {
      reduced[d] = rng() % 2;
      if (reduced[d]) axes.push_back(d);
    }
    int64_t count = 1;
    for (int d : shape) count *= d;
    std::vector<float> v(count);
    std::uniform_real_distribution<float> dist(0.5f, 1.5f);
    for (auto& x : v) x = dist(rng);
    std::vector<int32_t> out_shape;
    int64_t out_count = 1;
    for (int d = 0; d < rank; ++d) {
      out_shape.push_back(reduced[d] ? 1 : shape[d]);
      out_count *= out_shape.back();
    }
    std::vector<double> sum(out_count, 0), prod(out_count, 1), mx(out_count, -1e9);
    std::vector<float> walk(out_count, 0.0f);
    for (int64_t i = 0; i < count; ++i) {
      int64_t rem = i, o = 0, stride = 1;
      for (int d = rank - 1; d >= 0; --d) {
        const int64_t c = rem % shape[d];
        rem /= shape[d];
        if (!reduced[d]) {
          o += c * stride;
          stride *= shape[d];
        }
      }
      sum[o] += v[i];
      walk[o] += v[i];
      prod[o] *= v[i];
      mx[o] = std::max(mx[o], static_cast<double>(v[i]));
    }
    const T in = Input(TensorType_FLOAT32, shape, v);
    const T ax = Const(TensorType_INT32, {static_cast<int32_t>(axes.size())}, axes);
    auto s = Run(tflite::BuiltinOperator_SUM, {in, ax}, {Output(TensorType_FLOAT32, out_shape)},
                 Keep(true));
    auto p = Run(tflite::BuiltinOperator_REDUCE_PROD, {in, ax},
                 {Output(TensorType_FLOAT32, out_shape)}, Keep(true));
    auto m = Run(tflite::BuiltinOperator_REDUCE_MAX, {in, ax},
                 {Output(TensorType_FLOAT32, out_shape)}, Keep(true));
    REQUIRE((s.ok() && p.ok() && m.ok()));
    for (int64_t j = 0; j < out_count; ++j) {
      CHECK(std::fabs(s.As<float>()[j] - sum[j]) <= 1e-5 * std::fabs(sum[j]));
      CHECK(s.As<float>()[j] == walk[j]);
      CHECK(std::fabs(p.As<float>()[j] - prod[j]) <= 1e-5 * std::fabs(prod[j]));
      CHECK(m.As<float>()[j] == static_cast<float>(mx[j]));
    }
  }
}

TEST_CASE("reduction errors") {
  auto r = Run(
      tflite::BuiltinOperator_SUM,
      {Input<float>(TensorType_FLOAT32, {2}, {1, 2}), Const<int32_t>(TensorType_INT32, {1}, {1})},
      {Output(TensorType_FLOAT32, {})}, Keep(false));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("out of range") != std::string::npos);
  r = Run(tflite::BuiltinOperator_SUM,
          {Input<int16_t>(tflite::TensorType_INT16, {2}, {1, 2}, 0.5f, 0),
           Const<int32_t>(TensorType_INT32, {1}, {0})},
          {Output(tflite::TensorType_INT16, {}, 0.5f, 0)}, Keep(false));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type INT16 (7) not supported.") != std::string::npos);
}

TEST_CASE("SUM 8-bit: same quantization sums raw values, otherwise TFLite's rescale") {
  // Same scale and zero point: raw int8 sum, wrapping in int8 as ReduceGeneric does.
  auto r = Run(tflite::BuiltinOperator_SUM,
               {Input<int8_t>(tflite::TensorType_INT8, {2, 2}, {100, 50, -3, 4}, 0.5f, 2),
                Const<int32_t>(TensorType_INT32, {1}, {0})},
               {Output(tflite::TensorType_INT8, {2}, 0.5f, 2)}, Keep(false), 2);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>() == std::vector<int8_t>{97, 54});
  r = Run(tflite::BuiltinOperator_SUM,
          {Input<int8_t>(tflite::TensorType_INT8, {2}, {100, 100}, 0.5f, 2),
           Const<int32_t>(TensorType_INT32, {1}, {0})},
          {Output(tflite::TensorType_INT8, {}, 0.5f, 2)}, Keep(false), 2);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>() == std::vector<int8_t>{static_cast<int8_t>(200 - 256)});
  // uint8 rescaled: in scale 0.5 zp 10, out scale 1 zp 3; rows {12, 20}, {10, 11}:
  // s = 0.5, bias = -10 * 0.5 * 2 = -10 -> round(32 * 0.5 - 10) + 3 = 9 and
  // round(21 * 0.5 - 10) + 3 = round(0.5) + 3 = 4.
  r = Run(tflite::BuiltinOperator_SUM,
          {Input<uint8_t>(tflite::TensorType_UINT8, {2, 2}, {12, 20, 10, 11}, 0.5f, 10),
           Const<int32_t>(TensorType_INT32, {1}, {1})},
          {Output(tflite::TensorType_UINT8, {2}, 1.0f, 3)}, Keep(false));
  INFO(r.errors);
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{9, 4});
}

TEST_CASE("SUM int8 rescaled random vs an independent float model of QuantizedMeanOrSum") {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rows = 1 + static_cast<int>(rng() % 4), cols = 1 + static_cast<int>(rng() % 5);
    std::vector<int8_t> v(rows * cols);
    for (auto& x : v) x = static_cast<int8_t>(rng());
    std::uniform_real_distribution<float> sd(0.01f, 0.2f);
    const float in_scale = sd(rng), out_scale = sd(rng) * cols;
    const int in_zp = static_cast<int>(rng() % 21) - 10, out_zp = static_cast<int>(rng() % 21) - 10;
    auto r = Run(tflite::BuiltinOperator_SUM,
                 {Input(tflite::TensorType_INT8, {rows, cols}, v, in_scale, in_zp),
                  Const<int32_t>(TensorType_INT32, {1}, {1})},
                 {Output(tflite::TensorType_INT8, {rows}, out_scale, out_zp)}, Keep(false), 2);
    REQUIRE(r.ok());
    const float s = in_scale / out_scale;
    const float bias = -in_zp * s * static_cast<float>(cols);
    for (int i = 0; i < rows; ++i) {
      int32_t sum = 0;
      for (int j = 0; j < cols; ++j) sum += v[i * cols + j];
      const int32_t want =
          static_cast<int32_t>(std::round(static_cast<float>(sum) * s + bias)) + out_zp;
      CHECK(r.As<int8_t>()[i] == static_cast<int8_t>(want));
    }
  }
}

TEST_CASE("ARG_MAX / ARG_MIN") {
  tflite::ArgMaxOptionsT amax;
  amax.output_type = tflite::TensorType_INT32;
  const T x = Input<float>(TensorType_FLOAT32, {2, 3}, {1, 5, 5, 7, 2, 7});
  auto r = Run(tflite::BuiltinOperator_ARG_MAX, {x, Const<int32_t>(TensorType_INT32, {1}, {1})},
               {Output(TensorType_INT32, {2})}, Options(amax));
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{1, 0});  // first of the ties
  tflite::ArgMinOptionsT amin;
  amin.output_type = tflite::TensorType_INT64;
  r = Run(tflite::BuiltinOperator_ARG_MIN, {x, Input<int64_t>(TensorType_INT64, {}, {0})},
          {Output(TensorType_INT64, {3})}, Options(amin));
  REQUIRE(r.ok());
  CHECK(r.As<int64_t>() == std::vector<int64_t>{0, 1, 0});
  r = Run(tflite::BuiltinOperator_ARG_MAX,
          {T{tflite::TensorType_BOOL, {3}, Bools({0, 1, 1}), false},
           Const<int32_t>(TensorType_INT32, {}, {0})},
          {Output(TensorType_INT32, {})}, Options(amax), 3);
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{1});
  r = Run(tflite::BuiltinOperator_ARG_MAX, {x, Const<int32_t>(TensorType_INT32, {1}, {2})},
          {Output(TensorType_INT32, {2})}, Options(amax));
  CHECK(r.prepare == kTfLiteError);
  r = Run(tflite::BuiltinOperator_ARG_MAX, {x, Const<int32_t>(TensorType_INT32, {1}, {1})},
          {Output(TensorType_INT64, {2})}, Options(amax));
  CHECK(r.prepare == kTfLiteError);
}

TEST_CASE("CUMSUM exclusive / reverse") {
  const T x = Input<float>(TensorType_FLOAT32, {2, 3}, {1, 2, 3, 4, 5, 6});
  const T axis = Const<int32_t>(TensorType_INT32, {}, {1});
  struct Case {
    bool exclusive, reverse;
    std::vector<float> want;
  };
  const std::vector<Case> cases = {{false, false, {1, 3, 6, 4, 9, 15}},
                                   {true, false, {0, 1, 3, 0, 4, 9}},
                                   {false, true, {6, 5, 3, 15, 11, 6}},
                                   {true, true, {5, 3, 0, 11, 6, 0}}};
  for (const Case& c : cases) {
    CAPTURE(c.exclusive, c.reverse);
    tflite::CumsumOptionsT o;
    o.exclusive = c.exclusive;
    o.reverse = c.reverse;
    auto r = Run(tflite::BuiltinOperator_CUMSUM, {x, axis}, {Output(TensorType_FLOAT32, {2, 3})},
                 Options(o));
    REQUIRE(r.ok());
    CHECK(r.As<float>() == c.want);
  }
  tflite::CumsumOptionsT o;
  auto r = Run(tflite::BuiltinOperator_CUMSUM,
               {Input<int64_t>(TensorType_INT64, {3}, {1, 2, 3}),
                Input<int32_t>(TensorType_INT32, {}, {-1})},
               {Output(TensorType_INT64, {3})}, Options(o));
  REQUIRE(r.ok());
  CHECK(r.As<int64_t>() == std::vector<int64_t>{1, 3, 6});
  r = Run(
      tflite::BuiltinOperator_CUMSUM,
      {Input<int64_t>(TensorType_INT64, {3}, {1, 2, 3}), Input<int32_t>(TensorType_INT32, {}, {1})},
      {Output(TensorType_INT64, {3})}, Options(o));
  CHECK(r.prepare == kTfLiteOk);
  CHECK(r.invoke == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
