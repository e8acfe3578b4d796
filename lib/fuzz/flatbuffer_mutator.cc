#include "fuzz/flatbuffer_mutator.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {
namespace fuzz {
namespace {

// Values at the edges of what kernels divide by, index with or multiply.
constexpr int32_t kInterestingInts[] = {0,  -1, 1, 2, 3, 4, 7, 8, 16, 255, 256, 1000, 65535,
                                        65536, 1 << 20, 1 << 24, std::numeric_limits<int32_t>::max(),
                                        std::numeric_limits<int32_t>::min()};

class Mutator {
 public:
  Mutator(tflite::Model* model, unsigned int seed) : model_(model), rng_(seed) {}

  bool MutateOnce() {
    switch (Below(10)) {
      case 0: return MutateShape(/*signature=*/false);
      case 1: return MutateShape(/*signature=*/true);
      case 2: return MutateTensorField();
      case 3: return MutateOperatorIndices();
      case 4: return MutateQuantization();
      case 5: return MutateOperatorCode();
      case 6: return MutateOptions();
      case 7: return MutateConstantBytes();
      case 8: return MutateSubgraphIo();
      default: return MutateOpcodeIndex();
    }
  }

 private:
  template <class V, class T>
  static bool Set(V* v, uint32_t i, T value) {
    v->Mutate(i, value);
    return true;
  }
  uint32_t Below(uint32_t n) { return n == 0 ? 0 : static_cast<uint32_t>(rng_() % n); }
  int32_t Interesting(int32_t current) {
    switch (Below(4)) {
      // Computed in 64 bits and truncated: near INT32_MAX these wrap, on purpose.
      case 0: return static_cast<int32_t>(int64_t{current} + Below(5) - 2);
      case 1: return static_cast<int32_t>(int64_t{current} * 2);
      default: return kInterestingInts[Below(std::size(kInterestingInts))];
    }
  }
  template <class T>
  T* Pick(flatbuffers::Vector<flatbuffers::Offset<T>>* v) {
    if (v == nullptr || v->size() == 0) return nullptr;
    return v->GetMutableObject(Below(v->size()));
  }
  tflite::SubGraph* Subgraph() { return Pick(model_->mutable_subgraphs()); }
  tflite::Tensor* Tensor() {
    tflite::SubGraph* sg = Subgraph();
    return sg == nullptr ? nullptr : Pick(sg->mutable_tensors());
  }
  tflite::Operator* Operator() {
    tflite::SubGraph* sg = Subgraph();
    return sg == nullptr ? nullptr : Pick(sg->mutable_operators());
  }
  // An index into a list of `n` items, sometimes just outside it.
  int32_t Index(uint32_t n) {
    switch (Below(8)) {
      case 0: return -1;
      case 1: return static_cast<int32_t>(n);
      case 2: return Interesting(0);
      default: return static_cast<int32_t>(Below(n == 0 ? 1 : n));
    }
  }

  bool MutateShape(bool signature) {
    tflite::Tensor* t = Tensor();
    if (t == nullptr) return false;
    auto* shape = signature ? t->mutable_shape_signature() : t->mutable_shape();
    if (shape == nullptr || shape->size() == 0) return false;
    const uint32_t i = Below(shape->size());
    return Set(shape, i, Interesting(shape->Get(i)));
  }

  bool MutateTensorField() {
    tflite::Tensor* t = Tensor();
    if (t == nullptr) return false;
    if (Below(2) == 0) {
      return t->mutate_type(static_cast<tflite::TensorType>(Below(tflite::TensorType_MAX + 2)));
    }
    const auto* buffers = model_->buffers();
    return t->mutate_buffer(static_cast<uint32_t>(Index(buffers ? buffers->size() : 0)));
  }

  // One entry of a tensor-index list of `sg` (an operator's or the subgraph's I/O).
  bool MutateTensorIndex(const tflite::SubGraph& sg, flatbuffers::Vector<int32_t>* list) {
    if (list == nullptr || list->size() == 0) return false;
    const uint32_t tensors = sg.tensors() ? sg.tensors()->size() : 0;
    return Set(list, Below(list->size()), Index(tensors));
  }

  bool MutateOperatorIndices() {
    tflite::SubGraph* sg = Subgraph();
    tflite::Operator* op = sg == nullptr ? nullptr : Pick(sg->mutable_operators());
    if (op == nullptr) return false;
    return MutateTensorIndex(*sg, Below(2) == 0 ? op->mutable_inputs() : op->mutable_outputs());
  }

  bool MutateSubgraphIo() {
    tflite::SubGraph* sg = Subgraph();
    if (sg == nullptr) return false;
    return MutateTensorIndex(*sg, Below(2) == 0 ? sg->mutable_inputs() : sg->mutable_outputs());
  }

  bool MutateQuantization() {
    tflite::Tensor* t = Tensor();
    tflite::QuantizationParameters* q = t == nullptr ? nullptr : t->mutable_quantization();
    if (q == nullptr) return false;
    switch (Below(3)) {
      case 0: {
        auto* scale = q->mutable_scale();
        if (scale == nullptr || scale->size() == 0) return false;
        constexpr float kScales[] = {0.f, -1.f, 1e-30f, 1e30f, 1e-10f, 65536.f,
                                     std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::quiet_NaN()};
        return Set(scale, Below(scale->size()), kScales[Below(std::size(kScales))]);
      }
      case 1: {
        auto* zp = q->mutable_zero_point();
        if (zp == nullptr || zp->size() == 0) return false;
        constexpr int64_t kZeroPoints[] = {-129, 128, 255, 256, -32769, 32768, 1000,
                                           int64_t{1} << 40, -(int64_t{1} << 40)};
        return Set(zp, Below(zp->size()), kZeroPoints[Below(std::size(kZeroPoints))]);
      }
      default:
        return q->mutate_quantized_dimension(Interesting(q->quantized_dimension()));
    }
  }

  bool MutateOperatorCode() {
    tflite::OperatorCode* code = Pick(model_->mutable_operator_codes());
    if (code == nullptr) return false;
    switch (Below(3)) {
      case 0: return code->mutate_version(Interesting(code->version()));
      case 1:
        return code->mutate_builtin_code(
            static_cast<tflite::BuiltinOperator>(Below(tflite::BuiltinOperator_MAX + 2)));
      default:
        return code->mutate_deprecated_builtin_code(static_cast<int8_t>(Below(128)));
    }
  }

  bool MutateOpcodeIndex() {
    tflite::Operator* op = Operator();
    if (op == nullptr) return false;
    const auto* codes = model_->operator_codes();
    return op->mutate_opcode_index(static_cast<uint32_t>(Index(codes ? codes->size() : 0)));
  }

  // One scalar field of the op's options table (whatever its type): a byte of it set to
  // an edge value, so strides, dilations, axes, counts and enums all get their turn.
  bool MutateOptions() {
    tflite::Operator* op = Operator();
    if (op == nullptr) return false;
    // The verifier checks an options table only for a union type it knows; with NONE or
    // an unknown type the table's vtable offset is unchecked and may point anywhere.
    const auto type = op->builtin_options_type();
    const bool verified = type > tflite::BuiltinOptions_NONE && type <= tflite::BuiltinOptions_MAX;
    auto* table = verified ? static_cast<uint8_t*>(op->mutable_builtin_options()) : nullptr;
    if (table == nullptr) {
      auto* custom = op->mutable_custom_options();
      if (custom == nullptr || custom->size() == 0) return false;
      return Set(custom, Below(custom->size()), static_cast<uint8_t>(Interesting(0)));
    }
    const auto* vtable = reinterpret_cast<const flatbuffers::Table*>(table)->GetVTable();
    const uint16_t vtable_bytes = flatbuffers::ReadScalar<uint16_t>(vtable);
    const int fields = (vtable_bytes - 4) / 2;
    if (fields <= 0) return false;
    const auto field = static_cast<flatbuffers::voffset_t>(4 + 2 * Below(fields));
    const uint16_t offset = flatbuffers::ReadScalar<uint16_t>(vtable + field);
    if (offset == 0) return false;
    // Byte 0 (little endian: the low byte) most of the time, so small values come up.
    const uint32_t byte = Below(4) == 0 ? Below(4) : 0;
    const uint16_t table_bytes = flatbuffers::ReadScalar<uint16_t>(vtable + 2);
    if (offset + byte >= table_bytes) return false;
    table[offset + byte] = static_cast<uint8_t>(Interesting(table[offset + byte]));
    return true;
  }

  bool MutateConstantBytes() {
    tflite::Buffer* b = Pick(model_->mutable_buffers());
    auto* data = b == nullptr ? nullptr : b->mutable_data();
    if (data == nullptr || data->size() == 0) return false;
    const uint32_t i = Below(data->size());
    // Indices (GATHER, SLICE begin, shapes of RESHAPE) are mostly int32: poke a word.
    if (Below(2) == 0 && i % 4 == 0 && i + 4 <= data->size()) {
      const int32_t v = Interesting(0);
      std::memcpy(data->data() + i, &v, 4);
      return true;
    }
    return Set(data, i, static_cast<uint8_t>(Interesting(data->Get(i))));
  }

  tflite::Model* model_;
  std::mt19937 rng_;
};

}  // namespace

size_t MutateFlatbufferModel(uint8_t* data, size_t size, unsigned int seed) {
  if (size < 8 || size > (size_t{1} << 30)) return 0;
  // Verify on an aligned copy (flatbuffers checks alignment), mutate it, copy back.
  std::vector<uint64_t> aligned((size + 7) / 8);
  auto* bytes = reinterpret_cast<uint8_t*>(aligned.data());
  std::memcpy(bytes, data, size);
  flatbuffers::Verifier verifier(bytes, size);
  if (!tflite::VerifyModelBuffer(verifier)) return 0;
  Mutator mutator(tflite::GetMutableModel(bytes), seed);
  bool changed = false;
  for (int attempt = 0; attempt < 16 && !changed; ++attempt) changed = mutator.MutateOnce();
  if (!changed) return 0;
  std::memcpy(data, bytes, size);
  return size;
}

}  // namespace fuzz
}  // namespace tflite_inspect
