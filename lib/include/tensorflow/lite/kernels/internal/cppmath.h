// Math wrappers that kernels call instead of <cmath> directly, so that a
// platform lacking std:: versions can switch to the global ones (upstream
// tensorflow/lite/kernels/internal/cppmath.h).
//
// TfLiteRound rounds half away from zero (std::round); quantization math
// depends on that for bit-exactness.
#ifndef TENSORFLOW_LITE_KERNELS_INTERNAL_CPPMATH_H_
#define TENSORFLOW_LITE_KERNELS_INTERNAL_CPPMATH_H_

#include <cmath>

namespace tflite {

#if defined(TF_LITE_USE_GLOBAL_CMATH_FUNCTIONS) || defined(ARDUINO) || \
    defined(__ZEPHYR__)
#define TF_LITE_GLOBAL_STD_PREFIX
#else
#define TF_LITE_GLOBAL_STD_PREFIX std
#endif

#define DECLARE_STD_GLOBAL_SWITCH1(tf_name, std_name) \
  template <class T>                                  \
  inline T tf_name(const T x) {                       \
    return TF_LITE_GLOBAL_STD_PREFIX::std_name(x);    \
  }

DECLARE_STD_GLOBAL_SWITCH1(TfLiteRound, round)

}  // namespace tflite

#endif  // TENSORFLOW_LITE_KERNELS_INTERNAL_CPPMATH_H_
