#ifndef TFLITE_INSPECT_CMD_INSPECT_OPS_INSPECT_OPS_MAIN_H_
#define TFLITE_INSPECT_CMD_INSPECT_OPS_INSPECT_OPS_MAIN_H_

namespace tflite_inspect {
// The inspect_ops tool; also reached as `tflite-inspect inspect_ops`.
int InspectOpsMain(int argc, const char* const* argv);
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_CMD_INSPECT_OPS_INSPECT_OPS_MAIN_H_
