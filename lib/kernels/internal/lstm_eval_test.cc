#include "kernels/internal/lstm_eval.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "catch2/catch.hpp"

namespace tflite {
namespace lstm_eval {
namespace {

TEST_CASE("LSTM row-parallel matrix-vector products are bit-identical to the row-major loop") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  for (int rows : {1, 5, 8, 9, 20, 24, 31, 32, 33, 70}) {
    for (int cols : {1, 3, 20, 28}) {
      for (int n_batch : {1, 3}) {
        std::vector<float> m(rows * cols), v(n_batch * cols), want(n_batch * rows), got;
        for (float& x : m) x = d(rng);
        for (float& x : v) x = d(rng);
        for (float& x : want) x = d(rng);
        got = want;
        std::vector<float> mt(static_cast<size_t>(RowParallelStride(rows)) * cols);
        TransposeForRows(m.data(), rows, cols, mt.data());
        MatrixBatchVectorMultiplyAccumulate(m.data(), rows, cols, v.data(), n_batch, want.data());
        MatrixBatchVectorMultiplyAccumulateT(mt.data(), rows, cols, v.data(), n_batch, got.data());
        CAPTURE(rows, cols, n_batch);
        CHECK(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)) == 0);
      }
    }
  }
}

TEST_CASE("LSTM gate logistic and tanh (Eigen's) are within 3e-7 of the exact functions") {
  std::vector<float> xs;
  for (float x = -100.0f; x <= 100.0f; x += 0.0137f) xs.push_back(x);
  for (float x : {0.0f, -0.0f, 1e-8f, -1e-8f, 1e-3f, 0.6249f, 0.625f, 0.6251f, -0.625f, 88.0f,
                  88.4f, 89.0f, -88.4f, -89.0f, 1e30f, -1e30f}) {
    xs.push_back(x);
  }
  for (TfLiteFusedActivation act : {kTfLiteActSigmoid, kTfLiteActTanh}) {
    std::vector<float> out(xs.size());
    ApplyActivationArray(xs.data(), static_cast<int>(xs.size()), act, out.data());
    double worst = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const double x = xs[i];
      const double want = act == kTfLiteActTanh ? std::tanh(x) : 1.0 / (1.0 + std::exp(-x));
      CAPTURE(x, out[i], want);
      REQUIRE(std::isfinite(out[i]));
      worst = std::max(worst, std::fabs(out[i] - want));
    }
    CAPTURE(act);
    CHECK(worst <= 3e-7);
  }
  // Odd lengths go through the tail path; in place works.
  for (int n = 1; n <= 9; ++n) {
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) v[i] = 0.3f * i - 1.0f;
    const std::vector<float> x = v;
    ApplyActivationArray(v.data(), n, kTfLiteActTanh, v.data());
    for (int i = 0; i < n; ++i) CHECK(std::fabs(v[i] - std::tanh(x[i])) <= 3e-7);
  }
}

}  // namespace
}  // namespace lstm_eval
}  // namespace tflite
