// MIRROR_PAD: REFLECT / SYMMETRIC goldens (TFLite's test vectors), every type, int64
// and run-time paddings, random ranks 1-4 against an index reference, and errors.
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT

OpOptions Mode(bool reflect) {
  tflite::MirrorPadOptionsT o;
  o.mode = reflect ? tflite::MirrorPadMode_REFLECT : tflite::MirrorPadMode_SYMMETRIC;
  return Options(o);
}

template <typename T>
OpRun Pad(tflite::TensorType type, std::vector<int32_t> shape, const std::vector<T>& values,
          const std::vector<int32_t>& pads, std::vector<int32_t> out_shape, bool reflect,
          bool const_pads = true, int version = 1) {
  const std::vector<int32_t> pshape{static_cast<int32_t>(shape.size()), 2};
  return Run(tflite::BuiltinOperator_MIRROR_PAD,
             {Input<T>(type, shape, values),
              const_pads ? Const<int32_t>(tflite::TensorType_INT32, pshape, pads)
                         : Input<int32_t>(tflite::TensorType_INT32, pshape, pads)},
             {type, out_shape}, Mode(reflect), version);
}

TEST_CASE("MIRROR_PAD goldens") {
  auto r = Pad<int32_t>(tflite::TensorType_INT32, {2, 3}, {1, 2, 3, 4, 5, 6}, {1, 1, 2, 2}, {4, 7},
                        true);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int32_t>() == std::vector<int32_t>{6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1,
                                                6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1});
  r = Pad<float>(tflite::TensorType_FLOAT32, {2, 3}, {1, 2, 3, 4, 5, 6}, {1, 1, 2, 2}, {4, 7},
                 false);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>() == std::vector<float>{2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2,
                                            5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6, 6, 5});
  r = Pad<int8_t>(tflite::TensorType_INT8, {3}, {1, 2, 3}, {2, 2}, {7}, false, false, 2);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{7});
  CHECK(r.As<int8_t>() == std::vector<int8_t>{2, 1, 1, 2, 3, 3, 2});
  r = Pad<uint8_t>(tflite::TensorType_UINT8, {3}, {1, 2, 3}, {2, 2}, {7}, true);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{3, 2, 1, 2, 3, 2, 1});
  r = Pad<int16_t>(tflite::TensorType_INT16, {3}, {1, 2, 3}, {0, 1}, {4}, true, true, 3);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int16_t>() == std::vector<int16_t>{1, 2, 3, 2});
  const auto r64 = Run(tflite::BuiltinOperator_MIRROR_PAD,
                       {Input<int64_t>(tflite::TensorType_INT64, {2}, {7, 8}),
                        Const<int64_t>(tflite::TensorType_INT64, {1, 2}, {2, 0})},
                       {tflite::TensorType_INT64, {4}}, Mode(false));
  REQUIRE(r64.invoke == kTfLiteOk);
  CHECK(r64.As<int64_t>() == std::vector<int64_t>{8, 7, 7, 8});
}

TEST_CASE("MIRROR_PAD random shapes match the index reference") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const bool reflect = seed % 2;
    const int rank = 1 + rng() % 4;
    std::vector<int32_t> shape(rank), out_shape(rank), pads(2 * rank);
    for (int d = 0; d < rank; ++d) {
      shape[d] = 1 + rng() % 4;
      const int max_pad = shape[d] - (reflect ? 1 : 0);
      pads[2 * d] = rng() % (max_pad + 1);
      pads[2 * d + 1] = rng() % (max_pad + 1);
      out_shape[d] = shape[d] + pads[2 * d] + pads[2 * d + 1];
    }
    std::vector<float> in(Count(shape));
    for (auto& v : in) v = static_cast<float>(rng() % 10000);
    const auto r =
        Pad<float>(tflite::TensorType_FLOAT32, shape, in, pads, out_shape, reflect, seed % 3 != 0);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.As<float>();
    const auto strides = Strides(shape);
    for (int64_t i = 0; i < Count(out_shape); ++i) {
      const auto c = Unravel(i, out_shape);
      int64_t src = 0;
      for (int d = 0; d < rank; ++d) {
        int x = c[d] - pads[2 * d];
        // Mirror about the edge (reflect) or across it (symmetric).
        if (x < 0) x = reflect ? -x : -x - 1;
        if (x >= shape[d]) x = reflect ? 2 * (shape[d] - 1) - x : 2 * shape[d] - 1 - x;
        src += x * strides[d];
      }
      REQUIRE(out[i] == in[src]);
    }
  }
}

TEST_CASE("MIRROR_PAD rejects bad models") {
  auto r = Pad<float>(tflite::TensorType_FLOAT32, {3}, {1, 2, 3}, {3, 0}, {6}, true);
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("must be in [0, 2] for REFLECT") != std::string::npos);
  r = Pad<float>(tflite::TensorType_FLOAT32, {3}, {1, 2, 3}, {4, 0}, {7}, false, false);
  CHECK(r.invoke == kTfLiteError);
  r = Run(tflite::BuiltinOperator_MIRROR_PAD,
          {Input<uint8_t>(tflite::TensorType_BOOL, {1}, {1}),
           Const<int32_t>(tflite::TensorType_INT32, {1, 2}, {0, 0})},
          {tflite::TensorType_BOOL, {1}}, Mode(true));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type BOOL (6) not supported.") != std::string::npos);
  r = Run(tflite::BuiltinOperator_MIRROR_PAD,
          {Input<float>(tflite::TensorType_FLOAT32, {1}, {1}),
           Const<int32_t>(tflite::TensorType_INT32, {2, 2}, {0, 0, 0, 0})},
          {tflite::TensorType_FLOAT32, {1}}, Mode(true));
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
