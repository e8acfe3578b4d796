// Protocol-buffer wire format, writing only: what TFLite's tools emit as binary protos
// (inference_diff's EvaluationStageMetrics, benchmark_model's BenchmarkResult) without
// a protobuf dependency. Fields are written in the order given; a nested message is
// built in its own writer and added as bytes. Readers accept any field order.
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

  const std::string& bytes() const { return bytes_; }

 private:
  void Tag(int field, int wire_type);
  void Varint(uint64_t v);
  void Fixed(uint64_t v, int size);
  std::string bytes_;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_UTIL_PROTO_WRITER_H_
