// Options of the ops that move, reshape, reduce or convert tensors: concatenation,
// reshape/squeeze, slicing and splitting, reductions, resizing, gather, type casts.
#include <optional>

#include "runtime/builtin_options_internal.h"

namespace tflite_inspect {
namespace builtin_options_internal {
namespace {

TfLiteStatus ParseConcatenation(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::ConcatenationOptions& o, TfLiteConcatenationParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
    p->axis = o.axis();
  };
  return ParseParams<TfLiteConcatenationParams>(
      ctx, ctx.op->builtin_options_as_ConcatenationOptions(), out, fill);
}

// Current converters pass the shape as input 1 and leave new_shape empty; old models
// only have new_shape.
TfLiteStatus ParseReshape(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::ReshapeOptions& o, TfLiteReshapeParams* p) {
    return CopyToArray(ctx, "new_shape", o.new_shape(), p->shape, &p->num_dimensions, "dimensions");
  };
  return ParseParams<TfLiteReshapeParams>(ctx, ctx.op->builtin_options_as_ReshapeOptions(), out,
                                          fill);
}

TfLiteStatus ParseSqueeze(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::SqueezeOptions& o, TfLiteSqueezeParams* p) {
    return CopyToArray(ctx, "squeeze_dims", o.squeeze_dims(), p->squeeze_dims,
                       &p->num_squeeze_dims);
  };
  return ParseParams<TfLiteSqueezeParams>(ctx, ctx.op->builtin_options_as_SqueezeOptions(), out,
                                          fill);
}

TfLiteStatus ParseStridedSlice(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::StridedSliceOptions& o, TfLiteStridedSliceParams* p) {
    p->begin_mask = o.begin_mask();
    p->end_mask = o.end_mask();
    p->ellipsis_mask = o.ellipsis_mask();
    p->new_axis_mask = o.new_axis_mask();
    p->shrink_axis_mask = o.shrink_axis_mask();
    p->offset = o.offset();
  };
  return ParseParams<TfLiteStridedSliceParams>(
      ctx, ctx.op->builtin_options_as_StridedSliceOptions(), out, fill);
}

// MEAN, SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN, REDUCE_ANY, REDUCE_ALL.
TfLiteStatus ParseReducer(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::ReducerOptions& o, TfLiteReducerParams* p) {
    p->keep_dims = o.keep_dims();
  };
  return ParseParams<TfLiteReducerParams>(ctx, ctx.op->builtin_options_as_ReducerOptions(), out,
                                          fill);
}

TfLiteStatus ParseResizeBilinear(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::ResizeBilinearOptions& o, TfLiteResizeBilinearParams* p) {
    p->align_corners = o.align_corners();
    p->half_pixel_centers = o.half_pixel_centers();
  };
  return ParseParams<TfLiteResizeBilinearParams>(
      ctx, ctx.op->builtin_options_as_ResizeBilinearOptions(), out, fill);
}

TfLiteStatus ParseResizeNearestNeighbor(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::ResizeNearestNeighborOptions& o,
                 TfLiteResizeNearestNeighborParams* p) {
    p->align_corners = o.align_corners();
    p->half_pixel_centers = o.half_pixel_centers();
  };
  return ParseParams<TfLiteResizeNearestNeighborParams>(
      ctx, ctx.op->builtin_options_as_ResizeNearestNeighborOptions(), out, fill);
}

TfLiteStatus ParseGather(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::GatherOptions& o, TfLiteGatherParams* p) {
    p->axis = o.axis();
    p->batch_dims = o.batch_dims();
  };
  return ParseParams<TfLiteGatherParams>(ctx, ctx.op->builtin_options_as_GatherOptions(), out,
                                         fill);
}

TfLiteStatus ParseSplit(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::SplitOptions& o, TfLiteSplitParams* p) {
    p->num_splits = o.num_splits();
  };
  return ParseParams<TfLiteSplitParams>(ctx, ctx.op->builtin_options_as_SplitOptions(), out, fill);
}

TfLiteStatus ParseSplitV(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::SplitVOptions& o, TfLiteSplitVParams* p) {
    p->num_splits = o.num_splits();
  };
  return ParseParams<TfLiteSplitVParams>(ctx, ctx.op->builtin_options_as_SplitVOptions(), out,
                                         fill);
}

TfLiteStatus ParsePack(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::PackOptions& o, TfLitePackParams* p) {
    p->values_count = o.values_count();
    p->axis = o.axis();
  };
  return ParseParams<TfLitePackParams>(ctx, ctx.op->builtin_options_as_PackOptions(), out, fill);
}

TfLiteStatus ParseUnpack(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::UnpackOptions& o, TfLiteUnpackParams* p) {
    p->num = o.num();
    p->axis = o.axis();
  };
  return ParseParams<TfLiteUnpackParams>(ctx, ctx.op->builtin_options_as_UnpackOptions(), out,
                                         fill);
}

TfLiteStatus ParseMirrorPad(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::MirrorPadOptions& o, TfLiteMirrorPaddingParams* p) {
    switch (o.mode()) {
      case tflite::MirrorPadMode_REFLECT:
        p->mode = kTfLiteMirrorPaddingReflect;
        return;
      case tflite::MirrorPadMode_SYMMETRIC:
        p->mode = kTfLiteMirrorPaddingSymmetric;
        return;
    }
    p->mode = kTfLiteMirrorPaddingUnknown;
  };
  return ParseParams<TfLiteMirrorPaddingParams>(ctx, ctx.op->builtin_options_as_MirrorPadOptions(),
                                                out, fill);
}

TfLiteStatus ParseDepthToSpace(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::DepthToSpaceOptions& o, TfLiteDepthToSpaceParams* p) {
    p->block_size = o.block_size();
  };
  return ParseParams<TfLiteDepthToSpaceParams>(
      ctx, ctx.op->builtin_options_as_DepthToSpaceOptions(), out, fill);
}

TfLiteStatus ParseSpaceToDepth(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::SpaceToDepthOptions& o, TfLiteSpaceToDepthParams* p) {
    p->block_size = o.block_size();
  };
  return ParseParams<TfLiteSpaceToDepthParams>(
      ctx, ctx.op->builtin_options_as_SpaceToDepthOptions(), out, fill);
}

TfLiteStatus ParseCast(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::CastOptions& o, TfLiteCastParams* p) {
    if (ConvertTypeField(ctx, "in_data_type", o.in_data_type(), &p->in_data_type) != kTfLiteOk) {
      return kTfLiteError;
    }
    return ConvertTypeField(ctx, "out_data_type", o.out_data_type(), &p->out_data_type);
  };
  return ParseParams<TfLiteCastParams>(ctx, ctx.op->builtin_options_as_CastOptions(), out, fill);
}

TfLiteStatus ParseShape(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::ShapeOptions& o, TfLiteShapeParams* p) {
    return ConvertTypeField(ctx, "out_type", o.out_type(), &p->out_type);
  };
  return ParseParams<TfLiteShapeParams>(ctx, ctx.op->builtin_options_as_ShapeOptions(), out, fill);
}

TfLiteStatus ParseArgMax(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::ArgMaxOptions& o, TfLiteArgMaxParams* p) {
    return ConvertTypeField(ctx, "output_type", o.output_type(), &p->output_type);
  };
  return ParseParams<TfLiteArgMaxParams>(ctx, ctx.op->builtin_options_as_ArgMaxOptions(), out,
                                         fill);
}

TfLiteStatus ParseArgMin(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::ArgMinOptions& o, TfLiteArgMinParams* p) {
    return ConvertTypeField(ctx, "output_type", o.output_type(), &p->output_type);
  };
  return ParseParams<TfLiteArgMinParams>(ctx, ctx.op->builtin_options_as_ArgMinOptions(), out,
                                         fill);
}

TfLiteStatus ParseCumsum(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::CumsumOptions& o, TfLiteCumsumParams* p) {
    p->exclusive = o.exclusive();
    p->reverse = o.reverse();
  };
  return ParseParams<TfLiteCumsumParams>(ctx, ctx.op->builtin_options_as_CumsumOptions(), out,
                                         fill);
}

TfLiteStatus ParseOneHot(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::OneHotOptions& o, TfLiteOneHotParams* p) { p->axis = o.axis(); };
  return ParseParams<TfLiteOneHotParams>(ctx, ctx.op->builtin_options_as_OneHotOptions(), out,
                                         fill);
}

TfLiteStatus ParseReverseSequence(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::ReverseSequenceOptions& o, TfLiteReverseSequenceParams* p) {
    p->seq_dim = o.seq_dim();
    p->batch_dim = o.batch_dim();
  };
  return ParseParams<TfLiteReverseSequenceParams>(
      ctx, ctx.op->builtin_options_as_ReverseSequenceOptions(), out, fill);
}

// Upstream maps idx_out_type itself (INT64, else INT32) instead of ConvertTensorType,
// so an odd type never fails here.
TfLiteStatus ParseUnique(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::UniqueOptions& o, TfLiteUniqueParams* p) {
    p->index_out_type = o.idx_out_type() == tflite::TensorType_INT64 ? kTfLiteInt64 : kTfLiteInt32;
  };
  return ParseParams<TfLiteUniqueParams>(ctx, ctx.op->builtin_options_as_UniqueOptions(), out,
                                         fill);
}

TfLiteStatus ParseSparseToDense(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::SparseToDenseOptions& o, TfLiteSparseToDenseParams* p) {
    p->validate_indices = o.validate_indices();
  };
  return ParseParams<TfLiteSparseToDenseParams>(
      ctx, ctx.op->builtin_options_as_SparseToDenseOptions(), out, fill);
}

// boundaries points into the model. Present options without a boundaries vector are
// an error upstream; absent options give zero boundaries.
TfLiteStatus ParseBucketize(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::BucketizeOptions& o, TfLiteBucketizeParams* p) {
    if (o.boundaries() == nullptr) return ctx.Fail("BucketizeOptions has no boundaries");
    p->num_boundaries = static_cast<int>(o.boundaries()->size());
    p->boundaries = o.boundaries()->data();
    return kTfLiteOk;
  };
  return ParseParams<TfLiteBucketizeParams>(ctx, ctx.op->builtin_options_as_BucketizeOptions(), out,
                                            fill);
}

}  // namespace

std::optional<TfLiteStatus> ParseTensorOptions(const OptionsContext& ctx, void** out) {
  switch (ctx.code) {
    case tflite::BuiltinOperator_CONCATENATION:
      return ParseConcatenation(ctx, out);
    case tflite::BuiltinOperator_RESHAPE:
      return ParseReshape(ctx, out);
    case tflite::BuiltinOperator_SQUEEZE:
      return ParseSqueeze(ctx, out);
    case tflite::BuiltinOperator_STRIDED_SLICE:
      return ParseStridedSlice(ctx, out);
    case tflite::BuiltinOperator_MEAN:
    case tflite::BuiltinOperator_SUM:
    case tflite::BuiltinOperator_REDUCE_PROD:
    case tflite::BuiltinOperator_REDUCE_MAX:
    case tflite::BuiltinOperator_REDUCE_MIN:
    case tflite::BuiltinOperator_REDUCE_ANY:
    case tflite::BuiltinOperator_REDUCE_ALL:
      return ParseReducer(ctx, out);
    case tflite::BuiltinOperator_RESIZE_BILINEAR:
      return ParseResizeBilinear(ctx, out);
    case tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR:
      return ParseResizeNearestNeighbor(ctx, out);
    case tflite::BuiltinOperator_GATHER:
      return ParseGather(ctx, out);
    case tflite::BuiltinOperator_SPLIT:
      return ParseSplit(ctx, out);
    case tflite::BuiltinOperator_SPLIT_V:
      return ParseSplitV(ctx, out);
    case tflite::BuiltinOperator_PACK:
      return ParsePack(ctx, out);
    case tflite::BuiltinOperator_UNPACK:
      return ParseUnpack(ctx, out);
    case tflite::BuiltinOperator_MIRROR_PAD:
      return ParseMirrorPad(ctx, out);
    case tflite::BuiltinOperator_DEPTH_TO_SPACE:
      return ParseDepthToSpace(ctx, out);
    case tflite::BuiltinOperator_SPACE_TO_DEPTH:
      return ParseSpaceToDepth(ctx, out);
    case tflite::BuiltinOperator_CAST:
      return ParseCast(ctx, out);
    case tflite::BuiltinOperator_SHAPE:
      return ParseShape(ctx, out);
    case tflite::BuiltinOperator_ARG_MAX:
      return ParseArgMax(ctx, out);
    case tflite::BuiltinOperator_ARG_MIN:
      return ParseArgMin(ctx, out);
    case tflite::BuiltinOperator_CUMSUM:
      return ParseCumsum(ctx, out);
    case tflite::BuiltinOperator_ONE_HOT:
      return ParseOneHot(ctx, out);
    case tflite::BuiltinOperator_REVERSE_SEQUENCE:
      return ParseReverseSequence(ctx, out);
    case tflite::BuiltinOperator_UNIQUE:
      return ParseUnique(ctx, out);
    case tflite::BuiltinOperator_SPARSE_TO_DENSE:
      return ParseSparseToDense(ctx, out);
    case tflite::BuiltinOperator_BUCKETIZE:
      return ParseBucketize(ctx, out);
    default:
      return std::nullopt;
  }
}

}  // namespace builtin_options_internal
}  // namespace tflite_inspect
