// SignatureRunner: runs one of a model's signatures (a named computation on one subgraph,
// with named inputs and outputs), TFLite's C++ API. Made and owned by the Interpreter
// (Interpreter::GetSignatureRunner); valid as long as it is.
#ifndef TENSORFLOW_LITE_CORE_SIGNATURE_RUNNER_H_
#define TENSORFLOW_LITE_CORE_SIGNATURE_RUNNER_H_

#include <cstddef>
#include <string>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/internal/signature_def.h"

namespace tflite {

class Interpreter;

class SignatureRunner {
 public:
  const std::string& signature_key() { return signature_def_->signature_key; }
  size_t input_size() const { return subgraph_->inputs().size(); }
  size_t output_size() const { return subgraph_->outputs().size(); }
  // Names in the signature's order (sorted, as TFLite's map), and in the subgraph's.
  const std::vector<const char*>& input_names() { return input_names_; }
  const std::vector<const char*>& output_names() { return output_names_; }
  const std::vector<const char*>& subgraph_input_names() { return subgraph_input_names_; }
  const std::vector<const char*>& subgraph_output_names() { return subgraph_output_names_; }

  // nullptr (and a reported error) for a name the signature does not have.
  TfLiteTensor* input_tensor(const char* input_name);
  const TfLiteTensor* output_tensor(const char* output_name) const;
  TfLiteStatus ResizeInputTensor(const char* input_name, const std::vector<int>& new_size);
  TfLiteStatus ResizeInputTensorStrict(const char* input_name, const std::vector<int>& new_size);

  // Plans and allocates this signature's subgraph only.
  TfLiteStatus AllocateTensors() { return subgraph_->AllocateTensors(); }
  // Runs the subgraph; outputs are readable afterwards unless buffer-handle output is on.
  TfLiteStatus Invoke();
  // As Interpreter::Cancel (the interpreter's cancellation covers every runner).
  TfLiteStatus Cancel();
  void SetAllowBufferHandleOutput(bool allow) { allow_buffer_handle_output_ = allow; }

  // tflite-inspect: the subgraph this signature runs (its index is
  // signature_def.subgraph_index).
  Subgraph* subgraph() const { return subgraph_; }

 private:
  friend class Interpreter;
  SignatureRunner(const internal::SignatureDef* signature_def, Subgraph* subgraph,
                  Interpreter* interpreter);
  // The tensor an input (or output) name maps to; -1, reported, for an unknown name.
  int TensorOf(const char* name, bool input) const;

  const internal::SignatureDef* signature_def_;  // owned by the interpreter
  Subgraph* subgraph_;                           // owned by the interpreter
  Interpreter* interpreter_;
  std::vector<const char*> input_names_, output_names_;
  std::vector<const char*> subgraph_input_names_, subgraph_output_names_;
  bool allow_buffer_handle_output_ = false;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_CORE_SIGNATURE_RUNNER_H_
