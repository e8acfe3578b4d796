#include "kernels/internal/eigen_exp.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/testing/float_bits_test_util.h"

namespace tflite {
namespace eigen_exp {
namespace {

using tflite_inspect::testing::SameBits;

// The values PExp's wide forms are checked on: a sweep, random bit patterns, the
// cut-offs and the specials, padded to whole 16-lane vectors.
std::vector<float> Arguments() {
  std::vector<float> xs;
  for (float x = -120.0f; x <= 95.0f; x += 0.00317f) xs.push_back(x);
  tflite_inspect::testing::AppendRandomBitFloats(17, 200000, &xs);
  for (float x :
       {0.0f, -0.0f, 88.723f, 88.7231f, 88.72f, -103.99f, -104.0f, -104.01f, -110.0f, -87.5f,
        -126.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
        std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min(),
        std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()}) {
    xs.push_back(x);
  }
  while (xs.size() % 16 != 0) xs.push_back(0.5f);
  return xs;
}

#if defined(__x86_64__) || defined(__i386__)
// PExp on V's lanes against the 4-lane form, which is Eigen's SSE packet lane by lane
// (kernel goldens), bit for bit. Called from a function of the wide form's target.
template <typename V>
__attribute__((always_inline)) inline void CheckWide(const std::vector<float>& xs) {
  constexpr size_t kLanes = sizeof(V) / sizeof(float);
  for (size_t i = 0; i < xs.size(); i += kLanes) {
    V wide;
    std::memcpy(&wide, xs.data() + i, sizeof wide);
    PExp(wide);
    for (size_t q = 0; q < kLanes; q += 4) {
      vector_math::V4 narrow;
      std::memcpy(&narrow, xs.data() + i + q, sizeof narrow);
      PExp(narrow);
      for (int l = 0; l < 4; ++l) {
        CAPTURE(xs[i + q + l], wide[q + l], narrow[l]);
        REQUIRE(SameBits(wide[q + l], narrow[l]));
      }
    }
  }
}
__attribute__((target("avx512f"))) void CheckAvx512(const std::vector<float>& xs) {
  CheckWide<vector_math::V16>(xs);
}
__attribute__((target("avx2"))) void CheckAvx2(const std::vector<float>& xs) {
  CheckWide<vector_math::V8>(xs);
}
#endif

// PExp16 (AVX-512) and PExp8 (AVX2) have the bits of the 4-lane form.
TEST_CASE("PExp on AVX-512 and AVX2 lanes has the bits of its 4-lane form") {
#if defined(__x86_64__) || defined(__i386__)
  const std::vector<float> xs = Arguments();
  if (gemm::CpuHasAvx512F()) {
    CheckAvx512(xs);
  } else {
    WARN("no AVX-512F on this CPU: PExp16 not checked");
  }
  if (gemm::CpuHasAvx2()) {
    CheckAvx2(xs);
  } else {
    WARN("no AVX2 on this CPU: PExp8 not checked");
  }
#else
  WARN("x86 only");
#endif
}

}  // namespace
}  // namespace eigen_exp
}  // namespace tflite
