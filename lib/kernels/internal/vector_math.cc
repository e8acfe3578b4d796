#include "kernels/internal/vector_math.h"

#include <cmath>

#include "kernels/internal/gemm.h"

namespace tflite {
namespace vector_math {
namespace {

template <Function kF>
void ApplyGeneric(const float* in, int64_t n, float* out) {
  MapArray<V4, kF>(in, n, out);
}

#if defined(__x86_64__) || defined(__i386__)
template <Function kF>
__attribute__((target("avx2,fma"))) void ApplyAvx2(const float* in, int64_t n, float* out) {
  MapArray<V8, kF>(in, n, out);
}

template <Function kF>
__attribute__((target("avx512f"))) void ApplyAvx512(const float* in, int64_t n, float* out) {
  MapArray<V16, kF>(in, n, out);
}
#endif

template <Function kF>
void ApplyTo(const float* in, int64_t n, float* out) {
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx512F()) {
    ApplyAvx512<kF>(in, n, out);
    return;
  }
  if (gemm::CpuHasAvx2Fma()) {
    ApplyAvx2<kF>(in, n, out);
    return;
  }
#endif
  ApplyGeneric<kF>(in, n, out);
}

}  // namespace

void Apply(Function f, const float* in, int64_t n, float* out) {
  switch (f) {
    case Function::kSigmoid: ApplyTo<Function::kSigmoid>(in, n, out); break;
    case Function::kTanh: ApplyTo<Function::kTanh>(in, n, out); break;
    case Function::kSwish: ApplyTo<Function::kSwish>(in, n, out); break;
  }
}

void TanhArray(const float* in, int64_t n, float* out) {
  Apply(Function::kTanh, in, n, out);
  for (int64_t i = 0; i < n; ++i) {
    if (in[i] != in[i]) out[i] = std::tanh(in[i]);
  }
}

}  // namespace vector_math
}  // namespace tflite
