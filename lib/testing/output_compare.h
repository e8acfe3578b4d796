// For end-to-end tests that compare output files of `tflite-inspect run`: the largest
// difference between two raw tensors of one dtype, and how many values differ by more
// than 1 (integer outputs: quantization steps). Test-only.
#ifndef TFLITE_INSPECT_LIB_TESTING_OUTPUT_COMPARE_H_
#define TFLITE_INSPECT_LIB_TESTING_OUTPUT_COMPARE_H_

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace tflite_inspect {
namespace testing {

// max |got - want|, max |want|, how many values are more than 1 apart, how many values.
struct OutputErrors {
  double max_err = 0, max_ref = 0;
  size_t over_one = 0, n = 0;
};

template <typename T>
OutputErrors CompareOutputs(const std::string& got, const std::string& want) {
  OutputErrors e;
  e.n = std::min(got.size(), want.size()) / sizeof(T);
  for (size_t i = 0; i < e.n; ++i) {
    T a, b;
    std::memcpy(&a, got.data() + i * sizeof(T), sizeof(T));
    std::memcpy(&b, want.data() + i * sizeof(T), sizeof(T));
    const double d = std::fabs(static_cast<double>(a) - static_cast<double>(b));
    // NaN in one and not the other counts as an infinite error.
    const bool nan_mismatch = std::isnan(static_cast<double>(a)) != std::isnan(static_cast<double>(b));
    e.max_err = std::max(e.max_err, nan_mismatch ? INFINITY : (std::isnan(d) ? 0.0 : d));
    e.max_ref = std::max(e.max_ref, std::fabs(static_cast<double>(b)));
    if (d > 1 || nan_mismatch) ++e.over_one;
  }
  return e;
}

// `dtype` as outputs.json or a golden's report.json spells it ("float32" or "FLOAT32");
// false for a dtype this does not compare.
inline bool CompareOutputs(std::string dtype, const std::string& got, const std::string& want,
                           OutputErrors* e) {
  std::transform(dtype.begin(), dtype.end(), dtype.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (dtype == "float32") *e = CompareOutputs<float>(got, want);
  else if (dtype == "int8") *e = CompareOutputs<int8_t>(got, want);
  else if (dtype == "uint8") *e = CompareOutputs<uint8_t>(got, want);
  else if (dtype == "int16") *e = CompareOutputs<int16_t>(got, want);
  else if (dtype == "int32") *e = CompareOutputs<int32_t>(got, want);
  else if (dtype == "int64") *e = CompareOutputs<int64_t>(got, want);
  else if (dtype == "bool") *e = CompareOutputs<uint8_t>(got, want);
  else return false;
  return true;
}

}  // namespace testing
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TESTING_OUTPUT_COMPARE_H_
