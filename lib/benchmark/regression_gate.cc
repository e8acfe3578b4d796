#include "benchmark/regression_gate.h"

#include <cmath>

#include <fmt/format.h>

namespace tflite_inspect {
namespace {

struct Side {
  bool ok = false;
  std::string error;
  double median = 0, std = 0;
  int64_t n = 0;
};

Side Read(const nlohmann::json& j, const char* which) {
  Side s;
  const auto inf = j.find("inference");
  if (!j.is_object() || inf == j.end() || !inf->is_object() || !inf->contains("p50") ||
      !inf->contains("std") || !inf->contains("count")) {
    s.error = fmt::format("the {} JSON has no inference.p50 / std / count (is it benchmark_model "
                          "--output_json output?)", which);
    return s;
  }
  try {
    s.median = (*inf)["p50"].get<double>();
    s.std = (*inf)["std"].get<double>();
    s.n = (*inf)["count"].get<int64_t>();
  } catch (const nlohmann::json::exception& e) {
    s.error = fmt::format("the {} JSON has a malformed inference block: {}", which, e.what());
    return s;
  }
  s.ok = true;
  return s;
}

}  // namespace

GateVerdict CheckRegression(const nlohmann::json& baseline, const nlohmann::json& current,
                            double max_regression_pct) {
  GateVerdict v;
  const Side b = Read(baseline, "baseline");
  const Side c = Read(current, "current");
  if (!b.ok || !c.ok) {
    v.line = "INVALID: " + (b.ok ? c.error : b.error);
    return v;
  }
  v.baseline_median_us = b.median;
  v.current_median_us = c.median;
  if (b.median <= 0) {
    v.line = "INVALID: the baseline median is not positive";
    return v;
  }
  v.change_pct = (c.median - b.median) / b.median * 100.0;
  if (b.n < kMinGateRuns || c.n < kMinGateRuns) {
    v.kind = GateVerdict::kInconclusive;
    v.line = fmt::format("INCONCLUSIVE: {} baseline and {} current runs; the gate needs at least "
                         "{} of each (raise --num_runs)", b.n, c.n, kMinGateRuns);
    return v;
  }
  const double se_b = 1.2533 * b.std / std::sqrt(static_cast<double>(b.n));
  const double se_c = 1.2533 * c.std / std::sqrt(static_cast<double>(c.n));
  v.noise_pct = 3.0 * std::sqrt(se_b * se_b + se_c * se_c) / b.median * 100.0;
  const double limit = std::max(max_regression_pct, v.noise_pct);
  const std::string figures =
      fmt::format("median {:.0f} us vs baseline {:.0f} us ({:+.1f}%), limit +{:.1f}% "
                  "(--max_regression_pct={:.1f}, noise ±{:.1f}%)",
                  c.median, b.median, v.change_pct, limit, max_regression_pct, v.noise_pct);
  if (v.change_pct > limit) {
    v.kind = GateVerdict::kRegression;
    v.line = "REGRESSION: " + figures;
  } else {
    v.kind = GateVerdict::kPass;
    v.line = "PASS: " + figures;
  }
  return v;
}

}  // namespace tflite_inspect
