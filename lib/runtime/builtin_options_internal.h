// Helpers shared by the builtin_options_*.cc files (one per op family). Not installed.
#ifndef TFLITE_INSPECT_LIB_RUNTIME_BUILTIN_OPTIONS_INTERNAL_H_
#define TFLITE_INSPECT_LIB_RUNTIME_BUILTIN_OPTIONS_INTERNAL_H_

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {
namespace builtin_options_internal {

// The operator being parsed and where its error goes.
struct OptionsContext {
  const tflite::Operator* op;
  tflite::BuiltinOperator code;
  std::string* error;  // may be nullptr
  std::string* note = nullptr;  // why the options read as absent; may be nullptr

  // Writes "<OP>: <reason>" to *error and returns kTfLiteError.
  TfLiteStatus Fail(const std::string& reason) const;
};

// Converts a TensorType field; on failure fails with "<field>: <why>".
TfLiteStatus ConvertTypeField(const OptionsContext& ctx, const char* field, tflite::TensorType in,
                              TfLiteType* out);

// Upstream's enum conversions: values outside the schema map to the "none"/"unknown"
// member rather than failing.
TfLiteFusedActivation ConvertActivation(tflite::ActivationFunctionType activation);
TfLitePadding ConvertPadding(tflite::Padding padding);

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
template <typename T>
using ParamsPtr = std::unique_ptr<T, FreeDeleter>;

// Allocates a zeroed Params (what upstream's AllocatePOD<T>() value-initialization
// gives), runs `fill(options, params)` when the options are present, and hands the
// struct to *out. `fill` returns void, or a TfLiteStatus that aborts the parse.
template <typename Params, typename Options, typename Fill>
TfLiteStatus ParseParams(const OptionsContext& ctx, const Options* options, void** out,
                         Fill&& fill) {
  static_assert(std::is_trivial_v<Params>, "params must be plain C data");
  ParamsPtr<Params> params(static_cast<Params*>(std::calloc(1, sizeof(Params))));
  if (params == nullptr) return ctx.Fail("out of memory allocating the params struct");
  // Options of another union type read as absent (zeros), as upstream; the note lets a
  // later failure (a zero stride, ...) name the real cause.
  constexpr tflite::BuiltinOptions kExpected = tflite::BuiltinOptionsTraits<Options>::enum_value;
  if (options == nullptr && ctx.note != nullptr && kExpected != tflite::BuiltinOptions_NONE &&
      ctx.op->builtin_options_type() != tflite::BuiltinOptions_NONE &&
      ctx.op->builtin_options_type() != kExpected) {
    const char* actual = tflite::EnumNameBuiltinOptions(ctx.op->builtin_options_type());
    *ctx.note = std::string("its builtin_options is a ") + (*actual ? actual : "unknown") +
                " table where " + tflite::EnumNameBuiltinOperator(ctx.code) + " reads " +
                tflite::EnumNameBuiltinOptions(kExpected) +
                " (as in TFLite, it gets zeroed parameters)";
  }
  if (options != nullptr) {
    if constexpr (std::is_void_v<std::invoke_result_t<Fill, const Options&, Params*>>) {
      fill(*options, params.get());
    } else {
      const TfLiteStatus status = fill(*options, params.get());
      if (status != kTfLiteOk) return status;
    }
  }
  *out = params.release();
  return kTfLiteOk;
}

// Copies a flatbuffer vector into a fixed-capacity array of the params struct and
// stores its length in *count. A missing vector counts as empty. Fails with
// "<field> has N <unit>, at most M are supported" when it does not fit.
template <typename Dst, size_t N, typename Src, typename Count>
TfLiteStatus CopyToArray(const OptionsContext& ctx, const char* field,
                         const flatbuffers::Vector<Src>* src, Dst (&dst)[N], Count* count,
                         const char* unit = "entries") {
  const size_t size = src == nullptr ? 0 : src->size();
  if (size > N) {
    return ctx.Fail(std::string(field) + " has " + std::to_string(size) + " " + unit +
                    ", at most " + std::to_string(N) + " are supported");
  }
  for (size_t i = 0; i < size; ++i) dst[i] = static_cast<Dst>(src->Get(i));
  if (count != nullptr) *count = static_cast<Count>(size);
  return kTfLiteOk;
}

// Family parsers: each handles the ops of its family and returns std::nullopt for any
// other code, so that ParseBuiltinOptions can try them in turn.
std::optional<TfLiteStatus> ParseNnOptions(const OptionsContext& ctx, void** out);
std::optional<TfLiteStatus> ParseTensorOptions(const OptionsContext& ctx, void** out);
std::optional<TfLiteStatus> ParseMiscOptions(const OptionsContext& ctx, void** out);
std::optional<TfLiteStatus> ParseStablehloOptions(const OptionsContext& ctx, void** out);

}  // namespace builtin_options_internal
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RUNTIME_BUILTIN_OPTIONS_INTERNAL_H_
