// BATCH_MATMUL (float32, int8 and int16; int16 and hybrid also against TFLite in
// tflite_goldens_test): TFLite's golden, adj_x / adj_y, broadcast batch dims,
// constant (cached, packed) and run-time rhs, random shapes against a double
// reference (with a thread pool too), and errors.
#include <cmath>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/conv_test_util.h"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT

OpOptions Adj(bool x, bool y) {
  tflite::BatchMatMulOptionsT o;
  o.adj_x = x;
  o.adj_y = y;
  return Options(o);
}

TEST_CASE("BATCH_MATMUL golden") {
  std::vector<float> a(6), b(12);
  for (int i = 0; i < 6; ++i) a[i] = i + 1;
  for (int i = 0; i < 12; ++i) b[i] = i + 7;
  for (bool const_rhs : {false, true}) {
    const auto r = Run(tflite::BuiltinOperator_BATCH_MATMUL,
                       {Input<float>(tflite::TensorType_FLOAT32, {1, 2, 3}, a),
                        const_rhs ? Const<float>(tflite::TensorType_FLOAT32, {1, 3, 4}, b)
                                  : Input<float>(tflite::TensorType_FLOAT32, {1, 3, 4}, b)},
                       {tflite::TensorType_FLOAT32, {1, 2, 4}}, Adj(false, false));
    REQUIRE(r.invoke == kTfLiteOk);
    CHECK(r.shape == std::vector<int>{1, 2, 4});
    CHECK(r.As<float>() == std::vector<float>{74, 80, 86, 92, 173, 188, 203, 218});
  }
}

// Double reference with NumPy broadcasting of the batch dims.
std::vector<double> Reference(const std::vector<float>& a, std::vector<int32_t> as,
                              const std::vector<float>& b, std::vector<int32_t> bs, bool adj_x,
                              bool adj_y, std::vector<int32_t>* out_shape) {
  const int rank = static_cast<int>(std::max(as.size(), bs.size()));
  while (static_cast<int>(as.size()) < rank) as.insert(as.begin(), 1);
  while (static_cast<int>(bs.size()) < rank) bs.insert(bs.begin(), 1);
  const int m = adj_x ? as[rank - 1] : as[rank - 2], k = adj_x ? as[rank - 2] : as[rank - 1];
  const int n = adj_y ? bs[rank - 2] : bs[rank - 1];
  out_shape->assign(rank, 0);
  for (int d = 0; d < rank - 2; ++d) (*out_shape)[d] = std::max(as[d], bs[d]);
  (*out_shape)[rank - 2] = m;
  (*out_shape)[rank - 1] = n;
  std::vector<double> out(Count(*out_shape));
  const auto ast = Strides(as), bst = Strides(bs);
  for (int64_t i = 0; i < static_cast<int64_t>(out.size()); ++i) {
    const auto c = Unravel(i, *out_shape);
    int64_t ab = 0, bb = 0;
    for (int d = 0; d < rank - 2; ++d) {
      ab += (as[d] == 1 ? 0 : c[d]) * ast[d];
      bb += (bs[d] == 1 ? 0 : c[d]) * bst[d];
    }
    const int mm = c[rank - 2], nn = c[rank - 1];
    double s = 0;
    for (int kk = 0; kk < k; ++kk) {
      const double x = a[ab + (adj_x ? kk * m + mm : mm * k + kk)];
      const double y = b[bb + (adj_y ? nn * k + kk : kk * n + nn)];
      s += x * y;
    }
    out[i] = s;
  }
  return out;
}

TEST_CASE("BATCH_MATMUL random shapes, adjoints and broadcasting match a double reference") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const bool adj_x = rng() % 2, adj_y = rng() % 2;
    const int m = 1 + rng() % 20, k = 1 + rng() % 40, n = 1 + rng() % 24;
    const int lb = rng() % 3, rb = rng() % 3;  // batch ranks
    std::vector<int32_t> as, bs;
    std::vector<int> common(std::max(lb, rb));
    for (auto& d : common) d = 1 + rng() % 3;
    for (int d = 0; d < lb; ++d) as.push_back(rng() % 3 == 0 ? 1 : common[common.size() - lb + d]);
    for (int d = 0; d < rb; ++d) bs.push_back(rng() % 3 == 0 ? 1 : common[common.size() - rb + d]);
    as.push_back(adj_x ? k : m);
    as.push_back(adj_x ? m : k);
    bs.push_back(adj_y ? n : k);
    bs.push_back(adj_y ? k : n);
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<float> a(Count(as)), b(Count(bs));
    for (auto& v : a) v = dist(rng);
    for (auto& v : b) v = dist(rng);
    std::vector<int32_t> out_shape;
    const auto want = Reference(a, as, b, bs, adj_x, adj_y, &out_shape);
    const auto r = Run(tflite::BuiltinOperator_BATCH_MATMUL,
                       {Input<float>(tflite::TensorType_FLOAT32, as, a),
                        seed % 2 ? Const<float>(tflite::TensorType_FLOAT32, bs, b)
                                 : Input<float>(tflite::TensorType_FLOAT32, bs, b)},
                       {tflite::TensorType_FLOAT32, out_shape}, Adj(adj_x, adj_y), 1, 1 + seed % 3);
    REQUIRE(r.invoke == kTfLiteOk);
    CHECK(r.shape == std::vector<int>(out_shape.begin(), out_shape.end()));
    const auto got = r.As<float>();
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CAPTURE(i);
      // Relative to the sum of |terms| bound: k products of values in [-1, 1].
      REQUIRE(std::abs(got[i] - want[i]) <= 1e-5 * std::max(1.0, static_cast<double>(k)));
    }
  }
}

// Products too small to split, several of them: whole products over the threads
// (matmul::BatchesOverThreads), the bits of one thread's run.
TEST_CASE("BATCH_MATMUL runs small products over the threads with one thread's bits") {
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> dist(-1, 1);
  const std::vector<int32_t> as{2, 3, 48, 64}, bs{3, 64, 40};  // rhs broadcast over the first
  std::vector<float> a(Count(as)), b(Count(bs));
  for (auto& v : a) v = dist(rng);
  for (auto& v : b) v = dist(rng);
  std::vector<int32_t> out_shape;
  const auto want = Reference(a, as, b, bs, false, false, &out_shape);
  std::vector<std::vector<float>> got;
  for (int threads : {1, 2}) {
    const auto r = Run(tflite::BuiltinOperator_BATCH_MATMUL,
                       {Input<float>(tflite::TensorType_FLOAT32, as, a),
                        Input<float>(tflite::TensorType_FLOAT32, bs, b)},
                       {tflite::TensorType_FLOAT32, out_shape}, Adj(false, false), 1, threads);
    REQUIRE(r.invoke == kTfLiteOk);
    got.push_back(r.As<float>());
  }
  REQUIRE(got[0].size() == want.size());
  CHECK(got[0] == got[1]);
  for (size_t i = 0; i < want.size(); ++i) REQUIRE(std::abs(got[1][i] - want[i]) <= 1e-4);
}

TEST_CASE("BATCH_MATMUL int8 matches an integer reference bit for bit") {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const bool adj_x = rng() % 2, adj_y = rng() % 2;
    const int m = 1 + rng() % 9, k = 1 + rng() % 40, n = 1 + rng() % 20;
    const int batches = 1 + rng() % 3;
    const bool bcast = rng() % 2;  // rhs without batch dim
    std::vector<int32_t> as{batches, adj_x ? k : m, adj_x ? m : k};
    std::vector<int32_t> bs{adj_y ? n : k, adj_y ? k : n};
    if (!bcast) bs.insert(bs.begin(), batches);
    std::vector<int8_t> a(Count(as)), b(Count(bs));
    for (auto& v : a) v = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
    for (auto& v : b) v = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
    const float sa = 0.01f + (rng() % 100) / 1000.0f, sb = 0.01f + (rng() % 100) / 1000.0f;
    const float so = 0.05f + (rng() % 100) / 100.0f;
    const int za = static_cast<int>(rng() % 20) - 10, zb = static_cast<int>(rng() % 5) - 2;
    const int zo = static_cast<int>(rng() % 40) - 20;
    const auto r =
        Run(tflite::BuiltinOperator_BATCH_MATMUL,
            {Input<int8_t>(tflite::TensorType_INT8, as, a, sa, za),
             seed % 2 ? Const<int8_t>(tflite::TensorType_INT8, bs, b, sb, zb)
                      : Input<int8_t>(tflite::TensorType_INT8, bs, b, sb, zb)},
            {tflite::TensorType_INT8, {batches, m, n}, so, zo}, Adj(adj_x, adj_y), 2, 1 + seed % 2);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto got = r.As<int8_t>();
    int32_t q;
    int shift;
    // TFLite forms s_a * s_b in float.
    RefQuantizeMultiplier(static_cast<double>(sa * sb) / so, &q, &shift);
    for (int bb = 0; bb < batches; ++bb)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          int32_t acc = 0;
          const int boff = bcast ? 0 : bb * k * n;
          for (int kk = 0; kk < k; ++kk) {
            const int x = a[bb * m * k + (adj_x ? kk * m + i : i * k + kk)] - za;
            const int y = b[boff + (adj_y ? j * k + kk : kk * n + j)] - zb;
            acc += x * y;
          }
          const int32_t want = std::min(127, std::max(-128, RefMultiply(acc, q, shift) + zo));
          CAPTURE(bb, i, j);
          REQUIRE(got[(bb * m + i) * n + j] == want);
        }
  }
}

// int16 x int16 sums run on the GEMM as byte splits; they must equal the reference's exact
// int64 sums, also where every product is (-32768)^2 and depths pass the GEMM's int32
// blocks (k > 256).
TEST_CASE("BATCH_MATMUL int16 matches an exact int64 reference bit for bit") {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const bool adj_x = rng() % 2, adj_y = rng() % 2;
    const int m = 1 + rng() % 6, k = 1 + rng() % 600, n = 1 + rng() % 20;
    const int batches = 1 + rng() % 2;
    std::vector<int32_t> as{batches, adj_x ? k : m, adj_x ? m : k};
    std::vector<int32_t> bs{batches, adj_y ? n : k, adj_y ? k : n};
    std::vector<int16_t> a(Count(as)), b(Count(bs));
    const bool extreme = seed % 4 == 0;
    for (auto& v : a) v = extreme ? -32768 : static_cast<int16_t>(static_cast<int>(rng() % 65536) - 32768);
    for (auto& v : b) v = extreme ? -32768 : static_cast<int16_t>(static_cast<int>(rng() % 65536) - 32768);
    const float sa = 0.001f, sb = 0.002f;
    const float so = sa * sb * 65536.0f * (extreme ? 2.0f * k : 1.0f + k / 8.0f);
    const auto r =
        Run(tflite::BuiltinOperator_BATCH_MATMUL,
            {Input<int16_t>(tflite::TensorType_INT16, as, a, sa, 0),
             seed % 2 ? Const<int16_t>(tflite::TensorType_INT16, bs, b, sb, 0)
                      : Input<int16_t>(tflite::TensorType_INT16, bs, b, sb, 0)},
            {tflite::TensorType_INT16, {batches, m, n}, so, 0}, Adj(adj_x, adj_y), 3,
            1 + seed % 2);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto got = r.As<int16_t>();
    int32_t q;
    int shift;
    RefQuantizeMultiplier(static_cast<double>(sa * sb) / so, &q, &shift);
    for (int bb = 0; bb < batches; ++bb)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          int64_t acc = 0;
          for (int kk = 0; kk < k; ++kk) {
            const int64_t x = a[bb * m * k + (adj_x ? kk * m + i : i * k + kk)];
            const int64_t y = b[bb * k * n + (adj_y ? j * k + kk : kk * n + j)];
            acc += x * y;
          }
          const int32_t want = std::min(
              32767, std::max(-32768, conv_test::RefMultiplyByQuantizedMultiplier64(acc, q, shift)));
          CAPTURE(bb, i, j, acc);
          REQUIRE(got[(bb * m + i) * n + j] == want);
        }
  }
}

TEST_CASE("BATCH_MATMUL rejects bad models") {
  auto r = Run(tflite::BuiltinOperator_BATCH_MATMUL,
               {Input<float>(tflite::TensorType_FLOAT32, {2, 3}, std::vector<float>(6)),
                Input<float>(tflite::TensorType_FLOAT32, {2, 3}, std::vector<float>(6))},
               {tflite::TensorType_FLOAT32, {2, 3}}, Adj(false, false));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("contraction sizes differ") != std::string::npos);
  r = Run(tflite::BuiltinOperator_BATCH_MATMUL,
          {Input<float>(tflite::TensorType_FLOAT32, {2, 1, 3}, std::vector<float>(6)),
           Input<float>(tflite::TensorType_FLOAT32, {3, 3, 1}, std::vector<float>(9))},
          {tflite::TensorType_FLOAT32, {2, 1, 1}}, Adj(false, false));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("does not broadcast") != std::string::npos);
  r = Run(tflite::BuiltinOperator_BATCH_MATMUL,
          {Input<int16_t>(tflite::TensorType_INT16, {1, 1}, {1}, 0.5f, 0),
           Input<int16_t>(tflite::TensorType_INT16, {1, 1}, {1}, 0.5f, 0)},
          {tflite::TensorType_INT16, {1, 1}, 0.5f, 3}, Adj(false, false), 3);
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("needs zero point 0 on both inputs and the output (got 0, 0, 3)") !=
        std::string::npos);
  r = Run(tflite::BuiltinOperator_BATCH_MATMUL,
          {Input<float>(tflite::TensorType_FLOAT32, {1, 1}, {1}),
           Const<int8_t>(tflite::TensorType_INT8, {1, 1}, {1}, 0.5f, 0)},
          {tflite::TensorType_INT8, {1, 1}, 0.5f, 0}, Adj(false, false));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("types FLOAT32 x INT8 -> INT8 not supported") != std::string::npos);
  r = Run(tflite::BuiltinOperator_BATCH_MATMUL,
          {Input<float>(tflite::TensorType_FLOAT32, {3}, std::vector<float>(3)),
           Input<float>(tflite::TensorType_FLOAT32, {3, 1}, std::vector<float>(3))},
          {tflite::TensorType_FLOAT32, {1}}, Adj(false, false));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("ranks must be in [2, 5]") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
