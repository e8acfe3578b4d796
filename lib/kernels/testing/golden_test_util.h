// Kernel goldens of the real TFLite runtime (testdata/kernels/<case>/, written
// by scripts/gen_kernel_goldens.py): a case is a single-op model built with the
// ModelBuilder; CheckCase runs the committed model on the committed inputs and
// compares every output (integers exactly, floats bit for bit unless the case
// names a tolerance; a model TFLite refused at AllocateTensors, or at Invoke on the
// committed inputs, must be refused there here too). WriteModels writes each case's model for the script (the hidden
// [.write_kernel_models] test of each golden test file). Test-only (Catch2
// assertions).
#ifndef TFLITE_INSPECT_LIB_KERNELS_TESTING_GOLDEN_TEST_UTIL_H_
#define TFLITE_INSPECT_LIB_KERNELS_TESTING_GOLDEN_TEST_UTIL_H_

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "kernels/testing/op_test_util.h"
#include "nlohmann/json.hpp"

namespace tflite_inspect {
namespace golden_test {

namespace fs = std::filesystem;

struct GoldenCase {
  const char* name;
  ModelBuilder (*build)();
  double float_tolerance;  // max |ours - TFLite| / max(1, max|TFLite|); 0:
                           // bit-exact
  int int_steps = 0;       // integer outputs: max |ours - TFLite|; 0: bit-exact
};

inline fs::path GoldenDir(const std::string& name) {
  return fs::path(TFI_SOURCE_DIR) / "testdata" / "kernels" / name;
}

inline std::vector<uint8_t> ReadBytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

template <typename T>
double MaxAbsDiff(const uint8_t* a, const uint8_t* b, size_t bytes) {
  double m = 0;
  for (size_t i = 0; i < bytes / sizeof(T); ++i) {
    T x, y;
    std::memcpy(&x, a + i * sizeof(T), sizeof(T));
    std::memcpy(&y, b + i * sizeof(T), sizeof(T));
    m = std::max(m, std::fabs(static_cast<double>(x) - static_cast<double>(y)));
  }
  return m;
}

inline double MaxAbs(const float* v, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; ++i) m = std::max(m, std::fabs(static_cast<double>(v[i])));
  return m;
}

inline void CheckCase(const GoldenCase& c, int num_threads) {
  const fs::path dir = GoldenDir(c.name);
  CAPTURE(c.name, num_threads);
  REQUIRE(fs::exists(dir / "report.json"));
  const auto report = nlohmann::json::parse(std::ifstream(dir / "report.json"));
  const std::vector<uint8_t> model_bytes = ReadBytes(dir / "model.tflite");
  // The committed model is what the builder makes today (else regenerate the
  // goldens).
  CHECK(c.build().Build() == model_bytes);
  CapturingErrorReporter reporter;
  auto model = tflite::FlatBufferModel::BuildFromBuffer(
      reinterpret_cast<const char*>(model_bytes.data()), model_bytes.size(), &reporter);
  REQUIRE(model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  REQUIRE(tflite::InterpreterBuilder(*model, resolver, &reporter)(&interpreter, num_threads) ==
          kTfLiteOk);
  const TfLiteStatus allocated = interpreter->AllocateTensors();
  if (report.contains("refused")) {
    CAPTURE(report["refused"].get<std::string>());
    CHECK(allocated != kTfLiteOk);
    CHECK(!reporter.text().empty());
    return;
  }
  REQUIRE(allocated == kTfLiteOk);
  for (size_t i = 0; i < interpreter->inputs().size(); ++i) {
    TfLiteTensor* t = interpreter->input_tensor(i);
    const auto bytes = ReadBytes(dir / ("input_" + std::to_string(i) + ".bin"));
    REQUIRE(bytes.size() == t->bytes);
    std::memcpy(t->data.raw, bytes.data(), bytes.size());
  }
  // A model whose values TFLite refuses at Invoke (a check of a dynamic output's inputs).
  if (report.contains("refused_at_invoke")) {
    CAPTURE(report["refused_at_invoke"].get<std::string>());
    CHECK(interpreter->Invoke() != kTfLiteOk);
    CHECK(!reporter.text().empty());
    return;
  }
  REQUIRE(interpreter->Invoke() == kTfLiteOk);
  for (size_t i = 0; i < interpreter->outputs().size(); ++i) {
    const TfLiteTensor* t = interpreter->output_tensor(i);
    const auto want = ReadBytes(dir / ("output_" + std::to_string(i) + ".bin"));
    CAPTURE(i, reporter.text());
    REQUIRE(want.size() == t->bytes);
    const auto* got = reinterpret_cast<const uint8_t*>(t->data.raw);
    if (t->type == kTfLiteFloat32 && c.float_tolerance > 0) {
      const double err = MaxAbsDiff<float>(got, want.data(), want.size());
      const double ref = MaxAbs(reinterpret_cast<const float*>(want.data()), want.size() / 4);
      CAPTURE(err, ref);
      CHECK(err <= c.float_tolerance * std::max(1.0, ref));
    } else if (t->type == kTfLiteInt8 && c.int_steps > 0) {
      const double err = MaxAbsDiff<int8_t>(got, want.data(), want.size());
      CAPTURE(err);
      CHECK(err <= c.int_steps);
    } else {
      double err = 0;
      if (t->type == kTfLiteFloat32) err = MaxAbsDiff<float>(got, want.data(), want.size());
      CAPTURE(err);
      CHECK((want.empty() || std::memcmp(got, want.data(), want.size()) == 0));
    }
  }
}

// Every case, each in its own section, on `num_threads` threads.
template <size_t N>
void CheckCases(const GoldenCase (&cases)[N], int num_threads) {
  for (const GoldenCase& c : cases) {
    DYNAMIC_SECTION(c.name) { CheckCase(c, num_threads); }
  }
}

template <size_t N>
void WriteModels(const GoldenCase (&cases)[N]) {
  const char* root = std::getenv("TFI_KERNEL_GOLDEN_DIR");
  REQUIRE(root != nullptr);
  for (const GoldenCase& c : cases) {
    const fs::path dir = fs::path(root) / c.name;
    fs::create_directories(dir);
    REQUIRE(c.build().WriteFile((dir / "model.tflite").string()).ok());
  }
}

}  // namespace golden_test
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_KERNELS_TESTING_GOLDEN_TEST_UTIL_H_
