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

std::string Short(const nlohmann::json& v) {
  std::string text = v.is_string() ? v.get<std::string>() : v.dump();
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

}  // namespace

std::vector<std::string> ConfigurationDifferences(const nlohmann::json& baseline,
                                                  const nlohmann::json& current) {
  const auto b = baseline.find("configuration");
  const auto c = current.find("configuration");
  if (!baseline.is_object() || b == baseline.end() || !b->is_object()) {
    return {"the baseline records no configuration (made before tflite-inspect checked it?)"};
  }
  if (!current.is_object() || c == current.end() || !c->is_object()) {
    return {"this run records no configuration"};
  }
  std::vector<std::string> out;
  for (const char* key :
       {"model_sha256", "signature", "num_threads", "inputs", "delegates", "delegate_params",
        "interpreter_options"}) {
    const auto bv = b->find(key);
    const auto cv = c->find(key);
    const nlohmann::json none;
    const nlohmann::json& x = bv == b->end() ? none : *bv;
    const nlohmann::json& y = cv == c->end() ? none : *cv;
    if (x == y) continue;
    if (x.is_array() && y.is_array()) {
      // Name the first entry that differs rather than two long lists.
      size_t i = 0;
      while (i < x.size() && i < y.size() && x[i] == y[i]) ++i;
      out.push_back(fmt::format("{}: {} in the baseline, {} now", key,
                                i < x.size() ? Short(x[i]) : "(none)",
                                i < y.size() ? Short(y[i]) : "(none)"));
    } else {
      out.push_back(fmt::format("{}: {} in the baseline, {} now", key, Short(x), Short(y)));
    }
  }
  return out;
}

GateVerdict CheckRegression(const nlohmann::json& baseline, const nlohmann::json& current,
                            double max_regression_pct, bool allow_mismatch) {
  GateVerdict v;
  const Side b = Read(baseline, "baseline");
  const Side c = Read(current, "current");
  if (!b.ok || !c.ok) {
    v.line = "INVALID: " + (b.ok ? c.error : b.error);
    return v;
  }
  const std::vector<std::string> differences = ConfigurationDifferences(baseline, current);
  if (!differences.empty()) {
    std::string joined;
    for (const auto& d : differences) joined += (joined.empty() ? "" : "; ") + d;
    if (!allow_mismatch) {
      v.line = "INVALID: baseline is for another model/configuration: " + joined +
               " (rerun the baseline with these settings, or --allow_baseline_mismatch)";
      return v;
    }
    v.mismatch = joined;
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
