#ifndef TFLITE_INSPECT_CMD_INFERENCE_DIFF_INFERENCE_DIFF_MAIN_H_
#define TFLITE_INSPECT_CMD_INFERENCE_DIFF_INFERENCE_DIFF_MAIN_H_

namespace tflite_inspect {
// `inference_diff`: errors of the delegated (or another) model against our CPU
// reference, per output and, with --per_node, per node. docs/inference_diff.md.
int InferenceDiffMain(int argc, const char* const* argv);
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_CMD_INFERENCE_DIFF_INFERENCE_DIFF_MAIN_H_
