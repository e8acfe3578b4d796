// benchmark_model --output_json: every statistic and per-run latency, the parameters,
// the model (path, size, sha256), delegates, the init breakdown, memory, the machine
// and the build. Schema: docs/benchmark_model.md ("schema": "tflite-inspect.benchmark/1").
#ifndef TFLITE_INSPECT_LIB_BENCHMARK_BENCHMARK_JSON_H_
#define TFLITE_INSPECT_LIB_BENCHMARK_BENCHMARK_JSON_H_

#include "benchmark/benchmark_model.h"
#include "nlohmann/json.hpp"

namespace tflite_inspect {

inline constexpr char kBenchmarkJsonSchema[] = "tflite-inspect.benchmark/1";

nlohmann::json BenchmarkResultToJson(const BenchmarkOptions& options, const BenchmarkResult& r);

// What makes two runs' latencies comparable (JSON "configuration", which the CI gate
// checks): the model's sha256, the signature, the threads used, the inputs as run, the
// delegates applied and every delegate parameter.
nlohmann::json BenchmarkConfigurationJson(const BenchmarkOptions& options,
                                          const BenchmarkResult& r);

// The statistics object used for "warmup" and "inference" (microseconds).
nlohmann::json StatToJson(const Stat<int64_t>& s);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_BENCHMARK_BENCHMARK_JSON_H_
