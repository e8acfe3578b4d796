// TOPK_V2: TFLite's goldens, tie order, every value type, int16 k / indices, run-time
// k, random rows against a stable-sort reference, and errors.
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace {

struct TopKResult {
  TfLiteStatus prepare = kTfLiteError, invoke = kTfLiteError;
  std::string errors;
  std::vector<int> shape;
  std::vector<uint8_t> values;
  std::vector<int32_t> indices;
};

template <typename T>
TopKResult TopK(tflite::TensorType type, std::vector<int32_t> shape, const std::vector<T>& in,
                int k, bool const_k = true, tflite::TensorType k_type = tflite::TensorType_INT32,
                tflite::TensorType idx_type = tflite::TensorType_INT32, int version = 1) {
  ModelBuilder b;
  const int x = b.AddTensor(type, shape, "x");
  int kt;
  if (const_k && k_type == tflite::TensorType_INT16) {
    kt = b.AddConstTensor<int16_t>(k_type, {1}, {static_cast<int16_t>(k)}, "k");
  } else if (const_k) {
    kt = b.AddConstTensor<int32_t>(k_type, {1}, {k}, "k");
  } else {
    kt = b.AddTensor(k_type, {1}, "k");
  }
  std::vector<int32_t> out_shape = shape;
  out_shape.back() = k;
  const int v = b.AddTensor(type, out_shape, "values");
  const int i = b.AddTensor(idx_type, out_shape, "indices");
  b.AddOperator(tflite::BuiltinOperator_TOPK_V2, {x, kt}, {v, i}, {}, version);
  b.SetInputs(const_k ? std::vector<int32_t>{x} : std::vector<int32_t>{x, kt});
  b.SetOutputs({v, i});
  OpTestModel m(b);
  TopKResult r;
  r.prepare = m.Prepare();
  r.errors = m.errors();
  if (r.prepare != kTfLiteOk) return r;
  m.SetInput<T>(0, in);
  if (!const_k) {
    if (k_type == tflite::TensorType_INT16) {
      m.SetInput<int16_t>(1, {static_cast<int16_t>(k)});
    } else {
      m.SetInput<int32_t>(1, {k});
    }
  }
  r.invoke = m.Invoke();
  r.errors = m.errors();
  if (r.invoke != kTfLiteOk) return r;
  r.shape = m.OutputShape(0);
  CHECK(m.OutputShape(1) == r.shape);
  r.values = m.Output<uint8_t>(0);
  if (idx_type == tflite::TensorType_INT16) {
    for (int16_t v16 : m.Output<int16_t>(1)) r.indices.push_back(v16);
  } else {
    r.indices = m.Output<int32_t>(1);
  }
  return r;
}

template <typename T>
std::vector<T> As(const std::vector<uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

TEST_CASE("TOPK_V2 goldens") {
  auto r = TopK<float>(tflite::TensorType_FLOAT32, {2, 2}, {-2.0f, 0.2f, 0.8f, 0.1f}, 2);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{2, 2});
  CHECK(As<float>(r.values) == std::vector<float>{0.2f, -2.0f, 0.8f, 0.1f});
  CHECK(r.indices == std::vector<int32_t>{1, 0, 0, 1});
  // Equal values keep ascending index order.
  r = TopK<int32_t>(tflite::TensorType_INT32, {1, 6}, {3, 7, 3, 7, 1, 3}, 4);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(As<int32_t>(r.values) == std::vector<int32_t>{7, 7, 3, 3});
  CHECK(r.indices == std::vector<int32_t>{1, 3, 0, 2});
  auto q = TopK<int8_t>(tflite::TensorType_INT8, {3}, {-128, 5, 127}, 1, false,
                        tflite::TensorType_INT32, tflite::TensorType_INT32, 2);
  REQUIRE(q.invoke == kTfLiteOk);
  CHECK(q.shape == std::vector<int>{1});
  CHECK(As<int8_t>(q.values) == std::vector<int8_t>{127});
  CHECK(q.indices == std::vector<int32_t>{2});
  auto u = TopK<uint8_t>(tflite::TensorType_UINT8, {1, 1, 3}, {0, 255, 254}, 3);
  REQUIRE(u.invoke == kTfLiteOk);
  CHECK(As<uint8_t>(u.values) == std::vector<uint8_t>{255, 254, 0});
  CHECK(u.indices == std::vector<int32_t>{1, 2, 0});
  auto l = TopK<int64_t>(tflite::TensorType_INT64, {2}, {int64_t{1} << 40, -1}, 2, true,
                         tflite::TensorType_INT16, tflite::TensorType_INT16, 3);
  REQUIRE(l.invoke == kTfLiteOk);
  CHECK(As<int64_t>(l.values) == std::vector<int64_t>{int64_t{1} << 40, -1});
  CHECK(l.indices == std::vector<int32_t>{0, 1});
  auto s = TopK<int16_t>(tflite::TensorType_INT16, {2, 2}, {-5, 9, 4, 4}, 1, false,
                         tflite::TensorType_INT16, tflite::TensorType_INT32, 3);
  REQUIRE(s.invoke == kTfLiteOk);
  CHECK(As<int16_t>(s.values) == std::vector<int16_t>{9, 4});
  CHECK(s.indices == std::vector<int32_t>{1, 0});
}

TEST_CASE("TOPK_V2 random rows match a stable-sort reference") {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rows = 1 + rng() % 5, n = 1 + rng() % 60, k = rng() % (n + 1);
    std::vector<float> in(rows * n);
    for (auto& v : in) v = static_cast<float>(static_cast<int>(rng() % 15) - 7);  // many ties
    const auto r = TopK<float>(tflite::TensorType_FLOAT32, {rows, n}, in, k, seed % 2);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto values = As<float>(r.values);
    for (int row = 0; row < rows; ++row) {
      std::vector<int> order(n);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return in[row * n + a] > in[row * n + b]; });
      for (int j = 0; j < k; ++j) {
        REQUIRE(r.indices[row * k + j] == order[j]);
        REQUIRE(values[row * k + j] == in[row * n + order[j]]);
      }
    }
  }
}

TEST_CASE("TOPK_V2 rejects bad models") {
  auto r = TopK<float>(tflite::TensorType_FLOAT32, {3}, {1, 2, 3}, 4);
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("must be in [0, 3]") != std::string::npos);
  r = TopK<float>(tflite::TensorType_FLOAT32, {3}, {1, 2, 3}, 4, false);
  CHECK(r.invoke == kTfLiteError);
  r = TopK<uint8_t>(tflite::TensorType_BOOL, {3}, {1, 0, 1}, 1);
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type BOOL (6) not supported.") != std::string::npos);
  r = TopK<float>(tflite::TensorType_FLOAT32, {3}, {1, 2, 3}, 1, true, tflite::TensorType_INT32,
                  tflite::TensorType_INT64);
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
