// benchmark_model --export_model_runtime_info: TFLite's ModelRuntimeDetails
// (tensorflow/lite/profiling/proto/model_runtime_info.proto) of an interpreter after its
// delegates were applied, as TFLite's GenerateModelRuntimeInfo writes it: per subgraph
// every tensor as an Edge (id, name, data type, shape, allocation type, size; layout
// UNKNOWN) and every node (id, name, type, inputs, outputs, intermediates, temporaries;
// a delegate kernel with its delegate's name and the nodes it replaced, a replaced node
// with the kernel that runs it), then the execution plan.
#ifndef TFLITE_INSPECT_LIB_BENCHMARK_MODEL_RUNTIME_INFO_H_
#define TFLITE_INSPECT_LIB_BENCHMARK_MODEL_RUNTIME_INFO_H_

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/interpreter.h"
#include "util/proto_writer.h"

namespace tflite_inspect {

// "kTfLiteArenaRw", ... as TFLite's optional_debug_tools names them ("(invalid)" else).
const char* AllocTypeName(TfLiteAllocationType type);

// The ModelRuntimeDetails message: wire bytes and protobuf's text format.
ProtoWriter ModelRuntimeInfo(tflite::Interpreter& interpreter);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_BENCHMARK_MODEL_RUNTIME_INFO_H_
