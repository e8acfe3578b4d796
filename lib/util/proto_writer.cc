#include "util/proto_writer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace tflite_inspect {
namespace {
constexpr int kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5;

// protobuf's SimpleFtoa: %.6g when it reads back as the same float, else %.9g.
std::string TextFloat(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", static_cast<double>(v));
  if (std::strtof(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

// protobuf's CEscape, quoted.
std::string TextString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\"': out += "\\\""; break;
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          out += fmt::format("\\{:03o}", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

}  // namespace

void ProtoWriter::Varint(uint64_t v) {
  while (v >= 0x80) {
    bytes_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  bytes_.push_back(static_cast<char>(v));
}

void ProtoWriter::Fixed(uint64_t v, int size) {
  for (int i = 0; i < size; ++i) bytes_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void ProtoWriter::Tag(int field, int wire_type) {
  Varint((static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(wire_type));
}

ProtoWriter& ProtoWriter::Int(int field, int64_t value) {
  Tag(field, kVarint);
  Varint(static_cast<uint64_t>(value));
  return *this;
}

ProtoWriter& ProtoWriter::Double(int field, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  Tag(field, kFixed64);
  Fixed(bits, 8);
  return *this;
}

ProtoWriter& ProtoWriter::Float(int field, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  Tag(field, kFixed32);
  Fixed(bits, 4);
  return *this;
}

ProtoWriter& ProtoWriter::Bytes(int field, const std::string& bytes) {
  Tag(field, kLengthDelimited);
  Varint(bytes.size());
  bytes_ += bytes;
  return *this;
}

ProtoWriter& ProtoWriter::PackedFloats(int field, const float* values, size_t count) {
  ProtoWriter packed;
  for (size_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &values[i], sizeof bits);
    packed.Fixed(bits, 4);
  }
  return Bytes(field, packed.bytes_);
}

ProtoWriter& ProtoWriter::PackedInts(int field, const int64_t* values, size_t count) {
  ProtoWriter packed;
  for (size_t i = 0; i < count; ++i) packed.Varint(static_cast<uint64_t>(values[i]));
  return Bytes(field, packed.bytes_);
}

ProtoWriter& ProtoWriter::Int(int field, const char* name, int64_t value) {
  text_ += fmt::format("{}: {}\n", name, value);
  return Int(field, value);
}

ProtoWriter& ProtoWriter::Float(int field, const char* name, float value) {
  text_ += fmt::format("{}: {}\n", name, TextFloat(value));
  return Float(field, value);
}

ProtoWriter& ProtoWriter::String(int field, const char* name, const std::string& value) {
  text_ += fmt::format("{}: {}\n", name, TextString(value));
  return Bytes(field, value);
}

ProtoWriter& ProtoWriter::Enum(int field, const char* name, int value, const char* value_name) {
  text_ += fmt::format("{}: {}\n", name, value_name);
  return Int(field, value);
}

ProtoWriter& ProtoWriter::Message(int field, const char* name, const ProtoWriter& message) {
  text_ += fmt::format("{} {{\n", name);
  size_t start = 0;
  const std::string& inner = message.text_;
  while (start < inner.size()) {
    const size_t end = inner.find('\n', start);
    text_ += "  " + inner.substr(start, end - start) + "\n";
    start = end == std::string::npos ? inner.size() : end + 1;
  }
  text_ += "}\n";
  return Bytes(field, message.bytes_);
}

ProtoWriter& ProtoWriter::PackedInts(int field, const char* name, const int64_t* values,
                                     size_t count) {
  if (count == 0) return *this;
  for (size_t i = 0; i < count; ++i) text_ += fmt::format("{}: {}\n", name, values[i]);
  return PackedInts(field, values, count);
}

}  // namespace tflite_inspect
