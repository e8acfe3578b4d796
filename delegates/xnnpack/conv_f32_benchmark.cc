// The delegate's own float convolution (ConvF32: the packed GEMM) against this
// XNNPACK's (xnn_create_convolution2d_nhwc_f32), shape by shape, on the runtime's pool at 1
// and 2 threads: what OwnConvF32Wanted(g) decides from (docs/performance.md). Not a test.
//   build/delegates/xnnpack/conv_f32_benchmark [--benchmark_filter=...]
// Shapes: the pointwise convolutions of MobileNet V2 / V3 and BlazePose-style detectors
// (NHWC 1 x h x w x in_c -> out_c).
#include <benchmark/benchmark.h>
#include <pthreadpool.h>
#include <xnnpack.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "xnnpack/conv_f32.h"

namespace {

struct Shape {
  int h, w, in_c, out_c;
  int f = 1, stride = 1;  // an f x f filter, SAME padding
  int groups = 1;         // in_c and out_c split into this many groups
  int out_h() const { return (h + stride - 1) / stride; }
  int out_w() const { return (w + stride - 1) / stride; }
};

struct Data {
  std::vector<float> input, filter, bias, output;
  explicit Data(const Shape& s) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    input.resize(static_cast<size_t>(s.h) * s.w * s.in_c);
    filter.resize(static_cast<size_t>(s.out_c) * s.f * s.f * (s.in_c / s.groups));
    bias.resize(s.out_c);
    output.resize(static_cast<size_t>(s.out_h()) * s.out_w() * s.out_c);
    for (auto& x : input) x = d(rng);
    for (auto& x : filter) x = d(rng);
    for (auto& x : bias) x = d(rng);
  }
};

void SetRate(benchmark::State& state, const Shape& s) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(2e-9 * s.out_h() * s.out_w() * s.f * s.f * s.in_c * s.out_c / s.groups,
                         benchmark::Counter::kIsIterationInvariantRate);
}

pthreadpool_t MakePool(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  return threads > 1 ? pthreadpool_create(threads) : nullptr;
}

void BM_Own(benchmark::State& state, Shape s) {
  Data d(s);
  tflite::conv_util::ConvGeometry g{};
  g.batches = 1;
  g.in_h = s.h;
  g.in_w = s.w;
  g.out_h = s.out_h();
  g.out_w = s.out_w();
  g.in_c = s.in_c;
  g.f_c = s.in_c / s.groups;
  g.out_c = s.out_c;
  g.group_out_c = s.out_c / s.groups;
  g.f_h = g.f_w = s.f;
  g.groups = s.groups;
  g.stride_h = g.stride_w = s.stride;
  g.dil_h = g.dil_w = 1;
  // SAME padding, as TFLite computes it.
  g.pad_h = std::max(0, ((g.out_h - 1) * s.stride + s.f - s.h) / 2);
  g.pad_w = std::max(0, ((g.out_w - 1) * s.stride + s.f - s.w) / 2);
  tflite_inspect::xnnpack::ConvF32 conv(g, d.filter.data(), d.bias.data(),
                                        -std::numeric_limits<float>::infinity(),
                                        std::numeric_limits<float>::infinity());
  pthreadpool_t pool = MakePool(state);
  for (auto _ : state) {
    conv.Run(d.input.data(), d.output.data(), pool);
    benchmark::DoNotOptimize(d.output.data());
    benchmark::ClobberMemory();
  }
  SetRate(state, s);
  if (pool != nullptr) pthreadpool_destroy(pool);
}

void BM_Xnnpack(benchmark::State& state, Shape s) {
  Data d(s);
  if (xnn_initialize(nullptr) != xnn_status_success) {
    state.SkipWithError("xnn_initialize failed");
    return;
  }
  xnn_operator_t op = nullptr;
  if (xnn_create_convolution2d_nhwc_f32(
          0, 0, 0, 0, s.f, s.f, s.stride, s.stride, 1, 1, s.groups, s.in_c / s.groups,
          s.out_c / s.groups, s.in_c, s.out_c, d.filter.data(), d.bias.data(),
          -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
          s.f > 1 ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0, &op) != xnn_status_success) {
    state.SkipWithError("xnn_create_convolution2d_nhwc_f32 failed");
    return;
  }
  pthreadpool_t pool = MakePool(state);
  if (xnn_setup_convolution2d_nhwc_f32(op, 1, s.h, s.w, d.input.data(), d.output.data(), pool) !=
      xnn_status_success) {
    state.SkipWithError("xnn_setup_convolution2d_nhwc_f32 failed");
  } else {
    for (auto _ : state) {
      xnn_run_operator(op, pool);
      benchmark::DoNotOptimize(d.output.data());
      benchmark::ClobberMemory();
    }
    SetRate(state, s);
  }
  xnn_delete_operator(op);
  if (pool != nullptr) pthreadpool_destroy(pool);
}

#define TFI_CONV1X1(name, h, w, in_c, out_c)                                        \
  BENCHMARK_CAPTURE(BM_Own, name, Shape{h, w, in_c, out_c})->Arg(1)->Arg(2)->UseRealTime(); \
  BENCHMARK_CAPTURE(BM_Xnnpack, name, Shape{h, w, in_c, out_c})->Arg(1)->Arg(2)->UseRealTime()

TFI_CONV1X1(112x112x16_to_16, 112, 112, 16, 16);
TFI_CONV1X1(112x112x16_to_64, 112, 112, 16, 64);
TFI_CONV1X1(56x56x64_to_24, 56, 56, 64, 24);
TFI_CONV1X1(56x56x24_to_72, 56, 56, 24, 72);
TFI_CONV1X1(56x56x72_to_24, 56, 56, 72, 24);
TFI_CONV1X1(28x28x72_to_40, 28, 28, 72, 40);
TFI_CONV1X1(28x28x40_to_120, 28, 28, 40, 120);
TFI_CONV1X1(28x28x120_to_40, 28, 28, 120, 40);
TFI_CONV1X1(14x14x40_to_240, 14, 14, 40, 240);
TFI_CONV1X1(14x14x240_to_80, 14, 14, 240, 80);
TFI_CONV1X1(14x14x80_to_184, 14, 14, 80, 184);
TFI_CONV1X1(14x14x480_to_112, 14, 14, 480, 112);
TFI_CONV1X1(14x14x112_to_672, 14, 14, 112, 672);
TFI_CONV1X1(7x7x672_to_160, 7, 7, 672, 160);
TFI_CONV1X1(7x7x160_to_960, 7, 7, 160, 960);
TFI_CONV1X1(7x7x960_to_160, 7, 7, 960, 160);
TFI_CONV1X1(1x1x960_to_1280, 1, 1, 960, 1280);
TFI_CONV1X1(1x1x120_to_32, 1, 1, 120, 32);
TFI_CONV1X1(1x1x480_to_120, 1, 1, 480, 120);
TFI_CONV1X1(1x1x168_to_672, 1, 1, 168, 672);
TFI_CONV1X1(1x1x960_to_240, 1, 1, 960, 240);
TFI_CONV1X1(64x64x48_to_48, 64, 64, 48, 48);
TFI_CONV1X1(128x128x16_to_16, 128, 128, 16, 16);
TFI_CONV1X1(64x64x16_to_72, 64, 64, 16, 72);
TFI_CONV1X1(64x64x24_to_16, 64, 64, 24, 16);
TFI_CONV1X1(32x32x24_to_88, 32, 32, 24, 88);
TFI_CONV1X1(32x32x128_to_24, 32, 32, 128, 24);
TFI_CONV1X1(16x16x32_to_128, 16, 16, 32, 128);
TFI_CONV1X1(16x16x96_to_32, 16, 16, 96, 32);
TFI_CONV1X1(64x64x8_to_16, 64, 64, 8, 16);
TFI_CONV1X1(32x32x16_to_32, 32, 32, 16, 32);
TFI_CONV1X1(8x8x128_to_128, 8, 8, 128, 128);
TFI_CONV1X1(4x4x256_to_256, 4, 4, 256, 256);
TFI_CONV1X1(32x32x96_to_96, 32, 32, 96, 96);
// BlazePose detector's largest 1x1 layers (pose_detection: 14 x 14 and 7 x 7 images,
// wide channel counts; two thirds of its multiply-adds with 14x14x112_to_672 above).
TFI_CONV1X1(7x7x192_to_1152, 7, 7, 192, 1152);
TFI_CONV1X1(14x14x1152_to_192, 14, 14, 1152, 192);
TFI_CONV1X1(7x7x1152_to_192, 7, 7, 1152, 192);
TFI_CONV1X1(14x14x672_to_112, 14, 14, 672, 112);
TFI_CONV1X1(56x56x24_to_144, 56, 56, 24, 144);

// First layers: few input channels, a wide filter, stride 2 (BlazeFace 128 x 128 x 3, 5x5
// to 24; MobileNet 224 x 224 x 3, 3x3 to 32, 16 and 8 (width 0.25); ResNet's 7x7 stem).
#define TFI_CONV(name, h, w, in_c, out_c, f, stride)                                               \
  BENCHMARK_CAPTURE(BM_Own, name, Shape{h, w, in_c, out_c, f, stride})->Arg(1)->Arg(2)->UseRealTime(); \
  BENCHMARK_CAPTURE(BM_Xnnpack, name, Shape{h, w, in_c, out_c, f, stride})->Arg(1)->Arg(2)->UseRealTime()

TFI_CONV(128x128x3_5x5s2_to_24, 128, 128, 3, 24, 5, 2);
TFI_CONV(224x224x3_3x3s2_to_32, 224, 224, 3, 32, 3, 2);
TFI_CONV(224x224x3_3x3s2_to_16, 224, 224, 3, 16, 3, 2);
TFI_CONV(192x192x3_3x3s2_to_24, 192, 192, 3, 24, 3, 2);
TFI_CONV(224x224x3_3x3s2_to_8, 224, 224, 3, 8, 3, 2);
TFI_CONV(224x224x3_7x7s2_to_64, 224, 224, 3, 64, 7, 2);

}  // namespace

// 3x3 stride-1 layers (SAME): the own step runs them by Winograd's F(2x2, 3x3)
// (winograd_f32.h), GFLOP/s counted as the direct convolution's.
#define TFI_CONV3X3(name, h, w, in_c, out_c)                                           \
  BENCHMARK_CAPTURE(BM_Own, name, Shape{h, w, in_c, out_c, 3})->Arg(1)->Arg(2)->UseRealTime(); \
  BENCHMARK_CAPTURE(BM_Xnnpack, name, Shape{h, w, in_c, out_c, 3})->Arg(1)->Arg(2)->UseRealTime()

TFI_CONV3X3(3x3_128x128x16_to_16, 128, 128, 16, 16);
TFI_CONV3X3(3x3_128x128x32_to_16, 128, 128, 32, 16);
TFI_CONV3X3(3x3_64x64x32_to_32, 64, 64, 32, 32);
TFI_CONV3X3(3x3_64x64x16_to_64, 64, 64, 16, 64);
TFI_CONV3X3(3x3_64x64x64_to_16, 64, 64, 64, 16);
TFI_CONV3X3(3x3_64x64x24_to_48, 64, 64, 24, 48);
TFI_CONV3X3(3x3_64x64x64_to_32, 64, 64, 64, 32);
TFI_CONV3X3(3x3_56x56x64_to_64, 56, 56, 64, 64);
TFI_CONV3X3(3x3_35x35x64_to_96, 35, 35, 64, 96);
TFI_CONV3X3(3x3_28x28x128_to_128, 28, 28, 128, 128);
TFI_CONV3X3(3x3_28x28x128_to_32, 28, 28, 128, 32);
TFI_CONV3X3(3x3_14x14x256_to_256, 14, 14, 256, 256);
TFI_CONV3X3(3x3_7x7x512_to_512, 7, 7, 512, 512);

// Grouped 3x3 layers (ResNeXt's: 8 groups of 8 channels; the own step's per-group direct
// convolution).
#define TFI_GROUPED(name, h, w, c, groups, stride)                          \
  BENCHMARK_CAPTURE(BM_Own, name, Shape{h, w, c, c, 3, stride, groups})     \
      ->Arg(1)                                                              \
      ->Arg(2)                                                              \
      ->UseRealTime();                                                      \
  BENCHMARK_CAPTURE(BM_Xnnpack, name, Shape{h, w, c, c, 3, stride, groups}) \
      ->Arg(1)                                                              \
      ->Arg(2)                                                              \
      ->UseRealTime()

TFI_GROUPED(grouped_32x32x64_g8, 32, 32, 64, 8, 1);
TFI_GROUPED(grouped_32x32x64_g8_s2, 32, 32, 64, 8, 2);
TFI_GROUPED(grouped_16x16x64_g8, 16, 16, 64, 8, 1);
TFI_GROUPED(grouped_28x28x128_g32, 28, 28, 128, 32, 1);

// A ConvLSTM2D cell's gate convolutions (conv_lstm_6x32: four of 8 -> 8 channels on the
// hidden state and four of 1 -> 8 on the input, 3x3, 32 x 32), and the four hidden-state
// ones as one 8 -> 32 convolution would run them.
TFI_CONV(32x32x8_3x3_to_8, 32, 32, 8, 8, 3, 1);
TFI_CONV(32x32x1_3x3_to_8, 32, 32, 1, 8, 3, 1);
TFI_CONV(32x32x8_3x3_to_32, 32, 32, 8, 32, 3, 1);
