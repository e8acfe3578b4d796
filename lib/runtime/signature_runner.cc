#include "tensorflow/lite/core/signature_runner.h"

#include "tensorflow/lite/interpreter.h"

namespace tflite {

SignatureRunner::SignatureRunner(const internal::SignatureDef* signature_def, Subgraph* subgraph,
                                 Interpreter* interpreter)
    : signature_def_(signature_def), subgraph_(subgraph), interpreter_(interpreter) {
  for (const auto& [name, index] : signature_def_->inputs) input_names_.push_back(name.c_str());
  for (const auto& [name, index] : signature_def_->outputs) output_names_.push_back(name.c_str());
  // The subgraph's order: its I/O tensors named by the signature (a tensor the signature
  // does not name is left out, as TFLite leaves it out).
  auto in_subgraph_order = [](const std::map<std::string, uint32_t>& names,
                              const std::vector<int>& tensors, std::vector<const char*>* out) {
    for (int t : tensors) {
      for (const auto& [name, index] : names) {
        if (static_cast<int>(index) == t) {
          out->push_back(name.c_str());
          break;
        }
      }
    }
  };
  in_subgraph_order(signature_def_->inputs, subgraph_->inputs(), &subgraph_input_names_);
  in_subgraph_order(signature_def_->outputs, subgraph_->outputs(), &subgraph_output_names_);
}

int SignatureRunner::TensorOf(const char* name, bool input) const {
  const auto& names = input ? signature_def_->inputs : signature_def_->outputs;
  auto it = name == nullptr ? names.end() : names.find(name);
  if (it == names.end()) {
    // TFLite's words.
    subgraph_->ReportError("%s name %s was not found", input ? "Input" : "Output",
                           name != nullptr ? name : "(null)");
    return -1;
  }
  return static_cast<int>(it->second);
}

TfLiteTensor* SignatureRunner::input_tensor(const char* input_name) {
  const int t = TensorOf(input_name, true);
  return t < 0 ? nullptr : subgraph_->tensor(t);
}

const TfLiteTensor* SignatureRunner::output_tensor(const char* output_name) const {
  const int t = TensorOf(output_name, false);
  return t < 0 ? nullptr : subgraph_->tensor(t);
}

TfLiteStatus SignatureRunner::ResizeInputTensor(const char* input_name,
                                                const std::vector<int>& new_size) {
  const int t = TensorOf(input_name, true);
  return t < 0 ? kTfLiteError : subgraph_->ResizeInputTensor(t, new_size);
}

TfLiteStatus SignatureRunner::ResizeInputTensorStrict(const char* input_name,
                                                      const std::vector<int>& new_size) {
  const int t = TensorOf(input_name, true);
  return t < 0 ? kTfLiteError : subgraph_->ResizeInputTensorStrict(t, new_size);
}

TfLiteStatus SignatureRunner::Invoke() {
  interpreter_->BeginInvoke();
  TF_LITE_ENSURE_STATUS(subgraph_->Invoke());
  if (!allow_buffer_handle_output_) {
    for (int t : subgraph_->outputs()) TF_LITE_ENSURE_STATUS(subgraph_->EnsureTensorDataIsReadable(t));
  }
  return kTfLiteOk;
}

TfLiteStatus SignatureRunner::Cancel() { return interpreter_->Cancel(); }

}  // namespace tflite
