// Winograd F(2x2, 3x3) float convolution (winograd_f32.h).
#include "kernels/internal/winograd_f32.h"

#include <algorithm>
#include <cstring>

#include "kernels/internal/avx2_lanes.h"
#include "kernels/internal/direct_conv_f32.h"
#include "kernels/internal/parallel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_WINOGRAD_X86 1
#endif

namespace tflite {
namespace winograd {
namespace {

constexpr int kPositions = 16;  // the 4 x 4 transformed tile
// A block's V and M (16 x tiles x (in_c + out_c) floats) kept to about L2's size.
constexpr size_t kBlockBytes = 768 * 1024;
constexpr int kMinBlockTiles = 24;  // two of the GEMM's 12-row tiles

struct Tiles {
  int th, tw;  // tiles per image: rows, columns
  size_t count;
};

Tiles TilesOf(const conv_util::ConvGeometry& g) {
  Tiles t;
  t.th = (g.out_h + 1) / 2;
  t.tw = (g.out_w + 1) / 2;
  t.count = static_cast<size_t>(g.batches) * t.th * t.tw;
  return t;
}

// The 16 input pixels of tile t (4 x 4 from (2 ty - pad_h, 2 tx - pad_w)): `zeros` (in_c
// zero floats) outside the image.
void TilePixels(const conv_util::ConvGeometry& g, const Tiles& tiles, size_t t, const float* input,
                const float* zeros, const float* p[16]) {
  const size_t per_image = static_cast<size_t>(tiles.th) * tiles.tw;
  const size_t b = t / per_image;
  const int ty = static_cast<int>(t % per_image / tiles.tw), tx = static_cast<int>(t % tiles.tw);
  const int y0 = 2 * ty - g.pad_h, x0 = 2 * tx - g.pad_w;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      const int y = y0 + i, x = x0 + j;
      p[i * 4 + j] = y < 0 || y >= g.in_h || x < 0 || x >= g.in_w
                         ? zeros
                         : input + ((b * g.in_h + y) * g.in_w + x) * static_cast<size_t>(g.in_c);
    }
  }
}

// The output pixels of tile t: out[r * 2 + c] the pixel index of (2 ty + r, 2 tx + c), or
// -1 outside the output.
void TileOutputs(const conv_util::ConvGeometry& g, const Tiles& tiles, size_t t, int64_t out[4]) {
  const size_t per_image = static_cast<size_t>(tiles.th) * tiles.tw;
  const size_t b = t / per_image;
  const int ty = static_cast<int>(t % per_image / tiles.tw), tx = static_cast<int>(t % tiles.tw);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 2; ++c) {
      const int y = 2 * ty + r, x = 2 * tx + c;
      out[r * 2 + c] = y < g.out_h && x < g.out_w
                           ? static_cast<int64_t>((b * g.out_h + y) * g.out_w + x)
                           : -1;
    }
  }
}

// V = B^T d B of one tile, channels [0, n): v[xi * v_stride + c].
void InputTransformScalar(const float* const p[16], int n, float* v, size_t v_stride) {
  for (int c = 0; c < n; ++c) {
    float d[4][4], t[4][4];
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) d[i][j] = p[i * 4 + j][c];
    }
    for (int j = 0; j < 4; ++j) {
      t[0][j] = d[0][j] - d[2][j];
      t[1][j] = d[1][j] + d[2][j];
      t[2][j] = d[2][j] - d[1][j];
      t[3][j] = d[1][j] - d[3][j];
    }
    for (int i = 0; i < 4; ++i) {
      v[(i * 4 + 0) * v_stride + c] = t[i][0] - t[i][2];
      v[(i * 4 + 1) * v_stride + c] = t[i][1] + t[i][2];
      v[(i * 4 + 2) * v_stride + c] = t[i][2] - t[i][1];
      v[(i * 4 + 3) * v_stride + c] = t[i][1] - t[i][3];
    }
  }
}

// y = A^T m A of one tile, columns [0, n) (m[xi * m_stride + o]), + bias, clamped; the
// pixels with out[q] >= 0 stored at output + out[q] * ldc.
void OutputTransformScalar(const float* m, size_t m_stride, int n, const float* bias, float lo,
                           float hi, const int64_t out[4], float* output, size_t ldc) {
  for (int o = 0; o < n; ++o) {
    float s[2][4];
    for (int j = 0; j < 4; ++j) {
      const float m0 = m[(0 * 4 + j) * m_stride + o], m1 = m[(1 * 4 + j) * m_stride + o];
      const float m2 = m[(2 * 4 + j) * m_stride + o], m3 = m[(3 * 4 + j) * m_stride + o];
      s[0][j] = m0 + m1 + m2;
      s[1][j] = m1 - m2 - m3;
    }
    const float b = bias != nullptr ? bias[o] : 0.0f;
    for (int r = 0; r < 2; ++r) {
      const float y[2] = {s[r][0] + s[r][1] + s[r][2], s[r][1] - s[r][2] - s[r][3]};
      for (int c = 0; c < 2; ++c) {
        if (out[r * 2 + c] < 0) continue;
        output[out[r * 2 + c] * ldc + o] = std::min(std::max(y[c] + b, lo), hi);
      }
    }
  }
}

#ifdef TFI_WINOGRAD_X86
// Each instruction set's transforms compiled for it by a target region around its
// namespace, as depthwise_f32.cc does.
namespace avx512 {
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f")
#endif
using V = __m512;
using M = __mmask16;
constexpr int kLanes = 16;
inline M Mask(int n) { return n >= 16 ? M{0xFFFF} : static_cast<M>((1u << n) - 1); }
inline V Load(M k, const float* p) { return _mm512_maskz_loadu_ps(k, p); }
inline void Store(float* p, M k, V v) { _mm512_mask_storeu_ps(p, k, v); }
inline V Add(V a, V b) { return _mm512_add_ps(a, b); }
inline V Sub(V a, V b) { return _mm512_sub_ps(a, b); }
inline V Clamp(V v, V lo, V hi) { return _mm512_min_ps(hi, _mm512_max_ps(lo, v)); }
inline V Set(float x) { return _mm512_set1_ps(x); }
#include "kernels/internal/winograd_f32_lanes.inc"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
}  // namespace avx512

namespace avx2 {
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
using V = __m256;
using M = __m256i;
constexpr int kLanes = 8;
inline M Mask(int n) { return FirstLanesAvx2(n); }
inline V Load(M k, const float* p) { return _mm256_maskload_ps(p, k); }
inline void Store(float* p, M k, V v) { _mm256_maskstore_ps(p, k, v); }
inline V Add(V a, V b) { return _mm256_add_ps(a, b); }
inline V Sub(V a, V b) { return _mm256_sub_ps(a, b); }
inline V Clamp(V v, V lo, V hi) { return _mm256_min_ps(hi, _mm256_max_ps(lo, v)); }
inline V Set(float x) { return _mm256_set1_ps(x); }
#include "kernels/internal/winograd_f32_lanes.inc"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
}  // namespace avx2
#endif

}  // namespace

bool Applies(const conv_util::ConvGeometry& g) {
  // On AVX2 alone the direct kernel takes windows of one k block without an im2col copy
  // (direct_conv_f32.h); against it the transforms pay from 2,048 channel pairs (one thread,
  // an AVX2-only EPYC: 32 -> 32 and 16 -> 64 on 64 x 64 images 1.07-1.12x slower by
  // Winograd, 32 -> 64 on 32 x 32 1.24x and 32 -> 128 1.31x faster).
  const int min_pairs =
      !gemm::CpuHasAvx512F() && conv_util::DirectFloatConvApplies(g, gemm::GemmKernel::kAuto)
          ? 2048
          : 1024;
  return g.f_h == 3 && g.f_w == 3 && g.stride_h == 1 && g.stride_w == 1 && g.dil_h == 1 &&
         g.dil_w == 1 && g.groups == 1 && g.in_c >= 16 && g.out_c >= 16 &&
         g.in_c * g.out_c >= min_pairs && g.out_h >= 1 && g.out_w >= 1 && g.pad_h >= 0 &&
         g.pad_w >= 0 && g.pad_h <= 2 && g.pad_w <= 2 &&
         (gemm::CpuHasAvx512F() || gemm::CpuHasAvx2Fma());
}

void PackWeights(const float* filter, int out_c, int in_c, Weights* w) {
  w->in_c = in_c;
  w->out_c = out_c;
  w->stride = gemm::PackedWeightsSize(out_c, in_c);
  w->packed.assign(kPositions * w->stride, 0.0f);
  std::vector<float> u(static_cast<size_t>(kPositions) * out_c * in_c);
  const size_t plane = static_cast<size_t>(out_c) * in_c;
  for (int o = 0; o < out_c; ++o) {
    for (int c = 0; c < in_c; ++c) {
      // U = G g G^T, G = [[1, 0, 0], [1/2, 1/2, 1/2], [1/2, -1/2, 1/2], [0, 0, 1]], in
      // double and rounded once.
      double gg[4][3];
      for (int kx = 0; kx < 3; ++kx) {
        const double g0 = filter[((static_cast<size_t>(o) * 3 + 0) * 3 + kx) * in_c + c];
        const double g1 = filter[((static_cast<size_t>(o) * 3 + 1) * 3 + kx) * in_c + c];
        const double g2 = filter[((static_cast<size_t>(o) * 3 + 2) * 3 + kx) * in_c + c];
        gg[0][kx] = g0;
        gg[1][kx] = (g0 + g1 + g2) / 2;
        gg[2][kx] = (g0 - g1 + g2) / 2;
        gg[3][kx] = g2;
      }
      for (int i = 0; i < 4; ++i) {
        const double r[4] = {gg[i][0], (gg[i][0] + gg[i][1] + gg[i][2]) / 2,
                             (gg[i][0] - gg[i][1] + gg[i][2]) / 2, gg[i][2]};
        for (int j = 0; j < 4; ++j) {
          u[(i * 4 + j) * plane + static_cast<size_t>(o) * in_c + c] = static_cast<float>(r[j]);
        }
      }
    }
  }
  for (int xi = 0; xi < kPositions; ++xi) {
    gemm::PackFloatWeights(u.data() + xi * plane, out_c, in_c, w->packed.data() + xi * w->stride);
  }
}

void Conv(const conv_util::ConvGeometry& g, const float* input, const Weights& w,
          const gemm::FloatOutputStage& stage, float* output, std::vector<float>* scratch,
          pthreadpool* pool) {
  const Tiles tiles = TilesOf(g);
  const int ic = g.in_c, oc = g.out_c;
  const size_t per_tile = static_cast<size_t>(kPositions) * (ic + oc);
  size_t block = std::max<size_t>(kMinBlockTiles, kBlockBytes / (per_tile * sizeof(float)));
  // With threads: a multiple of the thread count of equal blocks, at least two a thread,
  // where the tiles allow blocks of the minimum (11 blocks over two threads left one of
  // them idle a twelfth of the time); else one block at a time, the GEMMs splitting their
  // columns over the pool.
  const size_t threads = parallel::NumThreads(pool);
  bool inner = false;
  block = std::min(block, tiles.count);
  size_t blocks = (tiles.count + block - 1) / block;
  if (threads > 1) {
    if (tiles.count >= 2 * threads * kMinBlockTiles) {
      blocks = (std::max(blocks, 2 * threads) + threads - 1) / threads * threads;
      block = (tiles.count + blocks - 1) / blocks;
      blocks = (tiles.count + block - 1) / block;
    } else {
      inner = true;
    }
  }
  const size_t tasks = inner ? 1 : std::min(blocks, threads);
  // Per task: V, M, and a row of zeros (the padding's pixels).
  const size_t slice = block * per_tile + ic;
  if (scratch->size() < tasks * slice) scratch->resize(tasks * slice);
#ifdef TFI_WINOGRAD_X86
  const bool avx512 = gemm::CpuHasAvx512F(), avx2 = gemm::CpuHasAvx2Fma();
#endif
  auto run_block = [&](size_t t0, size_t t1, float* buf, pthreadpool* gemm_pool) {
    const size_t count = t1 - t0;
    float* v = buf;
    float* m = buf + block * kPositions * ic;
    const float* zeros = buf + block * per_tile;
    const size_t v_stride = count * ic, m_stride = count * oc;
    for (size_t t = t0; t < t1; ++t) {
      const float* p[16];
      TilePixels(g, tiles, t, input, zeros, p);
      float* vt = v + (t - t0) * ic;
#ifdef TFI_WINOGRAD_X86
      if (avx512) {
        avx512::InputTransform(p, ic, vt, v_stride);
        continue;
      }
      if (avx2) {
        avx2::InputTransform(p, ic, vt, v_stride);
        continue;
      }
#endif
      InputTransformScalar(p, ic, vt, v_stride);
    }
    for (int xi = 0; xi < kPositions; ++xi) {
      gemm::FloatGemm(static_cast<int>(count), oc, ic, v + xi * v_stride, ic,
                      w.packed.data() + xi * w.stride, m + xi * m_stride, oc,
                      gemm::FloatOutputStage(), gemm_pool);
    }
    for (size_t t = t0; t < t1; ++t) {
      int64_t out[4];
      TileOutputs(g, tiles, t, out);
      const float* mt = m + (t - t0) * oc;
#ifdef TFI_WINOGRAD_X86
      if (avx512) {
        avx512::OutputTransform(mt, m_stride, oc, stage.bias, stage.min, stage.max, out, output,
                                oc);
      } else if (avx2) {
        avx2::OutputTransform(mt, m_stride, oc, stage.bias, stage.min, stage.max, out, output, oc);
      } else {
        OutputTransformScalar(mt, m_stride, oc, stage.bias, stage.min, stage.max, out, output, oc);
      }
#else
      OutputTransformScalar(mt, m_stride, oc, stage.bias, stage.min, stage.max, out, output, oc);
#endif
      if (stage.HasEpilogue()) {
        for (int64_t q : out) {
          if (q >= 0) {
            gemm::FinishBlock(stage, output, oc, static_cast<int>(q), static_cast<int>(q) + 1, 0,
                              oc);
          }
        }
      }
    }
  };
  if (inner) {
    std::fill(scratch->begin() + block * per_tile, scratch->begin() + slice, 0.0f);
    for (size_t b = 0; b < blocks; ++b) {
      run_block(b * block, std::min(tiles.count, (b + 1) * block), scratch->data(), pool);
    }
    return;
  }
  const double work = static_cast<double>(tiles.count) * kPositions * ic * oc;
  parallel::ParallelFor(pool, tasks, work, [&](size_t task) {
    float* buf = scratch->data() + task * slice;
    std::fill(buf + block * per_tile, buf + slice, 0.0f);
    for (size_t b = blocks * task / tasks; b < blocks * (task + 1) / tasks; ++b) {
      run_block(b * block, std::min(tiles.count, (b + 1) * block), buf, nullptr);
    }
  });
}

}  // namespace winograd
}  // namespace tflite
