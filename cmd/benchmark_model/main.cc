#include "benchmark_model/benchmark_model_main.h"
#include "tools/signals.h"

int main(int argc, char** argv) {
  tflite_inspect::InstallToolSignalHandlers();
  return tflite_inspect::ToolExitStatus(tflite_inspect::BenchmarkModelMain(argc, argv));
}
