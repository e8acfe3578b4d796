#include "benchmark/model_runtime_info.h"

#include <string>
#include <vector>

#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {
namespace {

// Edge.DataType follows TfLiteType's numbering up to BFLOAT16 (19).
const char* const kEdgeDataTypes[] = {
    "UNKNOWN_TYPE", "FLOAT32", "INT32",      "UINT8",  "INT64",    "STRING", "BOOL",
    "INT16",        "COMPLEX64", "INT8",     "FLOAT16", "FLOAT64", "COMPLEX128", "UINT64",
    "RESOURCE",     "VARIANT", "UINT32",     "UINT16", "INT4",     "BFLOAT16"};
constexpr int kEdgeDataTypeCount = sizeof(kEdgeDataTypes) / sizeof(kEdgeDataTypes[0]);

void AddInts(ProtoWriter& w, int field, const char* name, const TfLiteIntArray* a) {
  if (a == nullptr) return;
  std::vector<int64_t> v(a->data, a->data + a->size);
  w.PackedInts(field, name, v.data(), v.size());
}

ProtoWriter Edge(const TfLiteTensor& t, int index) {
  const int type = static_cast<int>(t.type);
  const bool known = type >= 0 && type < kEdgeDataTypeCount;
  ProtoWriter e;
  e.Int(1, "id", index)
      .String(2, "name", t.name != nullptr ? t.name : "")
      .Enum(3, "data_type", known ? type : 0, kEdgeDataTypes[known ? type : 0]);
  AddInts(e, 4, "shape", t.dims);
  e.String(5, "allocation_type", AllocTypeName(t.allocation_type))
      .Enum(6, "layout_type", 0, "UNKNOWN")
      .Int(7, "size", static_cast<int64_t>(t.bytes));
  return e;
}

}  // namespace

const char* AllocTypeName(TfLiteAllocationType type) {
  switch (type) {
    case kTfLiteMemNone: return "kTfLiteMemNone";
    case kTfLiteMmapRo: return "kTfLiteMmapRo";
    case kTfLiteDynamic: return "kTfLiteDynamic";
    case kTfLiteArenaRw: return "kTfLiteArenaRw";
    case kTfLiteArenaRwPersistent: return "kTfLiteArenaRwPersistent";
    case kTfLitePersistentRo: return "kTfLitePersistentRo";
    case kTfLiteCustom: return "kTfLiteCustom";
    case kTfLiteVariantObject: return "kTfLiteVariantObject";
  }
  return "(invalid)";
}

ProtoWriter ModelRuntimeInfo(tflite::Interpreter& interpreter) {
  ProtoWriter details;  // ModelRuntimeDetails
  for (size_t s = 0; s < interpreter.subgraphs_size(); ++s) {
    const tflite::Subgraph& sg = *interpreter.subgraph(static_cast<int>(s));
    // Which delegate kernel (in the plan) runs each replaced node.
    std::vector<int> replaced_by(sg.nodes_size(), -1);
    for (int n : sg.execution_plan()) {
      const auto* nr = sg.node_and_registration(n);
      if (nr == nullptr || nr->first.delegate == nullptr || nr->first.builtin_data == nullptr) continue;
      const auto* params = static_cast<const TfLiteDelegateParams*>(nr->first.builtin_data);
      for (int i = 0; params->nodes_to_replace != nullptr && i < params->nodes_to_replace->size; ++i) {
        const int r = params->nodes_to_replace->data[i];
        if (r >= 0 && static_cast<size_t>(r) < replaced_by.size()) replaced_by[r] = n;
      }
    }
    ProtoWriter subgraph;  // RuntimeSubgraph
    subgraph.Int(1, "subgraph_id", static_cast<int64_t>(s));
    for (size_t t = 0; t < sg.tensors_size(); ++t) {
      subgraph.Message(2, "edges", Edge(*sg.tensor(static_cast<int>(t)), static_cast<int>(t)));
    }
    for (size_t n = 0; n < sg.nodes_size(); ++n) {
      const auto& [node, reg] = *sg.node_and_registration(static_cast<int>(n));
      const bool delegated = node.delegate == nullptr && replaced_by[n] >= 0;
      ProtoWriter w;  // Node
      w.Int(1, "id", static_cast<int64_t>(n));
      if (reg.custom_name != nullptr) {
        // TFLite types a replaced custom node "Delegate/<name>", as op profiling does.
        w.String(2, "name", reg.custom_name)
            .String(3, "type", (delegated ? "Delegate/" : "") + std::string(reg.custom_name));
      } else {
        const char* name = tflite::EnumNameBuiltinOperator(
            static_cast<tflite::BuiltinOperator>(reg.builtin_code));
        w.String(2, "name", name != nullptr ? name : "").String(3, "type", std::to_string(reg.builtin_code));
      }
      AddInts(w, 4, "inputs", node.inputs);
      AddInts(w, 5, "outputs", node.outputs);
      AddInts(w, 6, "intermediates", node.intermediates);
      AddInts(w, 7, "temporaries", node.temporaries);
      if (delegated) {
        w.Int(9, "delegated_to_node_id", replaced_by[n]);
      } else if (node.delegate != nullptr && node.builtin_data != nullptr) {
        const auto* params = static_cast<const TfLiteDelegateParams*>(node.builtin_data);
        ProtoWriter d;  // DelegateNodeDetails
        d.String(1, "delegate_name", reg.custom_name != nullptr ? reg.custom_name : "");
        AddInts(d, 2, "tflite_node_ids_replaced", params->nodes_to_replace);
        w.Message(8, "delegate_node_details", d);
      }
      subgraph.Message(3, "nodes", w);
    }
    std::vector<int64_t> plan(sg.execution_plan().begin(), sg.execution_plan().end());
    subgraph.PackedInts(4, "execution_plan", plan.data(), plan.size())
        .Enum(5, "subgraph_type", 1, "TFLITE_SUBGRAPH");
    details.Message(2, "subgraphs", subgraph);
  }
  return details;
}

}  // namespace tflite_inspect
