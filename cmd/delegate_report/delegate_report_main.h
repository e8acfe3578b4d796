#ifndef TFLITE_INSPECT_CMD_DELEGATE_REPORT_DELEGATE_REPORT_MAIN_H_
#define TFLITE_INSPECT_CMD_DELEGATE_REPORT_DELEGATE_REPORT_MAIN_H_

namespace tflite_inspect {
// `tflite-inspect delegate_report`: which delegate runs which node, why the rest stay on
// the CPU, and the bytes that cross each boundary, without running inference.
int DelegateReportMain(int argc, const char* const* argv);
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_CMD_DELEGATE_REPORT_DELEGATE_REPORT_MAIN_H_
