// The CI latency gate of benchmark_model (--baseline=B.json --max_regression_pct=P):
// compares this run's median inference latency with a baseline's (both from
// --output_json) and calls it a regression only when the slowdown exceeds P percent
// AND is larger than the noise of the two measurements.
//
// Noise: each side's median is uncertain by about 1.2533 * std / sqrt(n) (the standard
// error of a median of roughly normal samples); the gate requires the slowdown to exceed
// three times the combined standard error, so a noisy pair of runs does not fail CI by
// chance. With fewer than kMinRuns runs on either side the verdict is "inconclusive",
// which fails the gate too: a CI gate must not pass on no evidence. Nor on a wrong
// comparison: a baseline of another model or configuration is refused.
#ifndef TFLITE_INSPECT_LIB_BENCHMARK_REGRESSION_GATE_H_
#define TFLITE_INSPECT_LIB_BENCHMARK_REGRESSION_GATE_H_

#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace tflite_inspect {

struct GateVerdict {
  enum Kind { kPass, kRegression, kInconclusive, kInvalid } kind = kInvalid;
  double baseline_median_us = 0, current_median_us = 0;
  double change_pct = 0;  // (current - baseline) / baseline * 100
  double noise_pct = 0;   // 3 combined standard errors, in percent of the baseline
  std::string line;       // one-line verdict for the log
  std::string mismatch;   // with allow_mismatch: what differs (empty when nothing does)
  bool failed() const { return kind != kPass; }
};

inline constexpr int kMinGateRuns = 5;

// The two runs must have the same "configuration" (benchmark_json.h): otherwise the
// verdict is kInvalid ("INVALID: baseline is for another model/configuration: ..."),
// or, with allow_mismatch, the comparison goes on and `mismatch` says what differs.
GateVerdict CheckRegression(const nlohmann::json& baseline, const nlohmann::json& current,
                            double max_regression_pct, bool allow_mismatch = false);

// What differs between the two runs' configurations, one phrase each ("num_threads: 4 in
// the baseline, 1 now"); empty when they match.
std::vector<std::string> ConfigurationDifferences(const nlohmann::json& baseline,
                                                  const nlohmann::json& current);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_BENCHMARK_REGRESSION_GATE_H_
