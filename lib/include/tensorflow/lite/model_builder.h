// FlatBufferModel: a .tflite model loaded for the interpreter (TFLite's API).
//
// Unlike TFLite, where BuildFromFile trusts the bytes and only VerifyAndBuildFromFile
// runs the flatbuffer verifier, every Build* here verifies the flatbuffer and validates
// every index and size before returning a model (tflite_inspect::Model). On failure
// they report the precise reason to the ErrorReporter and return nullptr.
//
// The model must outlive every Interpreter built from it: constant tensors point into
// its (memory-mapped or caller-owned) bytes.
#ifndef TENSORFLOW_LITE_MODEL_BUILDER_H_
#define TENSORFLOW_LITE_MODEL_BUILDER_H_

#include <cstddef>
#include <memory>
#include <string>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {
class Model;
}

namespace tflite {

class FlatBufferModel {
 public:
  static std::unique_ptr<FlatBufferModel> BuildFromFile(
      const char* filename, ErrorReporter* error_reporter = DefaultErrorReporter());
  static std::unique_ptr<FlatBufferModel> VerifyAndBuildFromFile(
      const char* filename, ErrorReporter* error_reporter = DefaultErrorReporter());
  // `caller_owned_buffer` must stay valid for the life of the model.
  static std::unique_ptr<FlatBufferModel> BuildFromBuffer(
      const char* caller_owned_buffer, size_t buffer_size,
      ErrorReporter* error_reporter = DefaultErrorReporter());
  static std::unique_ptr<FlatBufferModel> VerifyAndBuildFromBuffer(
      const char* caller_owned_buffer, size_t buffer_size,
      ErrorReporter* error_reporter = DefaultErrorReporter());

  // Wraps an already loaded model; the Build* functions are the usual way in.
  FlatBufferModel(std::unique_ptr<tflite_inspect::Model> model, ErrorReporter* reporter);
  ~FlatBufferModel();
  FlatBufferModel(const FlatBufferModel&) = delete;
  FlatBufferModel& operator=(const FlatBufferModel&) = delete;

  const tflite::Model* GetModel() const;
  const tflite::Model* operator->() const { return GetModel(); }
  ErrorReporter* error_reporter() const { return error_reporter_; }
  bool initialized() const { return model_ != nullptr; }
  // The model's min_runtime_version metadata, or "" when absent.
  std::string GetMinimumRuntime() const;

  // The validated model behind this one (tflite-inspect extension).
  const tflite_inspect::Model& inspect_model() const { return *model_; }

 private:
  std::unique_ptr<tflite_inspect::Model> model_;
  ErrorReporter* error_reporter_;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_MODEL_BUILDER_H_
