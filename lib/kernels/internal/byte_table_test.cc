// ApplyByteLut's vector loops (AVX-512 VBMI where the CPU has it, AVX2) against the table
// read a byte at a time: every byte value, tails of every length, in place.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/internal/elementwise.h"

namespace tflite_inspect {
namespace {

void CheckLut(bool (*apply)(const tflite::elementwise::ByteLut&, const uint8_t*, uint8_t*,
                            int64_t)) {
  std::mt19937 rng(4242);
  tflite::elementwise::ByteLut lut;
  for (int b = 0; b < 256; ++b) lut.table[b] = static_cast<uint8_t>(rng());
  for (int64_t n : {0, 1, 63, 64, 65, 127, 128, 200, 256, 1000, 4097}) {
    CAPTURE(n);
    std::vector<uint8_t> in(static_cast<size_t>(n) + 8), out(in.size(), 0x5A);
    for (int64_t i = 0; i < n; ++i) in[i] = static_cast<uint8_t>(i < 256 ? i : rng());
    if (!apply(lut, in.data(), out.data(), n)) {
      WARN("skipped: this CPU lacks the loop");
      return;
    }
    for (int64_t i = 0; i < n; ++i) REQUIRE(out[i] == lut.table[in[i]]);
    for (size_t i = static_cast<size_t>(n); i < out.size(); ++i) REQUIRE(out[i] == 0x5A);
    std::vector<uint8_t> same = in;
    apply(lut, same.data(), same.data(), n);
    for (int64_t i = 0; i < n; ++i) REQUIRE(same[i] == lut.table[in[i]]);
  }
}

TEST_CASE("ApplyByteLut gives the table's byte for every input, any length, in place") {
  CheckLut([](const tflite::elementwise::ByteLut& lut, const uint8_t* in, uint8_t* out, int64_t n) {
    tflite::elementwise::ApplyByteLut(lut, in, out, n);
    return true;
  });
}

TEST_CASE("The AVX2 byte table loop gives the table's byte for every input") {
  CheckLut(tflite::elementwise::ApplyByteLutAvx2);
}

}  // namespace
}  // namespace tflite_inspect
