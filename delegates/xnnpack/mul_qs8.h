// The delegate's own int8 MUL (QS8) of a tensor by a tensor of the same shape or by a
// vector along its last dimension (squeeze-excite's per-channel scale), run inside an
// XNNPACK partition on CPUs with AVX-512 (16 lanes, split over the pool). Debian's XNNPACK
// (2022) multiplies 16 bytes a step with SSE-width AVX code; EfficientNet's swish and
// squeeze-excite MULs took a large part of its int8 time there.
//
// Numerics: XNNPACK's fp32 requantization, so the bytes are XNNPACK's (TFLite's default
// path): out = clamp(round_half_even(float((a - a_zp) * (b - b_zp)) * scale) + out_zp),
// scale = a_scale * b_scale / out_scale in float, as XNNPACK computes it.
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_MUL_QS8_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_MUL_QS8_H_

#include <pthreadpool.h>

#include <cstddef>
#include <cstdint>

namespace tflite_inspect {
namespace xnnpack {

struct MulQs8Params {
  int32_t a_zero_point = 0, b_zero_point = 0, output_zero_point = 0;
  float scale = 1.0f;
  int32_t output_min = -128, output_max = 127;
};

// Whether this CPU gets the own int8 MUL (AVX-512BW); TFI_XNNPACK_OWN_GEMM=0 / =1 decides
// instead, as for the convolutions.
bool OwnMulQs8Wanted();

// One product, requantized and clamped: what RunMulQs8 writes for a and b.
int8_t MulQs8One(const MulQs8Params& p, int8_t a, int8_t b);

// out[i] = the product of a[i] and b[period == 0 ? i : i % period], for i < n.
void RunMulQs8(const MulQs8Params& p, const int8_t* a, const int8_t* b, size_t period,
               int8_t* out, size_t n, pthreadpool_t pool);

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_MUL_QS8_H_
