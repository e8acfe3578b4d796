// Status and Result: the error type of the tool layer (lib/ outside the TFLite C API).
// Library code never throws, aborts or exits on bad input; it returns one of these.
#ifndef TFLITE_INSPECT_LIB_UTIL_STATUS_H_
#define TFLITE_INSPECT_LIB_UTIL_STATUS_H_

#include <optional>
#include <string>
#include <utility>

namespace tflite_inspect {

enum class StatusCode {
  kOk = 0,
  kInvalidModel,      // bytes that are not a usable TFLite model
  kIoError,           // file cannot be opened, read or mapped
  kInvalidArgument,   // bad caller input (flag values, indices)
  kNotFound,          // something asked for does not exist
  kUnsupported,       // valid, but this runtime cannot do it
  kInternal,          // an invariant broke: a bug in tflite-inspect
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status InvalidModel(std::string m) { return Status(StatusCode::kInvalidModel, std::move(m)); }
inline Status IoError(std::string m) { return Status(StatusCode::kIoError, std::move(m)); }
inline Status InvalidArgument(std::string m) {
  return Status(StatusCode::kInvalidArgument, std::move(m));
}

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT: must not be ok
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace tflite_inspect

#define TFI_RETURN_IF_ERROR(expr)          \
  do {                                     \
    ::tflite_inspect::Status _st = (expr); \
    if (!_st.ok()) return _st;             \
  } while (0)

#endif  // TFLITE_INSPECT_LIB_UTIL_STATUS_H_
