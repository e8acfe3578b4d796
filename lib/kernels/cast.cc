// CAST between numeric types and bool, as TFLite's cast.cc: each element is converted
// with static_cast<To>(from) (bool: 0/1 in, x != 0 out; a float out of an integer type's
// range as x86 converts it: FloatToInteger); float16 goes through float
// (Eigen::half's conversions: exact up, round-to-nearest-even down). Shapes are kept.
// Types: bool, uint8, int8, int16, uint16, int32, uint32, int64, float16, float32,
// float64. Versions 1-5; not supported: complex64 (part of v1), int4 (v6), bfloat16 (v7).
#include <climits>
#include <cstdint>
#include <type_traits>

#include "kernels/internal/fp16.h"
#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace cast {
namespace {

struct Half {
  uint16_t bits;
};

bool Supported(TfLiteType t) {
  switch (t) {
    case kTfLiteBool:
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
    case kTfLiteUInt16:
    case kTfLiteInt32:
    case kTfLiteUInt32:
    case kTfLiteInt64:
    case kTfLiteFloat16:
    case kTfLiteFloat32:
    case kTfLiteFloat64:
      return true;
    default:
      return false;
  }
}

// A float converted to an integer type. Where the value fits, static_cast's truncation
// (TFLite's). Where it does not (NaN, infinities, out of range), static_cast is undefined
// behaviour in C++, and TFLite's x86-64 build gives what GCC's scalar code for it gives
// (cvttsd2si: truncation, "integer indefinite" out of range): via a 32-bit int for the
// types narrower than 32 bits and int32 (out of range: INT32_MIN), then the low bits; via
// a 64-bit int for uint32 and int64 (INT64_MIN); uint64 from 2^63 up less 2^63 with the
// top bit flipped back. Here the same, defined: a crafted model gets those bits and no
// undefined behaviour (fuzz campaign 20: -2.03 to uint8).
template <typename To, typename From>
To FloatToInteger(From v) {
  constexpr double k31 = 2147483648.0, k63 = 9223372036854775808.0;
  const double d = static_cast<double>(v);
  if constexpr (sizeof(To) < 4 || std::is_same_v<To, int32_t>) {
    const int32_t r = d > -k31 - 1.0 && d < k31 ? static_cast<int32_t>(d) : INT32_MIN;
    return static_cast<To>(r);
  } else if constexpr (std::is_same_v<To, uint64_t>) {
    if (d >= 2.0 * k63) return 0;  // 2^64 and up: INT64_MIN with the top bit flipped
    if (d >= k63) return static_cast<uint64_t>(static_cast<int64_t>(d - k63)) ^ (uint64_t{1} << 63);
    if (!(d >= -k63)) return uint64_t{1} << 63;  // NaN, below -2^63: INT64_MIN
    return static_cast<uint64_t>(static_cast<int64_t>(d));
  } else {
    const int64_t r = d >= -k63 && d < k63 ? static_cast<int64_t>(d) : INT64_MIN;
    return static_cast<To>(r);
  }
}

template <typename To, typename From>
To CastOne(From v) {
  if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> && !std::is_same_v<To, bool>) {
    return FloatToInteger<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

// Conversions out of Half go through float (bool: non-zero magnitude).
template <typename To>
struct FromHalf {
  static To Do(Half v) { return CastOne<To>(fp16::HalfToFloat(v.bits)); }
};
template <>
struct FromHalf<bool> {
  static bool Do(Half v) { return (v.bits & 0x7FFFu) != 0; }
};

template <typename To, typename From>
void CastAll(const From* in, To* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = CastOne<To>(in[i]);
}
template <typename From>
void CastAll(const From* in, Half* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    out[i].bits = fp16::FloatToHalf(static_cast<float>(in[i]));
  }
}
template <typename To>
void CastAll(const Half* in, To* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = FromHalf<To>::Do(in[i]);
}
void CastAll(const Half* in, Half* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = in[i];
}

template <typename From>
TfLiteStatus CastFrom(TfLiteContext* context, const From* in, TfLiteTensor* out, int64_t n) {
  void* o = out->data.raw;
  switch (out->type) {
    case kTfLiteBool:
      CastAll(in, static_cast<bool*>(o), n);
      break;
    case kTfLiteUInt8:
      CastAll(in, static_cast<uint8_t*>(o), n);
      break;
    case kTfLiteInt8:
      CastAll(in, static_cast<int8_t*>(o), n);
      break;
    case kTfLiteInt16:
      CastAll(in, static_cast<int16_t*>(o), n);
      break;
    case kTfLiteUInt16:
      CastAll(in, static_cast<uint16_t*>(o), n);
      break;
    case kTfLiteInt32:
      CastAll(in, static_cast<int32_t*>(o), n);
      break;
    case kTfLiteUInt32:
      CastAll(in, static_cast<uint32_t*>(o), n);
      break;
    case kTfLiteInt64:
      CastAll(in, static_cast<int64_t*>(o), n);
      break;
    case kTfLiteFloat16:
      CastAll(in, static_cast<Half*>(o), n);
      break;
    case kTfLiteFloat32:
      CastAll(in, static_cast<float*>(o), n);
      break;
    case kTfLiteFloat64:
      CastAll(in, static_cast<double*>(o), n);
      break;
    default:
      return shape_util::UnsupportedType(context, out->type);
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (!Supported(input->type)) return shape_util::UnsupportedType(context, input->type);
  if (!Supported(output->type)) return shape_util::UnsupportedType(context, output->type);
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int64_t n = NumElements(input);
  const void* i = input->data.raw_const;
  switch (input->type) {
    case kTfLiteBool:
      return CastFrom(context, static_cast<const bool*>(i), output, n);
    case kTfLiteUInt8:
      return CastFrom(context, static_cast<const uint8_t*>(i), output, n);
    case kTfLiteInt8:
      return CastFrom(context, static_cast<const int8_t*>(i), output, n);
    case kTfLiteInt16:
      return CastFrom(context, static_cast<const int16_t*>(i), output, n);
    case kTfLiteUInt16:
      return CastFrom(context, static_cast<const uint16_t*>(i), output, n);
    case kTfLiteInt32:
      return CastFrom(context, static_cast<const int32_t*>(i), output, n);
    case kTfLiteUInt32:
      return CastFrom(context, static_cast<const uint32_t*>(i), output, n);
    case kTfLiteInt64:
      return CastFrom(context, static_cast<const int64_t*>(i), output, n);
    case kTfLiteFloat16:
      return CastFrom(context, static_cast<const Half*>(i), output, n);
    case kTfLiteFloat32:
      return CastFrom(context, static_cast<const float*>(i), output, n);
    case kTfLiteFloat64:
      return CastFrom(context, static_cast<const double*>(i), output, n);
    default:
      return shape_util::UnsupportedType(context, input->type);
  }
}

}  // namespace
}  // namespace cast

TfLiteRegistration* Register_CAST() {
  static TfLiteRegistration r = {nullptr, nullptr, cast::Prepare, cast::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
