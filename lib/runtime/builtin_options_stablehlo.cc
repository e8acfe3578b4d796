// Options of the StableHLO ops upstream parses (from builtin_options_2) and of the
// deprecated REDUCE_WINDOW. The other STABLEHLO_* ops get no params (see
// builtin_options.cc).
//
// Where upstream would read past a fixed-size array (SCATTER, GATHER) or dereference a
// missing vector (GATHER, COMPOSITE), this fails with a message, or reads the missing
// vector as empty, instead.
#include <algorithm>
#include <optional>
#include <string>

#include "runtime/builtin_options_internal.h"

namespace tflite_inspect {
namespace builtin_options_internal {
namespace {

TfLiteStatus ParseScatter(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::StablehloScatterOptions& o, TfLiteStablehloScatterParams* p) {
    p->indices_are_sorted = o.indices_are_sorted();
    if (CopyToArray(ctx, "update_window_dims", o.update_window_dims(), p->update_window_dims,
                    &p->num_update_window_dims) != kTfLiteOk ||
        CopyToArray(ctx, "inserted_window_dims", o.inserted_window_dims(), p->inserted_window_dims,
                    &p->num_inserted_window_dims) != kTfLiteOk ||
        CopyToArray(ctx, "scatter_dims_to_operand_dims", o.scatter_dims_to_operand_dims(),
                    p->scatter_dims_to_operand_dims,
                    &p->num_scatter_dims_to_operand_dims) != kTfLiteOk) {
      return kTfLiteError;
    }
    p->index_vector_dim = o.index_vector_dim();
    p->unique_indices = o.unique_indices();
    p->update_computation_subgraph_index = o.update_computation_subgraph_index();
    return kTfLiteOk;
  };
  return ParseParams<TfLiteStablehloScatterParams>(
      ctx, ctx.op->builtin_options_2_as_StablehloScatterOptions(), out, fill);
}

TfLiteStatus ParseRngBitGenerator(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::StablehloRngBitGeneratorOptions& o,
                 TfLiteStablehloRngBitGeneratorParams* p) {
    switch (o.algorithm()) {
      case tflite::RngAlgorithm_DEFAULT:
        p->algorithm = kTfLiteRngAlgorithmDefault;
        return;
      case tflite::RngAlgorithm_PHILOX:
        p->algorithm = kTfLiteRngAlgorithmPhilox;
        return;
      case tflite::RngAlgorithm_THREEFRY:
        p->algorithm = kTfLiteRngAlgorithmThreefry;
        return;
    }
    p->algorithm = kTfLiteRngAlgorithmUnknown;
  };
  return ParseParams<TfLiteStablehloRngBitGeneratorParams>(
      ctx, ctx.op->builtin_options_2_as_StablehloRngBitGeneratorOptions(), out, fill);
}

TfLiteStatus ParseGather(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::StablehloGatherOptions& o, TfLiteStablehloGatherParams* p) {
    if (CopyToArray(ctx, "offset_dims", o.offset_dims(), p->offset_dims, &p->num_offset_dims) !=
            kTfLiteOk ||
        CopyToArray(ctx, "collapsed_slice_dims", o.collapsed_slice_dims(), p->collapsed_slice_dims,
                    &p->num_collapsed_slice_dims) != kTfLiteOk ||
        CopyToArray(ctx, "start_index_map", o.start_index_map(), p->start_index_map,
                    &p->num_start_index_map) != kTfLiteOk ||
        CopyToArray(ctx, "slice_sizes", o.slice_sizes(), p->slice_sizes, &p->num_slice_sizes) !=
            kTfLiteOk) {
      return kTfLiteError;
    }
    p->index_vector_dim = o.index_vector_dim();
    p->indices_are_sorted = o.indices_are_sorted();
    return kTfLiteOk;
  };
  return ParseParams<TfLiteStablehloGatherParams>(
      ctx, ctx.op->builtin_options_2_as_StablehloGatherOptions(), out, fill);
}

// One reduce_window attribute: a missing or empty vector fills the whole array with
// `fill`; a present one must have `expected` entries.
template <size_t N>
TfLiteStatus LoadWindowAttr(const OptionsContext& ctx, const char* field,
                            const flatbuffers::Vector<int64_t>* v, size_t expected, int64_t fill,
                            int64_t (&dst)[N]) {
  if (v == nullptr || v->size() == 0) {
    std::fill_n(dst, N, fill);
    return kTfLiteOk;
  }
  if (v->size() != expected) {
    return ctx.Fail(std::string(field) + " has " + std::to_string(v->size()) +
                    " entries, expected " + std::to_string(expected) +
                    " (from the rank of window_dimensions)");
  }
  size_t count = 0;
  return CopyToArray(ctx, field, v, dst, &count);
}

// Upstream refuses missing options and an empty window_dimensions.
TfLiteStatus ParseReduceWindow(const OptionsContext& ctx, void** out) {
  const auto* options = ctx.op->builtin_options_2_as_StablehloReduceWindowOptions();
  if (options == nullptr) return ctx.Fail("no StablehloReduceWindowOptions; it requires them");
  if (options->window_dimensions() == nullptr || options->window_dimensions()->size() == 0) {
    return ctx.Fail("window_dimensions is required and must not be empty");
  }
  auto fill = [&](const tflite::StablehloReduceWindowOptions& o,
                  TfLiteStablehloReduceWindowParams* p) {
    const size_t rank = o.window_dimensions()->size();
    if (LoadWindowAttr(ctx, "window_dimensions", o.window_dimensions(), rank, 1,
                       p->window_dimensions) != kTfLiteOk ||
        LoadWindowAttr(ctx, "window_strides", o.window_strides(), rank, 1, p->window_strides) !=
            kTfLiteOk ||
        LoadWindowAttr(ctx, "base_dilations", o.base_dilations(), rank, 1, p->base_dilations) !=
            kTfLiteOk ||
        LoadWindowAttr(ctx, "window_dilations", o.window_dilations(), rank, 1,
                       p->window_dilations) != kTfLiteOk ||
        LoadWindowAttr(ctx, "padding", o.padding(), 2 * rank, 0, p->padding) != kTfLiteOk) {
      return kTfLiteError;
    }
    p->body_subgraph_index = o.body_subgraph_index();
    return kTfLiteOk;
  };
  return ParseParams<TfLiteStablehloReduceWindowParams>(ctx, options, out, fill);
}

// The deprecated TFLite REDUCE_WINDOW: absent options are accepted (reduce_function
// stays Unsupported), an UNSUPPORTED or unknown function is not.
TfLiteStatus ParseLegacyReduceWindow(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::ReduceWindowOptions& o, TfLiteReduceWindowParams* p) {
    switch (o.reduce_function()) {
      case tflite::ReduceWindowFunction_ADD:
        p->reduce_function = TfLiteReduceWindowFunctionAdd;
        return kTfLiteOk;
      case tflite::ReduceWindowFunction_MUL:
        p->reduce_function = TfLiteReduceWindowFunctionMul;
        return kTfLiteOk;
      case tflite::ReduceWindowFunction_MINIMUM:
        p->reduce_function = TfLiteReduceWindowFunctionMin;
        return kTfLiteOk;
      case tflite::ReduceWindowFunction_MAXIMUM:
        p->reduce_function = TfLiteReduceWindowFunctionMax;
        return kTfLiteOk;
      case tflite::ReduceWindowFunction_ALL:
        p->reduce_function = TfLiteReduceWindowFunctionAll;
        return kTfLiteOk;
      case tflite::ReduceWindowFunction_ANY:
        p->reduce_function = TfLiteReduceWindowFunctionAny;
        return kTfLiteOk;
      default:
        return ctx.Fail("unsupported reduce_function " +
                        std::to_string(static_cast<int>(o.reduce_function())) +
                        " (expected ADD, MUL, MINIMUM, MAXIMUM, ALL or ANY)");
    }
  };
  return ParseParams<TfLiteReduceWindowParams>(
      ctx, ctx.op->builtin_options_2_as_ReduceWindowOptions(), out, fill);
}

// Upstream requires the options and all three padding vectors, of one length.
TfLiteStatus ParsePad(const OptionsContext& ctx, void** out) {
  const auto* options = ctx.op->builtin_options_2_as_StablehloPadOptions();
  if (options == nullptr) return ctx.Fail("no StablehloPadOptions; it requires them");
  auto fill = [&](const tflite::StablehloPadOptions& o, TfLiteStablehloPadParams* p) {
    if (o.edge_padding_low() == nullptr) return ctx.Fail("edge_padding_low is missing");
    if (o.edge_padding_high() == nullptr) return ctx.Fail("edge_padding_high is missing");
    if (o.interior_padding() == nullptr) return ctx.Fail("interior_padding is missing");
    size_t low = 0, high = 0, interior = 0;
    if (CopyToArray(ctx, "edge_padding_low", o.edge_padding_low(), p->edge_padding_low, &low) !=
            kTfLiteOk ||
        CopyToArray(ctx, "edge_padding_high", o.edge_padding_high(), p->edge_padding_high, &high) !=
            kTfLiteOk ||
        CopyToArray(ctx, "interior_padding", o.interior_padding(), p->interior_padding,
                    &interior) != kTfLiteOk) {
      return kTfLiteError;
    }
    if (low != high || low != interior) {
      return ctx.Fail(
          "edge_padding_low, edge_padding_high and interior_padding differ "
          "in length (" +
          std::to_string(low) + ", " + std::to_string(high) + ", " + std::to_string(interior) +
          ")");
    }
    return kTfLiteOk;
  };
  return ParseParams<TfLiteStablehloPadParams>(ctx, options, out, fill);
}

// name and attributes point into the model. Upstream requires the options.
TfLiteStatus ParseComposite(const OptionsContext& ctx, void** out) {
  const auto* options = ctx.op->builtin_options_2_as_StableHLOCompositeOptions();
  if (options == nullptr) return ctx.Fail("no StableHLOCompositeOptions; it requires them");
  if (options->name() == nullptr) return ctx.Fail("StableHLOCompositeOptions has no name");
  auto fill = [](const tflite::StableHLOCompositeOptions& o, TfLiteStablehloCompositeParams* p) {
    p->name = o.name()->c_str();
    p->version = o.version();
    p->subgraph_index = o.decomposition_subgraph_index();
    if (o.composite_attributes() != nullptr) {
      p->attributes = o.composite_attributes()->data();
      p->attributes_size = o.composite_attributes()->size();
    }
  };
  return ParseParams<TfLiteStablehloCompositeParams>(ctx, options, out, fill);
}

// Upstream requires the options and branch_subgraph_indices.
TfLiteStatus ParseCase(const OptionsContext& ctx, void** out) {
  const auto* options = ctx.op->builtin_options_2_as_StablehloCaseOptions();
  if (options == nullptr) return ctx.Fail("no StablehloCaseOptions; it requires them");
  if (options->branch_subgraph_indices() == nullptr) {
    return ctx.Fail("branch_subgraph_indices is missing");
  }
  auto fill = [&](const tflite::StablehloCaseOptions& o, TfLiteStablehloCaseParams* p) {
    return CopyToArray(ctx, "branch_subgraph_indices", o.branch_subgraph_indices(),
                       p->branch_subgraph_indices, &p->num_branches);
  };
  return ParseParams<TfLiteStablehloCaseParams>(ctx, options, out, fill);
}

}  // namespace

std::optional<TfLiteStatus> ParseStablehloOptions(const OptionsContext& ctx, void** out) {
  switch (ctx.code) {
    case tflite::BuiltinOperator_STABLEHLO_SCATTER:
      return ParseScatter(ctx, out);
    case tflite::BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR:
      return ParseRngBitGenerator(ctx, out);
    case tflite::BuiltinOperator_STABLEHLO_GATHER:
      return ParseGather(ctx, out);
    case tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW:
      return ParseReduceWindow(ctx, out);
    case tflite::BuiltinOperator_REDUCE_WINDOW:
      return ParseLegacyReduceWindow(ctx, out);
    case tflite::BuiltinOperator_STABLEHLO_PAD:
      return ParsePad(ctx, out);
    case tflite::BuiltinOperator_STABLEHLO_COMPOSITE:
      return ParseComposite(ctx, out);
    case tflite::BuiltinOperator_STABLEHLO_CASE:
      return ParseCase(ctx, out);
    default:
      return std::nullopt;
  }
}

}  // namespace builtin_options_internal
}  // namespace tflite_inspect
