// The one seed source of randomized tests: Catch's --rng-seed (0 unless given, so every
// run of the suite draws the same cases). `--rng-seed time` explores new cases; a failing
// test CAPTUREs Catch::rngSeed(), and `<test binary> "<test name>" --rng-seed <it>`
// replays its stream (the salt keeps tests from sharing one).
#ifndef TFLITE_INSPECT_LIB_TESTING_RANDOM_H_
#define TFLITE_INSPECT_LIB_TESTING_RANDOM_H_

#include <cstdint>

#include "catch2/catch.hpp"

namespace tflite_inspect {
namespace testing {

// `salt`: any number fixed per test.
inline uint32_t TestSeed(uint32_t salt) {
  return static_cast<uint32_t>(Catch::rngSeed()) * 2654435761u ^ salt;
}

}  // namespace testing
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TESTING_RANDOM_H_
