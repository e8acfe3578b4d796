// STRIDED_SLICE: goldens for negative strides, begin/end/shrink masks, ellipsis,
// new axis and offset; random 1-5-D slices against a NumPy-style reference; errors.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;

struct Masks {
  int begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink = 0;
  bool offset = false;
};

OpOptions SliceOptions(const Masks& m) {
  tflite::StridedSliceOptionsT o;
  o.begin_mask = m.begin;
  o.end_mask = m.end;
  o.ellipsis_mask = m.ellipsis;
  o.new_axis_mask = m.new_axis;
  o.shrink_axis_mask = m.shrink;
  o.offset = m.offset;
  return Options(o);
}

OpRun Slice(const std::vector<int32_t>& shape, const std::vector<float>& in,
            const std::vector<int32_t>& begin, const std::vector<int32_t>& end,
            const std::vector<int32_t>& strides, const Masks& m,
            const std::vector<int32_t>& out_shape, bool runtime = false) {
  const int n = static_cast<int>(begin.size());
  auto idx = [&](const std::vector<int32_t>& v) {
    return runtime ? Input(TensorType_INT32, {n}, v) : Const(TensorType_INT32, {n}, v);
  };
  return Run(tflite::BuiltinOperator_STRIDED_SLICE,
             {Input(TensorType_FLOAT32, shape, in), idx(begin), idx(end), idx(strides)},
             {TensorType_FLOAT32, out_shape}, SliceOptions(m));
}

std::vector<float> Iota(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

TEST_CASE("STRIDED_SLICE 1-D goldens") {
  const auto in = Iota(8);
  auto r = Slice({8}, in, {1}, {7}, {2}, {}, {3});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>() == std::vector<float>{1, 3, 5});
  r = Slice({8}, in, {-1}, {0}, {-3}, {}, {3});  // 7, 4, 1
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>() == std::vector<float>{7, 4, 1});
  Masks both;
  both.begin = both.end = 1;
  r = Slice({8}, in, {5}, {2}, {-1}, both, {8});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>() == std::vector<float>{7, 6, 5, 4, 3, 2, 1, 0});
  r = Slice({8}, in, {-100}, {100}, {3}, {}, {3});  // clamped
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>() == std::vector<float>{0, 3, 6});
}

TEST_CASE("STRIDED_SLICE shrink axis, ellipsis, new axis and offset") {
  const auto in = Iota(24);  // 2x3x4
  Masks shrink;
  shrink.shrink = 1;  // x[-1, 1:3, ::2]
  auto r = Slice({2, 3, 4}, in, {-1, 1, 0}, {0, 3, 4}, {1, 1, 2}, shrink, {2, 2});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{2, 2});
  CHECK(r.As<float>() == std::vector<float>{16, 18, 20, 22});

  Masks ellipsis;
  ellipsis.ellipsis = 1;
  ellipsis.shrink = 2;  // x[..., 1]
  r = Slice({2, 3, 4}, in, {0, 1}, {0, 2}, {1, 1}, ellipsis, {2, 3});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{2, 3});
  CHECK(r.As<float>() == std::vector<float>{1, 5, 9, 13, 17, 21});

  Masks new_axis;
  new_axis.new_axis = 2;  // x[1:, newaxis, 2]  (shrink on the third spec)
  new_axis.shrink = 4;
  r = Slice({2, 3, 4}, in, {1, 0, 2}, {2, 0, 3}, {1, 1, 1}, new_axis, {1, 1, 4});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 1, 4});
  CHECK(r.As<float>() == std::vector<float>{20, 21, 22, 23});

  Masks offset;
  offset.offset = true;  // end = begin + size
  r = Slice({2, 3, 4}, in, {1, 1, 1}, {1, 2, 2}, {1, 1, 1}, offset, {1, 2, 2}, true);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 2, 2});
  CHECK(r.As<float>() == std::vector<float>{17, 18, 21, 22});
}

// Python/NumPy slice semantics for one axis.
std::vector<int> AxisIndices(int size, int begin, int end, int stride, bool bm, bool em) {
  std::vector<int> idx;
  if (stride > 0) {
    int b = bm ? 0 : (begin < 0 ? std::max(begin + size, 0) : std::min(begin, size));
    int e = em ? size : (end < 0 ? std::max(end + size, 0) : std::min(end, size));
    for (int i = b; i < e; i += stride) idx.push_back(i);
  } else {
    int b = bm ? size - 1 : (begin < 0 ? std::max(begin + size, -1) : std::min(begin, size - 1));
    int e = em ? -1 : (end < 0 ? std::max(end + size, -1) : std::min(end, size - 1));
    for (int i = b; i > e; i += stride) idx.push_back(i);
  }
  return idx;
}

TEST_CASE("STRIDED_SLICE random slices against a NumPy reference") {
  std::mt19937 rng(61);
  for (int iter = 0; iter < 200; ++iter) {
    const int rank = 1 + static_cast<int>(rng() % 5);
    std::vector<int32_t> shape(rank), begin(rank), end(rank), strides(rank);
    Masks m;
    std::vector<std::vector<int>> picks(rank);
    std::vector<int32_t> out_shape;
    for (int d = 0; d < rank; ++d) {
      shape[d] = 1 + static_cast<int>(rng() % 5);
      begin[d] = static_cast<int>(rng() % 13) - 6;
      end[d] = static_cast<int>(rng() % 13) - 6;
      strides[d] = (rng() % 2 ? 1 : -1) * (1 + static_cast<int>(rng() % 3));
      if (rng() % 4 == 0) m.begin |= 1 << d;
      if (rng() % 4 == 0) m.end |= 1 << d;
      const bool shrink = rng() % 6 == 0 && begin[d] >= -shape[d] && begin[d] < shape[d];
      if (shrink) {
        // TensorFlow rejects a non-positive stride on a shrunk axis; TFLite then
        // writes nothing, which this kernel reports as an error instead.
        strides[d] = 1 + static_cast<int>(rng() % 3);
        m.shrink |= 1 << d;
        m.begin &= ~(1 << d);
        picks[d] = {begin[d] < 0 ? begin[d] + shape[d] : begin[d]};
      } else {
        picks[d] = AxisIndices(shape[d], begin[d], end[d], strides[d], m.begin & (1 << d),
                               m.end & (1 << d));
        out_shape.push_back(static_cast<int>(picks[d].size()));
      }
    }
    const auto in = Iota(static_cast<int>(Count(shape)));
    CAPTURE(iter, shape, begin, end, strides, m.begin, m.end, m.shrink);
    const auto r = Slice(shape, in, begin, end, strides, m, out_shape, rng() % 2);
    REQUIRE(r.invoke == kTfLiteOk);
    REQUIRE(r.shape == std::vector<int>(out_shape.begin(), out_shape.end()));
    // Expected: the cartesian product of the picked indices, row-major.
    std::vector<float> expected;
    const auto st = Strides(shape);
    std::vector<size_t> pos(rank, 0);
    bool empty = false;
    for (const auto& p : picks) empty |= p.empty();
    while (!empty) {
      int64_t off = 0;
      for (int d = 0; d < rank; ++d) off += picks[d][pos[d]] * st[d];
      expected.push_back(in[off]);
      int d = rank - 1;
      for (; d >= 0; --d) {
        if (++pos[d] < picks[d].size()) break;
        pos[d] = 0;
      }
      if (d < 0) break;
    }
    REQUIRE(r.As<float>() == expected);
  }
}

TEST_CASE("STRIDED_SLICE other element types") {
  const auto r =
      Run(tflite::BuiltinOperator_STRIDED_SLICE,
          {Input<int8_t>(tflite::TensorType_INT8, {4}, {1, 2, 3, 4}, 0.5f, 1),
           Const<int32_t>(TensorType_INT32, {1}, {3}), Const<int32_t>(TensorType_INT32, {1}, {0}),
           Const<int32_t>(TensorType_INT32, {1}, {-2})},
          {tflite::TensorType_INT8, {2}, 0.5f, 1}, SliceOptions({}));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{4, 2});
}

TEST_CASE("STRIDED_SLICE on strings") {
  const std::vector<std::string> strs = {"a", "bb", "", "dddd", "e", "ff"};  // 2x3
  const auto r = Run(tflite::BuiltinOperator_STRIDED_SLICE,
                     {In{tflite::TensorType_STRING, {2, 3}, StringBuffer(strs), false},
                      Const<int32_t>(TensorType_INT32, {2}, {1, -1}),
                      Const<int32_t>(TensorType_INT32, {2}, {-3, 0}),
                      Const<int32_t>(TensorType_INT32, {2}, {-1, -2})},
                     {tflite::TensorType_STRING, {2, 1}}, SliceOptions({}));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{2, 1});
  CHECK(ParseStrings(r.bytes) == std::vector<std::string>{"ff", ""});
}

TEST_CASE("STRIDED_SLICE errors") {
  const auto in = Iota(4);
  SECTION("zero stride") {
    const auto r = Slice({4}, in, {0}, {4}, {0}, {}, {4});
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("stride"));
  }
  SECTION("int64 indices") {
    const auto r =
        Run(tflite::BuiltinOperator_STRIDED_SLICE,
            {Input(TensorType_FLOAT32, {4}, in), Const<int64_t>(tflite::TensorType_INT64, {1}, {0}),
             Const<int64_t>(tflite::TensorType_INT64, {1}, {4}),
             Const<int64_t>(tflite::TensorType_INT64, {1}, {1})},
            {TensorType_FLOAT32, {4}}, SliceOptions({}));
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("rank 6") {
    const auto r =
        Slice({1, 1, 1, 1, 1, 1}, {0}, std::vector<int32_t>(6, 0), std::vector<int32_t>(6, 1),
              std::vector<int32_t>(6, 1), {}, {1, 1, 1, 1, 1, 1});
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("an offset size near INT_MAX is an error, not an overflow") {
    // Found by a UBSan run over crafted models: ceil(end / stride) in float left int.
    Masks offset;
    offset.offset = true;
    const auto r = Slice({4}, in, {1}, {2147483647}, {1}, offset, {3});
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("STRIDED_SLICE: output dimension 0"));
  }
  SECTION("offset slice past the end fails instead of writing garbage") {
    // The output shape comes from `end` (3) alone; begin = 3 leaves 1 element.
    Masks offset;
    offset.offset = true;
    const auto r = Run(
        tflite::BuiltinOperator_STRIDED_SLICE,
        {Input(TensorType_FLOAT32, {4}, in), Input<int32_t>(TensorType_INT32, {1}, {3}),
         Const<int32_t>(TensorType_INT32, {1}, {3}), Const<int32_t>(TensorType_INT32, {1}, {1})},
        {TensorType_FLOAT32, {3}}, SliceOptions(offset));
    REQUIRE(r.prepare == kTfLiteOk);
    CHECK(r.invoke == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("STRIDED_SLICE"));
  }
  SECTION("negative stride on a shrunk axis") {
    Masks shrink;
    shrink.shrink = 1;
    const auto r = Slice({4}, in, {2}, {3}, {-1}, shrink, {});
    CHECK(r.invoke == kTfLiteError);
  }
}

}  // namespace
}  // namespace tflite_inspect
