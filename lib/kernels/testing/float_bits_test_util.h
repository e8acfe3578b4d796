// Bit-level checks of vectorized float functions against a model of one lane: the same
// bits (NaNs of any payload alike), and the count of differences over every float.
#ifndef TFLITE_INSPECT_LIB_KERNELS_TESTING_FLOAT_BITS_TEST_UTIL_H_
#define TFLITE_INSPECT_LIB_KERNELS_TESTING_FLOAT_BITS_TEST_UTIL_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace tflite_inspect {
namespace testing {

inline bool SameBits(float a, float b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

// Appends `count` floats of uniformly random bit patterns (every sign, exponent, NaN and
// denormal alike; replayable from `seed`).
inline void AppendRandomBitFloats(uint32_t seed, int count, std::vector<float>* xs) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < count; ++i) {
    const uint32_t b = bits(rng);
    float x;
    std::memcpy(&x, &b, sizeof x);
    xs->push_back(x);
  }
}

// batch(x, y, n) over all 2^32 floats, a million at a time; the count of y[i] whose bits
// differ from lane(x[i]).
template <typename Batch, typename Lane>
uint64_t DifferencesOverEveryFloat(const Batch& batch, const Lane& lane) {
  constexpr size_t kChunk = 1 << 20;
  std::vector<float> x(kChunk), y(kChunk);
  uint64_t wrong = 0;
  for (uint64_t base = 0; base < (uint64_t{1} << 32); base += kChunk) {
    for (size_t i = 0; i < kChunk; ++i) {
      const auto b = static_cast<uint32_t>(base + i);
      std::memcpy(&x[i], &b, sizeof b);
    }
    batch(x.data(), y.data(), static_cast<int64_t>(kChunk));
    for (size_t i = 0; i < kChunk; ++i) wrong += !SameBits(y[i], lane(x[i]));
  }
  return wrong;
}

}  // namespace testing
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_KERNELS_TESTING_FLOAT_BITS_TEST_UTIL_H_
