// The content of an `inspect_ops` report, built once from a loaded model and then
// printed as text or JSON (inspect_text.cc, inspect_json.cc).
#ifndef TFLITE_INSPECT_LIB_INSPECT_INSPECT_REPORT_H_
#define TFLITE_INSPECT_LIB_INSPECT_INSPECT_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/model.h"
#include "nlohmann/json.hpp"
#include "resolver/resolver_check.h"

namespace tflite_inspect {

struct TensorInfo {
  int id = 0;
  std::string name;
  std::vector<int32_t> shape;
  std::optional<std::vector<int32_t>> shape_signature;
  std::string dtype;
  // "none", "per-tensor", or "per-channel"; with scale/zero point details.
  std::string quant_kind = "none";
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int quantized_dimension = 0;
  uint32_t buffer = 0;
  size_t buffer_bytes = 0;
  bool is_variable = false;
  bool is_sparse = false;
  bool has_rank = false;
};

struct OperatorInfo {
  int index = 0;
  int opcode_index = 0;
  std::string op;  // builtin or custom name
  int version = 1;
  bool custom = false;
  std::vector<int32_t> inputs, outputs;
  // Its options in words ("stride" "2x2", "padding" "SAME", ...; node_attributes.h).
  std::vector<std::pair<std::string, std::string>> attributes;
  int64_t macs = 0;          // multiply-accumulates per inference; -1: shapes unknown
  uint64_t param_bytes = 0;  // bytes of the constant tensors it reads
};

struct SubgraphInfo {
  int index = 0;
  std::string name;
  std::vector<int32_t> inputs, outputs;
  std::vector<TensorInfo> tensors;
  std::vector<OperatorInfo> operators;
  int64_t macs = 0;           // of the nodes whose MACs are known
  uint64_t param_bytes = 0;   // every constant tensor an operator reads, once
};

struct OpCodeUsage {
  int index = 0;
  OpCode code;
  std::vector<int> uses_per_subgraph;
  int total_uses = 0;
  std::vector<NodeRef> nodes;
};

struct SignatureInfo {
  std::string key;
  int subgraph = 0;
  std::vector<std::pair<std::string, uint32_t>> inputs, outputs;
};

struct ModelReport {
  std::string path;
  size_t file_size = 0;
  int schema_version = 0;
  std::string description;
  size_t num_buffers = 0;
  std::vector<SignatureInfo> signatures;
  std::vector<std::string> metadata_names;
  std::optional<std::string> min_runtime_version;
  std::vector<OpCodeUsage> op_codes;
  std::vector<SubgraphInfo> subgraphs;
  std::vector<std::string> refusals;  // why TFLite would refuse the model
};

ModelReport BuildReport(const Model& model);

struct TextOptions {
  bool tensors = false;
};
std::string FormatReportText(const ModelReport& report, const TextOptions& options);
nlohmann::json ReportToJson(const ModelReport& report, const TextOptions& options);

// Pretty-printed JSON; strings that are not valid UTF-8 get U+FFFD replacements.
std::string DumpJson(const nlohmann::json& j);

std::string FormatResolverCheckText(const ResolverCheckResult& check);
nlohmann::json ResolverCheckToJson(const ResolverCheckResult& check);

// The ops and versions a resolver registers (inspect_ops --list_ops).
std::string FormatOpCatalogText(const OpCatalog& catalog);
nlohmann::json OpCatalogToJson(const OpCatalog& catalog);

// C++ source of a MutableOpResolver registering exactly the ops the model uses.
std::string EmitResolverSource(const Model& model);

// "0-3, 5, 9-12": sorted ids with runs collapsed.
std::string CompressIds(std::vector<int> ids);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_INSPECT_INSPECT_REPORT_H_
