#include "inference_diff/inference_diff_main.h"
#include "tools/signals.h"

int main(int argc, char** argv) {
  tflite_inspect::InstallToolSignalHandlers();
  return tflite_inspect::ToolExitStatus(tflite_inspect::InferenceDiffMain(argc, argv));
}
