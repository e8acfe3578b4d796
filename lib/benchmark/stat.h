// Stat: running statistics of a series, printed the way TFLite's tools print them
// (tensorflow/core/util/stats_calculator.h, Stat::OutputToStream), so log parsers
// written for TFLite's benchmark_model read ours:
//   count=50 first=1234 curr=1100 min=1050 max=1400 avg=1123.4 std=61
// Also keeps the samples for percentiles, which TFLite does not print.
#ifndef TFLITE_INSPECT_LIB_BENCHMARK_STAT_H_
#define TFLITE_INSPECT_LIB_BENCHMARK_STAT_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace tflite_inspect {

template <typename T>
class Stat {
 public:
  void UpdateStat(T v) {
    if (count_ == 0) {
      first_ = v;
      min_ = max_ = v;
    }
    newest_ = v;
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
    sum_ += static_cast<double>(v);
    squared_sum_ += static_cast<double>(v) * static_cast<double>(v);
    ++count_;
    samples_.push_back(v);
  }

  bool empty() const { return count_ == 0; }
  bool all_same() const { return count_ == 0 || min_ == max_; }
  int64_t count() const { return count_; }
  T first() const { return first_; }
  T newest() const { return newest_; }
  T min() const { return min_; }
  T max() const { return max_; }
  double sum() const { return sum_; }
  double avg() const { return count_ == 0 ? std::nan("") : sum_ / static_cast<double>(count_); }
  // Population standard deviation, as TFLite computes it.
  double std_deviation() const {
    if (all_same()) return 0.0;
    const double a = avg();
    return std::sqrt(std::max(0.0, squared_sum_ / static_cast<double>(count_) - a * a));
  }
  // Population variance (0 for a constant series), as TFLite's Stat::variance.
  double variance() const {
    if (all_same()) return 0.0;
    const double a = avg();
    return squared_sum_ / static_cast<double>(count_) - a * a;
  }
  // Standard deviation over the mean; 0 for an empty or constant series.
  double coefficient_of_variation() const {
    return count_ == 0 || avg() == 0.0 ? 0.0 : std_deviation() / avg();
  }
  // Nearest-rank percentile (p in [0, 100]) of the samples.
  T Percentile(double p) const {
    if (samples_.empty()) return T{};
    std::vector<T> sorted(samples_);
    std::sort(sorted.begin(), sorted.end());
    const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
    const size_t index = rank < 1.0 ? 0 : static_cast<size_t>(rank) - 1;
    return sorted[std::min(index, sorted.size() - 1)];
  }
  const std::vector<T>& samples() const { return samples_; }

  // TFLite's format: "count=0", "count=N curr=V(all same)", or the full line. The
  // average prints with 6 significant digits and std as T, as TFLite's stream does.
  std::string ToString() const {
    std::ostringstream s;
    if (empty()) {
      s << "count=0";
    } else if (all_same()) {
      s << "count=" << count_ << " curr=" << newest_;
      if (count_ > 1) s << "(all same)";
    } else {
      s << "count=" << count_ << " first=" << first_ << " curr=" << newest_ << " min=" << min_
        << " max=" << max_ << " avg=" << avg() << " std=" << static_cast<T>(std_deviation());
    }
    return s.str();
  }

 private:
  int64_t count_ = 0;
  T first_{}, newest_{}, min_{}, max_{};
  double sum_ = 0.0, squared_sum_ = 0.0;
  std::vector<T> samples_;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_BENCHMARK_STAT_H_
