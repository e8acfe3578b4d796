#include "tensorflow/lite/core/api/error_reporter.h"

#include <cstdio>

namespace tflite {

int ErrorReporter::Report(const char* format, ...) {
  va_list args;
  va_start(args, format);
  int n = Report(format, args);
  va_end(args);
  return n;
}

int ErrorReporter::ReportError(void*, const char* format, ...) {
  va_list args;
  va_start(args, format);
  int n = Report(format, args);
  va_end(args);
  return n;
}

namespace {

class StderrReporter : public ErrorReporter {
 public:
  using ErrorReporter::Report;
  int Report(const char* format, va_list args) override {
    int n = std::vfprintf(stderr, format, args);
    std::fputc('\n', stderr);
    return n;
  }
};

}  // namespace

ErrorReporter* DefaultErrorReporter() {
  static StderrReporter* reporter = new StderrReporter();  // never destroyed: used at exit
  return reporter;
}

}  // namespace tflite
