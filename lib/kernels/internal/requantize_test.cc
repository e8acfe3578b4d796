#include "kernels/internal/requantize.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/testing/conv_test_util.h"
#include "tensorflow/lite/kernels/internal/common.h"

namespace tflite_inspect {
namespace {

#if defined(TFI_REQUANTIZE_AVX2)
__attribute__((target("avx2"))) void Vector8(const int32_t* x, const int32_t* mult,
                                             const int32_t* shift, int32_t* out) {
  const tflite::requant::Avx2Channels ch = tflite::requant::LoadChannels8(mult, shift);
  const __m256i v = tflite::requant::MultiplyByQuantizedMultiplier8(
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x)), ch);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), v);
}

TEST_CASE("AVX2 MultiplyByQuantizedMultiplier8 gives the scalar bits, edges included") {
  if (!tflite::gemm::CpuHasAvx2()) {
    WARN("this CPU has no AVX2: the vector requantization is not used here");
    return;
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
#endif

}  // namespace
}  // namespace tflite_inspect
