// CONV_3D (v1): float32 3-D convolution over NDHWC input with a [fd][fh][fw][in_c][out_c]
// filter, as TFLite's conv3d.cc (a converted Keras Conv3D: video and volumetric models).
// TFLite's kernel is float only (the converter leaves CONV_3D float in dynamic-range and
// full-integer graphs, with DEQUANTIZE / QUANTIZE around it); its checks and messages.
//
// Computed as TFLite's optimized kernel: im2col rows of [fd][fh][fw][in_c] per output voxel
// (none for a 1x1x1 stride-1 filter: the input is the matrix) times the filter on the packed
// GEMM, here in blocks of rows so the im2col matrix is never whole, split over the threads.
// In a graph with hybrid layers (whose input quantization would magnify a last-bit
// difference) the GEMM sums in TFLite's order, as CONV_2D does; where the output is
// quantized next (a full-integer graph), in its reference kernel's (tap by tap, each
// product rounded, then the bias), so that the integer outputs are the reference's.
#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "kernels/internal/conv_util.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/hybrid_graph.h"
#include "kernels/internal/im2col.h"
#include "kernels/internal/padding.h"
#include "kernels/internal/parallel.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace conv3d {
namespace {

struct Geometry {
  int batches, in_d, in_h, in_w, in_c;
  int f_d, f_h, f_w, out_c;
  int out_d, out_h, out_w;
  int pad_d, pad_h, pad_w;
  int stride_d, stride_h, stride_w;
  int dil_d, dil_h, dil_w;
  int depth() const { return f_d * f_h * f_w * in_c; }
  size_t rows() const { return static_cast<size_t>(batches) * out_d * out_h * out_w; }
  // The input is the im2col matrix itself.
  bool pointwise() const {
    return f_d == 1 && f_h == 1 && f_w == 1 && stride_d == 1 && stride_h == 1 && stride_w == 1;
  }
};

// The input padded with zeros so that every window lies inside it (Padded): each filter
// row of an im2col row is then one span of it, with no bounds to check.
struct PaddedInput {
  int d = 0, h = 0, w = 0;
  size_t elements(const Geometry& g) const {
    return static_cast<size_t>(g.batches) * d * h * w * g.in_c;
  }
};

struct OpData {
  Geometry g{};
  PaddedInput padded_geometry;
  bool use_padded = false;
  std::vector<float> padded;
  gemm::CacheLineVector<float> packed;
  bool packed_valid = false;
  std::vector<float> im2col;
  gemm::GemmKernel kernel = gemm::GemmKernel::kAuto;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteConv3DParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE(context, NumInputs(node) == 2 || NumInputs(node) == 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor *input, *filter;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &filter));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_EQ(context, NumDimensions(input), 5);
  TF_LITE_ENSURE_EQ(context, NumDimensions(filter), 5);
  TF_LITE_ENSURE_EQ(context, input->dims->data[4], filter->dims->data[3]);
  TF_LITE_ENSURE_TYPES_EQ(context, input->type, kTfLiteFloat32);
  TF_LITE_ENSURE_TYPES_EQ(context, filter->type, kTfLiteFloat32);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  const TfLiteTensor* bias =
      NumInputs(node) == 3 ? GetOptionalInputTensor(context, node, 2) : nullptr;
  if (bias != nullptr) {
    TF_LITE_ENSURE_TYPES_EQ(context, bias->type, input->type);
    TF_LITE_ENSURE_EQ(context, NumElements(bias), SizeOfDimension(filter, 4));
  }
  TF_LITE_ENSURE_STATUS(conv_util::CheckConv3DParams(context, params));

  Geometry& g = data->g;
  g.batches = input->dims->data[0];
  g.in_d = input->dims->data[1];
  g.in_h = input->dims->data[2];
  g.in_w = input->dims->data[3];
  g.in_c = input->dims->data[4];
  g.f_d = filter->dims->data[0];
  g.f_h = filter->dims->data[1];
  g.f_w = filter->dims->data[2];
  g.out_c = filter->dims->data[4];
  g.stride_d = params->stride_depth;
  g.stride_h = params->stride_height;
  g.stride_w = params->stride_width;
  g.dil_d = params->dilation_depth_factor;
  g.dil_h = params->dilation_height_factor;
  g.dil_w = params->dilation_width_factor;
  TF_LITE_ENSURE(context, FitsConvWindow(g.f_d, g.dil_d) && FitsConvWindow(g.f_h, g.dil_h) &&
                              FitsConvWindow(g.f_w, g.dil_w));
  ComputeOutSizeAndPadding(params->padding, g.in_d, g.f_d, g.stride_d, g.dil_d, &g.out_d, &g.pad_d);
  ComputeOutSizeAndPadding(params->padding, g.in_h, g.f_h, g.stride_h, g.dil_h, &g.out_h, &g.pad_h);
  ComputeOutSizeAndPadding(params->padding, g.in_w, g.f_w, g.stride_w, g.dil_w, &g.out_w, &g.pad_w);
  if (g.out_d <= 0 || g.out_h <= 0 || g.out_w <= 0) {
    TF_LITE_KERNEL_LOG(context,
                       "CONV_3D: the filter (%d x %d x %d, dilated) does not fit the %d x %d x %d "
                       "input with VALID padding.",
                       g.f_d, g.f_h, g.f_w, g.in_d, g.in_h, g.in_w);
    return kTfLiteError;
  }
  // The GEMM's sizes are ints (a crafted filter's depth or out_c must not wrap).
  TF_LITE_ENSURE(context, static_cast<int64_t>(g.f_d) * g.f_h * g.f_w * g.in_c <= INT32_MAX / 2);
  data->packed_valid = false;
  data->kernel = hybrid::FeedsQuantize(context, node->outputs->data[0])
                     ? gemm::GemmKernel::kTfliteMatMulOrder
                 : hybrid::GraphHasHybridNodes(context) ? gemm::GemmKernel::kTfliteGemmOrder
                                                        : gemm::GemmKernel::kAuto;

  PaddedInput& p = data->padded_geometry;
  auto extent = [](int in, int pad, int out, int stride, int f, int dil) {
    return std::max<int64_t>(int64_t{in} + pad,
                             (int64_t{out} - 1) * stride + (int64_t{f} - 1) * dil + 1);
  };
  const int64_t pd = extent(g.in_d, g.pad_d, g.out_d, g.stride_d, g.f_d, g.dil_d);
  const int64_t ph = extent(g.in_h, g.pad_h, g.out_h, g.stride_h, g.f_h, g.dil_h);
  const int64_t pw = extent(g.in_w, g.pad_w, g.out_w, g.stride_w, g.f_w, g.dil_w);
  // Where the padding is a small part of it (a crafted dilation must not make it huge).
  const double input_elements = static_cast<double>(g.batches) * g.in_d * g.in_h * g.in_w * g.in_c;
  data->use_padded =
      !g.pointwise() && g.dil_w == 1 &&
      static_cast<double>(g.batches) * pd * ph * pw * g.in_c <= 4.0 * input_elements + 65536;
  if (data->use_padded) {
    p.d = static_cast<int>(pd);
    p.h = static_cast<int>(ph);
    p.w = static_cast<int>(pw);
  }

  TfLiteIntArray* shape = TfLiteIntArrayCreate(5);
  shape->data[0] = g.batches;
  shape->data[1] = g.out_d;
  shape->data[2] = g.out_h;
  shape->data[3] = g.out_w;
  shape->data[4] = g.out_c;
  return context->ResizeTensor(context, output, shape);
}

// Rows [r0, r1) of the im2col matrix: row r is output voxel (b, od, oy, ox), its window as
// [fd][fh][fw][in_c], zeros outside the input. Without dilation along the row, the taps of
// a filter row inside the input are one span of it: one copy each (a copy a tap spent half
// the time of a video model's convolutions in memcpy calls).
void Im2ColRows(const Geometry& g, const float* input, size_t r0, size_t r1, float* dst) {
  const size_t c = static_cast<size_t>(g.in_c);
  const size_t row_c = static_cast<size_t>(g.f_w) * c;
  for (size_t r = r0; r < r1; ++r) {
    size_t v = r;
    const int ox = static_cast<int>(v % g.out_w);
    v /= g.out_w;
    const int oy = static_cast<int>(v % g.out_h);
    v /= g.out_h;
    const int od = static_cast<int>(v % g.out_d);
    const size_t b = v / g.out_d;
    const int ix0 = ox * g.stride_w - g.pad_w;
    float* cells = dst + (r - r0) * g.depth();
    for (int fd = 0; fd < g.f_d; ++fd) {
      const int id = od * g.stride_d - g.pad_d + fd * g.dil_d;
      for (int fy = 0; fy < g.f_h; ++fy, cells += row_c) {
        const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
        if (id < 0 || id >= g.in_d || iy < 0 || iy >= g.in_h) {
          std::fill(cells, cells + row_c, 0.0f);
          continue;
        }
        const float* line = input + ((b * g.in_d + id) * g.in_h + iy) * g.in_w * c;
        if (g.dil_w == 1) {
          const int lo = std::max(0, -ix0);
          const int hi = std::max(lo, std::min(g.f_w, g.in_w - ix0));
          std::fill(cells, cells + lo * c, 0.0f);
          std::copy(line + (ix0 + lo) * c, line + (ix0 + hi) * c, cells + lo * c);
          std::fill(cells + hi * c, cells + row_c, 0.0f);
          continue;
        }
        for (int fx = 0; fx < g.f_w; ++fx) {
          const int ix = ix0 + fx * g.dil_w;
          float* cell = cells + fx * c;
          if (ix < 0 || ix >= g.in_w) {
            std::fill(cell, cell + c, 0.0f);
          } else {
            std::copy(line + ix * c, line + (ix + 1) * c, cell);
          }
        }
      }
    }
  }
}

// The input at (pad_d, pad_h, pad_w) in a zeroed box of p's size.
void PadInput(const Geometry& g, const PaddedInput& p, const float* input, float* dst) {
  std::fill(dst, dst + p.elements(g), 0.0f);
  const size_t c = static_cast<size_t>(g.in_c);
  const size_t line = static_cast<size_t>(g.in_w) * c;
  for (int b = 0; b < g.batches; ++b) {
    for (int d = 0; d < g.in_d; ++d) {
      for (int y = 0; y < g.in_h; ++y) {
        const float* src = input + ((static_cast<size_t>(b) * g.in_d + d) * g.in_h + y) * line;
        float* to =
            dst +
            (((static_cast<size_t>(b) * p.d + d + g.pad_d) * p.h + y + g.pad_h) * p.w + g.pad_w) *
                c;
        std::copy(src, src + line, to);
      }
    }
  }
}

#if defined(__x86_64__) || defined(_M_X64)
// n floats, 16 a move, the last ones masked (the spans are short: 3 x 3 to 3 x 24 floats).
__attribute__((target("avx512f"))) void CopySpanAvx512(const float* src, size_t n, float* dst) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(dst + i, _mm512_loadu_ps(src + i));
  if (i < n) {
    const __mmask16 mask = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(dst + i, mask, _mm512_maskz_loadu_ps(mask, src + i));
  }
}
#endif

// Rows [r0, r1) of the im2col matrix from the padded input: per output voxel, f_d x f_h
// spans of f_w * in_c floats (no dilation along the row).
void Im2ColPaddedRows(const Geometry& g, const PaddedInput& p, const float* padded, size_t r0,
                      size_t r1, float* dst) {
  const size_t c = static_cast<size_t>(g.in_c);
  const size_t span = static_cast<size_t>(g.f_w) * c;
  const size_t row_step = static_cast<size_t>(p.w) * c;
  const size_t plane_step = static_cast<size_t>(p.h) * row_step;
#if defined(__x86_64__) || defined(_M_X64)
  static const bool avx512 = gemm::CpuHasAvx512F();
#endif
  for (size_t r = r0; r < r1; ++r) {
    size_t v = r;
    const size_t ox = v % g.out_w;
    v /= g.out_w;
    const size_t oy = v % g.out_h;
    v /= g.out_h;
    const size_t od = v % g.out_d;
    const size_t b = v / g.out_d;
    const float* origin = padded + (b * p.d + od * g.stride_d) * plane_step +
                          oy * g.stride_h * row_step + ox * g.stride_w * c;
    float* cells = dst + (r - r0) * g.depth();
    for (int fd = 0; fd < g.f_d; ++fd) {
      for (int fy = 0; fy < g.f_h; ++fy, cells += span) {
        const float* src = origin + fd * g.dil_d * plane_step + fy * g.dil_h * row_step;
#if defined(__x86_64__) || defined(_M_X64)
        if (avx512) {
          CopySpanAvx512(src, span, cells);
          continue;
        }
#endif
        std::copy(src, src + span, cells);
      }
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteConv3DParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias =
      NumInputs(node) == 3 ? GetOptionalInputTensor(context, node, 2) : nullptr;
  TfLiteTensor* output = GetOutput(context, node, 0);
  const Geometry& g = data->g;
  const int depth = g.depth(), n = g.out_c;
  if (!data->packed_valid) {
    data->packed.resize(gemm::PackedWeightsSize(n, depth));
    // The filter is [depth][out_c]: the GEMM's right-hand side as it is.
    gemm::PackFloatWeightsTransposed(filter->data.f, n, depth, data->packed.data());
    data->packed_valid = IsConstantOrPersistentTensor(filter);
  }
  const gemm::FloatOutputStage stage =
      conv_util::FloatStage(params->activation, bias != nullptr ? bias->data.f : nullptr);
  pthreadpool* pool = parallel::ThreadPool(context);
  const size_t rows = g.rows();
  float* out = output->data.f;
  const float* packed = data->packed.data();
  if (g.pointwise()) {
    gemm::FloatGemm(static_cast<int>(rows), n, depth, input->data.f, depth, packed, out, n, stage,
                    pool, data->kernel);
    return kTfLiteOk;
  }
  const PaddedInput& p = data->padded_geometry;
  if (data->use_padded) {
    data->padded.resize(p.elements(g));
    PadInput(g, p, input->data.f, data->padded.data());
  }
  conv_util::ChunkedIm2ColGemm(
      rows, depth, n, &data->im2col, pool,
      [&](size_t r0, size_t r1, float* buf) {
        if (data->use_padded) {
          Im2ColPaddedRows(g, p, data->padded.data(), r0, r1, buf);
        } else {
          Im2ColRows(g, input->data.f, r0, r1, buf);
        }
      },
      [&](size_t r0, size_t r1, const float* buf, size_t) {
        gemm::FloatGemm(static_cast<int>(r1 - r0), n, depth, buf, depth, packed, out + r0 * n, n,
                        stage, nullptr, data->kernel);
      });
  return kTfLiteOk;
}

}  // namespace
}  // namespace conv3d

TfLiteRegistration* Register_CONV_3D() {
  static TfLiteRegistration r = {conv3d::Init, conv3d::Free, conv3d::Prepare, conv3d::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
