#ifndef TFLITE_INSPECT_CMD_BENCHMARK_MODEL_BENCHMARK_MODEL_MAIN_H_
#define TFLITE_INSPECT_CMD_BENCHMARK_MODEL_BENCHMARK_MODEL_MAIN_H_

namespace tflite_inspect {
// `benchmark_model`: TFLite's benchmark tool (flags, log lines), plus --output_json and
// a CI latency gate (--baseline, --max_regression_pct). docs/benchmark_model.md.
int BenchmarkModelMain(int argc, const char* const* argv);
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_CMD_BENCHMARK_MODEL_BENCHMARK_MODEL_MAIN_H_
