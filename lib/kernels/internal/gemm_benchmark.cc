// Microbenchmarks of the GEMMs behind CONV_2D / FULLY_CONNECTED and of the int8 depthwise
// convolution (not tests).
//   build/lib/gemm_benchmark [--benchmark_filter=...]
// Shapes: a 1x112x112x32 -> 64 3x3 SAME convolution as im2col GEMM (m=12544, n=64,
// k=288), the same as a 1x1 convolution (k=32), and a 1x1024 -> 1000 FULLY_CONNECTED.
// The argument is the number of pthreadpool threads. "naive" is a plain triple loop over
// the same data, for comparison.
#include <benchmark/benchmark.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <pthreadpool.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "kernels/internal/depthwise_dot.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/hybrid.h"

namespace {

struct Problem {
  int m, n, k;
  std::vector<float> a, w, packed, bias, c;
  Problem(int m_, int n_, int k_) : m(m_), n(n_), k(k_) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    a.resize(static_cast<size_t>(m) * k);
    w.resize(static_cast<size_t>(n) * k);
    bias.resize(n);
    for (auto& x : a) x = d(rng);
    for (auto& x : w) x = d(rng);
    for (auto& x : bias) x = d(rng);
    packed.resize(tflite::gemm::PackedWeightsSize(n, k));
    tflite::gemm::PackFloatWeights(w.data(), n, k, packed.data());
    c.resize(static_cast<size_t>(m) * n);
  }
};

void SetFlops(benchmark::State& state, const Problem& p) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(2e-9 * p.m * p.n * p.k, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(tflite::gemm::FloatKernelName());
}

void BM_FloatGemm(benchmark::State& state, int m, int n, int k) {
  Problem p(m, n, k);
  const int threads = static_cast<int>(state.range(0));
  pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
  tflite::gemm::FloatOutputStage stage;
  stage.bias = p.bias.data();
  for (auto _ : state) {
    tflite::gemm::FloatGemm(m, n, k, p.a.data(), k, p.packed.data(), p.c.data(), n, stage, pool);
    benchmark::DoNotOptimize(p.c.data());
    benchmark::ClobberMemory();
  }
  SetFlops(state, p);
  if (pool != nullptr) pthreadpool_destroy(pool);
}

// The TFLite orders (each product rounded, then added: gemm.h kTfliteMatMulOrder, the
// builtin BATCH_MATMUL's bits that dynamic-range graphs keep, 1; kTfliteGemmOrder,
// CONV_2D's, 2) against kAuto's FMA (0).
void BM_FloatGemmOrder(benchmark::State& state, int m, int n, int k) {
  Problem p(m, n, k);
  const auto kernel = state.range(0) == 1   ? tflite::gemm::GemmKernel::kTfliteMatMulOrder
                      : state.range(0) == 2 ? tflite::gemm::GemmKernel::kTfliteGemmOrder
                                            : tflite::gemm::GemmKernel::kAuto;
  tflite::gemm::FloatOutputStage stage;
  for (auto _ : state) {
    tflite::gemm::FloatGemm(m, n, k, p.a.data(), k, p.packed.data(), p.c.data(), n, stage, nullptr,
                            kernel);
    benchmark::DoNotOptimize(p.c.data());
    benchmark::ClobberMemory();
  }
  SetFlops(state, p);
}

// A residual ADD (as a 1x1 convolution with a skip connection adds it): in the GEMM's
// blocks (fused = 1) or as a pass of its own after it (0); `channels` of the residual's
// (a zero channel PAD of the rest); 2: no residual.
void BM_FloatGemmResidual(benchmark::State& state, int m, int n, int k, int channels) {
  Problem p(m, n, k);
  const bool fused = state.range(0) == 1;
  std::vector<float> residual(static_cast<size_t>(m) * channels, 0.5f);
  tflite::gemm::FloatOutputStage stage;
  stage.bias = p.bias.data();
  stage.residual = residual.data();
  stage.residual_ld = channels;
  stage.residual_n = channels;
  stage.residual_min = 0.0f;
  tflite::gemm::FloatOutputStage plain = stage;
  plain.residual = nullptr;
  for (auto _ : state) {
    if (fused) {
      tflite::gemm::FloatGemm(m, n, k, p.a.data(), k, p.packed.data(), p.c.data(), n, stage, nullptr);
    } else {
      tflite::gemm::FloatGemm(m, n, k, p.a.data(), k, p.packed.data(), p.c.data(), n, plain, nullptr);
      if (state.range(0) == 0) tflite::gemm::FinishBlock(stage, p.c.data(), n, 0, m, 0, n);
    }
    benchmark::DoNotOptimize(p.c.data());
    benchmark::ClobberMemory();
  }
  SetFlops(state, p);
}

void BM_NaiveGemm(benchmark::State& state, int m, int n, int k) {
  Problem p(m, n, k);
  for (auto _ : state) {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        float acc = 0.f;
        for (int kk = 0; kk < k; ++kk) {
          acc += p.a[static_cast<size_t>(i) * k + kk] * p.w[static_cast<size_t>(j) * k + kk];
        }
        p.c[static_cast<size_t>(i) * n + j] = acc + p.bias[j];
      }
    }
    benchmark::DoNotOptimize(p.c.data());
    benchmark::ClobberMemory();
  }
  SetFlops(state, p);
}

// The int8 path (int16 operands, int32 accumulators, per-channel requantization).
void BM_QuantizedGemm(benchmark::State& state, int m, int n, int k) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int16_t> a(static_cast<size_t>(m) * k);
  std::vector<int8_t> w(static_cast<size_t>(n) * k);
  for (auto& x : a) x = static_cast<int16_t>(d(rng) + 3);
  for (auto& x : w) x = static_cast<int8_t>(d(rng));
  std::vector<int16_t> packed(tflite::gemm::PackedQuantizedWeightsSize(n, k));
  tflite::gemm::PackInt8Weights(w.data(), n, k, 0, packed.data());
  std::vector<int32_t> bias(n, 100), mult(n, 1 << 30), shift(n, -10);
  tflite::gemm::QuantizedOutputStage stage;
  stage.bias = bias.data();
  stage.multiplier = mult.data();
  stage.shift = shift.data();
  std::vector<int8_t> c(static_cast<size_t>(m) * n);
  const int threads = static_cast<int>(state.range(0));
  pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
  for (auto _ : state) {
    tflite::gemm::QuantizedGemm(m, n, k, a.data(), k, packed.data(), c.data(), n, stage, pool);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.counters["GOP/s"] =
      benchmark::Counter(2e-9 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
  if (pool != nullptr) pthreadpool_destroy(pool);
}

// A hybrid layer's float output from the int16 GEMM (Int16GemmHybrid: the hybrid layers'
// path without dot-product instructions; the rescale in the tiles), BERT-tiny's shapes.
void BM_Int16GemmHybrid(benchmark::State& state, int m, int n, int k) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int16_t> a(static_cast<size_t>(m) * k);
  std::vector<int8_t> w(static_cast<size_t>(n) * k);
  for (auto& x : a) x = static_cast<int16_t>(d(rng));
  for (auto& x : w) x = static_cast<int8_t>(d(rng));
  std::vector<int16_t> packed(tflite::gemm::PackedQuantizedWeightsSize(n, k));
  tflite::gemm::PackInt8Weights(w.data(), n, k, 0, packed.data());
  std::vector<float> row_scale(m, 0.01f), unit_scale(n, 0.02f), bias(n, 0.5f);
  tflite::gemm::HybridOutputStage stage;
  stage.row_scale = row_scale.data();
  stage.unit_scale = unit_scale.data();
  stage.bias = bias.data();
  stage.act_min = -1e30f;
  stage.act_max = 1e30f;
  std::vector<float> c(static_cast<size_t>(m) * n);
  const int threads = static_cast<int>(state.range(0));
  pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
  for (auto _ : state) {
    tflite::gemm::Int16GemmHybrid(m, n, k, a.data(), k, packed.data(), stage, c.data(), n, pool);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.counters["GOP/s"] =
      benchmark::Counter(2e-9 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
  if (pool != nullptr) pthreadpool_destroy(pool);
}

// The dot-product GEMM (VNNI): same stage; the second argument picks the tile
// (0 auto, 1 portable, 2 AVX-VNNI, 3 AVX-512 VNNI, 4 AMX; one the CPU lacks runs as auto).
// Random uint8 rows of A (DotDepth(k) apart) and int8 weights packed for the dot GEMM,
// with the weights' column sums.
struct DotOperands {
  DotOperands(int m, int n, int k) : depth(tflite::gemm::DotDepth(k)) {
    std::mt19937 rng(1);
    std::uniform_int_distribution<int> d(-128, 127);
    a.resize(static_cast<size_t>(m) * depth);
    std::vector<int8_t> w(static_cast<size_t>(n) * k);
    for (auto& x : a) x = static_cast<uint8_t>(d(rng) + 128);
    for (auto& x : w) x = static_cast<int8_t>(d(rng));
    packed.resize(tflite::gemm::PackedDotWeightsSize(n, k));
    sums.resize(n);
    tflite::gemm::PackDotWeights(w.data(), n, k, packed.data(), sums.data());
  }
  int depth;
  std::vector<uint8_t> a;
  tflite::gemm::CacheLineVector<int8_t> packed;
  std::vector<int32_t> sums;
};

void BM_DotGemm(benchmark::State& state, int m, int n, int k) {
  const DotOperands ops(m, n, k);
  std::vector<int32_t> bias(n, 100), dot_bias(n), mult(n, 1 << 30), shift(n, -10);
  tflite::gemm::DotBias(bias.data(), ops.sums.data(), n, 131, dot_bias.data());
  tflite::gemm::QuantizedOutputStage stage;
  stage.bias = dot_bias.data();
  stage.multiplier = mult.data();
  stage.shift = shift.data();
  std::vector<int8_t> c(static_cast<size_t>(m) * n);
  const int threads = static_cast<int>(state.range(0));
  const auto kernel = static_cast<tflite::gemm::DotKernel>(state.range(1));
  pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
  for (auto _ : state) {
    tflite::gemm::DotGemm(m, n, k, ops.a.data(), ops.depth, ops.packed.data(), c.data(), n, stage,
                          pool, kernel);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.counters["GOP/s"] =
      benchmark::Counter(2e-9 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(tflite::gemm::DotKernelName(kernel));
  if (pool != nullptr) pthreadpool_destroy(pool);
}

// A hybrid layer's float output from the dot GEMM (DotGemmHybrid: the rescale fused where
// the CPU's tiles take it, else DotGemmRaw + hybrid::ScaleRows), per-channel scales.
// Arg 1: always DotGemmRaw + ScaleRows (what the fusion saves).
void BM_DotGemmHybrid(benchmark::State& state, int m, int n, int k) {
  const DotOperands ops(m, n, k);
  std::vector<int32_t> dot_bias(n), raw(static_cast<size_t>(m) * n);
  tflite::gemm::DotBias(nullptr, ops.sums.data(), n, 128, dot_bias.data());
  std::vector<float> row_scale(m, 0.02f), unit(n, 0.01f), bias(n, 0.5f);
  tflite::gemm::HybridOutputStage stage;
  stage.dot_bias = dot_bias.data();
  stage.row_scale = row_scale.data();
  stage.unit_scale = unit.data();
  stage.bias = bias.data();
  stage.act_min = 0.f;
  stage.act_max = 6.f;
  std::vector<float> c(static_cast<size_t>(m) * n);
  bool fused = false;
  for (auto _ : state) {
    fused = state.range(0) == 0 &&
            tflite::gemm::DotGemmHybrid(m, n, k, ops.a.data(), ops.depth, ops.packed.data(), stage,
                                        c.data(), n, nullptr);
    if (!fused) {
      tflite::gemm::DotGemmRaw(m, n, k, ops.a.data(), ops.depth, ops.packed.data(),
                               dot_bias.data(), raw.data(), n, nullptr);
      tflite::hybrid::ScaleRows(raw.data(), n, m, n, row_scale.data(), nullptr, nullptr,
                                unit.data(), bias.data(), stage.act_min, stage.act_max, c.data(),
                                n);
    }
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.counters["GOP/s"] =
      benchmark::Counter(2e-9 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::string(tflite::gemm::DotKernelName()) + (fused ? ", fused" : ", rescaled"));
}

// The XNNPACK delegate's int8 convolutions: int8 activations as they are (DotGemmSigned,
// AMX where the CPU has it) and XNNPACK's fp32 requantization, on ResNet50's layer shapes.
void BM_DotGemmSigned(benchmark::State& state, int m, int n, int k) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> a(static_cast<size_t>(m) * k), w(static_cast<size_t>(n) * k);
  for (auto& x : a) x = static_cast<int8_t>(d(rng));
  for (auto& x : w) x = static_cast<int8_t>(d(rng));
  tflite::gemm::CacheLineVector<int8_t> packed(tflite::gemm::PackedDotWeightsSize(n, k));
  std::vector<int32_t> sums(n), bias(n, 100), dot_bias(n);
  tflite::gemm::PackDotWeights(w.data(), n, k, packed.data(), sums.data());
  tflite::gemm::DotBias(bias.data(), sums.data(), n, 3 + 128, dot_bias.data());
  std::vector<float> scale(n, 1.f / 4096);
  tflite::gemm::QuantizedOutputStage stage;
  stage.bias = dot_bias.data();
  stage.float_scale = scale.data();
  stage.output_offset = -5;
  std::vector<int8_t> c(static_cast<size_t>(m) * n);
  const int threads = static_cast<int>(state.range(0));
  pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
  for (auto _ : state) {
    if (!tflite::gemm::DotGemmSigned(m, n, k, a.data(), k, packed.data(), c.data(), n, stage,
                                     pool)) {
      state.SkipWithError("no AMX on this CPU");
      break;
    }
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.counters["GOP/s"] =
      benchmark::Counter(2e-9 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
  if (pool != nullptr) pthreadpool_destroy(pool);
}

// A hybrid layer's input quantization (asymmetric, rows written in the dot GEMM's uint8
// domain) and its rescale of the int32 sums to float; GB/s of float input or output.
void BM_HybridQuantize(benchmark::State& state, int rows, int size) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> d(-3.f, 5.f);
  std::vector<float> x(static_cast<size_t>(rows) * size);
  for (auto& v : x) v = d(rng);
  std::vector<int8_t> dst(x.size());
  tflite::hybrid::QuantizedRows q;
  for (auto _ : state) {
    q.QuantizeTo(x.data(), rows, size, true, dst.data(), size, 0x80);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * x.size() * 4);
}

void BM_HybridRescale(benchmark::State& state, int rows, int units) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<int32_t> di(-300000, 300000);
  std::vector<int32_t> dot(static_cast<size_t>(rows) * units), col(units);
  for (auto& v : dot) v = di(rng);
  for (auto& v : col) v = di(rng) / 1000;
  std::vector<float> scale(units, 1e-3f), bias(units, 0.5f), out(dot.size()), row_scale(rows, 0.01f);
  std::vector<int32_t> offset(rows, 17);
  for (auto _ : state) {
    tflite::hybrid::ScaleRows(dot.data(), units, rows, units, row_scale.data(), col.data(),
                              offset.data(), scale.data(), bias.data(), -1e30f, 1e30f, out.data(),
                              units);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * out.size() * 4);
}

// int8 depthwise convolution on int16 pair dot products (depthwise_dot.h), XNNPACK's fp32
// stage, as the XNNPACK delegate runs it; GOP/s = 2 x multiply-adds (taps x outputs).
void BM_DotDepthwise(benchmark::State& state, int h, int w, int c, int k, int stride) {
  if (!tflite::dwconv::DotDepthwise::Available()) {
    state.SkipWithError("no AVX-512 VNNI");
    return;
  }
  tflite::dwconv::Geometry g{};
  g.batches = 1;
  g.in_h = h;
  g.in_w = w;
  g.in_c = g.out_c = c;
  g.f_h = g.f_w = k;
  g.depth_multiplier = 1;
  g.stride_h = g.stride_w = stride;
  g.dil_h = g.dil_w = 1;
  g.out_h = (h + stride - 1) / stride;
  g.out_w = (w + stride - 1) / stride;
  g.pad_h = std::max(0, (g.out_h - 1) * stride + k - h) / 2;
  g.pad_w = std::max(0, (g.out_w - 1) * stride + k - w) / 2;
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> input(static_cast<size_t>(h) * w * c), filter(static_cast<size_t>(k) * k * c);
  for (auto& x : input) x = static_cast<int8_t>(d(rng));
  for (auto& x : filter) x = static_cast<int8_t>(d(rng));
  std::vector<int32_t> bias(c, 1000);
  std::vector<float> scale(c, 1.0f / 4096);
  tflite::gemm::QuantizedOutputStage stage;
  stage.bias = bias.data();
  stage.float_scale = scale.data();
  tflite::dwconv::DotDepthwise dw(g, filter.data(), 3, stage);
  std::vector<int8_t> out(static_cast<size_t>(g.out_h) * g.out_w * c);
  const int threads = static_cast<int>(state.range(0));
  pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
  for (auto _ : state) {
    dw.Run(input.data(), out.data(), pool);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.counters["GOP/s"] = benchmark::Counter(2e-9 * g.out_h * g.out_w * c * k * k,
                                               benchmark::Counter::kIsIterationInvariantRate);
  if (pool != nullptr) pthreadpool_destroy(pool);
}

#if defined(__x86_64__)
// The machine's int8 peak per core, measured rather than taken from a data sheet (a VM
// hides the clock): BM_DotPeak runs 16 independent vpdpbusd chains on registers (64
// multiply-adds each; the throughput bound), BM_ClockProbe a chain of dependent adds (one
// a cycle), whose rate is the clock. MACs per cycle = (DotPeak GOP/s / 2) / clock.
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void DotPeakLoop(int64_t iters,
                                                                         int32_t* sink) {
  const __m512i x = _mm512_set1_epi32(0x01020304), y = _mm512_set1_epi32(0x05060708);
#define TFI_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define TFI_DECL(i) __m512i a##i = _mm512_set1_epi32(i);
  TFI_CHAINS(TFI_DECL)
#undef TFI_DECL
  for (int64_t i = 0; i < iters; ++i) {
#define TFI_STEP(i) a##i = _mm512_dpbusd_epi32(a##i, x, y);
    TFI_CHAINS(TFI_STEP)
#undef TFI_STEP
  }
  __m512i sum = _mm512_setzero_si512();
#define TFI_SUM(i) sum = _mm512_add_epi32(sum, a##i);
  TFI_CHAINS(TFI_SUM)
#undef TFI_SUM
#undef TFI_CHAINS
  *sink = _mm512_reduce_add_epi32(sum);
}

void BM_DotPeak(benchmark::State& state) {
  if (!tflite::gemm::CpuHasAvx512Vnni()) {
    state.SkipWithError("no AVX-512 VNNI");
    return;
  }
  const int64_t iters = 1 << 20;
  int32_t sink = 0;
  for (auto _ : state) {
    DotPeakLoop(iters, &sink);
    benchmark::DoNotOptimize(sink);
  }
  state.counters["GOP/s"] = benchmark::Counter(2e-9 * iters * 16 * 64,
                                               benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_DotPeak)->Unit(benchmark::kMillisecond);

void BM_ClockProbe(benchmark::State& state) {
  const int64_t iters = 1 << 24;
  for (auto _ : state) {
    uint64_t x = 0;
    for (int64_t i = 0; i < iters; ++i) asm volatile("add $1, %0" : "+r"(x));
    benchmark::DoNotOptimize(x);
  }
  state.counters["GHz"] =
      benchmark::Counter(1e-9 * iters, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ClockProbe)->Unit(benchmark::kMillisecond);
#endif

BENCHMARK_CAPTURE(BM_FloatGemm, conv3x3_112x112x32_to_64, 112 * 112, 64, 3 * 3 * 32)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
// One 16-column panel alone (hand_landmark_lite's 112x112x24 -> 16) against two.
BENCHMARK_CAPTURE(BM_FloatGemm, conv1x1_112x112x24_to_16, 112 * 112, 16, 24)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FloatGemm, conv1x1_112x112x24_to_32, 112 * 112, 32, 24)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FloatGemm, conv1x1_112x112x32_to_64, 112 * 112, 64, 32)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
// MobileNet V3's 1x1 convolutions at 28x28 and 7x7 (small k and n: the hand-off to a
// second thread is a large share).
BENCHMARK_CAPTURE(BM_FloatGemm, conv1x1_28x28x40_to_120, 28 * 28, 120, 40)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FloatGemm, conv1x1_7x7x160_to_960, 7 * 7, 960, 160)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
// A transformer encoder's layers (transformer_128x256: 128 tokens, width 256, FFN 1024).
BENCHMARK_CAPTURE(BM_FloatGemm, fc_128x256_to_256, 128, 256, 256)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FloatGemm, fc_128x256_to_1024, 128, 1024, 256)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FloatGemm, fc_128x1024_to_256, 128, 256, 1024)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
// BERT-tiny's (64 tokens, width 128, FFN 512): short k and few rows.
BENCHMARK_CAPTURE(BM_FloatGemm, fc_64x128_to_128, 64, 128, 128)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FloatGemm, fc_64x128_to_512, 64, 512, 128)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FloatGemm, fc_64x512_to_128, 64, 128, 512)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
// Attention's products (4 heads of 64 over 128 tokens): scores (k = 64) and values (k = 128).
BENCHMARK_CAPTURE(BM_FloatGemmOrder, attention_128x64_to_128, 128, 128, 64)
    ->Arg(0)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FloatGemmOrder, attention_128x128_to_64, 128, 64, 128)
    ->Arg(0)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
// A dynamic-range MobileNetV2's float pointwise layers (too small to be quantized): 8 ->
// 48 and 16 -> 8 channels at 48 x 48.
BENCHMARK_CAPTURE(BM_FloatGemmOrder, pw_48x48x8_to_48, 48 * 48, 48, 8)
    ->Arg(0)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FloatGemmOrder, pw_48x48x16_to_8, 48 * 48, 8, 16)
    ->Arg(0)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FloatGemm, fc_1x1024_to_1000, 1, 1000, 1024)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_QuantizedGemm, conv3x3_112x112x32_to_64, 112 * 112, 64, 3 * 3 * 32)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_QuantizedGemm, conv1x1_56x56x24_to_144, 56 * 56, 144, 24)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_QuantizedGemm, conv1x1_14x14x96_to_576, 14 * 14, 576, 96)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Int16GemmHybrid, bert_qkv_64x128_to_384, 64, 384, 128)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Int16GemmHybrid, bert_ff1_64x128_to_512, 64, 512, 128)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Int16GemmHybrid, bert_ff2_64x512_to_128, 64, 128, 512)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DotGemm, conv3x3_112x112x32_to_64, 112 * 112, 64, 3 * 3 * 32)
    ->ArgsProduct({{1, 2}, {0, 2, 3, 6}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DotGemm, conv1x1_56x56x24_to_144, 56 * 56, 144, 24)
    ->ArgsProduct({{1}, {0, 2, 3, 6}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DotGemm, conv1x1_14x14x96_to_576, 14 * 14, 576, 96)
    ->ArgsProduct({{1}, {0, 2, 3, 6}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DotGemm, conv3x3_28x28x512_to_512, 28 * 28, 512, 3 * 3 * 512)
    ->ArgsProduct({{1}, {0, 3}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
// ResNet50's convolutions (1x1 as they are, 3x3 as im2col rows), at 56, 28, 14 and 7
// pixels a side.
#define TFI_SIGNED(name, m, n, k)                                                      \
  BENCHMARK_CAPTURE(BM_DotGemmSigned, name, m, n, k)->Arg(1)->UseRealTime()->Unit( \
      benchmark::kMicrosecond);
TFI_SIGNED(r50_1x1_56x56x64_to_256, 56 * 56, 256, 64)
TFI_SIGNED(r50_1x1_56x56x256_to_64, 56 * 56, 64, 256)
TFI_SIGNED(r50_3x3_56x56x64_to_64, 56 * 56, 64, 9 * 64)
TFI_SIGNED(r50_1x1_28x28x512_to_128, 28 * 28, 128, 512)
TFI_SIGNED(r50_3x3_28x28x128_to_128, 28 * 28, 128, 9 * 128)
TFI_SIGNED(r50_1x1_14x14x256_to_1024, 14 * 14, 1024, 256)
TFI_SIGNED(r50_3x3_14x14x256_to_256, 14 * 14, 256, 9 * 256)
TFI_SIGNED(r50_1x1_7x7x2048_to_512, 7 * 7, 512, 2048)
TFI_SIGNED(r50_3x3_7x7x512_to_512, 7 * 7, 512, 9 * 512)
#undef TFI_SIGNED
// A BERT-style encoder's hybrid FULLY_CONNECTED layers (64 tokens, hidden 128, FFN 512).
BENCHMARK_CAPTURE(BM_DotGemm, fc_64x128_to_128, 64, 128, 128)
    ->ArgsProduct({{1}, {0, 3, 4}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DotGemm, fc_64x512_to_128, 64, 128, 512)
    ->ArgsProduct({{1}, {0, 3, 4}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
// Inception V3's hybrid convolutions (3x3, 5x5 and 1x7 as im2col rows), 299 x 299 input.
#define TFI_HYBRID(name, m, n, k) \
  BENCHMARK_CAPTURE(BM_DotGemmHybrid, name, m, n, k)->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
TFI_HYBRID(inc_3x3_147x147x32_to_64, 147 * 147, 64, 9 * 32)
TFI_HYBRID(inc_1x1_73x73x64_to_80, 73 * 73, 80, 64)
TFI_HYBRID(inc_3x3_71x71x80_to_192, 71 * 71, 192, 9 * 80)
TFI_HYBRID(inc_1x1_35x35x192_to_48, 35 * 35, 48, 192)
TFI_HYBRID(inc_5x5_35x35x48_to_64, 35 * 35, 64, 25 * 48)
TFI_HYBRID(inc_1x7_17x17x160_to_160, 17 * 17, 160, 7 * 160)
TFI_HYBRID(inc_1x1_17x17x768_to_192, 17 * 17, 192, 768)
// ResNet50V2's 56 x 56 1x1 layers (dynamic range: float images of 0.8 and 3.2 MB).
TFI_HYBRID(r50_1x1_56x56x64_to_256, 56 * 56, 256, 64)
TFI_HYBRID(r50_1x1_56x56x256_to_64, 56 * 56, 64, 256)
TFI_HYBRID(inc_3x3_8x8x448_to_384, 8 * 8, 384, 9 * 448)
// A transformer encoder's hybrid FULLY_CONNECTED layers (128 tokens, hidden 256, FFN 1024).
TFI_HYBRID(fc_128x256_to_256, 128, 256, 256)
TFI_HYBRID(fc_128x256_to_1024, 128, 1024, 256)
TFI_HYBRID(fc_128x1024_to_256, 128, 256, 1024)
#undef TFI_HYBRID
BENCHMARK_CAPTURE(BM_HybridQuantize, rows_64x128, 64, 128)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_HybridQuantize, rows_64x512, 64, 512)->Unit(benchmark::kMicrosecond);
// A hybrid convolution's image (one row): ResNet's 28 x 28 x 512, 1.6 MB of floats (in L2).
BENCHMARK_CAPTURE(BM_HybridQuantize, image_28x28x512, 1, 28 * 28 * 512)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_HybridRescale, rows_64x128, 64, 128)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_HybridRescale, rows_64x512, 64, 512)->Unit(benchmark::kMicrosecond);
// MobileNetV2's and EfficientNet-B0's depthwise layers.
BENCHMARK_CAPTURE(BM_DotDepthwise, dw3x3_112x112x32, 112, 112, 32, 3, 1)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DotDepthwise, dw3x3_s2_112x112x96, 112, 112, 96, 3, 2)
    ->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DotDepthwise, dw5x5_14x14x480, 14, 14, 480, 5, 1)
    ->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DotDepthwise, dw3x3_14x14x576, 14, 14, 576, 3, 1)
    ->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
// face_detection_short_range's blocks: 64x64 pixels, 24 -> 24 and (PAD 24 -> 28) 24 -> 28.
BENCHMARK_CAPTURE(BM_FloatGemmResidual, conv1x1_64x64x24_to_24, 64 * 64, 24, 24, 24)
    ->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FloatGemmResidual, conv1x1_64x64x24_to_28_pad, 64 * 64, 28, 24, 24)
    ->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FloatGemmResidual, conv1x1_16x16x96_to_96, 16 * 16, 96, 96, 96)
    ->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

BENCHMARK_CAPTURE(BM_NaiveGemm, conv3x3_112x112x32_to_64, 112 * 112, 64, 3 * 3 * 32)
    ->Unit(benchmark::kMillisecond);

}  // namespace
