#include "inspect/inspect_report.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include "fmt/format.h"
#include "inspect/node_attributes.h"
#include "util/strings.h"

namespace tflite_inspect {
namespace {

template <typename T>
std::vector<T> ToVector(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? std::vector<T>() : std::vector<T>(v->begin(), v->end());
}

TensorInfo DescribeTensor(const Model& model, const tflite::Tensor* t, int id) {
  TensorInfo info;
  info.id = id;
  info.name = t->name() ? t->name()->str() : "";
  info.shape = ToVector(t->shape());
  if (t->shape_signature() != nullptr) info.shape_signature = ToVector(t->shape_signature());
  info.dtype = TensorTypeName(t->type());
  info.buffer = t->buffer();
  info.buffer_bytes = model.buffer(t->buffer()).size;
  info.is_variable = t->is_variable();
  info.is_sparse = t->sparsity() != nullptr;
  info.has_rank = t->has_rank();
  if (const auto* q = t->quantization()) {
    info.scales = ToVector(q->scale());
    info.zero_points = ToVector(q->zero_point());
    info.quantized_dimension = q->quantized_dimension();
    if (info.scales.size() == 1) info.quant_kind = "per-tensor";
    if (info.scales.size() > 1) info.quant_kind = "per-channel";
  }
  return info;
}

// Custom op names may hold characters C++ identifiers cannot ("ethos-u").
std::string Identifier(const std::string& name) {
  std::string id;
  for (char c : name) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return id;
}

}  // namespace

std::string CompressIds(std::vector<int> ids) { return JoinRanges(std::move(ids), ", "); }

ModelReport BuildReport(const Model& model) {
  const tflite::Model* m = model.fb();
  ModelReport r;
  r.path = model.source();
  r.file_size = model.size();
  r.schema_version = static_cast<int>(m->version());
  r.description = m->description() ? m->description()->str() : "";
  r.num_buffers = m->buffers() ? m->buffers()->size() : 0;
  r.min_runtime_version = model.min_runtime_version();
  r.refusals = model.refusals();
  if (m->metadata()) {
    for (const auto* md : *m->metadata()) r.metadata_names.push_back(md->name() ? md->name()->str() : "");
  }
  if (m->signature_defs()) {
    for (const auto* s : *m->signature_defs()) {
      SignatureInfo sig;
      sig.key = s->signature_key() ? s->signature_key()->str() : "";
      sig.subgraph = static_cast<int>(s->subgraph_index());
      for (const auto* maps : {s->inputs(), s->outputs()}) {
        if (maps == nullptr) continue;
        auto& dst = maps == s->inputs() ? sig.inputs : sig.outputs;
        for (const auto* t : *maps) dst.emplace_back(t->name() ? t->name()->str() : "", t->tensor_index());
      }
      r.signatures.push_back(std::move(sig));
    }
  }
  const size_t num_sg = m->subgraphs()->size();
  for (size_t i = 0; i < model.op_codes().size(); ++i) {
    OpCodeUsage u;
    u.index = static_cast<int>(i);
    u.code = model.op_codes()[i];
    u.uses_per_subgraph.assign(num_sg, 0);
    r.op_codes.push_back(std::move(u));
  }
  for (size_t s = 0; s < num_sg; ++s) {
    const auto* sg = m->subgraphs()->Get(s);
    SubgraphInfo info;
    info.index = static_cast<int>(s);
    info.name = sg->name() ? sg->name()->str() : "";
    info.inputs = ToVector(sg->inputs());
    info.outputs = ToVector(sg->outputs());
    if (sg->tensors()) {
      for (size_t t = 0; t < sg->tensors()->size(); ++t) {
        info.tensors.push_back(DescribeTensor(model, sg->tensors()->Get(t), static_cast<int>(t)));
      }
    }
    if (sg->operators()) {
      for (size_t o = 0; o < sg->operators()->size(); ++o) {
        const auto* op = sg->operators()->Get(o);
        OperatorInfo oi;
        oi.index = static_cast<int>(o);
        oi.opcode_index = static_cast<int>(op->opcode_index());
        const OpCode& code = model.op_codes()[oi.opcode_index];
        oi.op = code.name();
        oi.version = code.version;
        oi.custom = code.is_custom();
        oi.inputs = ToVector(op->inputs());
        oi.outputs = ToVector(op->outputs());
        if (!oi.custom) oi.attributes = NodeAttributes(*op, code.builtin);
        if (sg->tensors() != nullptr) {
          oi.macs = oi.custom ? CustomNodeMacs(code.custom_name, *op, *sg->tensors())
                              : NodeMacs(*op, code.builtin, *sg->tensors());
        }
        if (oi.macs > 0) {
          info.macs = oi.macs > INT64_MAX - info.macs ? INT64_MAX : info.macs + oi.macs;
        }
        OpCodeUsage& u = r.op_codes[oi.opcode_index];
        ++u.uses_per_subgraph[s];
        ++u.total_uses;
        u.nodes.push_back({static_cast<int>(s), oi.index});
        info.operators.push_back(std::move(oi));
      }
    }
    // Parameters: the constant tensors operators read (a weight read twice counts once
    // for the subgraph, once per node for each node).
    std::set<int32_t> counted;
    for (OperatorInfo& oi : info.operators) {
      std::set<int32_t> mine;
      for (int32_t t : oi.inputs) {
        if (t < 0 || static_cast<size_t>(t) >= info.tensors.size()) continue;
        if (info.tensors[t].buffer_bytes == 0 || !mine.insert(t).second) continue;
        oi.param_bytes += info.tensors[t].buffer_bytes;
        if (counted.insert(t).second) info.param_bytes += info.tensors[t].buffer_bytes;
      }
    }
    r.subgraphs.push_back(std::move(info));
  }
  return r;
}

std::string EmitResolverSource(const Model& model) {
  // Collect the version range each op needs; builtins first in enum order, then customs.
  std::map<int32_t, std::pair<int, int>> builtins;
  std::map<std::string, std::set<int>> customs;
  for (const OpCode& c : model.op_codes()) {
    if (c.is_custom()) {
      customs[c.custom_name].insert(c.version);
      continue;
    }
    auto it = builtins.find(c.builtin);
    if (it == builtins.end()) {
      builtins[c.builtin] = {c.version, c.version};
    } else {
      it->second.first = std::min(it->second.first, c.version);
      it->second.second = std::max(it->second.second, c.version);
    }
  }
  std::string out;
  out += fmt::format("// Minimal op resolver for {}: registers exactly the ops and versions the\n"
                     "// model uses. Generated by `inspect_ops --emit_resolver`.\n",
                     model.source());
  out += "#include \"tensorflow/lite/kernels/builtin_op_kernels.h\"\n"
         "#include \"tensorflow/lite/mutable_op_resolver.h\"\n\n";
  for (const auto& [name, versions] : customs) {
    out += fmt::format("TfLiteRegistration* Register_{}();  // your kernel for \"{}\"\n",
                       Identifier(name), name);
  }
  if (!customs.empty()) out += "\n";
  out += "void RegisterModelOps(tflite::MutableOpResolver* resolver) {\n";
  for (const auto& [op, range] : builtins) {
    const std::string name = BuiltinOpName(op);
    if (!IsKnownBuiltinOp(op)) {
      out += fmt::format("  // builtin op code {} is unknown to this schema\n", op);
      continue;
    }
    out += fmt::format("  resolver->AddBuiltin(tflite::BuiltinOperator_{}, "
                       "tflite::ops::builtin::Register_{}(),\n"
                       "                      /*min_version=*/{}, /*max_version=*/{});\n",
                       name, name, range.first, range.second);
  }
  for (const auto& [name, versions] : customs) {
    for (int v : versions) {
      out += fmt::format("  resolver->AddCustom(\"{}\", Register_{}(), /*version=*/{});\n", name,
                         Identifier(name), v);
    }
  }
  out += "}\n";
  return out;
}

}  // namespace tflite_inspect
