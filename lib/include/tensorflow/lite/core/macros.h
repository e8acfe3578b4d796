// Small portability macros used by TFLite kernels (subset of upstream
// tensorflow/lite/core/macros.h).
#ifndef TENSORFLOW_LITE_CORE_MACROS_H_
#define TENSORFLOW_LITE_CORE_MACROS_H_

#ifdef __has_builtin
#define TFLITE_HAS_BUILTIN(x) __has_builtin(x)
#else
#define TFLITE_HAS_BUILTIN(x) 0
#endif

#if TFLITE_HAS_BUILTIN(__builtin_expect) || defined(__GNUC__)
#define TFLITE_EXPECT_FALSE(cond) __builtin_expect(cond, false)
#define TFLITE_EXPECT_TRUE(cond) __builtin_expect(!!(cond), true)
#else
#define TFLITE_EXPECT_FALSE(cond) (cond)
#define TFLITE_EXPECT_TRUE(cond) (cond)
#endif

#ifdef __has_attribute
#define TFLITE_HAS_ATTRIBUTE(x) __has_attribute(x)
#else
#define TFLITE_HAS_ATTRIBUTE(x) 0
#endif

#if defined(__GNUC__) || TFLITE_HAS_ATTRIBUTE(noinline)
#define TFLITE_NOINLINE __attribute__((noinline))
#elif defined(_WIN32)
#define TFLITE_NOINLINE __declspec(noinline)
#else
#define TFLITE_NOINLINE
#endif

#if (TFLITE_HAS_ATTRIBUTE(weak) || defined(__GNUC__)) && !defined(_WIN32)
#define TFLITE_ATTRIBUTE_WEAK __attribute__((weak))
#define TFLITE_HAS_ATTRIBUTE_WEAK 1
#else
#define TFLITE_ATTRIBUTE_WEAK
#define TFLITE_HAS_ATTRIBUTE_WEAK 0
#endif

#endif  // TENSORFLOW_LITE_CORE_MACROS_H_
