#include "kernels/internal/requantize.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/testing/conv_test_util.h"
#include "testing/random.h"
#include "tensorflow/lite/kernels/internal/common.h"

namespace tflite_inspect {
namespace {

// The CPU's vector MultiplyByQuantizedMultiplier on 8 lanes (AVX2: one vector; NEON: two);
// false when this build or CPU has none.
#if defined(TFI_REQUANTIZE_AVX2)
__attribute__((target("avx2"))) void Avx2Vector8(const int32_t* x, const int32_t* mult,
                                                 const int32_t* shift, int32_t* out) {
  const tflite::requant::Avx2Channels ch = tflite::requant::LoadChannels8(mult, shift);
  const __m256i v = tflite::requant::MultiplyByQuantizedMultiplier8(
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x)), ch);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), v);
}
#endif

bool Vector8(const int32_t* x, const int32_t* mult, const int32_t* shift, int32_t* out) {
#if defined(TFI_REQUANTIZE_AVX2)
  if (!tflite::gemm::CpuHasAvx2()) return false;
  Avx2Vector8(x, mult, shift, out);
  return true;
#elif defined(TFI_REQUANTIZE_NEON)
  for (int h = 0; h < 8; h += 4) {
    const tflite::requant::NeonChannels ch = tflite::requant::LoadNeonChannels4(mult + h, shift + h);
    vst1q_s32(out + h, tflite::requant::MultiplyByQuantizedMultiplier4(vld1q_s32(x + h), ch));
  }
  return true;
#else
  (void)x, (void)mult, (void)shift, (void)out;
  return false;
#endif
}

TEST_CASE("Vector MultiplyByQuantizedMultiplier (AVX2, NEON) gives the scalar bits, edges included") {
  {
    const int32_t z[8] = {};
    int32_t o[8];
    if (!Vector8(z, z, z, o)) {
      WARN("no vector requantization in this build or on this CPU: nothing to compare");
      return;
    }
  }
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  const std::vector<int32_t> xs_edge = {0, 1, -1, 2, -2, kMin, kMax, kMin + 1, kMax - 1,
                                        1 << 30, -(1 << 30), 12345, -12345, 65535, -65536};
  const std::vector<int32_t> mults_edge = {0, 1, kMax, kMin, 1 << 30, (1 << 30) + 1, -(1 << 30),
                                           1518500250, -1518500250};
  uint32_t seed = 20261202;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> any(kMin, kMax);
  std::uniform_int_distribution<int> shifts(-31, 30);
  long checked = 0;
  for (int round = 0; round < 20000; ++round) {
    int32_t x[8], mult[8], shift[8], out[8];
    for (int l = 0; l < 8; ++l) {
      // Mix edges and random values in every lane.
      x[l] = (rng() & 3) == 0 ? xs_edge[rng() % xs_edge.size()] : any(rng) >> (rng() % 32);
      mult[l] = (rng() & 3) == 0 ? mults_edge[rng() % mults_edge.size()] : any(rng);
      shift[l] = shifts(rng);
    }
    Vector8(x, mult, shift, out);
    for (int l = 0; l < 8; ++l) {
      const int32_t want = tflite::MultiplyByQuantizedMultiplier(x[l], mult[l], shift[l]);
      const int32_t ref = conv_test::RefMultiplyByQuantizedMultiplier(x[l], mult[l], shift[l]);
      if (out[l] != want || want != ref) {
        CAPTURE(seed, round, l, x[l], mult[l], shift[l], out[l], want, ref);
        FAIL("mismatch");
      }
      ++checked;
    }
  }
  CHECK(checked == 160000);
}

// Returns the number of values compared.
template <typename OutT>
long CheckOutputStageRow(std::mt19937& rng) {
  long compared = 0;
  std::uniform_int_distribution<int32_t> acc_values(-(1 << 20), 1 << 20);
  std::uniform_int_distribution<int32_t> multipliers(1 << 30, std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int> shifts(-12, 2);
  for (int round = 0; round < 200; ++round) {
    const int n = 1 + static_cast<int>(rng() % 70);  // vector blocks and the scalar tail
    std::vector<int32_t> acc(n), bias(n), mult(n), shift(n);
    for (int j = 0; j < n; ++j) {
      acc[j] = acc_values(rng);
      bias[j] = acc_values(rng) / 4;
      mult[j] = multipliers(rng);
      shift[j] = shifts(rng);
    }
    tflite::gemm::QuantizedOutputStage s;
    s.bias = (round & 1) ? bias.data() : nullptr;
    s.multiplier = mult.data();
    s.shift = shift.data();
    s.output_offset = static_cast<int32_t>(rng() % 41) - 20;
    s.act_min = std::numeric_limits<OutT>::min() + static_cast<int32_t>(rng() % 3);
    s.act_max = std::numeric_limits<OutT>::max() - static_cast<int32_t>(rng() % 3);
    std::vector<OutT> vec(n), portable(n);
    tflite::requant::OutputStageRow(acc.data(), n, s, vec.data());
    tflite::requant::OutputStageRow(acc.data(), n, s, portable.data(), /*portable=*/true);
    for (int j = 0; j < n; ++j) {
      if (vec[j] != portable[j]) {
        CAPTURE(round, n, j, acc[j], mult[j], shift[j], int(vec[j]), int(portable[j]));
        FAIL("vector and portable output stages differ");
      }
    }
    compared += n;
  }
  return compared;
}

TEST_CASE("OutputStageRow: the vector rows give the portable loop's bytes") {
  CAPTURE(Catch::rngSeed());
  std::mt19937 rng(testing::TestSeed(0x5e9a));
  CHECK(CheckOutputStageRow<int8_t>(rng) > 200);
  CHECK(CheckOutputStageRow<uint8_t>(rng) > 200);
}

}  // namespace
}  // namespace tflite_inspect
