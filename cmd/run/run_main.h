#ifndef TFLITE_INSPECT_CMD_RUN_RUN_MAIN_H_
#define TFLITE_INSPECT_CMD_RUN_RUN_MAIN_H_

namespace tflite_inspect {
// `tflite-inspect run`: one inference, outputs written as raw tensors + outputs.json.
int RunMain(int argc, const char* const* argv);
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_CMD_RUN_RUN_MAIN_H_
