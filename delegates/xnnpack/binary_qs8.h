// The delegate's own int8 MUL, ADD and SUB (QS8) of a tensor by a tensor of the same shape
// or by a vector along its last dimension (squeeze-excite's per-channel scale, a folded
// batch norm's shift), run inside an XNNPACK partition on CPUs with AVX-512 (64 bytes a
// step) or AVX2 (32), split over the pool. Debian's XNNPACK (2022) multiplies 16 bytes a
// step with SSE-width AVX code, and runs a same-shape MUL or ADD on the calling thread
// alone (it merges the operands into one dimension and splits none): EfficientNet's swish
// and squeeze-excite MULs and ResNet's residual ADDs took a large part of their int8 time
// there (EfficientNet-B0 int8 at two threads on an AVX2 CPU: 10.5 -> 7.6 ms).
//
// Numerics are XNNPACK's, so the bytes are XNNPACK's (TFLite's default path):
// - MUL, fp32: out = clamp(round_half_even(float((a - a_zp) * (b - b_zp)) * scale) + out_zp),
//   scale = a_scale * b_scale / out_scale in float.
// - ADD / SUB, fixed point: out = clamp(((bias + a * a_mult + b * b_mult) >> shift) + out_zp)
//   (arithmetic shift), the multipliers the scale ratios a_scale / out_scale and
//   (-)b_scale / out_scale as 21-bit integers (AddQs8Params).
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_BINARY_QS8_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_BINARY_QS8_H_

#include <pthreadpool.h>

#include <cstddef>
#include <cstdint>

namespace tflite_inspect {
namespace xnnpack {

enum class BinaryQs8Op { kMul, kAdd };

struct BinaryQs8Params {
  BinaryQs8Op op = BinaryQs8Op::kMul;
  int32_t a_zero_point = 0, b_zero_point = 0, output_zero_point = 0;
  float scale = 1.0f;  // kMul
  // kAdd (SUB: b_multiplier negative); the zero points are folded into bias.
  int32_t a_multiplier = 0, b_multiplier = 0, bias = 0;
  uint32_t shift = 0;
  int32_t output_min = -128, output_max = 127;
};

// XNNPACK's fixed-point ADD parameters (its xnn_init_qs8_add_minmax params): the ratios
// a_scale / out_scale and b_scale / out_scale (negated for SUB) in float, the shift that
// puts the larger one's leading bit at 2^20, each multiplier lrintf(ratio * 2^shift).
// False when a ratio is outside XNNPACK's [2^-10, 256).
bool AddQs8Params(float a_scale, int32_t a_zero_point, float b_scale, int32_t b_zero_point,
                  float out_scale, int32_t out_zero_point, bool subtract, BinaryQs8Params* p);

// XNNPACK's int8 output range of a fused activation's float range [min, max]:
// lrintf(clamp(v / scale + zero_point, -128, 127)).
int32_t XnnpackQuantize(float value, float scale, int32_t zero_point);

// Whether this CPU gets the own int8 MUL / ADD / SUB (AVX-512BW or AVX2); TFI_XNNPACK_OWN_GEMM=0
// / =1 decides instead, as for the convolutions.
bool OwnBinaryQs8Wanted();

// The instructions RunBinaryQs8 uses on this CPU ("AVX-512", "AVX2", "scalar code") and the
// bytes of its main loop's step (64, 32, 1), for the partition log.
struct BinaryQs8Isa {
  const char* name;
  int step_bytes;
};
BinaryQs8Isa BinaryQs8IsaOnCpu();

// One result, requantized and clamped: what RunBinaryQs8 writes for a and b.
int8_t BinaryQs8One(const BinaryQs8Params& p, int8_t a, int8_t b);

// out[i] = a[i] op b[period == 0 ? i : i % period], for i < n.
void RunBinaryQs8(const BinaryQs8Params& p, const int8_t* a, const int8_t* b, size_t period,
                  int8_t* out, size_t n, pthreadpool_t pool);

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_BINARY_QS8_H_
