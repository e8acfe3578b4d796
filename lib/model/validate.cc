#include "model/validate.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "model/model.h"

namespace tflite_inspect {
namespace {

using flatbuffers::Vector;

template <typename T>
size_t Size(const Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

class Validator {
 public:
  Validator(const ValidationInput& in, std::vector<std::string>* refusals)
      : in_(in), model_(in.model), refusals_(refusals) {}

  Status Run() {
    if (model_->version() != 3) {
      refusals_->push_back(fmt::format(
          "Model provided is schema version {} not equal to supported version 3.",
          model_->version()));
    }
    num_subgraphs_ = Size(model_->subgraphs());
    num_buffers_ = Size(model_->buffers());
    if (num_subgraphs_ == 0) return Error("model", "No subgraph in the model.");
    TFI_RETURN_IF_ERROR(CheckOpCodes());
    TFI_RETURN_IF_ERROR(CheckBuffers());
    calls_.assign(num_subgraphs_, {});
    for (size_t s = 0; s < num_subgraphs_; ++s) TFI_RETURN_IF_ERROR(CheckSubgraph(s));
    TFI_RETURN_IF_ERROR(CheckCallCycles());
    TFI_RETURN_IF_ERROR(CheckSignatures());
    TFI_RETURN_IF_ERROR(CheckMetadata());
    return Status::Ok();
  }

 private:
  static Status Error(const std::string& where, const std::string& what) {
    return InvalidModel(where + ": " + what);
  }

  Status CheckOpCodes() {
    const auto* codes = model_->operator_codes();
    for (size_t i = 0; i < Size(codes); ++i) {
      const auto* c = codes->Get(i);
      const OpCode& oc = in_.op_codes[i];
      std::string where = fmt::format("operator code {}", i);
      if (c->builtin_code() < 0 || c->deprecated_builtin_code() < 0) {
        return Error(where, fmt::format("negative builtin code (builtin_code {}, "
                                        "deprecated_builtin_code {})",
                                        static_cast<int>(c->builtin_code()),
                                        static_cast<int>(c->deprecated_builtin_code())));
      }
      if (oc.version < 1) {
        return Error(where + " (" + oc.name() + ")",
                     fmt::format("version {} is not a valid op version (must be >= 1)",
                                 oc.version));
      }
      if (oc.is_custom() && c->custom_code() == nullptr) {
        return Error(where, "Operator with CUSTOM builtin_code has no custom_code.");
      }
    }
    return Status::Ok();
  }

  Status CheckBuffers() {
    const auto* buffers = model_->buffers();
    for (size_t i = 0; i < num_buffers_; ++i) {
      const auto* b = buffers->Get(i);
      if (b->offset() <= 1) continue;
      const uint64_t off = b->offset(), size = b->size();
      if (off > in_.file_size || size > in_.file_size - off) {
        return Error(fmt::format("buffer {}", i),
                     fmt::format("external data at offset {} with size {} ends at byte {}, "
                                 "past the end of the file ({} bytes)",
                                 off, size, static_cast<unsigned long long>(off) + size,
                                 in_.file_size));
      }
    }
    return Status::Ok();
  }

  // `call`: the index is a call from the subgraph being checked (recorded for the cycle
  // check); signatures name subgraphs without calling them.
  Status CheckSubgraphIndex(const std::string& where, const char* field, int64_t index,
                            bool call = true) {
    if (index < 0 || static_cast<size_t>(index) >= num_subgraphs_) {
      return Error(where, fmt::format("{} is {}, but the model has {} subgraphs", field, index,
                                      num_subgraphs_));
    }
    if (call) calls_[current_subgraph_].push_back({static_cast<size_t>(index), where + " " + field});
    return Status::Ok();
  }

  // A subgraph that calls itself through IF / WHILE / CALL_ONCE (or StableHLO regions),
  // directly or through others, would recurse without end when it is prepared.
  Status CheckCallCycles() {
    std::vector<int> state(num_subgraphs_, 0);  // 0 new, 1 on the path, 2 done
    std::vector<std::pair<size_t, std::string>> path;  // (calling subgraph, the call)
    for (size_t s = 0; s < num_subgraphs_; ++s) TFI_RETURN_IF_ERROR(VisitCalls(s, &state, &path));
    return Status::Ok();
  }

  Status VisitCalls(size_t s, std::vector<int>* state,
                    std::vector<std::pair<size_t, std::string>>* path) {
    if ((*state)[s] == 2) return Status::Ok();
    (*state)[s] = 1;
    for (const auto& [callee, via] : calls_[s]) {
      path->push_back({s, via});
      if ((*state)[callee] == 1) {
        std::string chain;  // the calls from `callee` back to itself
        bool in_cycle = false;
        for (const auto& [from, call] : *path) {
          in_cycle = in_cycle || from == callee;
          if (in_cycle) chain += (chain.empty() ? "" : " -> ") + call;
        }
        return Error("model", fmt::format("subgraph {} calls itself: {} (subgraph {}); TFLite "
                                          "would recurse without end",
                                          callee, chain, callee));
      }
      TFI_RETURN_IF_ERROR(VisitCalls(callee, state, path));
      path->pop_back();
    }
    (*state)[s] = 2;
    return Status::Ok();
  }

  Status CheckTensorList(const std::string& where, const char* what,
                         const Vector<int32_t>* list, size_t num_tensors, bool allow_optional) {
    for (size_t k = 0; k < Size(list); ++k) {
      int32_t t = list->Get(k);
      if (t == -1 && allow_optional) continue;  // kTfLiteOptionalTensor
      if (t < 0 || static_cast<size_t>(t) >= num_tensors) {
        return Error(where, fmt::format("{} #{} refers to tensor {}, but the subgraph has {} "
                                        "tensors", what, k, t, num_tensors));
      }
    }
    return Status::Ok();
  }

  Status CheckSubgraph(size_t s) {
    current_subgraph_ = s;
    const auto* sg = model_->subgraphs()->Get(s);
    const size_t num_tensors = Size(sg->tensors());
    const std::string where = fmt::format("subgraph {}", s);
    for (size_t t = 0; t < num_tensors; ++t) TFI_RETURN_IF_ERROR(CheckTensor(s, t));
    // TFLite accepts -1 (kTfLiteOptionalTensor) here as well.
    TFI_RETURN_IF_ERROR(CheckTensorList(where, "input", sg->inputs(), num_tensors, true));
    TFI_RETURN_IF_ERROR(CheckTensorList(where, "output", sg->outputs(), num_tensors, true));
    const auto* ops = sg->operators();
    for (size_t o = 0; o < Size(ops); ++o) TFI_RETURN_IF_ERROR(CheckOperator(s, o, num_tensors));
    CheckDataflow(s);
    return Status::Ok();
  }

  // Graphs no converter writes and whose kernels would size one buffer two ways or read
  // memory nothing wrote: a tensor with two producers, an operator writing a constant,
  // an operator reading a tensor that a later operator (or itself) writes, or a builtin
  // one reading a tensor that nothing writes (nor is it an input, a constant or a
  // variable), an output nothing writes. The model can still be inspected; building an
  // interpreter is refused. (TFLite runs the first and the last three, with undefined
  // results, and faults on the second.)
  static std::string TensorName(const tflite::Tensor* t) {
    return t->name() ? t->name()->str() : std::string();
  }

  // Whether a tensor's values must come from an operator (or the caller): not a constant,
  // not a variable (which starts from zeros), and with elements (a 0 in its shape: nothing
  // to read). TFLite reads such a tensor's arena bytes as they happen to be: for a BOOL
  // tensor, bytes that are neither true nor false.
  bool NeedsProducer(const tflite::Tensor* tensor) const {
    if (BufferBytes(tensor->buffer()) != 0 || tensor->is_variable()) return false;
    const auto* shape = tensor->shape();
    for (size_t d = 0; d < Size(shape); ++d) {
      if (shape->Get(d) == 0) return false;
    }
    return true;
  }

  void CheckDataflow(size_t s) {
    const auto* sg = model_->subgraphs()->Get(s);
    const auto* ops = sg->operators();
    // Inputs are written by the caller (or a control-flow op) and outputs read back: -1
    // (TFLite's optional tensor) or a constant there leaves nothing to write or read.
    for (const auto* list : {sg->inputs(), sg->outputs()}) {
      const char* what = list == sg->inputs() ? "Input" : "Output";
      for (size_t k = 0; k < Size(list); ++k) {
        const int32_t t = list->Get(k);
        if (t < 0) {
          refusals_->push_back(fmt::format("{} #{} of subgraph {} is {}: no tensor.", what, k,
                                           s, t));
          return;
        }
        const auto* tensor = sg->tensors()->Get(t);
        if (list == sg->inputs() && BufferBytes(tensor->buffer()) != 0) {
          refusals_->push_back(fmt::format(
              "Input #{} of subgraph {} is tensor {} ('{}'), a constant: inputs are written "
              "by the caller.",
              k, s, t, TensorName(tensor)));
          return;
        }
      }
    }
    std::vector<int64_t> producer(Size(sg->tensors()), -1);
    std::vector<bool> is_input(producer.size(), false);
    for (size_t k = 0; k < Size(sg->inputs()); ++k) is_input[sg->inputs()->Get(k)] = true;
    for (size_t o = 0; o < Size(ops); ++o) {
      const auto* outputs = ops->Get(o)->outputs();
      for (size_t k = 0; k < Size(outputs); ++k) {
        const int32_t t = outputs->Get(k);
        if (t < 0) continue;
        const auto* tensor = sg->tensors()->Get(t);
        if (BufferBytes(tensor->buffer()) != 0) {
          refusals_->push_back(fmt::format(
              "Operator {} of subgraph {} writes tensor {} ('{}'), which is a constant.", o, s,
              t, TensorName(tensor)));
          return;
        }
        if (producer[t] >= 0) {
          refusals_->push_back(fmt::format(
              "Tensor {} ('{}') of subgraph {} is an output of operators {} and {}; a tensor "
              "has one producer.",
              t, TensorName(tensor), s, producer[t], o));
          return;
        }
        if (tensor->is_variable()) {
          refusals_->push_back(fmt::format(
              "Operator {} of subgraph {} writes tensor {} ('{}'), a variable: state is "
              "updated in place by the operators that read it.",
              o, s, t, TensorName(tensor)));
          return;
        }
        if (is_input[t]) {
          refusals_->push_back(fmt::format(
              "Operator {} of subgraph {} writes tensor {} ('{}'), which is an input of the "
              "subgraph.",
              o, s, t, TensorName(tensor)));
          return;
        }
        producer[t] = static_cast<int64_t>(o);
      }
    }
    for (size_t k = 0; k < Size(sg->outputs()); ++k) {
      const int32_t t = sg->outputs()->Get(k);
      if (producer[t] >= 0 || is_input[t] || !NeedsProducer(sg->tensors()->Get(t))) continue;
      refusals_->push_back(fmt::format(
          "Output #{} of subgraph {} is tensor {} ('{}'), which no operator writes: it is not "
          "an input of the subgraph, a constant or a variable.",
          k, s, t, TensorName(sg->tensors()->Get(t))));
      return;
    }
    // Variables hold state before the first operator runs: reading one that a later
    // operator writes reads the state. An operator reading its own output never works.
    // A sparse tensor's buffer holds its compressed values: only the ops that decode it
    // (DENSIFY's input, FULLY_CONNECTED's weights) may read one; any other would read
    // its shape's worth of elements past the end of the buffer.
    for (size_t o = 0; o < Size(ops); ++o) {
      const auto* inputs = ops->Get(o)->inputs();
      const uint32_t code_index = ops->Get(o)->opcode_index();
      const int32_t code =
          code_index < in_.op_codes.size() ? in_.op_codes[code_index].builtin : -1;
      for (size_t k = 0; k < Size(inputs); ++k) {
        const int32_t t = inputs->Get(k);
        if (t >= 0 && sg->tensors()->Get(t)->sparsity() != nullptr &&
            !(code == tflite::BuiltinOperator_DENSIFY && k == 0) &&
            !(code == tflite::BuiltinOperator_FULLY_CONNECTED && k == 1)) {
          refusals_->push_back(fmt::format(
              "Operator {} of subgraph {} ({}) reads sparse tensor {} ('{}') as input {}: only "
              "DENSIFY's input and FULLY_CONNECTED's weights may be sparse.",
              o, s, code_index < in_.op_codes.size() ? in_.op_codes[code_index].name() : "?", t,
              TensorName(sg->tensors()->Get(t)), k));
          return;
        }
        // A custom operator is opaque: its inputs may be its own scratch memory (Vela's
        // ethos-u operator takes its scratch tensors as inputs, which nothing writes).
        if (t >= 0 && producer[t] < 0 && !is_input[t] && code != tflite::BuiltinOperator_CUSTOM &&
            NeedsProducer(sg->tensors()->Get(t))) {
          refusals_->push_back(fmt::format(
              "Operator {} of subgraph {} ({}) reads tensor {} ('{}'), which no operator "
              "writes: it is not an input of the subgraph, a constant or a variable.",
              o, s, code_index < in_.op_codes.size() ? in_.op_codes[code_index].name() : "?", t,
              TensorName(sg->tensors()->Get(t))));
          return;
        }
        if (t < 0 || producer[t] < static_cast<int64_t>(o)) continue;
        if (producer[t] > static_cast<int64_t>(o) && sg->tensors()->Get(t)->is_variable()) {
          continue;
        }
        refusals_->push_back(fmt::format(
            "Operator {} of subgraph {} reads tensor {} ('{}'), which operator {} writes{}: "
            "the operators are not in dependency order.",
            o, s, t, TensorName(sg->tensors()->Get(t)),
            producer[t], producer[t] == static_cast<int64_t>(o) ? " (itself)" : " later"));
        return;
      }
    }
  }

  Status CheckOperator(size_t s, size_t o, size_t num_tensors) {
    const auto* op = model_->subgraphs()->Get(s)->operators()->Get(o);
    const size_t num_codes = in_.op_codes.size();
    if (op->opcode_index() >= num_codes) {
      return Error(fmt::format("subgraph {}, operator {}", s, o),
                   fmt::format("opcode_index {} is out of range: the model has {} operator "
                               "codes", op->opcode_index(), num_codes));
    }
    const std::string where = fmt::format("subgraph {}, operator {} ({})", s, o,
                                          in_.op_codes[op->opcode_index()].display());
    TFI_RETURN_IF_ERROR(CheckTensorList(where, "input", op->inputs(), num_tensors, true));
    TFI_RETURN_IF_ERROR(CheckTensorList(where, "output", op->outputs(), num_tensors, true));
    TFI_RETURN_IF_ERROR(
        CheckTensorList(where, "intermediate", op->intermediates(), num_tensors, true));
    if (op->large_custom_options_offset() > 1) {
      const uint64_t off = op->large_custom_options_offset();
      const uint64_t size = op->large_custom_options_size();
      if (off > in_.file_size || size > in_.file_size - off) {
        return Error(where, fmt::format("large custom options at offset {} with size {} run "
                                        "past the end of the file ({} bytes)",
                                        off, size, in_.file_size));
      }
    }
    return CheckControlFlow(where, op);
  }

  // Options that name other subgraphs (control flow, StableHLO regions). IF, WHILE and
  // CALL_ONCE are read by their operator code, as the runtime reads them: options that
  // are absent or of another table give zeroed parameters, so they call subgraph 0 (a
  // crafted WHILE without options in subgraph 1 otherwise recursed through subgraph 0
  // unseen), and such a table on another operator calls nothing.
  Status CheckControlFlow(const std::string& where, const tflite::Operator* op) {
    const int32_t code = in_.op_codes[op->opcode_index()].builtin;
    if (code == tflite::BuiltinOperator_IF) {
      const auto* o = op->builtin_options_as_IfOptions();
      TFI_RETURN_IF_ERROR(CheckSubgraphIndex(where, "then_subgraph_index",
                                             o != nullptr ? o->then_subgraph_index() : 0));
      TFI_RETURN_IF_ERROR(CheckSubgraphIndex(where, "else_subgraph_index",
                                             o != nullptr ? o->else_subgraph_index() : 0));
    }
    if (code == tflite::BuiltinOperator_WHILE) {
      const auto* o = op->builtin_options_as_WhileOptions();
      TFI_RETURN_IF_ERROR(CheckSubgraphIndex(where, "cond_subgraph_index",
                                             o != nullptr ? o->cond_subgraph_index() : 0));
      TFI_RETURN_IF_ERROR(CheckSubgraphIndex(where, "body_subgraph_index",
                                             o != nullptr ? o->body_subgraph_index() : 0));
    }
    if (code == tflite::BuiltinOperator_CALL_ONCE) {
      const auto* o = op->builtin_options_as_CallOnceOptions();
      TFI_RETURN_IF_ERROR(CheckSubgraphIndex(where, "init_subgraph_index",
                                             o != nullptr ? o->init_subgraph_index() : 0));
    }
    if (const auto* o = op->builtin_options_2_as_StablehloWhileOptions()) {
      TFI_RETURN_IF_ERROR(CheckSubgraphIndex(where, "cond_subgraph_index",
                                             o->cond_subgraph_index()));
      TFI_RETURN_IF_ERROR(CheckSubgraphIndex(where, "body_subgraph_index",
                                             o->body_subgraph_index()));
    }
    if (const auto* o = op->builtin_options_2_as_StablehloReduceOptions()) {
      TFI_RETURN_IF_ERROR(CheckSubgraphIndex(where, "body_subgraph_index",
                                             o->body_subgraph_index()));
    }
    if (const auto* o = op->builtin_options_2_as_StableHLOCompositeOptions()) {
      TFI_RETURN_IF_ERROR(CheckSubgraphIndex(where, "decomposition_subgraph_index",
                                             o->decomposition_subgraph_index()));
    }
    return Status::Ok();
  }

  // Number of elements of `shape`, or an error when a dim is negative or the product
  // overflows int64.
  Status ElementCount(const std::string& where, const Vector<int32_t>* shape, int64_t* count) {
    int64_t n = 1;
    for (size_t d = 0; d < Size(shape); ++d) {
      int32_t dim = shape->Get(d);
      if (dim < 0) {
        return Error(where, fmt::format("dimension {} of shape {} is negative ({}); only "
                                        "shape_signature may hold -1",
                                        d, ShapeString(shape), dim));
      }
      if (dim != 0 && n > std::numeric_limits<int64_t>::max() / dim) {
        return Error(where, fmt::format("shape {} has more elements than fit in int64",
                                        ShapeString(shape)));
      }
      n *= dim;
    }
    *count = n;
    return Status::Ok();
  }

  Status CheckTensor(size_t s, size_t t) {
    const auto* tensor = model_->subgraphs()->Get(s)->tensors()->Get(t);
    const std::string where =
        fmt::format("subgraph {}, tensor {} ('{}')", s, t,
                    TensorName(tensor));
    const int type = tensor->type();
    if (type < tflite::TensorType_MIN || type > tflite::TensorType_MAX) {
      return Error(where, fmt::format("unknown tensor type {}", type));
    }
    int64_t elements = 0;
    TFI_RETURN_IF_ERROR(ElementCount(where, tensor->shape(), &elements));
    if (tensor->buffer() >= num_buffers_ && !(num_buffers_ == 0 && tensor->buffer() == 0)) {
      return Error(where, fmt::format("refers to buffer {}, but the model has {} buffers",
                                      tensor->buffer(), num_buffers_));
    }
    TFI_RETURN_IF_ERROR(CheckQuantization(where, tensor, t));
    if (tensor->sparsity() != nullptr) return CheckSparsity(where, tensor);
    return CheckBufferSize(where, tensor, elements);
  }

  Status CheckBufferSize(const std::string& where, const tflite::Tensor* tensor,
                         int64_t elements) {
    const size_t bytes = BufferBytes(tensor->buffer());
    if (bytes == 0) return Status::Ok();  // not a constant tensor
    const auto type = tensor->type();
    if (type == tflite::TensorType_STRING || type == tflite::TensorType_RESOURCE ||
        type == tflite::TensorType_VARIANT) {
      return Status::Ok();  // sizes depend on contents, as in TFLite
    }
    uint64_t needed;
    if (type == tflite::TensorType_INT4 || type == tflite::TensorType_INT2) {
      // Accept unpacked (one byte per value) and packed (two or four per byte) layouts.
      const uint64_t per_byte = type == tflite::TensorType_INT4 ? 2 : 4;
      uint64_t packed = (static_cast<uint64_t>(elements) + per_byte - 1) / per_byte;
      if (bytes == packed || bytes == static_cast<uint64_t>(elements)) return Status::Ok();
      needed = packed;
    } else {
      const uint64_t elem = TensorTypeSize(type);
      if (elem == 0) return Status::Ok();  // no fixed element size: nothing to compare
      if (static_cast<uint64_t>(elements) > std::numeric_limits<uint64_t>::max() / elem) {
        return Error(where, "byte size of the shape overflows");
      }
      needed = static_cast<uint64_t>(elements) * elem;
    }
    if (needed != bytes) {
      return Error(where, fmt::format("buffer {} holds {} bytes, but shape {} of {} needs {} "
                                      "bytes", tensor->buffer(), bytes,
                                      ShapeString(tensor->shape()), TensorTypeName(type),
                                      needed));
    }
    return Status::Ok();
  }

  size_t BufferBytes(uint32_t index) const {
    if (index >= num_buffers_) return 0;
    const auto* b = model_->buffers()->Get(index);
    if (b->offset() > 1) return static_cast<size_t>(b->size());
    return Size(b->data());
  }

  Status CheckQuantization(const std::string& where, const tflite::Tensor* tensor, size_t t) {
    const auto* q = tensor->quantization();
    // TFLite prints its reason, then "Tensor N has invalid quantization parameters.".
    auto refuse = [&](const std::string& reason) {
      refusals_->push_back(fmt::format("{} Tensor {} has invalid quantization parameters. ({})",
                                       reason, t, where));
    };
    // The verifier checks a vector's length field for 4-byte alignment only, so the
    // int64 values of zero_point may sit at 4 mod 8, where reading them is undefined
    // behaviour (and faults on strict-alignment CPUs). Converters never write that.
    if (q != nullptr && q->zero_point() != nullptr && q->zero_point()->size() != 0 &&
        reinterpret_cast<uintptr_t>(q->zero_point()->data()) % alignof(int64_t) != 0) {
      return Error(where, "quantization zero_point values are not 8-byte aligned; the "
                          "flatbuffer is corrupt");
    }
    if (q == nullptr || q->scale() == nullptr || q->scale()->size() == 0) return Status::Ok();
    if (q->zero_point() == nullptr) {
      refuse("Quantization parameters has non-null scale but null zero_point.");
      return Status::Ok();
    }
    const size_t num_scales = q->scale()->size();
    if (num_scales != q->zero_point()->size()) {
      return Error(where, fmt::format("quantization has {} scales but {} zero points",
                                      num_scales, q->zero_point()->size()));
    }
    if (num_scales == 0) return Status::Ok();
    // The checks below are TFLite's InterpreterBuilder::ParseQuantization; it refuses
    // the model, but the bytes are still safe to inspect.
    const size_t rank = Size(tensor->shape());
    const int32_t qdim = q->quantized_dimension();
    if (qdim < 0 || (rank != 0 && static_cast<size_t>(qdim) >= rank)) {
      refuse(fmt::format("quantized_dimension must be in range [0, {}). Was {}.", rank, qdim));
      return Status::Ok();
    }
    if (num_scales != 1 && rank != 0 &&
        num_scales != static_cast<size_t>(tensor->shape()->Get(qdim))) {
      refuse(fmt::format("num_scales must be 1 for per-layer quantization, or {} for per-axis "
                         "quantization, but got {}.", tensor->shape()->Get(qdim), num_scales));
      return Status::Ok();
    }
    // Beyond TFLite (which DCHECKs or computes garbage in its kernels): values that no
    // converter writes and that no integer kernel can use.
    for (size_t i = 0; i < num_scales; ++i) {
      const float scale = q->scale()->Get(i);
      if (!std::isfinite(scale) || scale < 0.f) {
        refuse(fmt::format("scale[{}] is {}; scales must be finite and non-negative.", i,
                           scale));
        return Status::Ok();
      }
    }
    int64_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
    switch (tensor->type()) {
      case tflite::TensorType_INT8: lo = -128; hi = 127; break;
      case tflite::TensorType_UINT8: lo = 0; hi = 255; break;
      case tflite::TensorType_INT16: lo = -32768; hi = 32767; break;
      case tflite::TensorType_INT4: lo = -8; hi = 7; break;
      default: break;
    }
    for (size_t i = 0; i < num_scales; ++i) {
      const int64_t zp = q->zero_point()->Get(i);
      if (zp < lo || zp > hi) {
        refuse(fmt::format("zero_point[{}] is {}, outside [{}, {}] for {}.", i, zp, lo, hi,
                           TensorTypeName(tensor->type())));
        return Status::Ok();
      }
    }
    return Status::Ok();
  }

  Status CheckSparsity(const std::string& where, const tflite::Tensor* tensor);

  Status CheckSignatures() {
    const auto* sigs = model_->signature_defs();
    for (size_t i = 0; i < Size(sigs); ++i) {
      const auto* sig = sigs->Get(i);
      const std::string where = fmt::format(
          "signature {} ('{}')", i, sig->signature_key() ? sig->signature_key()->str() : "");
      TFI_RETURN_IF_ERROR(CheckSubgraphIndex(where, "subgraph_index", sig->subgraph_index(), /*call=*/false));
      const size_t num_tensors =
          Size(model_->subgraphs()->Get(sig->subgraph_index())->tensors());
      for (const auto* maps : {sig->inputs(), sig->outputs()}) {
        for (size_t k = 0; k < Size(maps); ++k) {
          const auto* m = maps->Get(k);
          if (m->tensor_index() >= num_tensors) {
            return Error(where, fmt::format("{} '{}' refers to tensor {}, but subgraph {} has "
                                            "{} tensors",
                                            maps == sig->inputs() ? "input" : "output",
                                            m->name() ? m->name()->str() : "",
                                            m->tensor_index(), sig->subgraph_index(),
                                            num_tensors));
          }
        }
      }
    }
    return Status::Ok();
  }

  Status CheckMetadata() {
    const auto* md = model_->metadata();
    for (size_t i = 0; i < Size(md); ++i) {
      if (md->Get(i)->buffer() >= num_buffers_) {
        return Error(fmt::format("metadata {} ('{}')", i,
                                 md->Get(i)->name() ? md->Get(i)->name()->str() : ""),
                     fmt::format("refers to buffer {}, but the model has {} buffers",
                                 md->Get(i)->buffer(), num_buffers_));
      }
    }
    const auto* mb = model_->metadata_buffer();
    for (size_t i = 0; i < Size(mb); ++i) {
      if (mb->Get(i) < 0 || static_cast<size_t>(mb->Get(i)) >= num_buffers_) {
        return Error("model", fmt::format("metadata_buffer #{} refers to buffer {}, but the "
                                          "model has {} buffers", i, mb->Get(i), num_buffers_));
      }
    }
    return Status::Ok();
  }

  const ValidationInput& in_;
  // Subgraph calls (callee, where) per subgraph, for CheckCallCycles.
  std::vector<std::vector<std::pair<size_t, std::string>>> calls_;
  size_t current_subgraph_ = 0;
  const tflite::Model* model_;
  std::vector<std::string>* refusals_;
  size_t num_subgraphs_ = 0;
  size_t num_buffers_ = 0;
};

// Sparse index vectors come in three widths; read any of them as int64.
struct IndexVector {
  tflite::SparseIndexVector type;
  const void* table;
  size_t size() const {
    switch (type) {
      case tflite::SparseIndexVector_Int32Vector:
        return Size(static_cast<const tflite::Int32Vector*>(table)->values());
      case tflite::SparseIndexVector_Uint16Vector:
        return Size(static_cast<const tflite::Uint16Vector*>(table)->values());
      case tflite::SparseIndexVector_Uint8Vector:
        return Size(static_cast<const tflite::Uint8Vector*>(table)->values());
      default:
        return 0;
    }
  }
  int64_t at(size_t i) const {
    switch (type) {
      case tflite::SparseIndexVector_Int32Vector:
        return static_cast<const tflite::Int32Vector*>(table)->values()->Get(i);
      case tflite::SparseIndexVector_Uint16Vector:
        return static_cast<const tflite::Uint16Vector*>(table)->values()->Get(i);
      default:
        return static_cast<const tflite::Uint8Vector*>(table)->values()->Get(i);
    }
  }
  bool valid() const { return table != nullptr && type != tflite::SparseIndexVector_NONE; }
};

// Walks the compressed levels in traversal order and checks that every segment and
// index array is consistent with the dense shape, so DENSIFY can trust them.
Status Validator::CheckSparsity(const std::string& where, const tflite::Tensor* tensor) {
  const auto* sp = tensor->sparsity();
  const size_t rank = Size(tensor->shape());
  const size_t n = Size(sp->traversal_order());
  const size_t block_rank = Size(sp->block_map());
  auto err = [&](const std::string& what) { return Error(where, "sparsity: " + what); };
  if (n != rank + block_rank) {
    return err(fmt::format("traversal_order has {} entries, expected rank {} + {} block dims",
                           n, rank, block_rank));
  }
  if (Size(sp->dim_metadata()) != n) {
    return err(fmt::format("dim_metadata has {} entries, expected {}",
                           Size(sp->dim_metadata()), n));
  }
  std::vector<bool> seen(n, false);
  std::vector<int> position(n, 0);  // dim -> traversal position
  for (size_t i = 0; i < n; ++i) {
    int32_t d = sp->traversal_order()->Get(i);
    if (d < 0 || static_cast<size_t>(d) >= n || seen[d]) {
      return err(fmt::format("traversal_order is not a permutation of 0..{}", n - 1));
    }
    seen[d] = true;
    position[d] = static_cast<int>(i);
  }
  // Size of every expanded dimension: original dims divided by their block size, block
  // dims as given by their dense_size.
  std::vector<int64_t> dim_size(n);
  for (size_t d = 0; d < rank; ++d) dim_size[d] = tensor->shape()->Get(d);
  for (size_t k = 0; k < block_rank; ++k) {
    int32_t orig = sp->block_map()->Get(k);
    if (orig < 0 || static_cast<size_t>(orig) >= rank) {
      return err(fmt::format("block_map[{}] = {} is not a dimension of rank {}", k, orig, rank));
    }
    const auto* md = sp->dim_metadata()->Get(position[rank + k]);
    int64_t block = md->dense_size();
    if (md->format() != tflite::DimensionType_DENSE || block <= 0 ||
        dim_size[orig] % block != 0) {
      return err(fmt::format("block dimension {} must be dense with a size that divides "
                             "dimension {} ({})", rank + k, orig, dim_size[orig]));
    }
    dim_size[rank + k] = block;
    dim_size[orig] /= block;
  }
  int64_t count = 1;  // entries at the current level
  for (size_t i = 0; i < n; ++i) {
    const auto* md = sp->dim_metadata()->Get(i);
    const int64_t size = dim_size[sp->traversal_order()->Get(i)];
    if (md->format() == tflite::DimensionType_DENSE) {
      if (md->dense_size() != size) {
        return err(fmt::format("dim_metadata[{}] dense_size {} differs from the dimension "
                               "size {}", i, md->dense_size(), size));
      }
      if (size != 0 && count > std::numeric_limits<int32_t>::max() / size) {
        return err("dense size overflows");
      }
      count *= size;
      continue;
    }
    IndexVector seg{md->array_segments_type(), md->array_segments()};
    IndexVector idx{md->array_indices_type(), md->array_indices()};
    if (!seg.valid() || !idx.valid()) {
      return err(fmt::format("dim_metadata[{}] is SPARSE_CSR but lacks array_segments or "
                             "array_indices", i));
    }
    if (seg.size() != static_cast<size_t>(count) + 1) {
      return err(fmt::format("dim_metadata[{}] array_segments has {} entries, expected {}", i,
                             seg.size(), count + 1));
    }
    if (seg.at(0) != 0) return err(fmt::format("dim_metadata[{}] array_segments[0] is not 0", i));
    for (size_t k = 1; k < seg.size(); ++k) {
      if (seg.at(k) < seg.at(k - 1)) {
        return err(fmt::format("dim_metadata[{}] array_segments decrease at #{}", i, k));
      }
    }
    const int64_t nnz = seg.at(seg.size() - 1);
    if (idx.size() != static_cast<size_t>(nnz)) {
      return err(fmt::format("dim_metadata[{}] array_indices has {} entries, but the segments "
                             "end at {}", i, idx.size(), nnz));
    }
    for (size_t k = 0; k < idx.size(); ++k) {
      if (idx.at(k) < 0 || idx.at(k) >= size) {
        return err(fmt::format("dim_metadata[{}] array_indices[{}] = {} is outside [0, {})", i,
                               k, idx.at(k), size));
      }
    }
    count = nnz;
  }
  const size_t bytes = BufferBytes(tensor->buffer());
  const size_t elem = TensorTypeSize(tensor->type());
  if (elem == 0) return err("sparse tensors need a fixed-size element type");
  if (bytes != static_cast<size_t>(count) * elem) {
    return err(fmt::format("buffer {} holds {} bytes, but the sparse layout stores {} values of "
                           "{} ({} bytes)", tensor->buffer(), bytes, count,
                           TensorTypeName(tensor->type()), count * elem));
  }
  return Status::Ok();
}

}  // namespace

Status ValidateModel(const ValidationInput& in, std::vector<std::string>* refusals) {
  return Validator(in, refusals).Run();
}

}  // namespace tflite_inspect
