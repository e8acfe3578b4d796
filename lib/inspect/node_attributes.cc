#include "inspect/node_attributes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "fmt/format.h"

namespace tflite_inspect {
namespace {

using Attributes = std::vector<std::pair<std::string, std::string>>;

void Activation(tflite::ActivationFunctionType a, Attributes* out) {
  if (a != tflite::ActivationFunctionType_NONE) {
    out->emplace_back("activation", tflite::EnumNameActivationFunctionType(a));
  }
}

void Window(const char* name, int w, int h, Attributes* out) {
  out->emplace_back(name, fmt::format("{}x{}", h, w));  // TFLite's order: height x width
}

void Dilation(int w, int h, Attributes* out) {
  if (w != 1 || h != 1) Window("dilation", w, h, out);
}

void Flag(const char* name, bool value, Attributes* out) {
  if (value) out->emplace_back(name, "true");
}

// Dimensions of tensor `index`, or empty when it is absent (optional input) or unknown.
std::vector<int64_t> Dims(const flatbuffers::Vector<flatbuffers::Offset<tflite::Tensor>>& tensors,
                          int32_t index) {
  if (index < 0 || static_cast<size_t>(index) >= tensors.size()) return {};
  const tflite::Tensor* t = tensors.Get(index);
  if (t == nullptr || t->shape() == nullptr) return {};
  std::vector<int64_t> dims;
  for (int32_t d : *t->shape()) {
    if (d <= 0) return {};
    dims.push_back(d);
  }
  return dims;
}

// Products of a crafted model's dimensions overflow int64: they saturate (the count is then
// "at least INT64_MAX", which no real model reaches).
int64_t MulSat(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

int64_t Elements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n = MulSat(n, d);
  return n;
}

int64_t Product(std::initializer_list<int64_t> factors) {
  int64_t n = 1;
  for (int64_t f : factors) n = MulSat(n, f);
  return n;
}

// The weight matrices' input positions of the recurrent ops (TFLite's kernels' tensor
// indices); their states are rank 2 too, so they are listed, not found by rank.
std::vector<size_t> RecurrentWeights(int32_t builtin_code) {
  switch (builtin_code) {
    case tflite::BuiltinOperator_LSTM:
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM:
      return {1, 2, 3, 4, 5, 6, 7, 8, 16};  // input-to-gate, recurrent-to-gate, projection
    case tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM:
      return {1, 2, 3, 4, 5, 6, 7, 8, 16, 18, 19, 20, 21, 22, 23, 24, 25, 33};
    case tflite::BuiltinOperator_RNN:
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN:
    case tflite::BuiltinOperator_SVDF:
      return {1, 2};  // input and recurrent weights; SVDF's feature and time weights
    case tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN:
      return {1, 2, 5, 6};
    default: return {};
  }
}

}  // namespace

Attributes NodeAttributes(const tflite::Operator& op, int32_t builtin_code) {
  Attributes a;
  switch (builtin_code) {
    case tflite::BuiltinOperator_CONV_2D:
      if (const auto* o = op.builtin_options_as_Conv2DOptions()) {
        Window("stride", o->stride_w(), o->stride_h(), &a);
        a.emplace_back("padding", tflite::EnumNamePadding(o->padding()));
        Dilation(o->dilation_w_factor(), o->dilation_h_factor(), &a);
        Activation(o->fused_activation_function(), &a);
      }
      break;
    case tflite::BuiltinOperator_DEPTHWISE_CONV_2D:
      if (const auto* o = op.builtin_options_as_DepthwiseConv2DOptions()) {
        Window("stride", o->stride_w(), o->stride_h(), &a);
        a.emplace_back("padding", tflite::EnumNamePadding(o->padding()));
        Dilation(o->dilation_w_factor(), o->dilation_h_factor(), &a);
        if (o->depth_multiplier() > 1) {
          a.emplace_back("depth_multiplier", std::to_string(o->depth_multiplier()));
        }
        Activation(o->fused_activation_function(), &a);
      }
      break;
    case tflite::BuiltinOperator_CONV_3D:
    case tflite::BuiltinOperator_CONV_3D_TRANSPOSE:
      if (const auto* o = op.builtin_options_as_Conv3DOptions()) {
        a.emplace_back("stride", fmt::format("{}x{}x{}", o->stride_d(), o->stride_h(),
                                             o->stride_w()));
        a.emplace_back("padding", tflite::EnumNamePadding(o->padding()));
        Activation(o->fused_activation_function(), &a);
      }
      break;
    case tflite::BuiltinOperator_TRANSPOSE_CONV:
      if (const auto* o = op.builtin_options_as_TransposeConvOptions()) {
        Window("stride", o->stride_w(), o->stride_h(), &a);
        a.emplace_back("padding", tflite::EnumNamePadding(o->padding()));
        Activation(o->fused_activation_function(), &a);
      }
      break;
    case tflite::BuiltinOperator_AVERAGE_POOL_2D:
    case tflite::BuiltinOperator_MAX_POOL_2D:
    case tflite::BuiltinOperator_L2_POOL_2D:
      if (const auto* o = op.builtin_options_as_Pool2DOptions()) {
        Window("filter", o->filter_width(), o->filter_height(), &a);
        Window("stride", o->stride_w(), o->stride_h(), &a);
        a.emplace_back("padding", tflite::EnumNamePadding(o->padding()));
        Activation(o->fused_activation_function(), &a);
      }
      break;
    case tflite::BuiltinOperator_FULLY_CONNECTED:
      if (const auto* o = op.builtin_options_as_FullyConnectedOptions()) {
        Activation(o->fused_activation_function(), &a);
        Flag("keep_num_dims", o->keep_num_dims(), &a);
        if (o->weights_format() != tflite::FullyConnectedOptionsWeightsFormat_DEFAULT) {
          a.emplace_back("weights_format",
                         tflite::EnumNameFullyConnectedOptionsWeightsFormat(o->weights_format()));
        }
      }
      break;
    case tflite::BuiltinOperator_ADD:
      if (const auto* o = op.builtin_options_as_AddOptions()) Activation(o->fused_activation_function(), &a);
      break;
    case tflite::BuiltinOperator_SUB:
      if (const auto* o = op.builtin_options_as_SubOptions()) Activation(o->fused_activation_function(), &a);
      break;
    case tflite::BuiltinOperator_MUL:
      if (const auto* o = op.builtin_options_as_MulOptions()) Activation(o->fused_activation_function(), &a);
      break;
    case tflite::BuiltinOperator_DIV:
      if (const auto* o = op.builtin_options_as_DivOptions()) Activation(o->fused_activation_function(), &a);
      break;
    case tflite::BuiltinOperator_CONCATENATION:
      if (const auto* o = op.builtin_options_as_ConcatenationOptions()) {
        a.emplace_back("axis", std::to_string(o->axis()));
        Activation(o->fused_activation_function(), &a);
      }
      break;
    case tflite::BuiltinOperator_SOFTMAX:
      if (const auto* o = op.builtin_options_as_SoftmaxOptions()) {
        a.emplace_back("beta", fmt::format("{:g}", o->beta()));
      }
      break;
    case tflite::BuiltinOperator_MEAN:
    case tflite::BuiltinOperator_SUM:
    case tflite::BuiltinOperator_REDUCE_MAX:
    case tflite::BuiltinOperator_REDUCE_MIN:
    case tflite::BuiltinOperator_REDUCE_PROD:
    case tflite::BuiltinOperator_REDUCE_ANY:
    case tflite::BuiltinOperator_REDUCE_ALL:
      if (const auto* o = op.builtin_options_as_ReducerOptions()) Flag("keep_dims", o->keep_dims(), &a);
      break;
    case tflite::BuiltinOperator_GATHER:
      if (const auto* o = op.builtin_options_as_GatherOptions()) {
        a.emplace_back("axis", std::to_string(o->axis()));
        if (o->batch_dims() != 0) a.emplace_back("batch_dims", std::to_string(o->batch_dims()));
      }
      break;
    case tflite::BuiltinOperator_SPLIT:
      if (const auto* o = op.builtin_options_as_SplitOptions()) {
        a.emplace_back("num_splits", std::to_string(o->num_splits()));
      }
      break;
    case tflite::BuiltinOperator_SPLIT_V:
      if (const auto* o = op.builtin_options_as_SplitVOptions()) {
        a.emplace_back("num_splits", std::to_string(o->num_splits()));
      }
      break;
    case tflite::BuiltinOperator_PACK:
      if (const auto* o = op.builtin_options_as_PackOptions()) {
        a.emplace_back("axis", std::to_string(o->axis()));
        a.emplace_back("values_count", std::to_string(o->values_count()));
      }
      break;
    case tflite::BuiltinOperator_UNPACK:
      if (const auto* o = op.builtin_options_as_UnpackOptions()) {
        a.emplace_back("axis", std::to_string(o->axis()));
        a.emplace_back("num", std::to_string(o->num()));
      }
      break;
    case tflite::BuiltinOperator_STRIDED_SLICE:
      if (const auto* o = op.builtin_options_as_StridedSliceOptions()) {
        const std::pair<const char*, int> masks[] = {{"begin_mask", o->begin_mask()},
                                                     {"end_mask", o->end_mask()},
                                                     {"ellipsis_mask", o->ellipsis_mask()},
                                                     {"new_axis_mask", o->new_axis_mask()},
                                                     {"shrink_axis_mask", o->shrink_axis_mask()}};
        for (const auto& [name, mask] : masks) {
          if (mask != 0) a.emplace_back(name, std::to_string(mask));
        }
        Flag("offset", o->offset(), &a);
      }
      break;
    case tflite::BuiltinOperator_RESIZE_BILINEAR:
      if (const auto* o = op.builtin_options_as_ResizeBilinearOptions()) {
        Flag("align_corners", o->align_corners(), &a);
        Flag("half_pixel_centers", o->half_pixel_centers(), &a);
      }
      break;
    case tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR:
      if (const auto* o = op.builtin_options_as_ResizeNearestNeighborOptions()) {
        Flag("align_corners", o->align_corners(), &a);
        Flag("half_pixel_centers", o->half_pixel_centers(), &a);
      }
      break;
    case tflite::BuiltinOperator_SPACE_TO_DEPTH:
      if (const auto* o = op.builtin_options_as_SpaceToDepthOptions()) {
        a.emplace_back("block_size", std::to_string(o->block_size()));
      }
      break;
    case tflite::BuiltinOperator_DEPTH_TO_SPACE:
      if (const auto* o = op.builtin_options_as_DepthToSpaceOptions()) {
        a.emplace_back("block_size", std::to_string(o->block_size()));
      }
      break;
    case tflite::BuiltinOperator_SQUEEZE:
      if (const auto* o = op.builtin_options_as_SqueezeOptions(); o && o->squeeze_dims()) {
        std::string dims;
        for (int32_t d : *o->squeeze_dims()) dims += (dims.empty() ? "" : ",") + std::to_string(d);
        a.emplace_back("squeeze_dims", "[" + dims + "]");
      }
      break;
    case tflite::BuiltinOperator_LEAKY_RELU:
      if (const auto* o = op.builtin_options_as_LeakyReluOptions()) {
        a.emplace_back("alpha", fmt::format("{:g}", o->alpha()));
      }
      break;
    case tflite::BuiltinOperator_GELU:
      if (const auto* o = op.builtin_options_as_GeluOptions()) Flag("approximate", o->approximate(), &a);
      break;
    case tflite::BuiltinOperator_BATCH_MATMUL:
      if (const auto* o = op.builtin_options_as_BatchMatMulOptions()) {
        Flag("adj_x", o->adj_x(), &a);
        Flag("adj_y", o->adj_y(), &a);
      }
      break;
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM:
      if (const auto* o = op.builtin_options_as_UnidirectionalSequenceLSTMOptions()) {
        Activation(o->fused_activation_function(), &a);
        Flag("time_major", o->time_major(), &a);
        if (o->cell_clip() != 0) a.emplace_back("cell_clip", fmt::format("{:g}", o->cell_clip()));
        if (o->proj_clip() != 0) a.emplace_back("proj_clip", fmt::format("{:g}", o->proj_clip()));
      }
      break;
    case tflite::BuiltinOperator_MIRROR_PAD:
      if (const auto* o = op.builtin_options_as_MirrorPadOptions()) {
        a.emplace_back("mode", tflite::EnumNameMirrorPadMode(o->mode()));
      }
      break;
    default: break;
  }
  return a;
}

int64_t NodeMacs(const tflite::Operator& op, int32_t builtin_code,
                 const flatbuffers::Vector<flatbuffers::Offset<tflite::Tensor>>& tensors) {
  const auto* in = op.inputs();
  const auto* out = op.outputs();
  auto input = [&](size_t i) { return in != nullptr && i < in->size() ? Dims(tensors, in->Get(i)) : std::vector<int64_t>{}; };
  auto output = [&](size_t i) { return out != nullptr && i < out->size() ? Dims(tensors, out->Get(i)) : std::vector<int64_t>{}; };
  const auto* options = builtin_code == tflite::BuiltinOperator_BATCH_MATMUL ? op.builtin_options_as_BatchMatMulOptions() : nullptr;
  return NodeMacs(builtin_code, input, output, options != nullptr && options->adj_x());
}

int64_t CustomNodeMacs(const std::string& custom_name, const tflite::Operator& op,
                       const flatbuffers::Vector<flatbuffers::Offset<tflite::Tensor>>& tensors) {
  const auto* in = op.inputs();
  const auto* out = op.outputs();
  return CustomNodeMacs(
      custom_name,
      [&](size_t i) { return in != nullptr && i < in->size() ? Dims(tensors, in->Get(i)) : std::vector<int64_t>{}; },
      [&](size_t i) { return out != nullptr && i < out->size() ? Dims(tensors, out->Get(i)) : std::vector<int64_t>{}; });
}

int64_t CustomNodeMacs(const std::string& custom_name,
                       const std::function<std::vector<int64_t>(size_t)>& input,
                       const std::function<std::vector<int64_t>(size_t)>& output) {
  if (custom_name != "Convolution2DTransposeBias") return 0;
  // TRANSPOSE_CONV's inputs are (output shape, weights, input).
  return NodeMacs(
      tflite::BuiltinOperator_TRANSPOSE_CONV,
      [&](size_t i) { return i == 1 ? input(1) : i == 2 ? input(0) : std::vector<int64_t>{}; },
      output, false);
}

int64_t NodeMacs(int32_t builtin_code, const std::function<std::vector<int64_t>(size_t)>& input,
                 const std::function<std::vector<int64_t>(size_t)>& output, bool adj_x) {
  switch (builtin_code) {
    case tflite::BuiltinOperator_CONV_2D: {
      // Filter [out_channels, kh, kw, in_channels / groups]: each output element sums
      // kh * kw * in_channels_per_group products.
      const auto filter = input(1), o = output(0);
      if (filter.size() != 4 || o.empty()) return -1;
      return Product({Elements(o), filter[1], filter[2], filter[3]});
    }
    case tflite::BuiltinOperator_DEPTHWISE_CONV_2D: {
      const auto filter = input(1), o = output(0);  // filter [1, kh, kw, out_channels]
      if (filter.size() != 4 || o.empty()) return -1;
      return Product({Elements(o), filter[1], filter[2]});
    }
    case tflite::BuiltinOperator_CONV_3D: {
      const auto filter = input(1), o = output(0);  // [kd, kh, kw, in, out]
      if (filter.size() != 5 || o.empty()) return -1;
      return Product({Elements(o), filter[0], filter[1], filter[2], filter[3]});
    }
    case tflite::BuiltinOperator_TRANSPOSE_CONV: {
      // Inputs: output shape, filter [out_channels, kh, kw, in_channels], input: every
      // input element is scattered through kh * kw * out_channels products.
      const auto filter = input(1), x = input(2);
      if (filter.size() != 4 || x.empty()) return -1;
      return Product({Elements(x), filter[0], filter[1], filter[2]});
    }
    case tflite::BuiltinOperator_FULLY_CONNECTED: {
      const auto weights = input(1), o = output(0);  // weights [units, depth]
      if (weights.size() != 2 || o.empty()) return -1;
      return MulSat(Elements(o), weights[1]);
    }
    case tflite::BuiltinOperator_BATCH_MATMUL: {
      const auto lhs = input(0), o = output(0);
      if (lhs.size() < 2 || o.empty()) return -1;
      return MulSat(Elements(o), adj_x ? lhs[lhs.size() - 2] : lhs.back());
    }
    case tflite::BuiltinOperator_LSTM:
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM:
    case tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM:
    case tflite::BuiltinOperator_RNN:
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN:
    case tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN:
    case tflite::BuiltinOperator_SVDF: {
      // Every step (each row of the input's last dimension: batch x time) multiplies its
      // input or state by each weight matrix once (both directions' for the bidirectional
      // ops; auxiliary inputs' weights not counted).
      const auto x = input(0);
      if (x.empty()) return -1;
      int64_t weights = 0;
      for (size_t i : RecurrentWeights(builtin_code)) {
        const auto w = input(i);
        if (w.size() == 2) weights = std::min(weights + Elements(w), INT64_MAX / 2);
      }
      return MulSat(Elements(x) / x.back(), weights);
    }
    default: return 0;
  }
}

std::string HumanCount(int64_t n) {
  if (n < 1000) return std::to_string(n);
  if (n < 1000000) return fmt::format("{:.3g}k", n / 1e3);
  if (n < 1000000000) return fmt::format("{:.3g}M", n / 1e6);
  return fmt::format("{:.3g}G", n / 1e9);
}

std::string HumanBytes(uint64_t n) {
  if (n < 1000) return fmt::format("{} B", n);
  if (n < 1000000) return fmt::format("{:.1f} kB", n / 1e3);
  if (n < 1000000000) return fmt::format("{:.1f} MB", n / 1e6);
  return fmt::format("{:.2f} GB", n / 1e9);
}

}  // namespace tflite_inspect
