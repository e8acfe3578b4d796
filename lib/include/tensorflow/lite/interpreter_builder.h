// InterpreterBuilder: turns a FlatBufferModel and an OpResolver into an Interpreter
// (TFLite's API). Every operator is resolved before anything is allocated; a builtin
// op the resolver lacks fails the build with TFLite's message, and the log then lists
// every other miss in the model with the registered version range.
#ifndef TENSORFLOW_LITE_INTERPRETER_BUILDER_H_
#define TENSORFLOW_LITE_INTERPRETER_BUILDER_H_

#include <memory>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/api/op_resolver.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model_builder.h"

namespace tflite {

class InterpreterBuilder {
 public:
  InterpreterBuilder(const FlatBufferModel& model, const OpResolver& op_resolver);
  InterpreterBuilder(const FlatBufferModel& model, const OpResolver& op_resolver,
                     ErrorReporter* error_reporter);
  // As TFLite: the options are applied to the interpreter it builds (ApplyOptions).
  InterpreterBuilder(const FlatBufferModel& model, const OpResolver& op_resolver,
                     const InterpreterOptions* options_experimental);
  ~InterpreterBuilder();
  InterpreterBuilder(const InterpreterBuilder&) = delete;
  InterpreterBuilder& operator=(const InterpreterBuilder&) = delete;

  // Builds into *interpreter (reset to nullptr on failure).
  TfLiteStatus operator()(std::unique_ptr<Interpreter>* interpreter);
  TfLiteStatus operator()(std::unique_ptr<Interpreter>* interpreter, int num_threads);
  TfLiteStatus SetNumThreads(int num_threads);
  // Delegates applied, in this order, once the interpreter is built; one that fails
  // fails the build. Not owned: must outlive the interpreter.
  void AddDelegate(TfLiteDelegate* delegate);

 private:
  TfLiteStatus ResolveOps(std::vector<const TfLiteRegistration*>* registrations);
  TfLiteStatus BuildSubgraph(int index, const std::vector<const TfLiteRegistration*>& regs,
                             Subgraph* subgraph);

  const FlatBufferModel& model_;
  const OpResolver& op_resolver_;
  ErrorReporter* error_reporter_;
  const InterpreterOptions* options_ = nullptr;
  int num_threads_ = -1;
  std::vector<TfLiteDelegate*> delegates_;
  // Placeholder kernels for custom ops the resolver lacks: they fail at prepare with
  // TFLite's "Encountered unresolved custom op" (a delegate may still claim them).
  std::vector<std::unique_ptr<TfLiteRegistration>> unresolved_;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_INTERPRETER_BUILDER_H_
