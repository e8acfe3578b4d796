#include "tools/run_model.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fmt/format.h"
#include "tensorflow/lite/interpreter.h"
#include "tools/input_gen.h"
#include "tools/session.h"

namespace tflite_inspect {
namespace {

TensorDump Describe(const TfLiteTensor& t, int index, int tensor_id) {
  TensorDump d;
  d.index = index;
  d.tensor = tensor_id;
  d.name = t.name ? t.name : "";
  d.type = t.type;
  if (t.dims) d.shape.assign(t.dims->data, t.dims->data + t.dims->size);
  if (t.quantization.type == kTfLiteAffineQuantization && t.quantization.params) {
    const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
    if (q->scale) d.scale.assign(q->scale->data, q->scale->data + q->scale->size);
    if (q->zero_point) d.zero_point.assign(q->zero_point->data, q->zero_point->data + q->zero_point->size);
    d.quantized_dimension = q->quantized_dimension;
  }
  return d;
}

Status ReadFile(const std::string& path, std::vector<uint8_t>* bytes) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return IoError("cannot open input file '" + path + "'");
  bytes->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return Status::Ok();
}

Status WriteFile(const std::filesystem::path& path, const void* data, size_t size) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!f) return IoError("cannot write '" + path.string() + "'");
  return Status::Ok();
}

}  // namespace

Result<RunResult> RunModel(const RunOptions& options, const tflite::OpResolver& resolver) {
  SessionOptions so;
  so.graph = options.graph;
  so.num_threads = options.num_threads;
  so.limits = options.limits;
  if (!options.signature.empty()) {
    so.select_signature = [&](tflite::Interpreter& interpreter) -> Result<tflite::SignatureRunner*> {
      if (tflite::SignatureRunner* runner = interpreter.GetSignatureRunner(options.signature.c_str())) {
        return runner;
      }
      std::string keys;
      for (const std::string* k : interpreter.signature_keys()) keys += (keys.empty() ? "" : ", ") + *k;
      return InvalidArgument(fmt::format("the model has no signature '{}' ({})", options.signature,
                                         keys.empty() ? "it has no signatures"
                                                      : "its signatures: " + keys));
    };
  }
  SessionStage failed_at = SessionStage::kOpen;
  auto session = Session::Open(so, resolver, options.delegates, &failed_at);
  if (!session.ok()) {
    return SessionError(failed_at, session.status(),
                        {"cannot load the model:\n", "cannot build an interpreter for " +
                         options.graph + ":\n", "AllocateTensors failed:\n"});
  }
  // The subgraph that runs: the signature's, or the first.
  tflite::Subgraph* graph = &session.value()->subgraph();
  RunResult result;
  result.delegates = session.value()->applied();
  result.delegate_log = session.value()->DelegationLog();
  auto fail = [&](const std::string& what) {
    const std::string& text = session.value()->messages();
    return Status(StatusCode::kInvalidModel, what + (text.empty() ? "" : ":\n" + text));
  };
  const auto& inputs = graph->inputs();
  if (!options.input_files.empty() && options.input_files.size() != inputs.size()) {
    return InvalidArgument(fmt::format("{} input files given, the model has {} inputs",
                                       options.input_files.size(), inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    TfLiteTensor* t = graph->tensor(inputs[i]);
    TensorDump d = Describe(*t, static_cast<int>(i), inputs[i]);
    if (!options.input_files.empty()) {
      TFI_RETURN_IF_ERROR(ReadFile(options.input_files[i], &d.data));
      d.source = options.input_files[i];
      if (d.data.size() != t->bytes) {
        return InvalidArgument(fmt::format("input {} ('{}'): file {} has {} bytes, the tensor needs {}",
                                           i, d.name, options.input_files[i], d.data.size(), t->bytes));
      }
    } else {
      TFI_RETURN_IF_ERROR(GenerateInput(*t, options.seed, static_cast<int>(i), &d.data));
      d.source = fmt::format("generated: {}, seed {}, stream {}", InputDistribution(t->type),
                             options.seed, i);
    }
    CopyInputBytes(t, d.data.data(), d.data.size());
    result.inputs.push_back(std::move(d));
  }
  if (session.value()->Invoke() != kTfLiteOk) return fail("Invoke failed");
  const auto& outputs = graph->outputs();
  for (size_t i = 0; i < outputs.size(); ++i) {
    const TfLiteTensor* t = graph->tensor(outputs[i]);
    TensorDump d = Describe(*t, static_cast<int>(i), outputs[i]);
    const auto* p = reinterpret_cast<const uint8_t*>(t->data.raw);
    if (p != nullptr) d.data.assign(p, p + t->bytes);
    result.outputs.push_back(std::move(d));
  }
  result.arena_bytes = graph->arena_bytes();
  return result;
}

nlohmann::json RunResultToJson(const RunResult& result) {
  auto dump = [](const TensorDump& d, const std::string& file) {
    nlohmann::json q = nullptr;
    if (!d.scale.empty()) {
      q = {{"scale", d.scale}, {"zero_point", d.zero_point},
           {"quantized_dimension", d.quantized_dimension}};
    }
    return nlohmann::json{{"index", d.index}, {"tensor_index", d.tensor}, {"name", d.name},
                          {"dtype", TfLiteTypeGetName(d.type)}, {"shape", d.shape},
                          {"quantization", q}, {"bytes", d.data.size()}, {"file", file},
                          {"source", d.source}};
  };
  nlohmann::json j = {{"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()},
                      {"arena_bytes", result.arena_bytes}};
  for (const auto& d : result.inputs) j["inputs"].push_back(dump(d, fmt::format("input_{}.bin", d.index)));
  for (const auto& d : result.outputs) {
    nlohmann::json o = dump(d, fmt::format("output_{}.bin", d.index));
    o.erase("source");
    j["outputs"].push_back(o);
  }
  return j;
}

Status WriteRunResult(const RunResult& result, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError("cannot create '" + dir + "': " + ec.message());
  const std::filesystem::path d(dir);
  for (const auto& in : result.inputs) {
    TFI_RETURN_IF_ERROR(WriteFile(d / fmt::format("input_{}.bin", in.index), in.data.data(), in.data.size()));
  }
  for (const auto& out : result.outputs) {
    TFI_RETURN_IF_ERROR(WriteFile(d / fmt::format("output_{}.bin", out.index), out.data.data(), out.data.size()));
  }
  const std::string json =
      RunResultToJson(result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  return WriteFile(d / "outputs.json", json.data(), json.size());
}

}  // namespace tflite_inspect
