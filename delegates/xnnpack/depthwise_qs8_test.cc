// The delegate's int8 depthwise step (kernels/internal/depthwise_dot.h with XNNPACK's fp32
// stage) against this XNNPACK's own QC8 depthwise convolution on the same data: the
// int32 sums are exact and the requantization is XNNPACK's, so the bytes must be the same.
#include <pthreadpool.h>
#include <xnnpack.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/internal/depthwise_dot.h"
#include "xnnpack/conv_qs8.h"

namespace tflite_inspect {
namespace xnnpack {
namespace {

int Rand(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

TEST_CASE("int8 depthwise step is bit-identical to this XNNPACK's QC8 depthwise convolution") {
  if (!tflite::dwconv::DotDepthwise::Available()) {
    WARN("SKIPPED: no AVX-512 VNNI or AVX2 on this CPU (the delegate leaves int8 depthwise to XNNPACK)");
    return;
  }
  REQUIRE(xnn_initialize(nullptr) == xnn_status_success);
  pthreadpool_t pool = pthreadpool_create(2);
  int compared = 0;
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    tflite::dwconv::Geometry g{};
    g.f_h = g.f_w = seed % 3 == 0 ? 5 : 3;
    if (seed % 7 == 0) g.f_w = 1 + seed % 4;
    g.batches = Rand(rng, 1, 2);
    g.in_h = Rand(rng, 2, 20);
    g.in_w = Rand(rng, 2, 20);
    g.in_c = g.out_c = Rand(rng, 1, 80);
    g.depth_multiplier = 1;
    g.stride_h = g.stride_w = Rand(rng, 1, 2);
    g.dil_h = g.dil_w = seed % 5 == 0 ? 2 : 1;
    const int span_h = (g.f_h - 1) * g.dil_h + 1, span_w = (g.f_w - 1) * g.dil_w + 1;
    // TensorFlow's SAME padding: total = (out - 1) * stride + span - in, the smaller half first.
    g.out_h = (g.in_h + g.stride_h - 1) / g.stride_h;
    g.out_w = (g.in_w + g.stride_w - 1) / g.stride_w;
    const int total_h = std::max(0, (g.out_h - 1) * g.stride_h + span_h - g.in_h);
    const int total_w = std::max(0, (g.out_w - 1) * g.stride_w + span_w - g.in_w);
    g.pad_h = total_h / 2;
    g.pad_w = total_w / 2;
    std::vector<int8_t> input(static_cast<size_t>(g.batches) * g.in_h * g.in_w * g.in_c);
    std::vector<int8_t> filter(static_cast<size_t>(g.f_h) * g.f_w * g.in_c);
    for (int8_t& x : input) x = static_cast<int8_t>(Rand(rng, -128, 127));
    for (int8_t& x : filter) x = static_cast<int8_t>(Rand(rng, -127, 127));
    std::vector<int32_t> bias(g.in_c);
    for (int32_t& b : bias) b = Rand(rng, -30000, 30000);
    std::vector<float> filter_scale(g.in_c);
    for (float& s : filter_scale) s = std::uniform_real_distribution<float>(0.001f, 0.02f)(rng);
    const float input_scale = std::uniform_real_distribution<float>(0.01f, 0.1f)(rng);
    const float output_scale = std::uniform_real_distribution<float>(0.02f, 0.3f)(rng);
    const int8_t input_zp = static_cast<int8_t>(Rand(rng, -128, 127));
    const int8_t output_zp = static_cast<int8_t>(Rand(rng, -128, 127));
    const int8_t out_min = seed % 4 == 0 ? output_zp : -128;  // RELU at times
    const int8_t out_max = 127;

    xnn_operator_t op = nullptr;
    REQUIRE(xnn_create_convolution2d_nhwc_qc8(
                g.pad_h, total_w - g.pad_w, total_h - g.pad_h, g.pad_w, g.f_h, g.f_w, g.stride_h,
                g.stride_w, g.dil_h, g.dil_w, g.in_c, 1, 1, g.in_c, g.in_c, input_zp, input_scale,
                filter_scale.data(), filter.data(), bias.data(), output_zp, output_scale, out_min,
                out_max, XNN_FLAG_DEPTHWISE_CONVOLUTION, &op) == xnn_status_success);
    const size_t n = static_cast<size_t>(g.batches) * g.out_h * g.out_w * g.in_c;
    std::vector<int8_t> want(n), got(n);
    REQUIRE(xnn_setup_convolution2d_nhwc_qc8(op, g.batches, g.in_h, g.in_w, input.data(), want.data(),
                                             nullptr) == xnn_status_success);
    REQUIRE(xnn_run_operator(op, nullptr) == xnn_status_success);
    xnn_delete_operator(op);

    const std::vector<float> scale =
        RequantizationScales(input_scale, filter_scale.data(), g.in_c, output_scale, g.in_c);
    tflite::gemm::QuantizedOutputStage stage;
    stage.bias = bias.data();
    stage.float_scale = scale.data();
    stage.output_offset = output_zp;
    stage.act_min = out_min;
    stage.act_max = out_max;
    tflite::dwconv::DotDepthwise dw(g, filter.data(), input_zp, stage);
    dw.Run(input.data(), got.data(), seed % 2 == 0 ? pool : nullptr);
    INFO("seed " << seed << ": " << g.f_h << "x" << g.f_w << " stride " << g.stride_h << " dil "
                 << g.dil_h << " " << g.in_h << "x" << g.in_w << "x" << g.in_c);
    size_t differ = 0;
    for (size_t i = 0; i < n; ++i) differ += want[i] != got[i];
    CHECK(differ == 0);
    ++compared;
  }
  pthreadpool_destroy(pool);
  CHECK(compared == 60);
}

}  // namespace
}  // namespace xnnpack
}  // namespace tflite_inspect
