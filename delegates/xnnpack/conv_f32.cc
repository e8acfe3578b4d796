#include "xnnpack/conv_f32.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tflite_inspect {
namespace xnnpack {

bool OwnStepWanted(bool by_cpu) {
  const char* env = std::getenv("TFI_XNNPACK_OWN_GEMM");
  if (env != nullptr && std::strcmp(env, "0") == 0) return false;
  if (env != nullptr && std::strcmp(env, "1") == 0) return true;
  return by_cpu;
}

bool OwnConvF32Wanted() {
  return OwnStepWanted(tflite::gemm::CpuHasAvx2Fma() && !tflite::gemm::CpuHasAvx512F());
}

bool OwnConvF32Wanted(const tflite::conv_util::ConvGeometry& g, bool folds_residual) {
  if (!tflite::gemm::CpuHasAvx2Fma()) return OwnStepWanted(false);
  if (!tflite::gemm::CpuHasAvx512F()) return OwnStepWanted(true);
  const tflite::conv_util::RowWindows w = tflite::conv_util::DirectRowWindows(g);
  // 1x1 stride-1 convolutions: on conv_f32_benchmark's 34 layers the packed GEMM takes
  // 0.61-0.97 of this XNNPACK's time on most on an Intel Xeon (up to 1.16 with a depth of
  // 16 at 1 thread, 1.23 at 2 threads under a million multiply-adds, which it runs on one
  // thread); in whole models it wins (docs/performance.md). On AMD Zen 4 this XNNPACK's
  // GEMM is the faster one (ours 0.8-0.99 of its speed) but with at most 16 output
  // channels or 64 pixels (ours 1.07-1.3x: 8x8x128 -> 128, 4x4x256 -> 256): there the own
  // step takes those, and those a residual ADD folds into (BlazeFace-style blocks: the
  // ADD and the PRELU after it are passes XNNPACK makes over memory; face_landmark 4%
  // slower without). Not below 16 pixels: there both are
  // matrix-vector products bound by the weights' bandwidth, and taking the node cuts
  // XNNPACK's runtime in two for nothing (mobilenet_v3's squeeze-excite blocks: 1.7%
  // slower at 2 threads when taken).
  const int64_t pixels = static_cast<int64_t>(g.batches) * g.out_h * g.out_w;
  const bool pointwise = g.f_h == 1 && g.f_w == 1 && g.stride_h == 1 && g.stride_w == 1 &&
                         pixels >= 16 &&
                         (!tflite::gemm::CpuIsAmd() || g.out_c <= 16 || pixels <= 64 ||
                          folds_residual);
  // Few input channels (a first layer): FloatConv's direct kernel (direct_conv_f32.h).
  const bool direct = tflite::conv_util::DirectFloatConvApplies(g, tflite::gemm::GemmKernel::kAuto);
  return OwnStepWanted(pointwise || direct || tflite::winograd::Applies(g) ||
                       (g.f_w > 1 && w.any() && 2 * (w.hi - w.lo) >= g.out_w));
}

bool HalfHead(int rows, int n, int k, const float* weights) {
  constexpr double kMinBytes = 1 << 20;
  return rows == 1 && weights != nullptr && static_cast<double>(n) * k * sizeof(float) >= kMinBytes &&
         tflite::gemv_f16::Available() &&
         tflite::gemv_f16::ExactInHalf(weights, static_cast<size_t>(n) * k);
}

namespace {

bool OnePixelPointwise(const tflite::conv_util::ConvGeometry& g) {
  return g.f_h == 1 && g.f_w == 1 && g.stride_h == 1 && g.stride_w == 1 && g.pad_h == 0 &&
         g.pad_w == 0 && g.groups == 1 && static_cast<int64_t>(g.batches) * g.out_h * g.out_w == 1;
}

}  // namespace

bool OwnConvF32Wanted(const tflite::conv_util::ConvGeometry& g, const float* filter,
                      bool folds_residual) {
  if (OwnConvF32Wanted(g, folds_residual)) return true;
  return OwnStepWanted(OnePixelPointwise(g) && HalfHead(1, g.out_c, g.in_c, filter));
}

bool OwnFullyConnectedF32Wanted() { return OwnStepWanted(tflite::gemm::CpuHasAvx2Fma()); }

ConvF32::ConvF32(const tflite::conv_util::ConvGeometry& g, const float* filter,
                 const float* bias, float min, float max, tflite::gemm::GemmKernel kernel)
    : g_(g), min_(min), max_(max), kernel_(kernel) {
  const int depth = g.f_h * g.f_w * (g.groups > 1 ? g.f_c : g.in_c);
  if (bias != nullptr) bias_.assign(bias, bias + g.out_c);
  if (g.groups > 1) {
    const int n = g.group_out_c;
    const size_t panel = tflite::gemm::PackedWeightsSize(n, depth);
    packed_.resize(panel * g.groups);
    for (int j = 0; j < g.groups; ++j) {
      tflite::gemm::PackFloatWeights(filter + static_cast<size_t>(j) * n * depth, n, depth,
                                     packed_.data() + j * panel);
      groups_.push_back(packed_.data() + j * panel);
    }
    return;
  }
  if (kernel == tflite::gemm::GemmKernel::kAuto && OnePixelPointwise(g) &&
      HalfHead(1, g.out_c, depth, filter)) {
    half_ = std::make_shared<const tflite::gemv_f16::HalfWeights>(filter, g.out_c, depth);
    return;
  }
  if (kernel == tflite::gemm::GemmKernel::kAuto && tflite::winograd::Applies(g)) {
    winograd_ = std::make_unique<tflite::winograd::Weights>();
    tflite::winograd::PackWeights(filter, g.out_c, g.in_c, winograd_.get());
    return;
  }
  packed_.resize(tflite::gemm::PackedWeightsSize(g.out_c, depth));
  tflite::gemm::PackFloatWeights(filter, g.out_c, depth, packed_.data());
}

namespace {

tflite::gemm::FloatOutputStage Stage(const std::vector<float>& bias, float min, float max,
                                     const ResidualAdd* residual, bool swish = false) {
  tflite::gemm::FloatOutputStage stage;
  stage.swish = swish;
  stage.bias = bias.empty() ? nullptr : bias.data();
  stage.min = min;
  stage.max = max;
  if (residual != nullptr) {
    stage.residual = residual->values;
    stage.residual_ld = residual->channels;
    stage.residual_n = residual->channels;
    stage.residual_min = residual->min;
    stage.residual_max = residual->max;
    stage.residual_prelu = residual->prelu;
  }
  return stage;
}

}  // namespace

void ConvF32::Run(const float* input, float* output, pthreadpool_t pool,
                  const ResidualAdd* residual, bool swish) const {
  const tflite::gemm::FloatOutputStage stage = Stage(bias_, min_, max_, residual, swish);
  if (half_ != nullptr) {
    half_->Run(input, stage.bias, min_, max_, output, pool);
    tflite::gemm::FinishBlock(stage, output, g_.out_c, 0, g_.batches * g_.out_h * g_.out_w, 0,
                              g_.out_c);
    return;
  }
  if (winograd_ != nullptr) {
    tflite::winograd::Conv(g_, input, *winograd_, stage, output, &scratch_, pool);
    return;
  }
  if (!groups_.empty()) {
    tflite::conv_util::GroupedDirectFloatConv(g_, input, groups_.data(), stage, output, &scratch_,
                                              pool, kernel_);
    return;
  }
  tflite::conv_util::FloatConv(g_, input, packed_.data(), stage, output, &scratch_, pool, kernel_);
}

FullyConnectedF32::FullyConnectedF32(int rows, int in_c, int out_c, const float* weights,
                                     const float* bias, float min, float max,
                                     tflite::gemm::GemmKernel kernel)
    : rows_(rows), in_c_(in_c), out_c_(out_c), min_(min), max_(max), kernel_(kernel) {
  if (bias != nullptr) bias_.assign(bias, bias + out_c);
  if (kernel == tflite::gemm::GemmKernel::kAuto && HalfHead(rows, out_c, in_c, weights)) {
    half_ = std::make_shared<const tflite::gemv_f16::HalfWeights>(weights, out_c, in_c);
    return;
  }
  packed_.resize(tflite::gemm::PackedWeightsSize(out_c, in_c));
  tflite::gemm::PackFloatWeights(weights, out_c, in_c, packed_.data());
}

void FullyConnectedF32::Run(const float* input, float* output, pthreadpool_t pool,
                            const ResidualAdd* residual) const {
  const tflite::gemm::FloatOutputStage stage = Stage(bias_, min_, max_, residual);
  if (half_ != nullptr) {
    half_->Run(input, stage.bias, min_, max_, output, pool);
    tflite::gemm::FinishBlock(stage, output, out_c_, 0, rows_, 0, out_c_);
    return;
  }
  tflite::gemm::FloatGemm(rows_, out_c_, in_c_, input, in_c_, packed_.data(), output, out_c_,
                          stage, pool, kernel_);
}

}  // namespace xnnpack
}  // namespace tflite_inspect
