// Numbers and booleans from a custom op's flexbuffer options without undefined behaviour.
// flexbuffers' own AsInt32 / AsUInt64 / AsBool convert a float value with a plain cast,
// which is undefined for a value outside the integer type (a crafted -1.0 for a bool key
// made UBSan stop the invoke fuzzer in DETECTION_POSTPROCESS's Init). These read the same
// values as flexbuffers does for every value it converts defined (ints, uints, bools and
// floats in range, truncated toward zero as it truncates them) and give `fallback` for the
// rest: a float out of range or NaN, a string, a vector, a map.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FLEX_OPTIONS_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FLEX_OPTIONS_H_

#include <flatbuffers/flexbuffers.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace tflite {
namespace flex_options {

// The value as an int32: false (out untouched) for a number outside int32 (a float
// truncated toward zero as flexbuffers truncates it), NaN, or anything that is no number.
inline bool ToInt32(const flexbuffers::Reference& r, int32_t* out) {
  if (r.IsUInt() || r.IsBool()) {
    const uint64_t u = r.AsUInt64();
    if (u > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) return false;
    *out = static_cast<int32_t>(u);
    return true;
  }
  if (r.IsInt()) {
    const int64_t i = r.AsInt64();
    if (i < std::numeric_limits<int32_t>::min() || i > std::numeric_limits<int32_t>::max()) return false;
    *out = static_cast<int32_t>(i);
    return true;
  }
  if (r.IsFloat()) {
    const double d = r.AsDouble();
    // Within (INT32_MIN - 1, INT32_MAX + 1) truncation toward zero fits (false for NaN).
    if (!(d > -2147483649.0 && d < 2147483648.0)) return false;
    *out = static_cast<int32_t>(d);
    return true;
  }
  return false;
}

inline int32_t Int32Or(const flexbuffers::Reference& r, int32_t fallback) {
  int32_t v = fallback;
  return ToInt32(r, &v) ? v : fallback;
}

inline float FloatOr(const flexbuffers::Reference& r, float fallback) {
  if (!r.IsNumeric() && !r.IsBool()) return fallback;
  const double d = r.IsFloat() ? r.AsDouble() : static_cast<double>(r.AsInt64());
  if (std::isnan(d)) return static_cast<float>(d);
  if (d > std::numeric_limits<float>::max()) return std::numeric_limits<float>::infinity();
  if (d < -std::numeric_limits<float>::max()) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(d);
}

inline bool BoolOr(const flexbuffers::Reference& r, bool fallback) {
  if (r.IsBool() || r.IsIntOrUint()) return r.AsUInt64() != 0;  // defined for these types
  if (r.IsFloat()) return r.AsDouble() != 0.0;
  return fallback;
}

}  // namespace flex_options
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FLEX_OPTIONS_H_
