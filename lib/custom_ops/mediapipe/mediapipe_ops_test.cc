// Unit tests of the MediaPipe custom ops: small hand-checked goldens, seeded random
// comparisons against double-precision loops written here from MediaPipe's definitions,
// and option/shape errors that must fail Prepare with a message.
#include "custom_ops/mediapipe/mediapipe_ops.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "flatbuffers/flexbuffers.h"
#include "kernels/testing/op_test_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/register.h"

namespace tflite_inspect {
namespace {

using tflite::TensorType_FLOAT32;

struct MediaPipeResolver : tflite::ops::builtin::BuiltinOpResolver {
  MediaPipeResolver() { RegisterMediaPipeOps(this); }
};

const MediaPipeResolver& Resolver() {
  static const MediaPipeResolver r;
  return r;
}

std::vector<uint8_t> IntOptions(std::vector<int32_t> fields) {
  std::vector<uint8_t> bytes(fields.size() * 4);
  std::memcpy(bytes.data(), fields.data(), bytes.size());
  return bytes;
}

std::vector<float> Random(std::mt19937& rng, size_t n) {
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

void CheckNear(const std::vector<float>& got, const std::vector<double>& want, double tol) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(std::fabs(got[i] - want[i]) <= tol * std::max(1.0, std::fabs(want[i])));
  }
}

// --- Convolution2DTransposeBias ------------------------------------------------------

struct TconvCase {
  int n, h, w, ic, oc, kh, kw, stride_h, stride_w;
  TfLitePadding padding;
};

int TconvTotalPad(const TconvCase& c, int k, int in, int s) {
  return c.padding == kTfLitePaddingSame ? std::max(0, k - (in - 1) % s - 1) : 0;
}

// Gather form (each output sums the inputs whose window covers it), in double.
std::vector<double> TconvReference(const TconvCase& c, const std::vector<float>& in,
                                   const std::vector<float>& w, const std::vector<float>& b,
                                   int* out_h, int* out_w) {
  const int ph = TconvTotalPad(c, c.kh, c.h, c.stride_h),
            pw = TconvTotalPad(c, c.kw, c.w, c.stride_w);
  *out_h = c.stride_h * (c.h - 1) + c.kh - ph;
  *out_w = c.stride_w * (c.w - 1) + c.kw - pw;
  std::vector<double> out;
  for (int n = 0; n < c.n; ++n)
    for (int oy = 0; oy < *out_h; ++oy)
      for (int ox = 0; ox < *out_w; ++ox)
        for (int o = 0; o < c.oc; ++o) {
          double acc = b[o];
          for (int iy = 0; iy < c.h; ++iy)
            for (int ix = 0; ix < c.w; ++ix) {
              const int fy = oy - (iy * c.stride_h - ph / 2);
              const int fx = ox - (ix * c.stride_w - pw / 2);
              if (fy < 0 || fy >= c.kh || fx < 0 || fx >= c.kw) continue;
              for (int i = 0; i < c.ic; ++i)
                acc += double(in[((n * c.h + iy) * c.w + ix) * c.ic + i]) *
                       w[((o * c.kh + fy) * c.kw + fx) * c.ic + i];
            }
          out.push_back(acc);
        }
  return out;
}

ModelBuilder TconvModel(const TconvCase& c, const std::vector<float>& w,
                        const std::vector<float>& b, std::vector<uint8_t> options) {
  ModelBuilder mb;
  int in = mb.AddTensor(TensorType_FLOAT32, {c.n, c.h, c.w, c.ic}, "in");
  int wt = mb.AddConstTensor<float>(TensorType_FLOAT32, {c.oc, c.kh, c.kw, c.ic}, w, "w");
  int bt = mb.AddConstTensor<float>(TensorType_FLOAT32, {int(b.size())}, b, "b");
  int out = mb.AddTensor(TensorType_FLOAT32, {1}, "out");
  mb.AddCustomOperator("Convolution2DTransposeBias", {in, wt, bt}, {out}, std::move(options));
  mb.SetInputs({in});
  mb.SetOutputs({out});
  return mb;
}

TEST_CASE("Convolution2DTransposeBias: stride 2, 2x2 filter, by hand") {
  // Each input pixel becomes a 2x2 block in * w, plus the bias.
  TconvCase c{1, 2, 2, 1, 1, 2, 2, 2, 2, kTfLitePaddingSame};
  OpTestModel m(TconvModel(c, {1, 10, 100, 1000}, {0.5f}, IntOptions({1, 2, 2})), 1, &Resolver());
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1, 2, 3, 4});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{1, 4, 4, 1});
  CHECK(m.Output<float>(0) == std::vector<float>{1.5f, 10.5f, 2.5f, 20.5f,          //
                                                 100.5f, 1000.5f, 200.5f, 2000.5f,  //
                                                 3.5f, 30.5f, 4.5f, 40.5f,          //
                                                 300.5f, 3000.5f, 400.5f, 4000.5f});
}

TEST_CASE("Convolution2DTransposeBias: random shapes against a double reference") {
  const TconvCase cases[] = {
      {1, 3, 3, 2, 3, 3, 3, 2, 2, kTfLitePaddingSame},  // SAME with leading padding 1
      {2, 4, 5, 3, 2, 3, 2, 1, 2, kTfLitePaddingValid},
      {1, 5, 4, 4, 1, 2, 2, 2, 2, kTfLitePaddingSame},
      {1, 3, 2, 1, 2, 4, 3, 3, 1, kTfLitePaddingSame},
  };
  for (const auto& c : cases) {
    const uint32_t seed = 1234u + c.h * 7 + c.kw;
    CAPTURE(seed, c.h, c.w, c.kh, c.kw, c.stride_h, c.stride_w, c.padding);
    std::mt19937 rng(seed);
    auto in = Random(rng, size_t(c.n) * c.h * c.w * c.ic);
    auto w = Random(rng, size_t(c.oc) * c.kh * c.kw * c.ic);
    auto b = Random(rng, c.oc);
    OpTestModel m(TconvModel(c, w, b, IntOptions({c.padding, c.stride_w, c.stride_h})), 1,
                  &Resolver());
    REQUIRE(m.Prepare() == kTfLiteOk);
    m.SetInput<float>(0, in);
    REQUIRE(m.Invoke() == kTfLiteOk);
    int oh, ow;
    auto want = TconvReference(c, in, w, b, &oh, &ow);
    CHECK(m.OutputShape(0) == std::vector<int>{c.n, oh, ow, c.oc});
    CheckNear(m.Output<float>(0), want, 1e-5);
  }
}

TEST_CASE("Convolution2DTransposeBias: bad options and shapes fail Prepare") {
  TconvCase c{1, 2, 2, 1, 1, 2, 2, 2, 2, kTfLitePaddingSame};
  SECTION("options too short") {
    OpTestModel m(TconvModel(c, {1, 1, 1, 1}, {0}, IntOptions({1, 2})), 1, &Resolver());
    CHECK(m.Prepare() == kTfLiteError);
    CHECK_THAT(m.errors(), Catch::Contains("need 12"));
  }
  SECTION("zero stride") {
    OpTestModel m(TconvModel(c, {1, 1, 1, 1}, {0}, IntOptions({1, 0, 2})), 1, &Resolver());
    CHECK(m.Prepare() == kTfLiteError);
    CHECK_THAT(m.errors(), Catch::Contains("strides must be positive"));
  }
  SECTION("bias size differs from output channels") {
    OpTestModel m(TconvModel(c, {1, 1, 1, 1}, {0, 1}, IntOptions({1, 2, 2})), 1, &Resolver());
    CHECK(m.Prepare() == kTfLiteError);
    CHECK_THAT(m.errors(), Catch::Contains("failed to prepare"));
  }
}

// --- MaxPoolingWithArgmax2D / MaxUnpooling2D --------------------------------------------

std::vector<uint8_t> PoolOpts(TfLitePadding padding, int stride, int filter,
                              TfLiteFusedActivation act = kTfLiteActNone) {
  return IntOptions({padding, stride, stride, filter, filter, act, 0, 0, 0, 0});
}

TEST_CASE("MaxPoolingWithArgmax2D: 2x2 stride 2, values and indices by hand") {
  ModelBuilder mb;
  int in = mb.AddTensor(TensorType_FLOAT32, {1, 4, 4, 1}, "in");
  int out = mb.AddTensor(TensorType_FLOAT32, {1, 2, 2, 1}, "out");
  int idx = mb.AddTensor(TensorType_FLOAT32, {1, 2, 2, 1}, "idx");
  mb.AddCustomOperator("MaxPoolingWithArgmax2D", {in}, {out, idx},
                       PoolOpts(kTfLitePaddingValid, 2, 2));
  mb.SetInputs({in});
  mb.SetOutputs({out, idx});
  OpTestModel m(mb, 1, &Resolver());
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1, 2, 5, 5,    //
                        4, 3, 5, 1,    //
                        -1, -2, 0, 7,  //
                        -3, -4, 7, 7});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{4, 5, -1, 7});
  // Window positions ky*2+kx (+0.1); a tie keeps the first maximum.
  CHECK(m.Output<float>(1) == std::vector<float>{2.1f, 0.1f, 0.1f, 1.1f});
}

TEST_CASE("MaxPoolingWithArgmax2D: SAME padding and RELU6 activation") {
  ModelBuilder mb;
  int in = mb.AddTensor(TensorType_FLOAT32, {1, 3, 3, 1}, "in");
  int out = mb.AddTensor(TensorType_FLOAT32, {1}, "out");
  int idx = mb.AddTensor(TensorType_FLOAT32, {1}, "idx");
  mb.AddCustomOperator("MaxPoolingWithArgmax2D", {in}, {out, idx},
                       PoolOpts(kTfLitePaddingSame, 2, 2, kTfLiteActRelu6));
  mb.SetInputs({in});
  mb.SetOutputs({out, idx});
  OpTestModel m(mb, 1, &Resolver());
  REQUIRE(m.Prepare() == kTfLiteOk);
  // SAME, 3 -> 2 with no leading padding: windows start at 0 and 2 (clipped).
  m.SetInput<float>(0, {1, 9, 2,   //
                        3, 4, -5,  //
                        8, 0, -1});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{1, 2, 2, 1});
  CHECK(m.Output<float>(0) == std::vector<float>{6, 2, 6, 0});  // RELU6 clamps -1
  CHECK(m.Output<float>(1) == std::vector<float>{1.1f, 0.1f, 0.1f, 0.1f});
}

TEST_CASE("MaxUnpooling2D: scatters values to decoded indices") {
  ModelBuilder mb;
  int in = mb.AddTensor(TensorType_FLOAT32, {1, 2, 2, 1}, "in");
  int idx = mb.AddTensor(TensorType_FLOAT32, {1, 2, 2, 1}, "idx");
  int out = mb.AddTensor(TensorType_FLOAT32, {1}, "out");
  mb.AddCustomOperator("MaxUnpooling2D", {in, idx}, {out}, PoolOpts(kTfLitePaddingValid, 2, 2));
  mb.SetInputs({in, idx});
  mb.SetOutputs({out});
  OpTestModel m(mb, 1, &Resolver());
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1, 2, 3, 4});
  // 3.1 -> (1,1); 0.1 -> (0,0); 2.1 -> (1,0); 1e9 decodes outside: skipped.
  m.SetInput<float>(1, {3.1f, 0.1f, 2.1f, 1e9f});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{1, 4, 4, 1});
  CHECK(m.Output<float>(0) == std::vector<float>{0, 0, 2, 0,  //
                                                 0, 1, 0, 0,  //
                                                 0, 0, 0, 0,  //
                                                 3, 0, 0, 0});
}

TEST_CASE("MaxPoolingWithArgmax2D then MaxUnpooling2D keeps only the maxima") {
  ModelBuilder mb;
  int in = mb.AddTensor(TensorType_FLOAT32, {1, 4, 4, 2}, "in");
  int pooled = mb.AddTensor(TensorType_FLOAT32, {1}, "pooled");
  int idx = mb.AddTensor(TensorType_FLOAT32, {1}, "idx");
  int out = mb.AddTensor(TensorType_FLOAT32, {1}, "out");
  mb.AddCustomOperator("MaxPoolingWithArgmax2D", {in}, {pooled, idx},
                       PoolOpts(kTfLitePaddingValid, 2, 2));
  mb.AddCustomOperator("MaxUnpooling2D", {pooled, idx}, {out}, PoolOpts(kTfLitePaddingValid, 2, 2));
  mb.SetInputs({in});
  mb.SetOutputs({out});
  const uint32_t seed = 77;
  CAPTURE(seed);
  std::mt19937 rng(seed);
  auto x = Random(rng, 32);
  OpTestModel m(mb, 1, &Resolver());
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, x);
  REQUIRE(m.Invoke() == kTfLiteOk);
  std::vector<float> want(32, 0.f);
  for (int by = 0; by < 2; ++by)
    for (int bx = 0; bx < 2; ++bx)
      for (int c = 0; c < 2; ++c) {
        int best = -1;
        for (int ky = 0; ky < 2; ++ky)
          for (int kx = 0; kx < 2; ++kx) {
            int i = ((by * 2 + ky) * 4 + bx * 2 + kx) * 2 + c;
            if (best < 0 || x[i] > x[best]) best = i;
          }
        want[best] = x[best];
      }
  CHECK(m.Output<float>(0) == want);
}

TEST_CASE("MaxUnpooling2D: indices shape must match the input") {
  ModelBuilder mb;
  int in = mb.AddTensor(TensorType_FLOAT32, {1, 2, 2, 1}, "in");
  int idx = mb.AddTensor(TensorType_FLOAT32, {1, 2, 1, 1}, "idx");
  int out = mb.AddTensor(TensorType_FLOAT32, {1}, "out");
  mb.AddCustomOperator("MaxUnpooling2D", {in, idx}, {out}, PoolOpts(kTfLitePaddingValid, 2, 2));
  mb.SetInputs({in, idx});
  mb.SetOutputs({out});
  OpTestModel m(mb, 1, &Resolver());
  CHECK(m.Prepare() == kTfLiteError);
  CHECK_THAT(m.errors(), Catch::Contains("indices shape"));
}

TEST_CASE("MaxPoolingWithArgmax2D: bad options fail Prepare") {
  auto prepare = [](std::vector<uint8_t> options, std::string* errors) {
    ModelBuilder mb;
    int in = mb.AddTensor(TensorType_FLOAT32, {1, 4, 4, 1}, "in");
    int out = mb.AddTensor(TensorType_FLOAT32, {1}, "out");
    int idx = mb.AddTensor(TensorType_FLOAT32, {1}, "idx");
    mb.AddCustomOperator("MaxPoolingWithArgmax2D", {in}, {out, idx}, std::move(options));
    mb.SetInputs({in});
    mb.SetOutputs({out, idx});
    OpTestModel m(mb, 1, &Resolver());
    TfLiteStatus st = m.Prepare();
    *errors = m.errors();
    return st;
  };
  std::string errors;
  CHECK(prepare(IntOptions({2, 2, 2}), &errors) == kTfLiteError);
  CHECK_THAT(errors, Catch::Contains("need 24"));
  CHECK(prepare(PoolOpts(kTfLitePaddingValid, 0, 2), &errors) == kTfLiteError);
  CHECK_THAT(errors, Catch::Contains("strides and filter must be in 1..65536"));
  CHECK(prepare(PoolOpts(kTfLitePaddingValid, 1, 5), &errors) == kTfLiteError);
  CHECK_THAT(errors, Catch::Contains("larger than input"));
  CHECK(prepare(IntOptions({7, 1, 1, 2, 2, 0}), &errors) == kTfLiteError);
  CHECK_THAT(errors, Catch::Contains("unknown padding 7"));
}

// --- TransformLandmarks v2 -------------------------------------------------------------

const std::vector<float> kMatrix = {2, 0, 0, 1,   //
                                    0, 3, 0, -1,  //
                                    0, 0, 1, 0,   //
                                    0, 0, 0, 1};

TEST_CASE("TransformLandmarks v2: 2D and 3D landmarks") {
  for (int dims : {2, 3}) {
    CAPTURE(dims);
    ModelBuilder mb;
    int lm = mb.AddTensor(TensorType_FLOAT32, {1, 2, dims}, "lm");
    int mat = mb.AddTensor(TensorType_FLOAT32, {1, 4, 4}, "m");
    int out = mb.AddTensor(TensorType_FLOAT32, {1, 2, dims}, "out");
    mb.AddCustomOperator("TransformLandmarks", {lm, mat}, {out}, {}, 2);
    mb.SetInputs({lm, mat});
    mb.SetOutputs({out});
    OpTestModel m(mb, 1, &Resolver());
    REQUIRE(m.Prepare() == kTfLiteOk);
    if (dims == 2) {
      m.SetInput<float>(0, {1, 2, -3, 0.5f});
    } else {
      m.SetInput<float>(0, {1, 2, 7, -3, 0.5f, 8});
    }
    m.SetInput<float>(1, kMatrix);
    REQUIRE(m.Invoke() == kTfLiteOk);
    // x' = 2x + 1, y' = 3y - 1, z kept.
    if (dims == 2) {
      CHECK(m.Output<float>(0) == std::vector<float>{3, 5, -5, 0.5f});
    } else {
      CHECK(m.Output<float>(0) == std::vector<float>{3, 5, 7, -5, 0.5f, 8});
    }
  }
}

TEST_CASE("TransformLandmarks: only version 2 is registered, bad shapes fail") {
  CHECK(Resolver().FindOp("TransformLandmarks", 1) == nullptr);
  CHECK(Resolver().FindOp("TransformLandmarks", 2) != nullptr);
  ModelBuilder mb;
  int lm = mb.AddTensor(TensorType_FLOAT32, {1, 2, 4}, "lm");
  int mat = mb.AddTensor(TensorType_FLOAT32, {1, 4, 4}, "m");
  int out = mb.AddTensor(TensorType_FLOAT32, {1, 2, 4}, "out");
  mb.AddCustomOperator("TransformLandmarks", {lm, mat}, {out}, {}, 2);
  mb.SetInputs({lm, mat});
  mb.SetOutputs({out});
  OpTestModel m(mb, 1, &Resolver());
  CHECK(m.Prepare() == kTfLiteError);
  CHECK_THAT(m.errors(), Catch::Contains("expected 2 or 3"));
}

// --- Landmarks2TransformMatrix v2 -----------------------------------------------------------

std::vector<uint8_t> L2TOptions(std::vector<int> subset, int left, int right, int out_w, int out_h,
                                float target = 0.f) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("left_rotation_idx", left);
    fbb.Int("right_rotation_idx", right);
    fbb.Float("target_rotation_radians", target);
    fbb.Int("output_height", out_h);
    fbb.Int("output_width", out_w);
    fbb.Float("scale_x", 1.f);
    fbb.Float("scale_y", 1.f);
    fbb.TypedVector("subset_idxs", [&] {
      for (int i : subset) fbb.Int(i);
    });
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

std::vector<float> RunL2T(const std::vector<float>& landmarks, std::vector<uint8_t> options,
                          std::string* errors = nullptr) {
  ModelBuilder mb;
  int lm = mb.AddTensor(TensorType_FLOAT32, {1, int(landmarks.size() / 3), 3}, "lm");
  int out = mb.AddTensor(TensorType_FLOAT32, {1, 4, 4}, "out");
  mb.AddCustomOperator("Landmarks2TransformMatrix", {lm}, {out}, std::move(options), 2);
  mb.SetInputs({lm});
  mb.SetOutputs({out});
  OpTestModel m(mb, 1, &Resolver());
  if (m.Prepare() != kTfLiteOk) {
    if (errors) *errors = m.errors();
    return {};
  }
  m.SetInput<float>(0, landmarks);
  if (m.Invoke() != kTfLiteOk) return {};
  return m.Output<float>(0);
}

TEST_CASE("Landmarks2TransformMatrix v2: axis-aligned crop, by hand") {
  // Eyes (0,0) and (1,0): no rotation. Subset (0,0), (4,2): a 4x2 box centred at (2,1);
  // a 2x2 output: scale (4/2, 2/2), so M = T(2,1) S(2,1) T(-1,-1) = diag(2, 1, 1, 1).
  auto got = RunL2T({0, 0, 0, 1, 0, 0, 4, 2, 0}, L2TOptions({0, 2}, 0, 1, 2, 2));
  CheckNear(got, {2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, 1e-6);
}

TEST_CASE("Landmarks2TransformMatrix v2: rotated crop, by hand") {
  // Eyes (0,0) -> (0,1): r = 0 - pi/2. Rotated subset (0,0), (2,-4): a 2x4 box whose
  // centre (1,-2) rotates back to (2,1); M = T(2,1) R(pi/2) S(1,2) T(-1,-1).
  auto got = RunL2T({0, 0, 0, 0, 1, 0, 4, 2, 0}, L2TOptions({0, 2, 1}, 0, 1, 2, 2));
  CheckNear(got, {0, -2, 0, 4, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, 1e-5);
}

TEST_CASE("Landmarks2TransformMatrix v2: indices out of range fail Prepare") {
  std::string errors;
  CHECK(RunL2T({0, 0, 0, 1, 0, 0}, L2TOptions({0, 5}, 0, 1, 2, 2), &errors).empty());
  CHECK_THAT(errors, Catch::Contains("subset_idxs entry 5 out of range"));
  CHECK(RunL2T({0, 0, 0, 1, 0, 0}, L2TOptions({0, 1}, 0, 2, 2, 2), &errors).empty());
  CHECK_THAT(errors, Catch::Contains("right_rotation_idx 2 out of range"));
  CHECK(RunL2T({0, 0, 0, 1, 0, 0}, {1, 2, 3}, &errors).empty());
  CHECK_THAT(errors, Catch::Contains("not a valid flexbuffer map"));
}

// --- TransformTensorBilinear v2 ---------------------------------------------------------------

std::vector<uint8_t> SizeOptions(int h, int w) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("output_height", h);
    fbb.Int("output_width", w);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

// MediaPipe's v2 sampling, in double.
std::vector<double> BilinearReference(const std::vector<float>& in, int h, int w, int c,
                                      const std::vector<float>& m, int oh, int ow) {
  const double x3 = m[3] + m[0] * 0.5 + m[1] * 0.5 - 0.5;
  const double y3 = m[7] + m[4] * 0.5 + m[5] * 0.5 - 0.5;
  std::vector<double> out;
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox) {
      const double tx = m[0] * ox + m[1] * oy + x3, ty = m[4] * ox + m[5] * oy + y3;
      for (int ch = 0; ch < c; ++ch) {
        if (tx < 0 || tx > w - 1 || ty < 0 || ty > h - 1) {
          out.push_back(0);
          continue;
        }
        auto at = [&](int y, int x) -> double {
          return y < 0 || x < 0 || y >= h || x >= w ? 0.0 : in[(y * w + x) * c + ch];
        };
        const int x0 = int(std::floor(tx)), y0 = int(std::floor(ty));
        const double fx = tx - x0, fy = ty - y0;
        out.push_back((1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x0 + 1)) +
                      fy * ((1 - fx) * at(y0 + 1, x0) + fx * at(y0 + 1, x0 + 1)));
      }
    }
  return out;
}

std::vector<float> RunBilinear(const std::vector<float>& in, int h, int w, int c,
                               const std::vector<float>& matrix, int oh, int ow) {
  ModelBuilder mb;
  int x = mb.AddTensor(TensorType_FLOAT32, {1, h, w, c}, "x");
  int mat = mb.AddTensor(TensorType_FLOAT32, {1, 4, 4}, "m");
  int out = mb.AddTensor(TensorType_FLOAT32, {1, oh, ow, c}, "out");
  mb.AddCustomOperator("TransformTensorBilinear", {x, mat}, {out}, SizeOptions(oh, ow), 2);
  mb.SetInputs({x, mat});
  mb.SetOutputs({out});
  OpTestModel m(mb, 1, &Resolver());
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, in);
  m.SetInput<float>(1, matrix);
  REQUIRE(m.Invoke() == kTfLiteOk);
  REQUIRE(m.OutputShape(0) == std::vector<int>{1, oh, ow, c});
  return m.Output<float>(0);
}

TEST_CASE("TransformTensorBilinear v2: identity and translation, by hand") {
  const std::vector<float> in = {0, 1, 2,  3,  //
                                 4, 5, 6,  7,  //
                                 8, 9, 10, 11};
  // Identity: the pixel-centre correction cancels; a 2x3 output copies the top-left.
  CHECK(RunBilinear(in, 3, 4, 1, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, 2, 3) ==
        std::vector<float>{0, 1, 2, 4, 5, 6});
  // Shift by (+0.5, +1): halfway between columns, one row down; x = 3.5 is outside.
  CHECK(RunBilinear(in, 3, 4, 1, {1, 0, 0, 0.5f, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1}, 2, 4) ==
        std::vector<float>{4.5f, 5.5f, 6.5f, 0, 8.5f, 9.5f, 10.5f, 0});
}

TEST_CASE("TransformTensorBilinear v2: scaled, rotated crops against a double reference") {
  const uint32_t seed = 4242;
  CAPTURE(seed);
  std::mt19937 rng(seed);
  const int h = 9, w = 7, c = 3;
  auto in = Random(rng, h * w * c);
  const float a = 0.3f;
  const std::vector<std::vector<float>> matrices = {
      {0.5f, 0, 0, 1.2f, 0, 0.75f, 0, 0.4f, 0, 0, 1, 0, 0, 0, 0, 1},
      {std::cos(a) * 1.3f, -std::sin(a), 0, 2.f, std::sin(a), std::cos(a) * 1.1f, 0, -0.5f, 0, 0, 1,
       0, 0, 0, 0, 1},
  };
  for (const auto& mat : matrices) {
    CheckNear(RunBilinear(in, h, w, c, mat, 6, 5), BilinearReference(in, h, w, c, mat, 6, 5), 1e-5);
  }
}

}  // namespace
}  // namespace tflite_inspect
