// Test helper: a protobuf message's fields, read back from its wire bytes (enough to
// check what the tools write as TFLite's protos: varints as numbers, fixed64 / fixed32
// and length-delimited fields as bytes). Header-only, for tests.
#ifndef TFLITE_INSPECT_LIB_TESTING_PROTO_FIELDS_H_
#define TFLITE_INSPECT_LIB_TESTING_PROTO_FIELDS_H_

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace tflite_inspect {
namespace testing {

struct ProtoFields {
  std::multimap<int, uint64_t> ints;
  std::multimap<int, std::string> bytes;

  // The fields numbered `field`, in file order (a repeated field or map has several).
  std::vector<std::string> All(int field) const {
    std::vector<std::string> out;
    for (auto [it, end] = bytes.equal_range(field); it != end; ++it) out.push_back(it->second);
    return out;
  }
};

// False for bytes that are not a well-formed message.
inline bool ParseProto(const std::string& data, ProtoFields* out) {
  size_t p = 0;
  auto varint = [&](uint64_t* v) {
    *v = 0;
    for (int shift = 0; p < data.size() && shift < 64; shift += 7) {
      const uint8_t b = static_cast<uint8_t>(data[p++]);
      *v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  };
  while (p < data.size()) {
    uint64_t tag, v;
    if (!varint(&tag)) return false;
    const int field = static_cast<int>(tag >> 3);
    switch (tag & 7) {
      case 0:
        if (!varint(&v)) return false;
        out->ints.emplace(field, v);
        break;
      case 1:
      case 5: {
        const size_t n = (tag & 7) == 1 ? 8 : 4;
        if (p + n > data.size()) return false;
        out->bytes.emplace(field, data.substr(p, n));
        p += n;
        break;
      }
      case 2:
        if (!varint(&v) || v > data.size() - p) return false;
        out->bytes.emplace(field, data.substr(p, v));
        p += v;
        break;
      default: return false;
    }
  }
  return true;
}

// A fixed-width field's value (a double from 8 bytes, a float from 4).
template <typename T>
T ProtoValue(const std::string& bytes) {
  T v{};
  if (bytes.size() == sizeof v) std::memcpy(&v, bytes.data(), sizeof v);
  return v;
}

}  // namespace testing
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TESTING_PROTO_FIELDS_H_
