// The wire bytes of protobuf's encoding guide (developers.google.com/protocol-buffers/
// docs/encoding): 150 as field 1 is 08 96 01, "testing" as field 2 is 12 07 74 65 73 74
// 69 6e 67, a nested message {1: 150} as field 3 is 1a 03 08 96 01, and [3, 270, 86942]
// packed as field 4 is 22 06 03 8e 02 9e a7 05.
#include "util/proto_writer.h"

#include "catch2/catch.hpp"

namespace {

using tflite_inspect::ProtoWriter;

std::string Hex(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

TEST_CASE("ProtoWriter writes protobuf's wire format") {
  CHECK(Hex(ProtoWriter().Int(1, 150).bytes()) == "08 96 01");
  CHECK(Hex(ProtoWriter().Bytes(2, "testing").bytes()) == "12 07 74 65 73 74 69 6e 67");
  ProtoWriter inner;
  inner.Int(1, 150);
  CHECK(Hex(ProtoWriter().Message(3, inner).bytes()) == "1a 03 08 96 01");
  const int64_t packed[] = {3, 270, 86942};
  CHECK(Hex(ProtoWriter().PackedInts(4, packed, 3).bytes()) == "22 06 03 8e 02 9e a7 05");
  // A negative int is a 10-byte varint; fixed-width values are little-endian.
  CHECK(Hex(ProtoWriter().Int(1, -1).bytes()) == "08 ff ff ff ff ff ff ff ff ff 01");
  CHECK(Hex(ProtoWriter().Double(5, 1.0).bytes()) == "29 00 00 00 00 00 00 f0 3f");
  CHECK(Hex(ProtoWriter().Float(4, 1.0f).bytes()) == "25 00 00 80 3f");
  const float floats[] = {1.0f, -2.0f};
  CHECK(Hex(ProtoWriter().PackedFloats(1, floats, 2).bytes()) == "0a 08 00 00 80 3f 00 00 00 c0");
  // A field number above 15 takes a two-byte tag.
  CHECK(Hex(ProtoWriter().Int(16, 1).bytes()) == "80 01 01");
}

TEST_CASE("ProtoWriter's named fields also write protobuf's text format") {
  ProtoWriter inner;
  inner.Int(1, "count", 3).Float(2, "mean", 1.5f).Float(3, "third", 1.0f / 3.0f);
  const int64_t shape[] = {1, 224};
  ProtoWriter w;
  w.String(1, "name", "a\"b\n\x01").Enum(2, "kind", 1, "TFLITE_SUBGRAPH");
  w.PackedInts(3, "shape", shape, 2).PackedInts(4, "empty", shape, 0);
  w.Message(5, "stat", inner);
  CHECK(w.text() ==
        "name: \"a\\\"b\\n\\001\"\n"
        "kind: TFLITE_SUBGRAPH\n"
        "shape: 1\n"
        "shape: 224\n"
        "stat {\n"
        "  count: 3\n"
        "  mean: 1.5\n"
        "  third: 0.333333343\n"  // 6 digits do not read back: 9, as protobuf's SimpleFtoa
        "}\n");
  // The same bytes as the unnamed forms; an empty packed field is left out.
  ProtoWriter same_inner;
  same_inner.Int(1, 3).Float(2, 1.5f).Float(3, 1.0f / 3.0f);
  ProtoWriter same;
  same.Bytes(1, "a\"b\n\x01").Int(2, 1).PackedInts(3, shape, 2).Message(5, same_inner);
  CHECK(w.bytes() == same.bytes());
}

}  // namespace
