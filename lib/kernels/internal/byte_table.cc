#include "kernels/internal/byte_table.h"

#include <cmath>
#include <cstdint>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernels/internal/gemm.h"
#include "model/op_code.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/internal/types.h"

namespace tflite {
namespace byte_table {
namespace {

// Upstream's float expressions of the tables (activations.cc / gelu.cc), for identical
// tables.
float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
float Tanh(float x) { return std::tanh(x); }
float Elu(float x) { return x < 0.0f ? std::expm1(x) : x; }
constexpr float kSqrt2dPi = M_2_SQRTPI * M_SQRT1_2;
float GeluExact(float x) { return 0.5f * x * std::erfc(x * static_cast<float>(-M_SQRT1_2)); }
float GeluApproximate(float x) {
  return 0.5f * x * (1.f + std::tanh(kSqrt2dPi * (x + 0.044715f * x * x * x)));
}

// --- HARD_SWISH: TFLite's reference_ops::HardSwish (16-bit fixed point: input on a
// 2^7 finer "hires" scale, a saturating "reluish" multiplier in [0, 1],
// SaturatingDoublingHighMul, final rounding shift), multipliers as activations.cc
// HardSwishPrepare.

int16_t SaturatingLeftShift(int16_t value, int amount) {
  const int64_t result = static_cast<int64_t>(value) * (int64_t{1} << amount);
  return static_cast<int16_t>(
      std::min<int64_t>(std::numeric_limits<int16_t>::max(),
                        std::max<int64_t>(std::numeric_limits<int16_t>::min(), result)));
}

// Like SaturatingRoundingDoublingHighMul but rounding toward zero (SQDMULH).
int16_t SaturatingDoublingHighMul(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) {
    return std::numeric_limits<int16_t>::max();
  }
  return static_cast<int16_t>((static_cast<int32_t>(a) * b) / (1 << 15));
}

template <typename T>
T QuantizedHardSwish(const HardSwishParams& p, T x) {
  const int16_t input_value = static_cast<int16_t>(x - p.input_zero_point);
  const int16_t hires = static_cast<int16_t>(input_value * (1 << 7));
  const int16_t preshift_output =
      gemmlowp::SaturatingRoundingDoublingHighMul(hires, p.output_multiplier_fixedpoint_int16);
  // Rescale to the scale where 3.0 is 32768 (saturating), i.e. [-3, 3] -> [-1, 1]; the
  // last bit of a left shift is applied after the multiply so that only it can saturate.
  int16_t reluish = hires;
  if (p.reluish_multiplier_exponent > 0) {
    reluish = SaturatingLeftShift(reluish, p.reluish_multiplier_exponent - 1);
  }
  reluish =
      gemmlowp::SaturatingRoundingDoublingHighMul(reluish, p.reluish_multiplier_fixedpoint_int16);
  if (p.reluish_multiplier_exponent > 0) {
    reluish = SaturatingLeftShift(reluish, 1);
  }
  if (p.reluish_multiplier_exponent < 0) {
    reluish = gemmlowp::RoundingDivideByPOT(reluish, -p.reluish_multiplier_exponent);
  }
  reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);  // [-1, 1] -> [0, 1]
  const int16_t preshift = SaturatingDoublingHighMul(reluish, preshift_output);
  int16_t out = gemmlowp::RoundingDivideByPOT(preshift, -p.output_multiplier_exponent);
  out = static_cast<int16_t>(out + p.output_zero_point);
  out = std::min<int16_t>(out, std::numeric_limits<T>::max());
  out = std::max<int16_t>(out, std::numeric_limits<T>::min());
  return static_cast<T>(out);
}

bool HardSwishTable(const TfLiteTensor& input, const TfLiteTensor& output,
                    elementwise::ByteLut* lut, std::string* why) {
  if (!(input.params.scale > 0)) {
    *why = "the input scale is not positive";
    return false;
  }
  HardSwishParams p{};
  p.input_zero_point = static_cast<int16_t>(input.params.zero_point);
  p.output_zero_point = static_cast<int16_t>(output.params.zero_point);
  // Float arithmetic exactly as upstream.
  const float hires_input_scale = (1.0f / 128.0f) * input.params.scale;
  const float reluish_scale = 3.0f / 32768.0f;
  const float output_multiplier = hires_input_scale / output.params.scale;
  int32_t multiplier32 = 0;
  QuantizeMultiplier(output_multiplier, &multiplier32, &p.output_multiplier_exponent);
  DownScaleInt32ToInt16Multiplier(multiplier32, &p.output_multiplier_fixedpoint_int16);
  if (p.output_multiplier_exponent > 0) {
    *why = "input scale / output scale is 128 or more (TFLite's HARD_SWISH requires less)";
    return false;
  }
  const float reluish_multiplier = hires_input_scale / reluish_scale;
  QuantizeMultiplier(reluish_multiplier, &multiplier32, &p.reluish_multiplier_exponent);
  DownScaleInt32ToInt16Multiplier(multiplier32, &p.reluish_multiplier_fixedpoint_int16);
  for (int b = 0; b < 256; ++b) {
    if (input.type == kTfLiteInt8) {
      const int8_t y = QuantizedHardSwish<int8_t>(p, static_cast<int8_t>(b));
      lut->table[b] = static_cast<uint8_t>(y);
    } else {
      lut->table[b] = QuantizedHardSwish<uint8_t>(p, static_cast<uint8_t>(b));
    }
  }
  return true;
}

}  // namespace

bool HasTable(int builtin_code) {
  switch (builtin_code) {
    case kTfLiteBuiltinLogistic:
    case kTfLiteBuiltinTanh:
    case kTfLiteBuiltinGelu:
    case kTfLiteBuiltinElu:
    case kTfLiteBuiltinHardSwish:
      return true;
    default:
      return false;
  }
}

bool Build(int builtin_code, const TfLiteTensor& input, const TfLiteTensor& output,
           const void* builtin_data, elementwise::ByteLut* lut, std::string* why) {
  if ((input.type != kTfLiteInt8 && input.type != kTfLiteUInt8) || output.type != input.type) {
    *why = "input and output must be both INT8 or both UINT8";
    return false;
  }
  if (!(output.params.scale > 0)) {
    *why = "the output scale is not positive";
    return false;
  }
  switch (builtin_code) {
    case kTfLiteBuiltinLogistic:
      // TFLite's LOGISTIC: output scale exactly 1/256.
      if (output.params.scale != 1. / 256) {
        *why = "output scale is not 1/256 (TFLite's 8-bit LOGISTIC requires it)";
        return false;
      }
      elementwise::PopulateByteLut(&input, &output, Sigmoid, lut);
      return true;
    case kTfLiteBuiltinTanh:
      elementwise::PopulateByteLut(&input, &output, Tanh, lut);
      return true;
    case kTfLiteBuiltinGelu: {
      const auto* params = static_cast<const TfLiteGeluParams*>(builtin_data);
      const bool approximate = params != nullptr && params->approximate;
      elementwise::PopulateByteLut(&input, &output, approximate ? GeluApproximate : GeluExact,
                                   lut);
      return true;
    }
    case kTfLiteBuiltinElu:
      if (input.type != kTfLiteInt8) {
        *why = "ELU takes INT8 only (as TFLite)";
        return false;
      }
      elementwise::PopulateByteLut(&input, &output, Elu, lut);
      return true;
    case kTfLiteBuiltinHardSwish:
      return HardSwishTable(input, output, lut, why);
    default:
      *why = "no 8-bit table for this op";
      return false;
  }
}

TfLiteStatus Prepare(TfLiteContext* context, const TfLiteNode* node, int builtin_code,
                     const TfLiteTensor& input, const TfLiteTensor& output,
                     elementwise::ByteLut* lut) {
  std::string why;
  if (Build(builtin_code, input, output, node->builtin_data, lut, &why)) return kTfLiteOk;
  TF_LITE_KERNEL_LOG(context, "%s: %s", tflite_inspect::BuiltinOpName(builtin_code).c_str(),
                     why.c_str());
  return kTfLiteError;
}

}  // namespace byte_table

namespace elementwise {
namespace {

#if defined(__x86_64__) || defined(__i386__)
bool CpuHasVbmi() {
  static const bool has = [] {
    __builtin_cpu_init();
    return gemm::CpuHasAvx512Vnni() && __builtin_cpu_supports("avx512vbmi") != 0;
  }();
  return has;
}

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void ApplyVbmi(const uint8_t* table,
                                                                      const uint8_t* in,
                                                                      uint8_t* out, int64_t n) {
  const __m512i t0 = _mm512_loadu_si512(table), t1 = _mm512_loadu_si512(table + 64);
  const __m512i t2 = _mm512_loadu_si512(table + 128), t3 = _mm512_loadu_si512(table + 192);
  int64_t i = 0;
  for (; i < n; i += 64) {
    const __mmask64 live = n - i >= 64 ? ~__mmask64{0} : (__mmask64{1} << (n - i)) - 1;
    const __m512i x = _mm512_maskz_loadu_epi8(live, in + i);
    // Bit 6 of each index picks t0 / t1 (t2 / t3), bit 7 the pair.
    const __m512i low = _mm512_permutex2var_epi8(t0, x, t1);
    const __m512i high = _mm512_permutex2var_epi8(t2, x, t3);
    _mm512_mask_storeu_epi8(out + i, live, _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), low, high));
  }
}

// 32 bytes per step: the entry for x is row x >> 4, column x & 15 of the table seen as 16
// rows of 16; vpshufb reads column x & 15 of every row, and four levels of vpblendvb pick
// the row by the high nibble's bits (bit b moved to each byte's top bit by a shift). The
// last n % 32 bytes a byte at a time.
__attribute__((target("avx2"))) void ApplyAvx2(const uint8_t* table, const uint8_t* in,
                                               uint8_t* out, int64_t n) {
  __m256i rows[16];
  for (int h = 0; h < 16; ++h) {
    rows[h] = _mm256_broadcastsi128_si256(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(table + 16 * h)));
  }
  const __m256i low_nibble = _mm256_set1_epi8(0x0F);
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    const __m256i col = _mm256_and_si256(x, low_nibble);
    __m256i level[16];
    for (int h = 0; h < 16; ++h) level[h] = _mm256_shuffle_epi8(rows[h], col);
    // Row bit b (bit 4 + b of x) to each byte's top bit: a shift left by 3 - b within
    // 16-bit lanes moves no bit across a byte's top.
    const __m256i bit0 = _mm256_slli_epi16(x, 3), bit1 = _mm256_slli_epi16(x, 2);
    const __m256i bit2 = _mm256_slli_epi16(x, 1);
    for (int h = 0; h < 8; ++h) level[h] = _mm256_blendv_epi8(level[2 * h], level[2 * h + 1], bit0);
    for (int h = 0; h < 4; ++h) level[h] = _mm256_blendv_epi8(level[2 * h], level[2 * h + 1], bit1);
    for (int h = 0; h < 2; ++h) level[h] = _mm256_blendv_epi8(level[2 * h], level[2 * h + 1], bit2);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm256_blendv_epi8(level[0], level[1], x));
  }
  for (; i < n; ++i) out[i] = table[in[i]];
}
#endif

}  // namespace

bool ApplyByteLutAvx2(const ByteLut& lut, const uint8_t* in, uint8_t* out, int64_t n) {
#if defined(__x86_64__) || defined(__i386__)
  if (!gemm::CpuHasAvx2()) return false;
  ApplyAvx2(lut.table, in, out, n);
  return true;
#else
  (void)lut, (void)in, (void)out, (void)n;
  return false;
#endif
}

void ApplyByteLut(const ByteLut& lut, const uint8_t* in, uint8_t* out, int64_t n) {
#if defined(__x86_64__) || defined(__i386__)
  if (n >= 64 && CpuHasVbmi()) {
    ApplyVbmi(lut.table, in, out, n);
    return;
  }
  static const bool avx2 = gemm::CpuHasAvx2();
  if (n >= 32 && avx2) {
    ApplyAvx2(lut.table, in, out, n);
    return;
  }
#endif
  UnaryMap(in, out, n, [&lut](uint8_t x) { return lut.table[x]; });
}

}  // namespace elementwise

}  // namespace tflite
