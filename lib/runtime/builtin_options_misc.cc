// Options of control flow (IF, WHILE, CALL_ONCE), resource ops (HASHTABLE,
// VAR_HANDLE), random ops, and the older text/embedding ops (LSH_PROJECTION,
// SKIP_GRAM, EMBEDDING_LOOKUP_SPARSE) plus FAKE_QUANT.
#include <optional>

#include "runtime/builtin_options_internal.h"

namespace tflite_inspect {
namespace builtin_options_internal {
namespace {

// Subgraph indices are range-checked by the model validator, not here.
TfLiteStatus ParseIf(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::IfOptions& o, TfLiteIfParams* p) {
    p->then_subgraph_index = o.then_subgraph_index();
    p->else_subgraph_index = o.else_subgraph_index();
  };
  return ParseParams<TfLiteIfParams>(ctx, ctx.op->builtin_options_as_IfOptions(), out, fill);
}

TfLiteStatus ParseWhile(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::WhileOptions& o, TfLiteWhileParams* p) {
    p->cond_subgraph_index = o.cond_subgraph_index();
    p->body_subgraph_index = o.body_subgraph_index();
  };
  return ParseParams<TfLiteWhileParams>(ctx, ctx.op->builtin_options_as_WhileOptions(), out, fill);
}

TfLiteStatus ParseCallOnce(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::CallOnceOptions& o, TfLiteCallOnceParams* p) {
    p->init_subgraph_index = o.init_subgraph_index();
  };
  return ParseParams<TfLiteCallOnceParams>(ctx, ctx.op->builtin_options_as_CallOnceOptions(), out,
                                           fill);
}

TfLiteStatus ParseHashtable(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::HashtableOptions& o, TfLiteHashtableParams* p) {
    p->table_id = o.table_id();
    if (ConvertTypeField(ctx, "key_dtype", o.key_dtype(), &p->key_dtype) != kTfLiteOk) {
      return kTfLiteError;
    }
    return ConvertTypeField(ctx, "value_dtype", o.value_dtype(), &p->value_dtype);
  };
  return ParseParams<TfLiteHashtableParams>(ctx, ctx.op->builtin_options_as_HashtableOptions(), out,
                                            fill);
}

// container and shared_name point into the model; nullptr when absent.
TfLiteStatus ParseVarHandle(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::VarHandleOptions& o, TfLiteVarHandleParams* p) {
    if (o.container() != nullptr) p->container = o.container()->c_str();
    if (o.shared_name() != nullptr) p->shared_name = o.shared_name()->c_str();
  };
  return ParseParams<TfLiteVarHandleParams>(ctx, ctx.op->builtin_options_as_VarHandleOptions(), out,
                                            fill);
}

// RANDOM_STANDARD_NORMAL, RANDOM_UNIFORM and MULTINOMIAL. The schema's seeds are int64;
// the params hold int, and upstream truncates the same way.
TfLiteStatus ParseRandom(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::RandomOptions& o, TfLiteRandomParams* p) {
    p->seed = static_cast<int>(o.seed());
    p->seed2 = static_cast<int>(o.seed2());
  };
  return ParseParams<TfLiteRandomParams>(ctx, ctx.op->builtin_options_as_RandomOptions(), out,
                                         fill);
}

TfLiteStatus ParseLshProjection(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::LSHProjectionOptions& o, TfLiteLSHProjectionParams* p) {
    switch (o.type()) {
      case tflite::LSHProjectionType_SPARSE:
        p->type = kTfLiteLshProjectionSparse;
        return;
      case tflite::LSHProjectionType_DENSE:
        p->type = kTfLiteLshProjectionDense;
        return;
      default:
        p->type = kTfLiteLshProjectionUnknown;
        return;
    }
  };
  return ParseParams<TfLiteLSHProjectionParams>(
      ctx, ctx.op->builtin_options_as_LSHProjectionOptions(), out, fill);
}

TfLiteStatus ParseSkipGram(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::SkipGramOptions& o, TfLiteSkipGramParams* p) {
    p->ngram_size = o.ngram_size();
    p->max_skip_size = o.max_skip_size();
    p->include_all_ngrams = o.include_all_ngrams();
  };
  return ParseParams<TfLiteSkipGramParams>(ctx, ctx.op->builtin_options_as_SkipGramOptions(), out,
                                           fill);
}

// Unknown combiners fall back to SUM, as upstream.
TfLiteStatus ParseEmbeddingLookupSparse(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::EmbeddingLookupSparseOptions& o,
                 TfLiteEmbeddingLookupSparseParams* p) {
    switch (o.combiner()) {
      case tflite::CombinerType_MEAN:
        p->combiner = kTfLiteCombinerTypeMean;
        return;
      case tflite::CombinerType_SQRTN:
        p->combiner = kTfLiteCombinerTypeSqrtn;
        return;
      default:
        p->combiner = kTfLiteCombinerTypeSum;
        return;
    }
  };
  return ParseParams<TfLiteEmbeddingLookupSparseParams>(
      ctx, ctx.op->builtin_options_as_EmbeddingLookupSparseOptions(), out, fill);
}

TfLiteStatus ParseFakeQuant(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::FakeQuantOptions& o, TfLiteFakeQuantParams* p) {
    p->min = o.min();
    p->max = o.max();
    p->num_bits = o.num_bits();
    p->narrow_range = o.narrow_range();
  };
  return ParseParams<TfLiteFakeQuantParams>(ctx, ctx.op->builtin_options_as_FakeQuantOptions(), out,
                                            fill);
}

}  // namespace

std::optional<TfLiteStatus> ParseMiscOptions(const OptionsContext& ctx, void** out) {
  switch (ctx.code) {
    case tflite::BuiltinOperator_IF:
      return ParseIf(ctx, out);
    case tflite::BuiltinOperator_WHILE:
      return ParseWhile(ctx, out);
    case tflite::BuiltinOperator_CALL_ONCE:
      return ParseCallOnce(ctx, out);
    case tflite::BuiltinOperator_HASHTABLE:
      return ParseHashtable(ctx, out);
    case tflite::BuiltinOperator_VAR_HANDLE:
      return ParseVarHandle(ctx, out);
    case tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL:
    case tflite::BuiltinOperator_RANDOM_UNIFORM:
    case tflite::BuiltinOperator_MULTINOMIAL:
      return ParseRandom(ctx, out);
    case tflite::BuiltinOperator_LSH_PROJECTION:
      return ParseLshProjection(ctx, out);
    case tflite::BuiltinOperator_SKIP_GRAM:
      return ParseSkipGram(ctx, out);
    case tflite::BuiltinOperator_EMBEDDING_LOOKUP_SPARSE:
      return ParseEmbeddingLookupSparse(ctx, out);
    case tflite::BuiltinOperator_FAKE_QUANT:
      return ParseFakeQuant(ctx, out);
    default:
      return std::nullopt;
  }
}

}  // namespace builtin_options_internal
}  // namespace tflite_inspect
