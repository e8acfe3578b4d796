// Packed, cache-blocked GEMM for the convolution family (CONV_2D, FULLY_CONNECTED,
// BATCH_MATMUL, TRANSPOSE_CONV), their hybrid variants (raw int32 sums, Int32Gemm) and
// int16 x int16 BATCH_MATMUL (raw int64 sums of byte splits, Int64Gemm).
//
//   C[m][n] = output_stage(sum_k A[m][k] * B[k][n])
//
// A is row-major (lda >= k) and is read in place (im2col rows, FC input rows). B is the
// weights matrix given as weights[n][k] (TFLite's filter layout: output channel major),
// packed once with Pack*Weights into panels of kGemmNr columns so the micro-kernel
// streams it contiguously; zero-padded to a multiple of kGemmNr columns. (Float B with
// n <= 4 columns is kept unpacked, and FloatGemm uses row dot products for it.)
//
// Float: a register-blocked micro-kernel (12 x 32, two panels at once, with AVX-512F, and
// 8 x 16 for a last odd panel; 6 x 16 with AVX2+FMA,
// chosen at run time with __builtin_cpu_supports; a portable GCC vector-extension kernel
// otherwise),
// blocked over k (kc) and over m (row blocks shared by threads). Quantized: int16
// operands (8-bit values with their zero points already folded in), int32 accumulators
// (AVX2 vpmaddwd when the CPU has it) and TFLite's per-channel requantization, so results
// are bit-exact with TFLite's reference kernels; int16 activations with int64
// accumulation use the same micro-kernels (QuantizedGemm16x8).
//
// Threading: work is split over blocks of rows and columns on `pool` (nullptr, a
// one-thread pool or under ~1M multiply-adds runs inline). The functions only read A and packed B and write
// disjoint parts of C; they never fail and allocate nothing.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GEMM_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GEMM_H_

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

struct pthreadpool;

namespace tflite {
namespace gemm {

// Columns per packed panel of B.
constexpr int kGemmNr = 16;
// Up to this many columns, FloatGemm uses dot products over the unpacked weights instead
// of 16-column panels (which would be mostly zero padding), e.g. a conv to 1 channel: the
// packed float weights are then plain [n][k].
constexpr int kGemmSmallN = 4;

// Elements a packed B of n columns and depth k needs.
inline size_t PackedWeightsSize(int n, int k) {
  return static_cast<size_t>((n + kGemmNr - 1) / kGemmNr) * kGemmNr * static_cast<size_t>(k);
}

// Elements a packed int16 B needs (k rounded up to even: pairs of k are interleaved).
inline size_t PackedQuantizedWeightsSize(int n, int k) {
  return static_cast<size_t>((n + kGemmNr - 1) / kGemmNr) * kGemmNr *
         static_cast<size_t>(k + (k & 1));
}

// Packs weights[n][k] (row stride k) into `packed` (PackedWeightsSize(n, k) elements).
void PackFloatWeights(const float* weights, int n, int k, float* packed);
// The same packed weights from weights_kn[k][n] (row stride n): BATCH_MATMUL's right-hand
// side without adj_y, packed without transposing it first.
void PackFloatWeightsTransposed(const float* weights_kn, int n, int k, float* packed);
// The same from weights[col * n_stride + kk * k_stride]: a right-hand side read through a
// transpose that was never formed (the XNNPACK delegate's BATCH_MATMUL).
void PackFloatWeightsStrided(const float* weights, int n, int k, int64_t n_stride,
                             int64_t k_stride, float* packed);
// Packs 8-bit weights with `zero_point` subtracted (w - zero_point fits int16) into
// PackedQuantizedWeightsSize(n, k) elements.
void PackInt8Weights(const int8_t* weights, int n, int k, int32_t zero_point, int16_t* packed);
void PackUint8Weights(const uint8_t* weights, int n, int k, int32_t zero_point, int16_t* packed);
// Packs int16 weights already in [-255, 255] (e.g. the bytes of wider values), as they are.
void PackInt16Weights(const int16_t* weights, int n, int k, int16_t* packed);

// kAuto: the fastest micro-kernel the CPU supports (AVX-512F, AVX2 + FMA, NEON on AArch64:
// for float, all one fused multiply-add per k, k ascending, so the same bits on x86 and
// ARM); kPortable: the generic one (tests);
// kAvx2: the AVX2(+FMA) kernels even where AVX-512F is there (tests; as kAuto where the
// CPU lacks AVX2). Float only, the bits of TFLite's builtin kernels on x86, slower than
// kAuto (no fused multiply-add; for kernels whose results dynamic-range layers quantize):
// kTfliteMatMulOrder: BATCH_MATMUL's (ruy's portable path): k ascending from 0, each
// product rounded and then added; kTfliteGemmOrder: CONV_2D's and FULLY_CONNECTED's
// (Eigen for SSE, without FMA): the same for output channels below n & ~7, Eigen's other
// orders for the rest and for m or n of 1 (gemm.cc: TfliteOrderTail).
enum class GemmKernel { kAuto, kPortable, kAvx2, kTfliteMatMulOrder, kTfliteGemmOrder };

struct FloatOutputStage {
  const float* bias = nullptr;   // n values or nullptr
  float min = -3.40282347e+38f;  // fused activation clamp
  float max = 3.40282347e+38f;
  // A residual ADD after the layer, where `residual` is set: then
  // c[i][j] = clamp(c[i][j] + r, residual_min, residual_max) with r = residual[i *
  // residual_ld + j] for j < residual_n and 0.0f beyond (a zero channel PAD of the value
  // added), the bits of the separate ADD (its fused activation, or a RELU after it, as the
  // clamp). FloatGemm adds it to each block of C while the block is in cache.
  const float* residual = nullptr;
  int64_t residual_ld = 0;
  int residual_n = 0;
  float residual_min = -3.40282347e+38f;
  float residual_max = 3.40282347e+38f;
  // Then, where set (n slopes), a PRELU after the sum: c < 0 ? c * residual_prelu[j] : c.
  const float* residual_prelu = nullptr;
  // Then, where set, a swish (LOGISTIC and a MUL by it, as converted): c = c * sigmoid(c)
  // with vector_math's (float graphs only: not TFLite's builtin bits), while the block is in
  // cache, where a separate pass would read and write the whole tensor again.
  bool swish = false;

  // Whether FinishBlock has work: a residual ADD or a swish.
  bool HasEpilogue() const { return residual != nullptr || swish; }

  // This stage for the rows of C from `row` on (a call on a part of the rows).
  FloatOutputStage FromRow(size_t row) const {
    FloatOutputStage s = *this;
    if (s.residual != nullptr) s.residual += static_cast<int64_t>(row) * residual_ld;
    return s;
  }
};

// The stage's work after the tiles (above: the residual ADD, then the swish) on rows
// [i0, i1) and columns [j0, j1) of C; nothing where it has none. FloatGemm calls it itself;
// for callers that fill C some other way.
void FinishBlock(const FloatOutputStage& stage, float* c, int ldc, int i0, int i1, int j0, int j1);

// kc: the k block of the blocked tiles (0: the default for k; FloatImageKc's for a
// convolution's gathered windows, to have FloatGemmImage's sums).
void FloatGemm(int m, int n, int k, const float* a, int lda, const float* packed_b, float* c,
               int ldc, const FloatOutputStage& stage, pthreadpool* pool,
               GemmKernel kernel = GemmKernel::kAuto, int kc = 0);

// acc = sum_k a*b (+ bias[n]); out = clamp(MultiplyByQuantizedMultiplier(acc,
// multiplier[n], shift[n]) + output_offset, act_min, act_max), as TFLite's reference
// integer kernels compute it.
struct QuantizedOutputStage {
  const int32_t* bias = nullptr;        // n values or nullptr
  const int32_t* multiplier = nullptr;  // n values
  const int32_t* shift = nullptr;       // n values (TFLite sign: > 0 is a left shift)
  int32_t output_offset = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
  // One rounding instead of MultiplyByQuantizedMultiplier (see Quantized16x8OutputStage).
  bool single_rounding = false;
  // DotGemm only (n values): XNNPACK's fp32 requantization instead, out =
  // clamp(round_half_even(float(acc) * float_scale[n]) + output_offset), the clamp taken in
  // float before rounding as XNNPACK does; multiplier and shift are then not read. For the
  // XNNPACK delegate's own steps, whose bytes should be TFLite's XNNPACK's.
  const float* float_scale = nullptr;
};

void QuantizedGemm(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                   int8_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
                   GemmKernel kernel = GemmKernel::kAuto);
void QuantizedGemm(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                   uint8_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
                   GemmKernel kernel = GemmKernel::kAuto);
// int16 output: FULLY_CONNECTED's uint8 x uint8 -> int16 variant (output_offset 0), and
// 16x8 kernels with an int32 bias (int16 A as it is, int32 sums as the reference's
// AccumScalar = int32_t templates).
void QuantizedGemm(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                   int16_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
                   GemmKernel kernel = GemmKernel::kAuto);

// 16x8 (int16 activations, 8-bit weights): A holds int16 activations as they are, B the
// packed weights minus their zero point. acc = sum_k a*b (+ bias[n]) is exact in int64
// (int32 partial sums over blocks of k that cannot overflow), and out =
// clamp(MultiplyByQuantizedMultiplier(int64 acc, multiplier[n], shift[n]), act_min,
// act_max) with no output offset: TFLite's reference ConvPerChannel / FullyConnected for
// int16 activations with int64 bias.
struct Quantized16x8OutputStage {
  const int64_t* bias = nullptr;        // n values or nullptr
  const int32_t* multiplier = nullptr;  // n values
  const int32_t* shift = nullptr;       // n values (TFLite sign: > 0 is a left shift)
  int32_t act_min = -32768;
  int32_t act_max = 32767;
  // Instead of the 64-bit MultiplyByQuantizedMultiplier (15-bit multiplier): one rounding
  // of acc * multiplier / 2^(31 - shift), halves up, with the full 31-bit multiplier, as
  // TFLite's FULLY_CONNECTED reference requantizes (matched on testdata/kernels).
  bool single_rounding = false;
};

// acc * multiplier / 2^(31 - shift) rounded once (halves towards +infinity), exact; the
// result wraps to 64 bits as the 128-bit expression's cast would. shift is in [-31, 30].
// With 64-bit words only (32-bit ARM has no __int128): the 95-bit product is kept as
// high * 2^32 + low with 0 <= low < 2^32, so every partial product fits in int64.
inline int64_t SingleRoundingMultiplyPortable(int64_t acc, int32_t multiplier, int shift) {
  const int total_shift = 31 - shift;  // 1..62
  const uint64_t mask = 0xFFFFFFFFu;
  const int64_t acc_high = acc >> 32;  // floor, |acc_high| <= 2^31
  const int64_t acc_low = static_cast<int64_t>(static_cast<uint64_t>(acc) & mask);
  const int64_t low_product = acc_low * multiplier;  // |.| < 2^63
  int64_t high = acc_high * multiplier + (low_product >> 32);
  uint64_t low = static_cast<uint64_t>(low_product) & mask;
  // Add the rounding half, 2^(total_shift - 1), to whichever word holds its bit.
  if (total_shift - 1 < 32) {
    low += uint64_t{1} << (total_shift - 1);
    high += static_cast<int64_t>(low >> 32);
    low &= mask;
  } else {
    high += int64_t{1} << (total_shift - 1 - 32);
  }
  if (total_shift <= 32) {
    return static_cast<int64_t>((static_cast<uint64_t>(high) << (32 - total_shift)) +
                                (low >> total_shift));
  }
  return high >> (total_shift - 32);
}

inline int64_t SingleRoundingMultiply(int64_t acc, int32_t multiplier, int shift) {
#if defined(__SIZEOF_INT128__)
  const int total_shift = 31 - shift;
  const __int128 product = static_cast<__int128>(acc) * multiplier;
  return static_cast<int64_t>((product + (static_cast<__int128>(1) << (total_shift - 1))) >>
                              total_shift);
#else
  return SingleRoundingMultiplyPortable(acc, multiplier, shift);
#endif
}

void QuantizedGemm16x8(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                       int16_t* c, int ldc, const Quantized16x8OutputStage& stage,
                       pthreadpool* pool, GemmKernel kernel = GemmKernel::kAuto);

// Raw int32 sums, no output stage: c[i][j] = sum_k a[i][k] * b[k][j] (wrapping in int32
// as the reference's int32 accumulators would). For the hybrid kernels (float input
// quantized to int8 on the fly), which rescale each sum in float themselves; with 8-bit
// values in A and B the sums equal TFLite's int32 dot products exactly.
void Int32Gemm(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b, int32_t* c,
               int ldc, pthreadpool* pool, GemmKernel kernel = GemmKernel::kAuto);

// Raw int64 sums, exact: c[i][j] = sum_k a[i][k] * b[k][j] for any int16 A and B values
// in [-255, 255] (int32 partial sums over blocks of k, as QuantizedGemm16x8). Wider B
// (int16 x int16) splits each weight into its high byte (signed) and low byte (unsigned),
// packed as two columns: sum a*w = 256 * sum a*hi + sum a*lo.
void Int64Gemm(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b, int64_t* c,
               int ldc, pthreadpool* pool, GemmKernel kernel = GemmKernel::kAuto);

// Name of the float micro-kernel in use ("avx512f_8x16", "avx2_fma_6x16" or
// "generic_3x16").
const char* FloatKernelName();

// Whether this x86 CPU has AVX2 (and FMA) / AVX-512F, probed once with __builtin_cpu_supports;
// false elsewhere. For kernels that pick an AVX2 build of their loops at run time.
bool CpuHasAvx2();
bool CpuHasAvx2Fma();
bool CpuHasAvx512F();
bool CpuHasAvx512Bw();  // and AVX-512BW (byte and word operations on 512 bits)
// An AMD x86 CPU (its AVX-512, on Zen 4, runs 512-bit operations on 256-bit units: which
// GEMM tile is the faster differs from Intel's; xnnpack/conv_f32.cc).
bool CpuIsAmd();
// AVX-512 VNNI (with AVX-512BW) / AVX-VNNI (256-bit) / AMX-INT8 (with AVX-512 VNNI, and
// the Linux kernel's permission to use the tile data, asked for once): the dot-product
// GEMM's tiles.
bool CpuHasAvx512Vnni();
bool CpuHasAvxVnni();
bool CpuHasAmxInt8();
// AArch64's 8-bit dot products (SDOT / UDOT, FEAT_DotProd; Linux's HWCAP_ASIMDDP); false
// elsewhere.
bool CpuHasNeonDot();
// All of these are probed once; the environment variable TFI_KERNEL_ISA (portable, avx2,
// avxvnni, avx512, avx512vnni) caps them, so that one machine runs the kernels other CPUs
// would (tests, benchmarks, the fuzzer's series).

// --- 8-bit dot-product GEMM (gemm_dot.cc) ------------------------------------------------
//
// For int8 weights with 8-bit activations on CPUs with dot-product instructions (x86
// VNNI: vpdpbusd sums four uint8 x int8 products into an int32 lane, 4x the
// multiply-adds of vpmaddwd per instruction; AArch64 SDOT: four int8 x int8). A holds activations as uint8: int8 values
// plus 128 (DotInput), uint8 values as they are. With a_zero the activations' zero point
// in that domain, sum_k (a - a_zero) * w = sum_k a * w - a_zero * sum_k w: the weights'
// column sums fold into the bias (DotBias), so acc is the reference's int32 sum exactly
// (modulo 2^32, as the reference's own wrapping) and the output stage is QuantizedGemm's:
// bit-exact with TFLite's reference kernels.
//
// B is packed per 16-column panel in groups of 4 k: panel[(kk / 4) * 64 + j * 4 + kk % 4],
// k rounded up to DotPanelDepth(k) and zero-filled. Each row of A must have DotDepth(k)
// readable bytes (those past k are multiplied by B's zeros: any value). On AArch64 the
// panels are followed by 128 * each column's weight sum (int32, wrapping; the SDOT
// tile's starting sums, see gemm_dot.cc), which PackedDotWeightsSize counts.

inline int DotDepth(int k) { return (k + 3) & ~3; }

// Storage aligned to a cache line, for packed weights: an AMX tile load whose 64-byte rows
// straddle two lines runs about 4x slower than an aligned one (a 2x2-tile loop: 0.9
// against 2.6 T multiply-adds a second on the AMX CPU of docs/performance.md), and malloc
// aligns to 16 bytes only.
template <typename T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlign{64};
  CacheLineAllocator() = default;
  template <typename U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}  // NOLINT: allocator conversion
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlign)); }
  void deallocate(T* p, size_t) { ::operator delete(p, kAlign); }
  template <typename U>
  bool operator==(const CacheLineAllocator<U>&) const { return true; }
  template <typename U>
  bool operator!=(const CacheLineAllocator<U>&) const { return false; }
};
template <typename T>
using CacheLineVector = std::vector<T, CacheLineAllocator<T>>;
// k rounded up to a multiple of 4, or of 64 where the CPU has AMX (whose weight tiles
// take 64 k at a time); the same for every kernel in a process.
int DotPanelDepth(int k);
inline size_t PackedDotWeightsSize(int n, int k) {
  const size_t columns = static_cast<size_t>((n + kGemmNr - 1) / kGemmNr) * kGemmNr;
#if defined(__aarch64__)
  return columns * (static_cast<size_t>(DotPanelDepth(k)) + sizeof(int32_t));
#else
  return columns * static_cast<size_t>(DotPanelDepth(k));
#endif
}
// Packs weights[n][k] (row stride k) and writes col_sums[n] = sum_k weights[j][k].
void PackDotWeights(const int8_t* weights, int n, int k, int8_t* packed, int32_t* col_sums);
// out[j] = (bias ? bias[j] : 0) - a_zero * col_sums[j], wrapping in int32.
void DotBias(const int32_t* bias, const int32_t* col_sums, int n, int32_t a_zero, int32_t* out);
// v + 128 as uint8: an int8 activation in the dot GEMM's domain.
inline uint8_t DotByte(int8_t v) { return static_cast<uint8_t>(static_cast<uint8_t>(v) ^ 0x80u); }
// dst[i] = DotByte(src[i]).
void DotInput(const int8_t* src, size_t count, uint8_t* dst);

// kAuto: AMX for 16 rows or more and k from kDotAmxMinDepth, else AVX-512
// VNNI, else AVX-VNNI; on AArch64 SDOT; else on AVX2 sums of int16 halves with vpmaddwd
// (kAvx2: about QuantizedGemm's speed without its int16 copy of A), else the portable
// loop (tests, other CPUs). DotGemmWanted says when to choose this GEMM over
// QuantizedGemm: only with dot-product instructions.
enum class DotKernel { kAuto, kPortable, kAvxVnni, kAvx512Vnni, kAmx, kNeonDot, kAvx2 };
constexpr int kDotAmxMinDepth = 61;
// Whether the CPU has a dot-product tile (what the callers check before choosing
// DotGemm over QuantizedGemm; DotGemm itself runs fast on AVX2 too).
bool DotGemmWanted();
const char* DotKernelName(DotKernel kernel = DotKernel::kAuto);

// c = output_stage(sum_k a * b); stage.bias must be DotBias's (or nullptr when a_zero
// and the bias are 0). A tile the CPU lacks runs as kAuto.
void DotGemm(int m, int n, int k, const uint8_t* a, int lda, const int8_t* packed_b, int8_t* c,
             int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
             DotKernel kernel = DotKernel::kAuto);
// Whether DotGemmSigned and DotGemmHybrid take an m x n x k product (kAuto runs it on AMX).
bool DotGemmOnAmx(int m, int n, int k);
// DotGemm on int8 activations as they are (not yet DotInput's + 128): where the kernel
// copies A into its tiles anyway (AMX, which kAuto picks for this shape) it converts on
// that copy, saving a pass over A, and this returns true; else false, nothing done (the
// caller converts and calls DotGemm). Each row of A must have k readable bytes.
bool DotGemmSigned(int m, int n, int k, const int8_t* a, int lda, const int8_t* packed_b,
                   int8_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool);
// Rows of A made on demand (a convolution's im2col rows): fill(ctx, r0, rows, dst, stride)
// writes rows [r0, r0 + rows) of A, already in the dot GEMM's uint8 domain (DotInput's), to
// dst, `stride` bytes apart; bytes past k in a row may hold any value.
struct DotRows {
  void (*fill)(const void* ctx, size_t r0, int rows, uint8_t* dst, size_t stride);
  const void* ctx;
};
// DotGemm with A from `rows`, written straight into the AMX tiles' row copy (no im2col
// matrix, no second copy), where kAuto runs this shape on AMX (DotGemmOnAmx): returns
// true; else false, nothing done.
bool DotGemmGathered(int m, int n, int k, const DotRows& rows, const int8_t* packed_b, int8_t* c,
                     int ldc, const QuantizedOutputStage& stage, pthreadpool* pool);
// A's rows as windows read in place in an image (a convolution's, padded so that every
// window lies inside it: conv_util::PadDotImage, PadInt16Image): row r is output pixel (b,
// oy, ox) of out_h x out_w ones, at base + b * image + oy * line + ox * pixel (in values of
// T), and its k values are spans.count spans of k / count (a filter row each; a multiple of
// 4 for the dot tiles, of 2 for the int16 tiles where count > 1), span t at t *
// spans.stride from the row's start. No im2col rows.
struct DotSpans {
  int count = 1;
  size_t stride = 0;
};
template <typename T>
struct ImageWindows {
  const T* base = nullptr;
  int out_h = 1, out_w = 1;
  size_t pixel = 0, line = 0, image = 0;
  DotSpans spans;
  // The row pointers of rows [r0, r1), to out.
  void Rows(size_t r0, size_t r1, const T** out) const {
    const size_t per_image = static_cast<size_t>(out_h) * out_w;
    size_t b = r0 / per_image, oy = r0 % per_image / out_w, ox = r0 % out_w;
    const T* line_start = base + b * image + oy * line;
    for (size_t r = r0; r < r1; ++r) {
      *out++ = line_start + ox * pixel;
      if (++ox == static_cast<size_t>(out_w)) {
        ox = 0;
        if (++oy == static_cast<size_t>(out_h)) {
          oy = 0;
          ++b;
        }
        line_start = base + b * image + oy * line;
      }
    }
  }
};
using DotImage = ImageWindows<uint8_t>;    // the dot GEMM's uint8 domain
using Int16Image = ImageWindows<int16_t>;  // the int16 GEMM's values

// Whether DotGemmImage / DotGemmHybridImage take an m x n x k product: the AVX-512 VNNI
// tiles (kAuto on a CPU with them and without AMX, whose tiles copy rows instead).
bool DotGemmImageRuns(int m, int n, int k);
// DotGemm and DotGemmHybrid with A's rows from an image, where DotGemmImageRuns: returns
// true; else false, nothing done.
bool DotGemmImage(int m, int n, int k, const DotImage& image, const int8_t* packed_b, int8_t* c,
                  int ldc, const QuantizedOutputStage& stage, pthreadpool* pool);
// The raw sums: c = sum_k a * b + bias[n] (bias: DotBias's; nullptr for none), wrapping in
// int32 as Int32Gemm's (the hybrid kernels' sums, which rescale in float themselves).
void DotGemmRaw(int m, int n, int k, const uint8_t* a, int lda, const int8_t* packed_b,
                const int32_t* bias, int32_t* c, int ldc, pthreadpool* pool,
                DotKernel kernel = DotKernel::kAuto);

// A hybrid layer's float output straight from the sums (hybrid::ScaleRows' arithmetic):
// c[i][j] = clamp(bias[j] + float(d) * (row_scale[i] * unit_scale[j])), d = sum + dot_bias[j]
// - row_offset[i] * col_sums[j] wrapping in int32 (col_sums null: no offset term; dot_bias,
// bias null: none), each product rounded alone.
struct HybridOutputStage {
  const int32_t* dot_bias = nullptr;
  const int32_t* col_sums = nullptr;
  const int32_t* row_offset = nullptr;
  const float* row_scale = nullptr;
  const float* unit_scale = nullptr;
  const float* bias = nullptr;
  float act_min = 0, act_max = 0;
};
// Int32Gemm's sums rescaled by `stage` in each tile (the same bits as Int32Gemm followed
// by hybrid::ScaleRows, without the int32 pass between): the hybrid layers' int16 path.
void Int16GemmHybrid(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                     const HybridOutputStage& stage, float* c, int ldc, pthreadpool* pool,
                     GemmKernel kernel = GemmKernel::kAuto);
// Int16GemmHybrid with A's rows read in place from an image's windows (any CPU: the int16
// tiles take a pointer per row; no im2col rows).
void Int16GemmHybridImage(int m, int n, int k, const Int16Image& image, const int16_t* packed_b,
                          const HybridOutputStage& stage, float* c, int ldc, pthreadpool* pool,
                          GemmKernel kernel = GemmKernel::kAuto);
// FloatGemm with A's rows read in place from an image's windows (k: spans.count filter rows),
// where FloatGemmImageRuns: the blocked tiles with k blocks that each lie inside one span,
// or the small-n rows (n <= kGemmSmallN) with spans of a multiple of 8 values (a
// 1-channel 3x3 output over 8 channels: its im2col rows were a fifth of pose_landmark's
// time); not the one-row or TFLite-order paths; so the sums are FloatGemm's on the
// gathered rows bit for bit. Returns false (nothing done) elsewhere.
bool FloatGemmImageRuns(int m, int n, int k, int spans, GemmKernel kernel = GemmKernel::kAuto);
// The k block FloatGemmImage uses: FloatGemm's default where it divides a span (a filter
// row of k / spans), else, for k of several blocks, the span in the fewest equal blocks of
// at most 320 (3x3x48: 144, where the default 216 crosses rows and the convolution went
// through im2col rows: a tenth of a U-Net's time in the copy).
int FloatImageKc(int k, int spans);
bool FloatGemmImage(int m, int n, int k, const ImageWindows<float>& image, const float* packed_b,
                    float* c, int ldc, const FloatOutputStage& stage, pthreadpool* pool,
                    GemmKernel kernel = GemmKernel::kAuto);
// QuantizedGemm (8-bit outputs) with A's rows read in place from an image's windows.
void QuantizedGemmImage(int m, int n, int k, const Int16Image& image, const int16_t* packed_b,
                        int8_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
                        GemmKernel kernel = GemmKernel::kAuto);
void QuantizedGemmImage(int m, int n, int k, const Int16Image& image, const int16_t* packed_b,
                        uint8_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
                        GemmKernel kernel = GemmKernel::kAuto);
// Where kAuto runs this shape on AMX tiles or on the AVX-512 VNNI tiles
// (DotGemmHybridRuns): the rescale runs on each block of sums while it is in L1 (AMX's
// 32 x 32 blocks) or in registers (VNNI's 8 x 32), and this returns true. False (nothing
// done): the caller takes DotGemmRaw and rescales.
bool DotGemmHybridRuns(int m, int n, int k);
bool DotGemmHybrid(int m, int n, int k, const uint8_t* a, int lda, const int8_t* packed_b,
                   const HybridOutputStage& stage, float* c, int ldc, pthreadpool* pool);
bool DotGemmHybridImage(int m, int n, int k, const DotImage& image, const int8_t* packed_b,
                        const HybridOutputStage& stage, float* c, int ldc, pthreadpool* pool);

}  // namespace gemm
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GEMM_H_
