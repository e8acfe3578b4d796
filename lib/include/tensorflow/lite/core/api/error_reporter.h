// ErrorReporter: where the runtime writes its error messages (TFLite's interface).
#ifndef TENSORFLOW_LITE_CORE_API_ERROR_REPORTER_H_
#define TENSORFLOW_LITE_CORE_API_ERROR_REPORTER_H_

#include <cstdarg>

namespace tflite {

class ErrorReporter {
 public:
  virtual ~ErrorReporter() = default;
  // printf-style; returns the number of characters written (or a negative value).
  virtual int Report(const char* format, va_list args) = 0;
  int Report(const char* format, ...);
  int ReportError(void* /*ignored*/, const char* format, ...);
};

// Writes to stderr; lives for the whole process.
ErrorReporter* DefaultErrorReporter();

}  // namespace tflite

#define TF_LITE_REPORT_ERROR(reporter, ...)                               \
  do {                                                                    \
    static_cast<::tflite::ErrorReporter*>(reporter)->Report(__VA_ARGS__); \
  } while (false)

#endif  // TENSORFLOW_LITE_CORE_API_ERROR_REPORTER_H_
