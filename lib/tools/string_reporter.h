// An ErrorReporter that keeps what the runtime reports, so the tools can put the
// runtime's own messages into their errors. A message already kept is not kept again:
// after a failed delegate the runtime restores the graph and prepares it again, and a
// failing node would otherwise be reported once per attempt.
#ifndef TFLITE_INSPECT_LIB_TOOLS_STRING_REPORTER_H_
#define TFLITE_INSPECT_LIB_TOOLS_STRING_REPORTER_H_

#include <cstdarg>
#include <cstdio>
#include <set>
#include <string>

#include "tensorflow/lite/core/api/error_reporter.h"

namespace tflite_inspect {

class StringErrorReporter : public tflite::ErrorReporter {
 public:
  using tflite::ErrorReporter::Report;
  int Report(const char* format, va_list args) override {
    char buf[2048];
    const int n = std::vsnprintf(buf, sizeof(buf), format, args);
    if (!seen_.insert(buf).second) return n;
    if (!text_.empty()) text_ += "\n";
    text_ += buf;
    return n;
  }
  // Every message so far, one per line.
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::set<std::string> seen_;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_STRING_REPORTER_H_
