#include "inspect_ops/inspect_ops_main.h"
#include "tools/signals.h"

int main(int argc, char** argv) {
  tflite_inspect::InstallToolSignalHandlers();
  return tflite_inspect::ToolExitStatus(tflite_inspect::InspectOpsMain(argc, argv));
}
