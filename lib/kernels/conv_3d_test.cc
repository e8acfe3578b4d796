// CONV_3D and CONV_3D_TRANSPOSE: crafted parameters refused with a message, never a crash
// (zero strides and dilations, a dilated window past int's range, a transposed
// convolution's output shape that a CONV_3D of it would not map onto its input, or of
// another depth than the filter's), and both im2col paths (the padded input; bounds checks
// where the row is dilated) against the direct sum. The goldens in testdata/kernels compare
// the arithmetic with TFLite's.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT

tflite::Conv3DOptionsT Options3d(int stride, int dilation_d, int dilation_w, bool same) {
  tflite::Conv3DOptionsT o;
  o.padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_d = o.stride_h = o.stride_w = stride;
  o.dilation_d_factor = o.dilation_h_factor = dilation_d;
  o.dilation_w_factor = dilation_w;
  return o;
}

OpRun Conv3d(const tflite::Conv3DOptionsT& o, std::vector<int32_t> out_shape) {
  std::vector<float> in(2 * 5 * 6 * 7 * 3), f(3 * 2 * 3 * 3 * 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 13) - 6.0f;
  for (size_t i = 0; i < f.size(); ++i) f[i] = static_cast<float>(i % 7) * 0.1f - 0.3f;
  return Run(tflite::BuiltinOperator_CONV_3D,
             {Input<float>(tflite::TensorType_FLOAT32, {2, 5, 6, 7, 3}, in),
              Const<float>(tflite::TensorType_FLOAT32, {3, 2, 3, 3, 4}, f)},
             {tflite::TensorType_FLOAT32, std::move(out_shape)}, Options(o));
}

TEST_CASE("CONV_3D refuses zero strides and dilations and windows past int's range") {
  for (const tflite::Conv3DOptionsT& o :
       {Options3d(0, 1, 1, true), Options3d(1, 0, 1, true), Options3d(1, 1, 0, true),
        Options3d(1, INT32_MAX, 1, false), Options3d(1, 1, INT32_MAX, true)}) {
    const OpRun r = Conv3d(o, {2, 5, 6, 7, 4});
    CHECK(r.invoke == kTfLiteError);
    CHECK_FALSE(r.errors.empty());
  }
  // A filter dilated past the input with VALID padding: no output.
  const OpRun r = Conv3d(Options3d(1, 4, 1, false), {2, 1, 1, 5, 4});
  CHECK(r.invoke == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("does not fit"));
}

// The layer summed directly (TFLite's padding: SAME pads (out - 1) * stride + window - in,
// the odd one after).
std::vector<float> Direct(const tflite::Conv3DOptionsT& o, const std::vector<int32_t>& out) {
  const int in_dims[3] = {5, 6, 7}, f_dims[3] = {3, 2, 3};
  const int stride[3] = {o.stride_d, o.stride_h, o.stride_w};
  const int dil[3] = {o.dilation_d_factor, o.dilation_h_factor, o.dilation_w_factor};
  int pad[3];
  for (int k = 0; k < 3; ++k) {
    const int window = (f_dims[k] - 1) * dil[k] + 1;
    pad[k] = o.padding == tflite::Padding_SAME
                 ? std::max(0, ((out[k + 1] - 1) * stride[k] + window - in_dims[k]) / 2)
                 : 0;
  }
  std::vector<float> in(2 * 5 * 6 * 7 * 3), f(3 * 2 * 3 * 3 * 4), result;
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 13) - 6.0f;
  for (size_t i = 0; i < f.size(); ++i) f[i] = static_cast<float>(i % 7) * 0.1f - 0.3f;
  for (int b = 0; b < 2; ++b) {
    for (int z = 0; z < out[1]; ++z) {
      for (int y = 0; y < out[2]; ++y) {
        for (int x = 0; x < out[3]; ++x) {
          for (int oc = 0; oc < 4; ++oc) {
            double sum = 0;
            for (int fd = 0; fd < 3; ++fd) {
              for (int fy = 0; fy < 2; ++fy) {
                for (int fx = 0; fx < 3; ++fx) {
                  const int id = z * stride[0] - pad[0] + fd * dil[0];
                  const int iy = y * stride[1] - pad[1] + fy * dil[1];
                  const int ix = x * stride[2] - pad[2] + fx * dil[2];
                  if (id < 0 || id >= 5 || iy < 0 || iy >= 6 || ix < 0 || ix >= 7) continue;
                  for (int c = 0; c < 3; ++c) {
                    sum += in[(((b * 5 + id) * 6 + iy) * 7 + ix) * 3 + c] *
                           f[(((fd * 2 + fy) * 3 + fx) * 3 + c) * 4 + oc];
                  }
                }
              }
            }
            result.push_back(static_cast<float>(sum));
          }
        }
      }
    }
  }
  return result;
}

TEST_CASE("CONV_3D from the padded input and with bounds checks against the direct sum") {
  struct Case {
    tflite::Conv3DOptionsT o;
    std::vector<int32_t> out;
  };
  // Padded input (SAME at stride 2; VALID dilated in depth and height); bounds-checked rows
  // (a dilation along the row).
  for (const Case& c : {Case{Options3d(2, 1, 1, true), {2, 3, 3, 4, 4}},
                        Case{Options3d(1, 2, 1, false), {2, 1, 4, 5, 4}},
                        Case{Options3d(1, 1, 2, true), {2, 5, 6, 7, 4}}}) {
    CAPTURE(c.out);
    const OpRun r = Conv3d(c.o, c.out);
    REQUIRE(r.invoke == kTfLiteOk);
    REQUIRE(r.shape == std::vector<int>(c.out.begin(), c.out.end()));
    const auto got = r.As<float>();
    const auto want = Direct(c.o, c.out);
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CHECK(std::abs(got[i] - want[i]) <= 1e-4f * std::max(1.0f, std::abs(want[i])));
    }
  }
}

OpRun Transposed(std::vector<int32_t> shape, int stride, bool same) {
  std::vector<float> in(1 * 2 * 3 * 3 * 4, 0.5f), f(2 * 2 * 2 * 3 * 4, 0.25f);
  tflite::Conv3DOptionsT o;
  o.padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_d = o.stride_h = o.stride_w = stride;
  return Run(tflite::BuiltinOperator_CONV_3D_TRANSPOSE,
             {Const<int32_t>(tflite::TensorType_INT32, {5}, shape),
              Const<float>(tflite::TensorType_FLOAT32, {2, 2, 2, 3, 4}, f),
              Input<float>(tflite::TensorType_FLOAT32, {1, 2, 3, 3, 4}, in)},
             {tflite::TensorType_FLOAT32, {1, 1, 1, 1, 3}}, Options(o));
}

TEST_CASE("CONV_3D_TRANSPOSE refuses output shapes its input does not map onto") {
  OpRun r = Transposed({1, 4, 6, 6, 3}, 2, true);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 4, 6, 6, 3});
  // Each output element gets 4 x 0.5 x 0.25 from each input voxel whose window covers it:
  // at stride 2 with a 2-wide filter, exactly one.
  for (float v : r.As<float>()) CHECK(v == 0.5f);
  for (const std::vector<int32_t>& shape :
       {std::vector<int32_t>{1, 4, 6, 7, 3}, std::vector<int32_t>{1, 1 << 30, 6, 6, 3},
        std::vector<int32_t>{1, 4, -6, 6, 3}, std::vector<int32_t>{1, 4, 6, 6, 6},
        std::vector<int32_t>{2, 4, 6, 6, 3}}) {
    CAPTURE(shape);
    r = Transposed(shape, 2, true);
    CHECK(r.invoke == kTfLiteError);
    CHECK_FALSE(r.errors.empty());
  }
  r = Transposed({1, 4, 6, 6, 3}, 0, true);
  CHECK(r.invoke == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
