// Test harness for builtin kernels: describe a model with ModelBuilder, then build it
// with the real FlatBufferModel + InterpreterBuilder + BuiltinOpResolver path, feed
// inputs, invoke, and read outputs. Errors the runtime reports are kept in errors().
//
//   ModelBuilder b;
//   int x = b.AddTensor(tflite::TensorType_FLOAT32, {1, 3}, "x"); ...
//   b.AddOperator(tflite::BuiltinOperator_ADD, {x, y}, {z}, Options(add));
//   b.SetInputs({x, y}); b.SetOutputs({z});
//   OpTestModel m(b);
//   REQUIRE(m.Prepare() == kTfLiteOk);
//   m.SetInput<float>(0, {1, 2, 3}); m.SetInput<float>(1, {...});
//   REQUIRE(m.Invoke() == kTfLiteOk);
//   CHECK(m.Output<float>(0) == std::vector<float>{...});
#ifndef TFLITE_INSPECT_LIB_KERNELS_TESTING_OP_TEST_UTIL_H_
#define TFLITE_INSPECT_LIB_KERNELS_TESTING_OP_TEST_UTIL_H_

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"

namespace tflite_inspect {

class CapturingErrorReporter : public tflite::ErrorReporter {
 public:
  using tflite::ErrorReporter::Report;
  int Report(const char* format, va_list args) override {
    char buf[4096];
    int n = std::vsnprintf(buf, sizeof buf, format, args);
    text_ += buf;
    text_ += "\n";
    return n;
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

class OpTestModel {
 public:
  // `resolver` defaults to BuiltinOpResolver.
  explicit OpTestModel(const ModelBuilder& builder, int num_threads = 1,
                       const tflite::OpResolver* resolver = nullptr)
      : bytes_(builder.Build()), num_threads_(num_threads), resolver_(resolver) {}

  // Loads, builds the interpreter and allocates tensors.
  TfLiteStatus Prepare() {
    model_ = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes_.data()),
                                                      bytes_.size(), &reporter_);
    if (model_ == nullptr) return kTfLiteError;
    const tflite::OpResolver& r = resolver_ != nullptr ? *resolver_ : builtin_;
    if (tflite::InterpreterBuilder(*model_, r, &reporter_)(&interpreter_, num_threads_) !=
        kTfLiteOk) {
      return kTfLiteError;
    }
    return interpreter_->AllocateTensors();
  }

  template <typename T>
  void SetInput(int input, const std::vector<T>& values) {
    TfLiteTensor* t = interpreter_->input_tensor(input);
    if (t->bytes != values.size() * sizeof(T)) {
      throw std::runtime_error("SetInput: " + std::to_string(values.size() * sizeof(T)) +
                               " bytes given, tensor has " + std::to_string(t->bytes));
    }
    std::memcpy(t->data.raw, values.data(), t->bytes);
  }

  TfLiteStatus Invoke() { return interpreter_->Invoke(); }

  template <typename T>
  std::vector<T> Output(int output) const {
    const TfLiteTensor* t = interpreter_->output_tensor(output);
    const T* p = reinterpret_cast<const T*>(t->data.raw);
    return std::vector<T>(p, p + t->bytes / sizeof(T));
  }

  std::vector<int> OutputShape(int output) const {
    const TfLiteTensor* t = interpreter_->output_tensor(output);
    return std::vector<int>(t->dims->data, t->dims->data + t->dims->size);
  }

  tflite::Interpreter& interpreter() { return *interpreter_; }
  const std::string& errors() const { return reporter_.text(); }

 private:
  std::vector<uint8_t> bytes_;
  int num_threads_;
  const tflite::OpResolver* resolver_;
  tflite::ops::builtin::BuiltinOpResolver builtin_;
  CapturingErrorReporter reporter_;
  std::unique_ptr<tflite::FlatBufferModel> model_;
  std::unique_ptr<tflite::Interpreter> interpreter_;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_KERNELS_TESTING_OP_TEST_UTIL_H_
