#include "tools/input_gen.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "fmt/format.h"
#include "kernels/internal/fp16.h"

namespace tflite_inspect {
namespace {

uint64_t SplitMix64(uint64_t* x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Xoshiro256 {
 public:
  Xoshiro256(uint64_t seed, int stream) {
    uint64_t x = seed ^ (0xA0761D6478BD642Full * static_cast<uint64_t>(stream + 1));
    for (auto& v : s_) v = SplitMix64(&x);
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1) with 53 bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [lo, hi].
  int64_t Int(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(Next() % span);
  }
  // Box-Muller.
  double Gaussian() {
    double u1 = Uniform();
    while (u1 <= 0.0) u1 = Uniform();
    const double u2 = Uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

template <typename T>
void Fill(std::vector<uint8_t>* bytes, size_t n, T (*gen)(Xoshiro256&), Xoshiro256& rng) {
  bytes->resize(n * sizeof(T));
  for (size_t i = 0; i < n; ++i) {
    T v = gen(rng);
    std::memcpy(bytes->data() + i * sizeof(T), &v, sizeof(T));
  }
}

}  // namespace

std::string InputDistribution(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32:
    case kTfLiteFloat16:
    case kTfLiteFloat64: return "gaussian(0,1)";
    case kTfLiteInt8: return "uniform[-128,127]";
    case kTfLiteUInt8: return "uniform[0,255]";
    case kTfLiteInt16: return "uniform[-32768,32767]";
    case kTfLiteUInt16: return "uniform[0,65535]";
    case kTfLiteInt32:
    case kTfLiteUInt32:
    case kTfLiteInt64: return "uniform[0,15]";
    case kTfLiteBool: return "uniform{0,1}";
    default: return "unsupported";
  }
}

Status GenerateInput(const TfLiteTensor& tensor, uint64_t seed, int stream,
                     std::vector<uint8_t>* bytes) {
  size_t n = 1;
  for (int i = 0; tensor.dims != nullptr && i < tensor.dims->size; ++i) n *= tensor.dims->data[i];
  Xoshiro256 rng(seed, stream);
  switch (tensor.type) {
    case kTfLiteFloat32:
      Fill<float>(bytes, n, [](Xoshiro256& r) { return static_cast<float>(r.Gaussian()); }, rng);
      break;
    case kTfLiteFloat64:
      Fill<double>(bytes, n, [](Xoshiro256& r) { return r.Gaussian(); }, rng);
      break;
    case kTfLiteFloat16:
      Fill<uint16_t>(bytes, n,
                     [](Xoshiro256& r) { return tflite::fp16::FloatToHalf(static_cast<float>(r.Gaussian())); },
                     rng);
      break;
    case kTfLiteInt8:
      Fill<int8_t>(bytes, n, [](Xoshiro256& r) { return static_cast<int8_t>(r.Int(-128, 127)); }, rng);
      break;
    case kTfLiteUInt8:
      Fill<uint8_t>(bytes, n, [](Xoshiro256& r) { return static_cast<uint8_t>(r.Int(0, 255)); }, rng);
      break;
    case kTfLiteInt16:
      Fill<int16_t>(bytes, n,
                    [](Xoshiro256& r) { return static_cast<int16_t>(r.Int(-32768, 32767)); }, rng);
      break;
    case kTfLiteUInt16:
      Fill<uint16_t>(bytes, n,
                     [](Xoshiro256& r) { return static_cast<uint16_t>(r.Int(0, 65535)); }, rng);
      break;
    case kTfLiteInt32:
      Fill<int32_t>(bytes, n, [](Xoshiro256& r) { return static_cast<int32_t>(r.Int(0, 15)); }, rng);
      break;
    case kTfLiteUInt32:
      Fill<uint32_t>(bytes, n, [](Xoshiro256& r) { return static_cast<uint32_t>(r.Int(0, 15)); }, rng);
      break;
    case kTfLiteInt64:
      Fill<int64_t>(bytes, n, [](Xoshiro256& r) { return r.Int(0, 15); }, rng);
      break;
    case kTfLiteBool:
      Fill<uint8_t>(bytes, n, [](Xoshiro256& r) { return static_cast<uint8_t>(r.Int(0, 1)); }, rng);
      break;
    default:
      return Status(StatusCode::kUnsupported,
                    fmt::format("cannot generate input '{}' of type {}",
                                tensor.name ? tensor.name : "", TfLiteTypeGetName(tensor.type)));
  }
  return Status::Ok();
}

void CopyInputBytes(TfLiteTensor* t, const uint8_t* src, size_t n) {
  if (t == nullptr || t->data.raw == nullptr) return;
  const size_t bytes = std::min(n, t->bytes);
  auto* dst = reinterpret_cast<uint8_t*>(t->data.raw);
  if (t->type == kTfLiteBool) {
    for (size_t i = 0; i < bytes; ++i) dst[i] = src[i] != 0 ? 1 : 0;
  } else if (bytes > 0) {
    std::memcpy(dst, src, bytes);
  }
}

}  // namespace tflite_inspect
