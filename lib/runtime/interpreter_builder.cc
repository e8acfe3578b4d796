#include "tensorflow/lite/interpreter_builder.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "model/model.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "resolver/resolver_check.h"
#include "runtime/builtin_options.h"

namespace tflite {
namespace {

TfLiteIntArray* IntArrayFrom(const flatbuffers::Vector<int32_t>* v) {
  const int n = v == nullptr ? 0 : static_cast<int>(v->size());
  TfLiteIntArray* a = TfLiteIntArrayCreate(n);
  for (int i = 0; i < n; ++i) a->data[i] = v->Get(i);
  return a;
}

template <typename T>
std::vector<int> VectorFrom(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? std::vector<int>() : std::vector<int>(v->begin(), v->end());
}

// Sparse index vectors come in three widths; TFLite's runtime keeps them as int arrays.
TfLiteIntArray* IndexArray(tflite::SparseIndexVector type, const void* table) {
  switch (type) {
    case SparseIndexVector_Int32Vector:
      return IntArrayFrom(static_cast<const Int32Vector*>(table)->values());
    case SparseIndexVector_Uint16Vector: {
      auto* v = static_cast<const Uint16Vector*>(table)->values();
      std::vector<int> values = VectorFrom(v);
      TfLiteIntArray* a = TfLiteIntArrayCreate(static_cast<int>(values.size()));
      std::copy(values.begin(), values.end(), a->data);
      return a;
    }
    case SparseIndexVector_Uint8Vector: {
      auto* v = static_cast<const Uint8Vector*>(table)->values();
      std::vector<int> values = VectorFrom(v);
      TfLiteIntArray* a = TfLiteIntArrayCreate(static_cast<int>(values.size()));
      std::copy(values.begin(), values.end(), a->data);
      return a;
    }
    default:
      return TfLiteIntArrayCreate(0);
  }
}

TfLiteSparsity* ParseSparsity(const SparsityParameters* sp) {
  if (sp == nullptr) return nullptr;
  auto* s = static_cast<TfLiteSparsity*>(std::calloc(1, sizeof(TfLiteSparsity)));
  s->traversal_order = IntArrayFrom(sp->traversal_order());
  s->block_map = IntArrayFrom(sp->block_map());
  const int n = sp->dim_metadata() ? static_cast<int>(sp->dim_metadata()->size()) : 0;
  s->dim_metadata_size = n;
  s->dim_metadata =
      static_cast<TfLiteDimensionMetadata*>(std::calloc(n > 0 ? n : 1, sizeof(TfLiteDimensionMetadata)));
  for (int i = 0; i < n; ++i) {
    const auto* md = sp->dim_metadata()->Get(i);
    TfLiteDimensionMetadata& d = s->dim_metadata[i];
    d.format = md->format() == DimensionType_DENSE ? kTfLiteDimDense : kTfLiteDimSparseCSR;
    d.dense_size = md->dense_size();
    if (d.format == kTfLiteDimSparseCSR) {
      d.array_segments = IndexArray(md->array_segments_type(), md->array_segments());
      d.array_indices = IndexArray(md->array_indices_type(), md->array_indices());
    }
  }
  return s;
}

TfLiteQuantization ParseQuantization(const QuantizationParameters* q) {
  TfLiteQuantization out{kTfLiteNoQuantization, nullptr};
  if (q == nullptr || q->scale() == nullptr || q->scale()->size() == 0 ||
      q->zero_point() == nullptr) {
    return out;
  }
  auto* affine =
      static_cast<TfLiteAffineQuantization*>(std::calloc(1, sizeof(TfLiteAffineQuantization)));
  const int n = static_cast<int>(q->scale()->size());
  affine->scale = TfLiteFloatArrayCreate(n);
  affine->zero_point = TfLiteIntArrayCreate(n);
  for (int i = 0; i < n; ++i) {
    affine->scale->data[i] = q->scale()->Get(i);
    affine->zero_point->data[i] = static_cast<int>(q->zero_point()->Get(i));
  }
  affine->quantized_dimension = q->quantized_dimension();
  out.type = kTfLiteAffineQuantization;
  out.params = affine;
  return out;
}

// Which of the model's ops and versions `resolver` offers, found by asking it.
tflite_inspect::OpCatalog ProbeCatalog(const tflite_inspect::Model& model,
                                       const OpResolver& resolver) {
  tflite_inspect::OpCatalog catalog;
  for (const auto& code : model.op_codes()) {
    // Versions 1-16 and the model's own (a crafted 2^31-1 must not mean 2^31 lookups).
    std::set<int> versions;
    for (int v = 1; v <= 16; ++v) versions.insert(v);
    versions.insert(code.version);
    for (int v : versions) {
      if (code.is_custom()) {
        if (resolver.FindOp(code.custom_name.c_str(), v)) catalog.AddCustom(code.custom_name, v, v);
      } else if (tflite_inspect::IsKnownBuiltinOp(code.builtin) &&
                 resolver.FindOp(static_cast<BuiltinOperator>(code.builtin), v)) {
        catalog.AddBuiltin(code.builtin, v, v);
      }
    }
  }
  return catalog;
}

}  // namespace

InterpreterBuilder::InterpreterBuilder(const FlatBufferModel& model, const OpResolver& op_resolver)
    : InterpreterBuilder(model, op_resolver, model.error_reporter()) {}

InterpreterBuilder::InterpreterBuilder(const FlatBufferModel& model, const OpResolver& op_resolver,
                                       ErrorReporter* error_reporter)
    : model_(model),
      op_resolver_(op_resolver),
      error_reporter_(error_reporter ? error_reporter : DefaultErrorReporter()) {}

InterpreterBuilder::InterpreterBuilder(const FlatBufferModel& model, const OpResolver& op_resolver,
                                       const InterpreterOptions* options_experimental)
    : InterpreterBuilder(model, op_resolver, model.error_reporter()) {
  options_ = options_experimental;
}

InterpreterBuilder::~InterpreterBuilder() = default;

TfLiteStatus InterpreterBuilder::SetNumThreads(int num_threads) {
  // As TFLite: 0 is accepted (one thread), -1 is the runtime's choice.
  if (num_threads < -1) {
    error_reporter_->Report(
        "num_threads should be >= 0 or just -1 to let TFLite runtime set the value.");
    return kTfLiteError;
  }
  num_threads_ = num_threads;
  return kTfLiteOk;
}

TfLiteStatus InterpreterBuilder::operator()(std::unique_ptr<Interpreter>* interpreter,
                                            int num_threads) {
  TF_LITE_ENSURE_STATUS(SetNumThreads(num_threads));
  return (*this)(interpreter);
}

TfLiteStatus InterpreterBuilder::ResolveOps(std::vector<const TfLiteRegistration*>* regs) {
  const tflite_inspect::Model& model = model_.inspect_model();
  bool failed = false;
  for (const auto& code : model.op_codes()) {
    const TfLiteRegistration* reg = nullptr;
    if (!code.is_custom()) {
      if (tflite_inspect::IsKnownBuiltinOp(code.builtin)) {
        reg = op_resolver_.FindOp(static_cast<BuiltinOperator>(code.builtin), code.version);
      }
      if (reg == nullptr && !failed) {
        error_reporter_->Report("%s",
                                tflite_inspect::BuiltinMissMessage(code.builtin, code.version).c_str());
        failed = true;
      }
    } else {
      reg = op_resolver_.FindOp(code.custom_name.c_str(), code.version);
      if (reg == nullptr) {
        // As in TFLite: a custom op may still be taken by a delegate, so it only fails
        // if it reaches prepare.
        auto placeholder = std::make_unique<TfLiteRegistration>();
        *placeholder = TfLiteRegistration{};
        placeholder->invoke = UnresolvedCustomOpInvoke;  // marks it (IsUnresolvedCustomOp)
        placeholder->builtin_code = BuiltinOperator_CUSTOM;
        placeholder->custom_name = model.fb()->operator_codes()->Get(regs->size())->custom_code()->c_str();
        placeholder->version = code.version;
        reg = placeholder.get();
        unresolved_.push_back(std::move(placeholder));
      }
    }
    regs->push_back(reg);
  }
  if (!failed) return kTfLiteOk;
  // Beyond TFLite: list every miss with what the resolver has, so one run shows all.
  tflite_inspect::ResolverCheckResult check =
      tflite_inspect::CheckResolver(model, ProbeCatalog(model, op_resolver_));
  error_reporter_->Report("Registration failed. The resolver lacks %d of the model's %zu "
                          "operator codes:", check.misses, check.rows.size());
  // One line per op and version (converters may list the same op code twice), with the
  // nodes that use it.
  std::map<std::string, std::pair<std::string, std::vector<tflite_inspect::NodeRef>>> misses;
  std::vector<std::string> order;
  for (const auto& row : check.rows) {
    if (row.status == tflite_inspect::OpResolveStatus::kOk) continue;
    auto [it, added] = misses.try_emplace(row.code.display());
    if (added) {
      order.push_back(row.code.display());
      it->second.first = std::string(tflite_inspect::OpResolveStatusName(row.status)) +
                         (row.registered.empty() ? "" : " (registered " + row.registered + ")");
    }
    it->second.second.insert(it->second.second.end(), row.nodes.begin(), row.nodes.end());
  }
  for (const std::string& op : order) {
    const auto& [status, nodes] = misses[op];
    std::string where;
    for (size_t i = 0; i < nodes.size() && i < 12; ++i) {
      where += (i ? ", " : "") + std::string("node ") + std::to_string(nodes[i].node) +
               (nodes[i].subgraph != 0 ? " of subgraph " + std::to_string(nodes[i].subgraph) : "");
    }
    if (nodes.size() > 12) where += ", ... (" + std::to_string(nodes.size()) + " nodes)";
    error_reporter_->Report("  %s: %s%s%s", op.c_str(), status.c_str(), where.empty() ? "" : "; ",
                            where.c_str());
  }
  return kTfLiteError;
}

TfLiteStatus InterpreterBuilder::BuildSubgraph(int index,
                                               const std::vector<const TfLiteRegistration*>& regs,
                                               Subgraph* subgraph) {
  const tflite_inspect::Model& model = model_.inspect_model();
  const SubGraph* sg = model.fb()->subgraphs()->Get(index);
  if (sg->name()) subgraph->SetName(sg->name()->str());
  const int num_tensors = sg->tensors() ? static_cast<int>(sg->tensors()->size()) : 0;
  TF_LITE_ENSURE_STATUS(subgraph->AddTensors(num_tensors));
  std::vector<int> variables;
  for (int t = 0; t < num_tensors; ++t) {
    const Tensor* tensor = sg->tensors()->Get(t);
    TfLiteType type;
    std::string error;
    if (tflite_inspect::ConvertTensorType(tensor->type(), &type, &error) != kTfLiteOk) {
      error_reporter_->Report("subgraph %d, tensor %d: %s", index, t, error.c_str());
      return kTfLiteError;
    }
    const char* name = tensor->name() ? tensor->name()->c_str() : nullptr;
    std::vector<int> dims = VectorFrom(tensor->shape());
    TfLiteQuantization quant = ParseQuantization(tensor->quantization());
    // Constants are read as arrays of their element type: aligned for it (a crafted file
    // can put a buffer at any offset; converters align them).
    const int element = tflite::TfLiteTypeGetSize(type);
    const size_t alignment = element > 0 ? std::min<size_t>(static_cast<size_t>(element), alignof(std::max_align_t)) : 1;
    tflite_inspect::BufferView buf = type == kTfLiteBool ? model.bool_buffer(tensor->buffer())
                                                         : model.aligned_buffer(tensor->buffer(), alignment);
    TfLiteStatus st;
    if (!buf.empty() && !tensor->is_variable()) {
      st = subgraph->SetTensorParametersReadOnly(t, type, name, dims, quant,
                                                 reinterpret_cast<const char*>(buf.data),
                                                 buf.size, &model,
                                                 ParseSparsity(tensor->sparsity()));
    } else {
      if (tensor->is_variable()) variables.push_back(t);
      st = subgraph->SetTensorParametersReadWrite(t, type, name, dims, quant,
                                                  tensor->is_variable(),
                                                  VectorFrom(tensor->shape_signature()));
    }
    if (st != kTfLiteOk) {
      TfLiteQuantizationFree(&quant);
      return st;
    }
  }
  const int num_ops = sg->operators() ? static_cast<int>(sg->operators()->size()) : 0;
  for (int o = 0; o < num_ops; ++o) {
    const Operator* op = sg->operators()->Get(o);
    const TfLiteRegistration* reg = regs[op->opcode_index()];
    const auto& code = model.op_codes()[op->opcode_index()];
    const char* init_data = nullptr;
    size_t init_size = 0;
    void* builtin_data = nullptr;
    std::string note;
    if (code.is_custom()) {
      if (op->large_custom_options_offset() > 1) {
        init_data = reinterpret_cast<const char*>(model.bytes() + op->large_custom_options_offset());
        init_size = static_cast<size_t>(op->large_custom_options_size());
      } else if (op->custom_options() != nullptr) {
        init_data = reinterpret_cast<const char*>(op->custom_options()->data());
        init_size = op->custom_options()->size();
      }
    } else {
      std::string error;
      if (tflite_inspect::ParseBuiltinOptions(op, static_cast<BuiltinOperator>(code.builtin),
                                              &builtin_data, &error, &note) != kTfLiteOk) {
        error_reporter_->Report("subgraph %d, operator %d (%s): %s", index, o,
                                code.display().c_str(), error.c_str());
        return kTfLiteError;
      }
    }
    int node_index = -1;
    TF_LITE_ENSURE_STATUS(subgraph->AddNodeWithParameters(
        VectorFrom(op->inputs()), VectorFrom(op->outputs()), VectorFrom(op->intermediates()),
        init_data, init_size, builtin_data, reg, &node_index));
    if (!note.empty()) subgraph->SetNodeNote(node_index, std::move(note));
  }
  TF_LITE_ENSURE_STATUS(subgraph->SetInputs(VectorFrom(sg->inputs())));
  TF_LITE_ENSURE_STATUS(subgraph->SetOutputs(VectorFrom(sg->outputs())));
  return subgraph->SetVariables(std::move(variables));
}

void InterpreterBuilder::AddDelegate(TfLiteDelegate* delegate) {
  if (delegate == nullptr) {
    error_reporter_->Report("Null delegate.");
    return;
  }
  delegates_.push_back(delegate);
}

TfLiteStatus InterpreterBuilder::operator()(std::unique_ptr<Interpreter>* interpreter) {
  if (interpreter == nullptr) return kTfLiteError;
  interpreter->reset();
  const tflite_inspect::Model& model = model_.inspect_model();
  if (!model.refusals().empty()) {
    for (const auto& r : model.refusals()) error_reporter_->Report("%s", r.c_str());
    return kTfLiteError;
  }
  std::vector<const TfLiteRegistration*> regs;
  TF_LITE_ENSURE_STATUS(ResolveOps(&regs));
  auto result = std::make_unique<Interpreter>(error_reporter_);
  if (options_ != nullptr) result->ApplyOptions(options_);
  const int num_subgraphs = static_cast<int>(model.fb()->subgraphs()->size());
  if (num_subgraphs > 1) result->AddSubgraphs(num_subgraphs - 1);
  if (num_threads_ != -1) TF_LITE_ENSURE_STATUS(result->SetNumThreads(num_threads_));
  // (Not `s`: TF_LITE_ENSURE_STATUS declares its own `s`, as TFLite's does.)
  for (int index = 0; index < num_subgraphs; ++index) {
    TF_LITE_ENSURE_STATUS(BuildSubgraph(index, regs, result->subgraph(index)));
  }
  // The validator checked every signature's subgraph and tensor indices.
  std::vector<internal::SignatureDef> signatures;
  if (const auto* defs = model.fb()->signature_defs()) {
    for (const auto* def : *defs) {
      internal::SignatureDef sig;
      sig.signature_key = def->signature_key() ? def->signature_key()->str() : "";
      sig.subgraph_index = def->subgraph_index();
      auto names = [](const auto* maps, std::map<std::string, uint32_t>* out) {
        for (size_t k = 0; maps != nullptr && k < maps->size(); ++k) {
          const auto* m = maps->Get(k);
          (*out)[m->name() ? m->name()->str() : ""] = m->tensor_index();
        }
      };
      names(def->inputs(), &sig.inputs);
      names(def->outputs(), &sig.outputs);
      signatures.push_back(std::move(sig));
    }
  }
  result->SetSignatureDefs(std::move(signatures));
  for (size_t i = 0; i < delegates_.size(); ++i) {
    if (result->ModifyGraphWithDelegate(delegates_[i]) != kTfLiteOk) {
      error_reporter_->Report("Failed to apply delegate %zu of %zu added to the "
                              "InterpreterBuilder.", i + 1, delegates_.size());
      return kTfLiteError;
    }
  }
  *interpreter = std::move(result);
  return kTfLiteOk;
}

}  // namespace tflite
