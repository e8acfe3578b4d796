#include "util/proto_writer.h"

#include <cstring>

namespace tflite_inspect {
namespace {
constexpr int kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5;
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

}  // namespace tflite_inspect
