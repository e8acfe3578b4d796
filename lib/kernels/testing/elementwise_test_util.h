// Test helpers of the elementwise kernel tests: run one op on given inputs
// through the real interpreter (OpTestModel), random broadcast-compatible
// shapes, an independent broadcast index mapping, an independent integer
// model of TFLite's fixed-point requantization (written from the definitions,
// not from lib/'s helpers) for bit-exact checks, and a runner for TFLite
// Micro's seanet single-op models with reference goldens (../shared/models).
#ifndef TFLITE_INSPECT_LIB_KERNELS_TESTING_ELEMENTWISE_TEST_UTIL_H_
#define TFLITE_INSPECT_LIB_KERNELS_TESTING_ELEMENTWISE_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace ew_test {

struct TensorSpec {
  tflite::TensorType type;
  std::vector<int32_t> shape;
  float scale = 0;  // 0: not quantized
  int64_t zero_point = 0;
};

template <typename T>
struct RunResult {
  TfLiteStatus prepare = kTfLiteError;
  TfLiteStatus invoke = kTfLiteError;
  std::vector<T> output;
  std::vector<int> shape;
  std::string errors;
};

// Builds a one-op model whose inputs are all graph inputs, feeds `values`,
// invokes, and returns the output (all inputs and the output hold T).
template <typename T>
RunResult<T> RunOp(tflite::BuiltinOperator op, const std::vector<TensorSpec>& inputs,
                   const std::vector<std::vector<T>>& values, const TensorSpec& output,
                   OpOptions options = {}, int version = 1) {
  ModelBuilder b;
  std::vector<int32_t> ins;
  auto add = [&](const TensorSpec& s, const std::string& name) {
    if (s.scale == 0) return b.AddTensor(s.type, s.shape, name);
    QuantSpec q;
    q.scale = {s.scale};
    q.zero_point = {s.zero_point};
    return b.AddTensor(s.type, s.shape, name, &q);
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    ins.push_back(add(inputs[i], "in" + std::to_string(i)));
  }
  const int out = add(output, "out");
  b.AddOperator(op, ins, {out}, std::move(options), version);
  b.SetInputs(ins);
  b.SetOutputs({out});
  OpTestModel m(b);
  RunResult<T> r;
  r.prepare = m.Prepare();
  r.errors = m.errors();
  if (r.prepare != kTfLiteOk) return r;
  for (size_t i = 0; i < values.size(); ++i) m.SetInput<T>(static_cast<int>(i), values[i]);
  r.invoke = m.Invoke();
  r.errors = m.errors();
  if (r.invoke != kTfLiteOk) return r;
  r.output = m.Output<T>(0);
  r.shape = m.OutputShape(0);
  return r;
}

inline int64_t NumElements(const std::vector<int32_t>& shape) {
  int64_t n = 1;
  for (int32_t d : shape) n *= d;
  return n;
}

// Random output shape of rank [0, max_rank] with extents in [1, max_extent],
// and two input shapes that broadcast to it (right-aligned, each dimension
// equal or 1, possibly of lower rank).
struct BroadcastCase {
  std::vector<int32_t> out, a, b;
};

inline std::vector<int32_t> RandomOperandShape(std::mt19937& rng, const std::vector<int32_t>& out) {
  const int rank = std::uniform_int_distribution<int>(0, static_cast<int>(out.size()))(rng);
  std::vector<int32_t> s(out.end() - rank, out.end());
  for (auto& d : s) {
    if (std::uniform_int_distribution<int>(0, 2)(rng) == 0) d = 1;
  }
  return s;
}

inline std::vector<int32_t> BroadcastShape(const std::vector<int32_t>& a,
                                           const std::vector<int32_t>& b) {
  std::vector<int32_t> out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    const int32_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int32_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    out[out.size() - 1 - i] = da == 1 ? db : da;
  }
  return out;
}

inline BroadcastCase RandomBroadcastCase(std::mt19937& rng, int max_rank = 6, int max_extent = 4) {
  std::vector<int32_t> full;
  const int rank = std::uniform_int_distribution<int>(0, max_rank)(rng);
  for (int i = 0; i < rank; ++i) {
    full.push_back(std::uniform_int_distribution<int>(1, max_extent)(rng));
  }
  BroadcastCase c;
  c.a = RandomOperandShape(rng, full);
  c.b = RandomOperandShape(rng, full);
  // Sometimes the same shape, sometimes a scalar operand: the flat paths.
  const int kind = std::uniform_int_distribution<int>(0, 5)(rng);
  if (kind == 0) c.b = c.a;
  if (kind == 1) c.b = {};
  c.out = BroadcastShape(c.a, c.b);
  return c;
}

// Flat index into an operand of shape `in` for output flat index `o`.
inline int64_t BroadcastIndex(const std::vector<int32_t>& in, const std::vector<int32_t>& out,
                              int64_t o) {
  int64_t index = 0;
  int64_t stride = 1;
  const int offset = static_cast<int>(out.size() - in.size());
  for (int d = static_cast<int>(out.size()) - 1; d >= 0; --d) {
    const int64_t coord = o % out[d];
    o /= out[d];
    const int id = d - offset;
    if (id < 0) continue;
    if (in[id] != 1) index += coord * stride;
    stride *= in[id];
  }
  return index;
}

template <typename T>
std::vector<T> RandomValues(std::mt19937& rng, int64_t n, T lo, T hi) {
  std::vector<T> v(static_cast<size_t>(n));
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> dist(lo, hi);
    for (auto& x : v) x = dist(rng);
  } else {
    std::uniform_int_distribution<int64_t> dist(lo, hi);
    for (auto& x : v) x = static_cast<T>(dist(rng));
  }
  return v;
}

// |got - want| within 1e-5 relative (a tiny absolute floor for denormals).
inline bool RelClose(float got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::abs(static_cast<double>(got) - want) <= 1e-5 * std::abs(want) + 1e-35;
}

// --- Independent model of TFLite's fixed-point requantization ---------------------

// frexp-based (multiplier, shift) with multiplier in [2^30, 2^31).
inline void RefQuantizeMultiplier(double m, int32_t* q, int* shift) {
  if (m == 0) {
    *q = 0;
    *shift = 0;
    return;
  }
  int e = 0;
  const double frac = std::frexp(m, &e);
  int64_t qv = static_cast<int64_t>(std::llround(frac * 2147483648.0));
  if (qv == (int64_t{1} << 31)) {
    qv /= 2;
    ++e;
  }
  if (e < -31) {
    qv = 0;
    e = 0;
  }
  *q = static_cast<int32_t>(qv);
  *shift = e;
}

// round(a * b / 2^31) with ties away from zero; INT32_MIN * INT32_MIN saturates.
inline int32_t RefDoublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) {
    return std::numeric_limits<int32_t>::max();
  }
  const int64_t p = static_cast<int64_t>(a) * b;
  const int64_t nudge = p >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30);
  // C++ division truncates toward zero, as gemmlowp's does.
  return static_cast<int32_t>((p + nudge) / (int64_t{1} << 31));
}

// x / 2^e rounded to nearest, ties away from zero.
inline int32_t RefRoundingDivideByPOT(int32_t x, int e) {
  if (e == 0) return x;
  const int64_t d = int64_t{1} << e;
  const int64_t ax = std::abs(static_cast<int64_t>(x));
  const int64_t q = (ax + d / 2) / d;
  return static_cast<int32_t>(x < 0 ? -q : q);
}

// x * q * 2^shift with TFLite's double rounding.
inline int32_t RefMultiply(int32_t x, int32_t q, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  return RefRoundingDivideByPOT(RefDoublingHighMul(x * (1 << left), q), right);
}

// --- Reusable checks ---------------------------------------------------------------

// Float clamp of a fused activation, as TFLite applies it (lowest/max for none).
inline double RefActivation(double x, tflite::ActivationFunctionType act) {
  double lo = std::numeric_limits<float>::lowest();
  double hi = std::numeric_limits<float>::max();
  if (act == tflite::ActivationFunctionType_RELU) lo = 0;
  if (act == tflite::ActivationFunctionType_RELU6) lo = 0, hi = 6;
  if (act == tflite::ActivationFunctionType_RELU_N1_TO_1) lo = -1, hi = 1;
  return std::min(std::max(x, lo), hi);
}

// `cases` random broadcast cases (rank <= max_rank) of a float32 binary op
// against ref(a, b) evaluated in double.
template <typename MakeOptions, typename Ref>
void CheckFloatBinaryRandom(tflite::BuiltinOperator op, MakeOptions make_options, Ref ref,
                            uint32_t seed, int cases, float lo = -4, float hi = 4,
                            int max_rank = 6) {
  CAPTURE(seed);
  std::mt19937 rng(seed);
  for (int c = 0; c < cases; ++c) {
    CAPTURE(c);
    const BroadcastCase bc = RandomBroadcastCase(rng, max_rank);
    auto a = RandomValues<float>(rng, NumElements(bc.a), lo, hi);
    auto b = RandomValues<float>(rng, NumElements(bc.b), lo, hi);
    const auto r =
        RunOp<float>(op, {{tflite::TensorType_FLOAT32, bc.a}, {tflite::TensorType_FLOAT32, bc.b}},
                     {a, b}, {tflite::TensorType_FLOAT32, bc.out}, make_options());
    CAPTURE(r.errors);
    REQUIRE(r.prepare == kTfLiteOk);
    REQUIRE(r.invoke == kTfLiteOk);
    REQUIRE(r.shape == std::vector<int>(bc.out.begin(), bc.out.end()));
    for (int64_t i = 0; i < NumElements(bc.out); ++i) {
      const double want = ref(static_cast<double>(a[BroadcastIndex(bc.a, bc.out, i)]),
                              static_cast<double>(b[BroadcastIndex(bc.b, bc.out, i)]));
      if (!RelClose(r.output[i], want)) {
        CAPTURE(i, r.output[i], want);
        FAIL("float result differs");
      }
    }
  }
}

// Random inputs of a float32 unary op against ref(x) evaluated in double.
template <typename Ref>
void CheckFloatUnaryRandom(tflite::BuiltinOperator op, OpOptions options, Ref ref, uint32_t seed,
                           float lo, float hi, int n = 2000) {
  CAPTURE(seed);
  std::mt19937 rng(seed);
  auto x = RandomValues<float>(rng, n, lo, hi);
  const auto r = RunOp<float>(op, {{tflite::TensorType_FLOAT32, {n}}}, {x},
                              {tflite::TensorType_FLOAT32, {n}}, std::move(options));
  CAPTURE(r.errors);
  REQUIRE(r.prepare == kTfLiteOk);
  REQUIRE(r.invoke == kTfLiteOk);
  for (int i = 0; i < n; ++i) {
    const double want = ref(static_cast<double>(x[i]));
    if (!RelClose(r.output[i], want)) {
      CAPTURE(i, x[i], r.output[i], want);
      FAIL("float result differs");
    }
  }
}

// Quantized clamp range of a fused activation (TFLite's
// CalculateActivationRangeQuantized, written out).
template <typename T>
void RefQuantizedActivationRange(tflite::ActivationFunctionType act, float scale, int32_t zp,
                                 int32_t* lo, int32_t* hi) {
  auto q = [&](float f) { return zp + static_cast<int32_t>(std::round(f / scale)); };
  *lo = std::numeric_limits<T>::min();
  *hi = std::numeric_limits<T>::max();
  if (act == tflite::ActivationFunctionType_RELU) *lo = std::max(*lo, q(0));
  if (act == tflite::ActivationFunctionType_RELU6) {
    *lo = std::max(*lo, q(0));
    *hi = std::min(*hi, q(6));
  }
  if (act == tflite::ActivationFunctionType_RELU_N1_TO_1) {
    *lo = std::max(*lo, q(-1));
    *hi = std::min(*hi, q(1));
  }
}

struct QParams {
  float scale;
  int32_t zero_point;
};

// 8-bit ADD / SUB as TFLite's add.cc Prepare + reference AddElementwise define
// it (left shift 20, rescale to twice the larger input scale).
template <typename T>
class RefQuantizedAddSub {
 public:
  RefQuantizedAddSub(QParams in1, QParams in2, QParams out, tflite::ActivationFunctionType act,
                     bool subtract, int left_shift = 20)
      : in1_(in1), in2_(in2), out_(out), subtract_(subtract), left_shift_(left_shift) {
    const double twice = 2 * std::max(in1.scale, in2.scale);
    RefQuantizeMultiplier(in1.scale / twice, &m1_, &s1_);
    RefQuantizeMultiplier(in2.scale / twice, &m2_, &s2_);
    RefQuantizeMultiplier(twice / ((1 << left_shift) * out.scale), &mo_, &so_);
    RefQuantizedActivationRange<T>(act, out.scale, out.zero_point, &lo_, &hi_);
  }
  T operator()(T a, T b) const {
    const int32_t x = RefMultiply((a - in1_.zero_point) * (1 << left_shift_), m1_, s1_);
    const int32_t y = RefMultiply((b - in2_.zero_point) * (1 << left_shift_), m2_, s2_);
    const int32_t raw = RefMultiply(subtract_ ? x - y : x + y, mo_, so_) + out_.zero_point;
    return static_cast<T>(std::min(hi_, std::max(lo_, raw)));
  }

 private:
  QParams in1_, in2_, out_;
  bool subtract_;
  int left_shift_;
  int32_t m1_, m2_, mo_, lo_, hi_;
  int s1_, s2_, so_;
};

// 8-bit MUL as mul.cc Prepare + reference MulElementwise define it.
template <typename T>
class RefQuantizedMul {
 public:
  RefQuantizedMul(QParams in1, QParams in2, QParams out, tflite::ActivationFunctionType act)
      : in1_(in1), in2_(in2), out_(out) {
    const float real = in1.scale * in2.scale / out.scale;  // float, as upstream
    RefQuantizeMultiplier(real, &m_, &s_);
    RefQuantizedActivationRange<T>(act, out.scale, out.zero_point, &lo_, &hi_);
  }
  T operator()(T a, T b) const {
    const int32_t p = (a - in1_.zero_point) * (b - in2_.zero_point);
    const int32_t raw = RefMultiply(p, m_, s_) + out_.zero_point;
    return static_cast<T>(std::min(hi_, std::max(lo_, raw)));
  }

 private:
  QParams in1_, in2_, out_;
  int32_t m_, lo_, hi_;
  int s_;
};

// `cases` random broadcast cases of a quantized binary op with random scales
// and zero points; `make_ref(in1, in2, out)` returns the reference functor.
template <typename T, typename MakeOptions, typename MakeRef>
void CheckQuantizedBinaryRandom(tflite::BuiltinOperator op, tflite::TensorType type,
                                MakeOptions make_options, MakeRef make_ref, uint32_t seed,
                                int cases, float min_scale = 0.005f, float max_scale = 0.1f,
                                bool zero_zero_points = false, int version = 1) {
  CAPTURE(seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> scale(min_scale, max_scale);
  std::uniform_int_distribution<int32_t> zp(
      zero_zero_points ? 0 : static_cast<int32_t>(std::numeric_limits<T>::min()),
      zero_zero_points ? 0 : static_cast<int32_t>(std::numeric_limits<T>::max()));
  for (int c = 0; c < cases; ++c) {
    CAPTURE(c);
    const BroadcastCase bc = RandomBroadcastCase(rng);
    const QParams q1{scale(rng), zp(rng)};
    const QParams q2{scale(rng), zp(rng)};
    const QParams qo{scale(rng), zp(rng)};
    CAPTURE(q1.scale, q1.zero_point, q2.scale, q2.zero_point, qo.scale, qo.zero_point);
    const T lo = std::numeric_limits<T>::min();
    const T hi = std::numeric_limits<T>::max();
    auto a = RandomValues<T>(rng, NumElements(bc.a), lo, hi);
    auto b = RandomValues<T>(rng, NumElements(bc.b), lo, hi);
    const auto r =
        RunOp<T>(op, {{type, bc.a, q1.scale, q1.zero_point}, {type, bc.b, q2.scale, q2.zero_point}},
                 {a, b}, {type, bc.out, qo.scale, qo.zero_point}, make_options(), version);
    CAPTURE(r.errors);
    REQUIRE(r.prepare == kTfLiteOk);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto ref = make_ref(q1, q2, qo);
    for (int64_t i = 0; i < NumElements(bc.out); ++i) {
      const T x = a[BroadcastIndex(bc.a, bc.out, i)];
      const T y = b[BroadcastIndex(bc.b, bc.out, i)];
      if (r.output[i] != ref(x, y)) {
        CAPTURE(i, int(x), int(y), int(r.output[i]), int(ref(x, y)));
        FAIL("quantized result differs");
      }
    }
  }
}

// 8-bit lookup-table op (LOGISTIC, TANH) over every input value, against the
// table written out from its definition: dequantize, f in float, multiply by
// the inverse output scale, round, add the zero point (in float), clamp.
template <typename T>
void CheckByteLutOp(tflite::BuiltinOperator op, tflite::TensorType type, float (*f)(float),
                    QParams in, QParams out, int version) {
  CAPTURE(in.scale, in.zero_point, out.scale, out.zero_point);
  std::vector<T> x;
  for (int v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
    x.push_back(static_cast<T>(v));
  }
  const int n = static_cast<int>(x.size());
  const auto r = RunOp<T>(op, {{type, {n}, in.scale, in.zero_point}}, {x},
                          {type, {n}, out.scale, out.zero_point}, {}, version);
  CAPTURE(r.errors);
  REQUIRE(r.invoke == kTfLiteOk);
  const float inverse = 1 / out.scale;
  for (int i = 0; i < n; ++i) {
    const float y = f(in.scale * (x[i] - in.zero_point));
    const float rescaled = std::round(y * inverse);
    const int32_t q = static_cast<int32_t>(rescaled + out.zero_point);
    const int32_t want = std::min<int32_t>(std::numeric_limits<T>::max(),
                                           std::max<int32_t>(std::numeric_limits<T>::min(), q));
    if (r.output[i] != want) {
      CAPTURE(i, int(x[i]), int(r.output[i]), want);
      FAIL("lookup-table result differs");
    }
  }
}

// --- TFLite Micro's seanet single-op models (int16, with reference goldens) -------

inline std::vector<int16_t> ReadCsvInt16(const std::string& path) {
  std::vector<int16_t> v;
  std::ifstream in(path);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.find_first_not_of(" \r\n\t") == std::string::npos) continue;
    v.push_back(static_cast<int16_t>(std::stol(item)));
  }
  return v;
}

// Runs every <dir>/<stem><k>.tflite of ../shared/models/tflm/seanet/<dir> on
// its <stem><k>_input<i>_int16.csv inputs and requires the output to equal
// <stem><k>_golden_int16.csv exactly. WARNs "skipped: ..." without the models.
inline void CheckSeanetModels(const std::string& dir, const std::string& stem, int num_inputs) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(TFI_SHARED_DIR) / "models" / "tflm" / "seanet" / dir;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    WARN("skipped: no seanet models at " << root.string());
    return;
  }
  int checked = 0;
  for (int k = 0; fs::exists(root / (stem + std::to_string(k) + ".tflite")); ++k) {
    const std::string base = (root / (stem + std::to_string(k))).string();
    CAPTURE(base);
    CapturingErrorReporter reporter;
    auto model = tflite::FlatBufferModel::BuildFromFile((base + ".tflite").c_str(), &reporter);
    REQUIRE(model != nullptr);
    tflite::ops::builtin::BuiltinOpResolver resolver;
    std::unique_ptr<tflite::Interpreter> interpreter;
    REQUIRE(tflite::InterpreterBuilder(*model, resolver, &reporter)(&interpreter) == kTfLiteOk);
    REQUIRE(interpreter->AllocateTensors() == kTfLiteOk);
    for (int i = 0; i < num_inputs; ++i) {
      const auto values = ReadCsvInt16(base + "_input" + std::to_string(i) + "_int16.csv");
      TfLiteTensor* t = interpreter->input_tensor(i);
      REQUIRE(t->type == kTfLiteInt16);
      REQUIRE(t->bytes == values.size() * sizeof(int16_t));
      std::memcpy(t->data.raw, values.data(), t->bytes);
    }
    CAPTURE(reporter.text());
    REQUIRE(interpreter->Invoke() == kTfLiteOk);
    const auto golden = ReadCsvInt16(base + "_golden_int16.csv");
    const TfLiteTensor* out = interpreter->output_tensor(0);
    REQUIRE(out->bytes == golden.size() * sizeof(int16_t));
    const auto* got = reinterpret_cast<const int16_t*>(out->data.raw);
    for (size_t i = 0; i < golden.size(); ++i) {
      if (got[i] != golden[i]) {
        CAPTURE(i, got[i], golden[i]);
        FAIL("differs from TFLite's reference output");
      }
    }
    ++checked;
  }
  CHECK(checked > 0);
}

}  // namespace ew_test
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_KERNELS_TESTING_ELEMENTWISE_TEST_UTIL_H_
