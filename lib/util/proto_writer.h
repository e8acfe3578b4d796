// Protocol-buffer wire format, writing only: what TFLite's tools emit as binary protos
// (inference_diff's EvaluationStageMetrics, benchmark_model's BenchmarkResult) without
// a protobuf dependency. Fields are written in the order given (give them in field-number
// order to get protobuf's own bytes); a nested message is built in its own writer and
// added as bytes. Readers accept any field order.
//
// The named forms also write the field in protobuf's text format (C++ DebugString:
// `name: value` lines, nested messages in braces indented by two, enums by name, strings
// C-escaped, floats with 6 significant digits or 9 where 6 do not read back), which
// TFLite's tools log when they have no file to write.
#ifndef TFLITE_INSPECT_LIB_UTIL_PROTO_WRITER_H_
#define TFLITE_INSPECT_LIB_UTIL_PROTO_WRITER_H_

#include <cstdint>
#include <string>

namespace tflite_inspect {

class ProtoWriter {
 public:
  // int32 / int64 / enum / bool (negative values as 10-byte varints, as protobuf does).
  ProtoWriter& Int(int field, int64_t value);
  ProtoWriter& Double(int field, double value);  // fixed64
  ProtoWriter& Float(int field, float value);    // fixed32
  ProtoWriter& Bytes(int field, const std::string& bytes);  // string, bytes, messages
  ProtoWriter& Message(int field, const ProtoWriter& message) {
    return Bytes(field, message.bytes());
  }
  // A packed repeated float (proto3's default for `repeated float`).
  ProtoWriter& PackedFloats(int field, const float* values, size_t count);
  ProtoWriter& PackedInts(int field, const int64_t* values, size_t count);

  // Wire bytes and text format together.
  ProtoWriter& Int(int field, const char* name, int64_t value);
  ProtoWriter& Float(int field, const char* name, float value);
  ProtoWriter& String(int field, const char* name, const std::string& value);
  ProtoWriter& Enum(int field, const char* name, int value, const char* value_name);
  ProtoWriter& Message(int field, const char* name, const ProtoWriter& message);
  // A packed repeated integer field; nothing when empty, as protobuf writes it.
  ProtoWriter& PackedInts(int field, const char* name, const int64_t* values, size_t count);

  const std::string& bytes() const { return bytes_; }
  const std::string& text() const { return text_; }

 private:
  void Tag(int field, int wire_type);
  void Varint(uint64_t v);
  void Fixed(uint64_t v, int size);
  std::string bytes_;
  std::string text_;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_UTIL_PROTO_WRITER_H_
