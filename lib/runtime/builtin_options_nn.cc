// Options of the neural-network ops: convolutions, pooling, fully connected,
// elementwise arithmetic with a fused activation, normalizations, activations with
// parameters, and the recurrent ops (RNN, LSTM, SVDF).
#include <optional>
#include <string>

#include "runtime/builtin_options_internal.h"

namespace tflite_inspect {
namespace builtin_options_internal {
namespace {

TfLiteStatus ParseConv2D(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::Conv2DOptions& o, TfLiteConvParams* p) {
    p->padding = ConvertPadding(o.padding());
    p->stride_width = o.stride_w();
    p->stride_height = o.stride_h();
    p->activation = ConvertActivation(o.fused_activation_function());
    p->dilation_width_factor = o.dilation_w_factor();
    p->dilation_height_factor = o.dilation_h_factor();
    return ConvertTypeField(ctx, "quantized_bias_type", o.quantized_bias_type(),
                            &p->quantized_bias_type);
  };
  return ParseParams<TfLiteConvParams>(ctx, ctx.op->builtin_options_as_Conv2DOptions(), out, fill);
}

TfLiteStatus ParseDepthwiseConv2D(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::DepthwiseConv2DOptions& o, TfLiteDepthwiseConvParams* p) {
    p->padding = ConvertPadding(o.padding());
    p->stride_width = o.stride_w();
    p->stride_height = o.stride_h();
    p->depth_multiplier = o.depth_multiplier();
    p->activation = ConvertActivation(o.fused_activation_function());
    p->dilation_width_factor = o.dilation_w_factor();
    p->dilation_height_factor = o.dilation_h_factor();
  };
  return ParseParams<TfLiteDepthwiseConvParams>(
      ctx, ctx.op->builtin_options_as_DepthwiseConv2DOptions(), out, fill);
}

TfLiteStatus ParseTransposeConv(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::TransposeConvOptions& o, TfLiteTransposeConvParams* p) {
    p->padding = ConvertPadding(o.padding());
    p->stride_width = o.stride_w();
    p->stride_height = o.stride_h();
    p->activation = ConvertActivation(o.fused_activation_function());
    return ConvertTypeField(ctx, "quantized_bias_type", o.quantized_bias_type(),
                            &p->quantized_bias_type);
  };
  return ParseParams<TfLiteTransposeConvParams>(
      ctx, ctx.op->builtin_options_as_TransposeConvOptions(), out, fill);
}

// CONV_3D and CONV_3D_TRANSPOSE share Conv3DOptions and TfLiteConv3DParams.
TfLiteStatus ParseConv3D(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::Conv3DOptions& o, TfLiteConv3DParams* p) {
    p->padding = ConvertPadding(o.padding());
    p->activation = ConvertActivation(o.fused_activation_function());
    p->stride_depth = o.stride_d();
    p->stride_height = o.stride_h();
    p->stride_width = o.stride_w();
    p->dilation_depth_factor = o.dilation_d_factor();
    p->dilation_height_factor = o.dilation_h_factor();
    p->dilation_width_factor = o.dilation_w_factor();
  };
  return ParseParams<TfLiteConv3DParams>(ctx, ctx.op->builtin_options_as_Conv3DOptions(), out,
                                         fill);
}

// AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D.
TfLiteStatus ParsePool(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::Pool2DOptions& o, TfLitePoolParams* p) {
    p->padding = ConvertPadding(o.padding());
    p->stride_width = o.stride_w();
    p->stride_height = o.stride_h();
    p->filter_width = o.filter_width();
    p->filter_height = o.filter_height();
    p->activation = ConvertActivation(o.fused_activation_function());
  };
  return ParseParams<TfLitePoolParams>(ctx, ctx.op->builtin_options_as_Pool2DOptions(), out, fill);
}

TfLiteStatus ParseFullyConnected(const OptionsContext& ctx, void** out) {
  auto fill = [&](const tflite::FullyConnectedOptions& o, TfLiteFullyConnectedParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
    p->keep_num_dims = o.keep_num_dims();
    p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
    if (ConvertTypeField(ctx, "quantized_bias_type", o.quantized_bias_type(),
                         &p->quantized_bias_type) != kTfLiteOk) {
      return kTfLiteError;
    }
    switch (o.weights_format()) {
      case tflite::FullyConnectedOptionsWeightsFormat_DEFAULT:
        p->weights_format = kTfLiteFullyConnectedWeightsFormatDefault;
        return kTfLiteOk;
      case tflite::FullyConnectedOptionsWeightsFormat_SHUFFLED4x16INT8:
        p->weights_format = kTfLiteFullyConnectedWeightsFormatShuffled4x16Int8;
        return kTfLiteOk;
    }
    return ctx.Fail("unhandled weights_format " +
                    std::to_string(static_cast<int>(o.weights_format())) +
                    " (expected DEFAULT or SHUFFLED4x16INT8)");
  };
  return ParseParams<TfLiteFullyConnectedParams>(
      ctx, ctx.op->builtin_options_as_FullyConnectedOptions(), out, fill);
}

TfLiteStatus ParseSoftmax(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::SoftmaxOptions& o, TfLiteSoftmaxParams* p) { p->beta = o.beta(); };
  return ParseParams<TfLiteSoftmaxParams>(ctx, ctx.op->builtin_options_as_SoftmaxOptions(), out,
                                          fill);
}

TfLiteStatus ParseL2Normalization(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::L2NormOptions& o, TfLiteL2NormParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
  };
  return ParseParams<TfLiteL2NormParams>(ctx, ctx.op->builtin_options_as_L2NormOptions(), out,
                                         fill);
}

TfLiteStatus ParseLocalResponseNorm(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::LocalResponseNormalizationOptions& o,
                 TfLiteLocalResponseNormParams* p) {
    p->radius = o.radius();
    p->bias = o.bias();
    p->alpha = o.alpha();
    p->beta = o.beta();
  };
  return ParseParams<TfLiteLocalResponseNormParams>(
      ctx, ctx.op->builtin_options_as_LocalResponseNormalizationOptions(), out, fill);
}

TfLiteStatus ParseLeakyRelu(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::LeakyReluOptions& o, TfLiteLeakyReluParams* p) {
    p->alpha = o.alpha();
  };
  return ParseParams<TfLiteLeakyReluParams>(ctx, ctx.op->builtin_options_as_LeakyReluOptions(), out,
                                            fill);
}

TfLiteStatus ParseGelu(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::GeluOptions& o, TfLiteGeluParams* p) {
    p->approximate = o.approximate();
  };
  return ParseParams<TfLiteGeluParams>(ctx, ctx.op->builtin_options_as_GeluOptions(), out, fill);
}

// Absent options leave pot_scale_int16 false (zeroed), not the schema default true.
TfLiteStatus ParseAdd(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::AddOptions& o, TfLiteAddParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
    p->pot_scale_int16 = o.pot_scale_int16();
  };
  return ParseParams<TfLiteAddParams>(ctx, ctx.op->builtin_options_as_AddOptions(), out, fill);
}

TfLiteStatus ParseSub(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::SubOptions& o, TfLiteSubParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
    p->pot_scale_int16 = o.pot_scale_int16();
  };
  return ParseParams<TfLiteSubParams>(ctx, ctx.op->builtin_options_as_SubOptions(), out, fill);
}

TfLiteStatus ParseMul(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::MulOptions& o, TfLiteMulParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
  };
  return ParseParams<TfLiteMulParams>(ctx, ctx.op->builtin_options_as_MulOptions(), out, fill);
}

TfLiteStatus ParseDiv(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::DivOptions& o, TfLiteDivParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
  };
  return ParseParams<TfLiteDivParams>(ctx, ctx.op->builtin_options_as_DivOptions(), out, fill);
}

TfLiteStatus ParseBatchMatMul(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::BatchMatMulOptions& o, TfLiteBatchMatMulParams* p) {
    p->adj_x = o.adj_x();
    p->adj_y = o.adj_y();
    p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
  };
  return ParseParams<TfLiteBatchMatMulParams>(ctx, ctx.op->builtin_options_as_BatchMatMulOptions(),
                                              out, fill);
}

TfLiteStatus ParseSvdf(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::SVDFOptions& o, TfLiteSVDFParams* p) {
    p->rank = o.rank();
    p->activation = ConvertActivation(o.fused_activation_function());
    p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
  };
  return ParseParams<TfLiteSVDFParams>(ctx, ctx.op->builtin_options_as_SVDFOptions(), out, fill);
}

TfLiteStatus ParseRnn(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::RNNOptions& o, TfLiteRNNParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
    p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
  };
  return ParseParams<TfLiteRNNParams>(ctx, ctx.op->builtin_options_as_RNNOptions(), out, fill);
}

TfLiteStatus ParseSequenceRnn(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::SequenceRNNOptions& o, TfLiteSequenceRNNParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
    p->time_major = o.time_major();
    p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
  };
  return ParseParams<TfLiteSequenceRNNParams>(ctx, ctx.op->builtin_options_as_SequenceRNNOptions(),
                                              out, fill);
}

TfLiteStatus ParseBidiSequenceRnn(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::BidirectionalSequenceRNNOptions& o,
                 TfLiteBidirectionalSequenceRNNParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
    p->time_major = o.time_major();
    p->merge_outputs = o.merge_outputs();
    p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
  };
  return ParseParams<TfLiteBidirectionalSequenceRNNParams>(
      ctx, ctx.op->builtin_options_as_BidirectionalSequenceRNNOptions(), out, fill);
}

// The only classic op upstream refuses without options.
TfLiteStatus ParseLstm(const OptionsContext& ctx, void** out) {
  const tflite::LSTMOptions* options = ctx.op->builtin_options_as_LSTMOptions();
  if (options == nullptr) return ctx.Fail("no LSTMOptions; LSTM requires them");
  auto fill = [&](const tflite::LSTMOptions& o, TfLiteLSTMParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
    p->cell_clip = o.cell_clip();
    p->proj_clip = o.proj_clip();
    p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
    switch (o.kernel_type()) {
      case tflite::LSTMKernelType_FULL:
        p->kernel_type = kTfLiteLSTMFullKernel;
        return kTfLiteOk;
      case tflite::LSTMKernelType_BASIC:
        p->kernel_type = kTfLiteLSTMBasicKernel;
        return kTfLiteOk;
    }
    return ctx.Fail("unhandled kernel_type " + std::to_string(static_cast<int>(o.kernel_type())) +
                    " (expected FULL or BASIC)");
  };
  return ParseParams<TfLiteLSTMParams>(ctx, options, out, fill);
}

TfLiteStatus ParseSequenceLstm(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::UnidirectionalSequenceLSTMOptions& o,
                 TfLiteUnidirectionalSequenceLSTMParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
    p->cell_clip = o.cell_clip();
    p->proj_clip = o.proj_clip();
    p->time_major = o.time_major();
    p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
    p->diagonal_recurrent_tensors = o.diagonal_recurrent_tensors();
  };
  return ParseParams<TfLiteUnidirectionalSequenceLSTMParams>(
      ctx, ctx.op->builtin_options_as_UnidirectionalSequenceLSTMOptions(), out, fill);
}

TfLiteStatus ParseBidiSequenceLstm(const OptionsContext& ctx, void** out) {
  auto fill = [](const tflite::BidirectionalSequenceLSTMOptions& o,
                 TfLiteBidirectionalSequenceLSTMParams* p) {
    p->activation = ConvertActivation(o.fused_activation_function());
    p->cell_clip = o.cell_clip();
    p->proj_clip = o.proj_clip();
    p->merge_outputs = o.merge_outputs();
    p->time_major = o.time_major();
    p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
  };
  return ParseParams<TfLiteBidirectionalSequenceLSTMParams>(
      ctx, ctx.op->builtin_options_as_BidirectionalSequenceLSTMOptions(), out, fill);
}

}  // namespace

std::optional<TfLiteStatus> ParseNnOptions(const OptionsContext& ctx, void** out) {
  switch (ctx.code) {
    case tflite::BuiltinOperator_CONV_2D:
      return ParseConv2D(ctx, out);
    case tflite::BuiltinOperator_DEPTHWISE_CONV_2D:
      return ParseDepthwiseConv2D(ctx, out);
    case tflite::BuiltinOperator_TRANSPOSE_CONV:
      return ParseTransposeConv(ctx, out);
    case tflite::BuiltinOperator_CONV_3D:
    case tflite::BuiltinOperator_CONV_3D_TRANSPOSE:
      return ParseConv3D(ctx, out);
    case tflite::BuiltinOperator_AVERAGE_POOL_2D:
    case tflite::BuiltinOperator_MAX_POOL_2D:
    case tflite::BuiltinOperator_L2_POOL_2D:
      return ParsePool(ctx, out);
    case tflite::BuiltinOperator_FULLY_CONNECTED:
      return ParseFullyConnected(ctx, out);
    case tflite::BuiltinOperator_SOFTMAX:
      return ParseSoftmax(ctx, out);
    case tflite::BuiltinOperator_L2_NORMALIZATION:
      return ParseL2Normalization(ctx, out);
    case tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION:
      return ParseLocalResponseNorm(ctx, out);
    case tflite::BuiltinOperator_LEAKY_RELU:
      return ParseLeakyRelu(ctx, out);
    case tflite::BuiltinOperator_GELU:
      return ParseGelu(ctx, out);
    case tflite::BuiltinOperator_ADD:
      return ParseAdd(ctx, out);
    case tflite::BuiltinOperator_SUB:
      return ParseSub(ctx, out);
    case tflite::BuiltinOperator_MUL:
      return ParseMul(ctx, out);
    case tflite::BuiltinOperator_DIV:
      return ParseDiv(ctx, out);
    case tflite::BuiltinOperator_BATCH_MATMUL:
      return ParseBatchMatMul(ctx, out);
    case tflite::BuiltinOperator_SVDF:
      return ParseSvdf(ctx, out);
    case tflite::BuiltinOperator_RNN:
      return ParseRnn(ctx, out);
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN:
      return ParseSequenceRnn(ctx, out);
    case tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN:
      return ParseBidiSequenceRnn(ctx, out);
    case tflite::BuiltinOperator_LSTM:
      return ParseLstm(ctx, out);
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM:
      return ParseSequenceLstm(ctx, out);
    case tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM:
      return ParseBidiSequenceLstm(ctx, out);
    default:
      return std::nullopt;
  }
}

}  // namespace builtin_options_internal
}  // namespace tflite_inspect
