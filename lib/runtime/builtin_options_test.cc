// Tests of ParseBuiltinOptions and ConvertTensorType: one-operator models written with
// ModelBuilder, loaded with Model::LoadBuffer, and the params struct checked by hand
// against what upstream ParseOpData produces.
#include "runtime/builtin_options.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "model/model.h"
#include "model/op_code.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_inspect {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

// A loaded one-operator model and the result of parsing that operator's options.
struct Parsed {
  std::vector<uint8_t> bytes;
  std::unique_ptr<Model> model;
  const tflite::Operator* op = nullptr;
  TfLiteStatus status = kTfLiteError;
  void* data = nullptr;
  std::string error;

  Parsed() = default;
  Parsed(const Parsed&) = delete;
  Parsed& operator=(const Parsed&) = delete;
  ~Parsed() { std::free(data); }

  template <typename T>
  const T& As() const {
    REQUIRE(status == kTfLiteOk);
    REQUIRE(data != nullptr);
    return *static_cast<const T*>(data);
  }
};

// Builds subgraph 0 with one `code` operator (plus `extra_subgraphs` empty subgraphs for
// control flow to point at), loads it and parses the operator's options. `host` 1: the
// operator is in subgraph 1 instead, after an empty subgraph 0 (control flow without
// options names subgraph 0, which the loader refuses from subgraph 0 itself: a cycle).
std::unique_ptr<Parsed> ParseOne(BuiltinOperator code, OpOptions options = {},
                                 int extra_subgraphs = 0, int host = 0) {
  ModelBuilder b;
  if (host == 1) b.UseSubgraph(b.AddSubgraph("host"));
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "in");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "out");
  b.AddOperator(code, {in}, {out}, std::move(options));
  b.SetInputs({in});
  b.SetOutputs({out});
  for (int i = 0; i < extra_subgraphs; ++i) b.AddSubgraph("sub" + std::to_string(i));

  auto p = std::make_unique<Parsed>();
  p->bytes = b.Build();
  auto loaded = Model::LoadBuffer(p->bytes.data(), p->bytes.size());
  INFO(loaded.status().message());
  REQUIRE(loaded.ok());
  p->model = std::move(loaded).value();
  p->op = p->model->fb()->subgraphs()->Get(host)->operators()->Get(0);
  p->status = ParseBuiltinOptions(p->op, code, &p->data, &p->error);
  return p;
}

TEST_CASE("CONV_2D: padding, strides, dilation, activation, bias type") {
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_w = 2;
  o.stride_h = 3;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  o.dilation_w_factor = 4;
  o.dilation_h_factor = 5;
  o.quantized_bias_type = tflite::TensorType_INT64;
  auto p = ParseOne(tflite::BuiltinOperator_CONV_2D, Options(o));
  const auto& c = p->As<TfLiteConvParams>();
  CHECK(c.padding == kTfLitePaddingValid);
  CHECK(c.stride_width == 2);
  CHECK(c.stride_height == 3);
  CHECK(c.activation == kTfLiteActRelu6);
  CHECK(c.dilation_width_factor == 4);
  CHECK(c.dilation_height_factor == 5);
  CHECK(c.quantized_bias_type == kTfLiteInt64);
}

TEST_CASE("CONV_2D: schema defaults apply when options are present but fields are not") {
  auto p = ParseOne(tflite::BuiltinOperator_CONV_2D, Options(tflite::Conv2DOptionsT{}));
  const auto& c = p->As<TfLiteConvParams>();
  CHECK(c.padding == kTfLitePaddingSame);  // Padding_SAME is 0
  CHECK(c.dilation_width_factor == 1);
  CHECK(c.dilation_height_factor == 1);
  CHECK(c.activation == kTfLiteActNone);
  CHECK(c.quantized_bias_type == kTfLiteFloat32);  // TensorType 0
}

TEST_CASE("DEPTHWISE_CONV_2D: depth_multiplier and dilation") {
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_w = 1;
  o.stride_h = 2;
  o.depth_multiplier = 3;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU_N1_TO_1;
  o.dilation_w_factor = 2;
  o.dilation_h_factor = 6;
  auto p = ParseOne(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, Options(o));
  const auto& d = p->As<TfLiteDepthwiseConvParams>();
  CHECK(d.padding == kTfLitePaddingSame);
  CHECK(d.stride_width == 1);
  CHECK(d.stride_height == 2);
  CHECK(d.depth_multiplier == 3);
  CHECK(d.activation == kTfLiteActReluN1To1);
  CHECK(d.dilation_width_factor == 2);
  CHECK(d.dilation_height_factor == 6);
}

TEST_CASE("TRANSPOSE_CONV: activation and bias type") {
  tflite::TransposeConvOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_w = 2;
  o.stride_h = 2;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU;
  o.quantized_bias_type = tflite::TensorType_INT32;
  auto p = ParseOne(tflite::BuiltinOperator_TRANSPOSE_CONV, Options(o));
  const auto& t = p->As<TfLiteTransposeConvParams>();
  CHECK(t.padding == kTfLitePaddingValid);
  CHECK(t.stride_width == 2);
  CHECK(t.activation == kTfLiteActRelu);
  CHECK(t.quantized_bias_type == kTfLiteInt32);
}

TEST_CASE("FULLY_CONNECTED: keep_num_dims, weights_format, hybrid flags") {
  tflite::FullyConnectedOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.weights_format = tflite::FullyConnectedOptionsWeightsFormat_SHUFFLED4x16INT8;
  o.keep_num_dims = true;
  o.asymmetric_quantize_inputs = true;
  o.quantized_bias_type = tflite::TensorType_INT32;
  auto p = ParseOne(tflite::BuiltinOperator_FULLY_CONNECTED, Options(o));
  const auto& f = p->As<TfLiteFullyConnectedParams>();
  CHECK(f.activation == kTfLiteActTanh);
  CHECK(f.weights_format == kTfLiteFullyConnectedWeightsFormatShuffled4x16Int8);
  CHECK(f.keep_num_dims);
  CHECK(f.asymmetric_quantize_inputs);
  CHECK(f.quantized_bias_type == kTfLiteInt32);
}

TEST_CASE("FULLY_CONNECTED: an unknown weights_format is refused") {
  tflite::FullyConnectedOptionsT o;
  o.weights_format = static_cast<tflite::FullyConnectedOptionsWeightsFormat>(7);
  auto p = ParseOne(tflite::BuiltinOperator_FULLY_CONNECTED, Options(o));
  CHECK(p->status == kTfLiteError);
  CHECK(p->data == nullptr);
  CHECK(p->error.rfind("FULLY_CONNECTED: unhandled weights_format 7", 0) == 0);
}

TEST_CASE("ADD: with and without options") {
  SECTION("absent options: zeroed, so pot_scale_int16 is false as upstream") {
    auto p = ParseOne(tflite::BuiltinOperator_ADD);
    const auto& a = p->As<TfLiteAddParams>();
    CHECK(a.activation == kTfLiteActNone);
    CHECK_FALSE(a.pot_scale_int16);
  }
  SECTION("present options: schema default pot_scale_int16 = true") {
    tflite::AddOptionsT o;
    o.fused_activation_function = tflite::ActivationFunctionType_RELU;
    auto p = ParseOne(tflite::BuiltinOperator_ADD, Options(o));
    const auto& a = p->As<TfLiteAddParams>();
    CHECK(a.activation == kTfLiteActRelu);
    CHECK(a.pot_scale_int16);
  }
}

TEST_CASE("SUB, MUL, DIV: fused activation") {
  tflite::SubOptionsT sub;
  sub.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  sub.pot_scale_int16 = false;
  auto s = ParseOne(tflite::BuiltinOperator_SUB, Options(sub));
  CHECK(s->As<TfLiteSubParams>().activation == kTfLiteActRelu6);
  CHECK_FALSE(s->As<TfLiteSubParams>().pot_scale_int16);

  tflite::MulOptionsT mul;
  mul.fused_activation_function = tflite::ActivationFunctionType_SIGN_BIT;
  auto m = ParseOne(tflite::BuiltinOperator_MUL, Options(mul));
  CHECK(m->As<TfLiteMulParams>().activation == kTfLiteActSignBit);

  tflite::DivOptionsT div;
  div.fused_activation_function = tflite::ActivationFunctionType_RELU;
  auto d = ParseOne(tflite::BuiltinOperator_DIV, Options(div));
  CHECK(d->As<TfLiteDivParams>().activation == kTfLiteActRelu);
}

TEST_CASE("CONCATENATION: axis and activation") {
  tflite::ConcatenationOptionsT o;
  o.axis = -1;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  auto p = ParseOne(tflite::BuiltinOperator_CONCATENATION, Options(o));
  const auto& c = p->As<TfLiteConcatenationParams>();
  CHECK(c.axis == -1);
  CHECK(c.activation == kTfLiteActRelu6);
}

TEST_CASE("Pool ops: filter, stride, padding, activation") {
  for (BuiltinOperator code :
       {tflite::BuiltinOperator_AVERAGE_POOL_2D, tflite::BuiltinOperator_MAX_POOL_2D,
        tflite::BuiltinOperator_L2_POOL_2D}) {
    INFO(BuiltinOpName(code));
    tflite::Pool2DOptionsT o;
    o.padding = tflite::Padding_VALID;
    o.stride_w = 2;
    o.stride_h = 1;
    o.filter_width = 3;
    o.filter_height = 5;
    o.fused_activation_function = tflite::ActivationFunctionType_RELU;
    auto p = ParseOne(code, Options(o));
    const auto& pool = p->As<TfLitePoolParams>();
    CHECK(pool.padding == kTfLitePaddingValid);
    CHECK(pool.stride_width == 2);
    CHECK(pool.stride_height == 1);
    CHECK(pool.filter_width == 3);
    CHECK(pool.filter_height == 5);
    CHECK(pool.activation == kTfLiteActRelu);
    CHECK(pool.computed.padding.width == 0);
  }
}

TEST_CASE("RESHAPE: new_shape from options, absent options, too many dimensions") {
  SECTION("new_shape") {
    tflite::ReshapeOptionsT o;
    o.new_shape = {2, -1, 3};
    auto p = ParseOne(tflite::BuiltinOperator_RESHAPE, Options(o));
    const auto& r = p->As<TfLiteReshapeParams>();
    REQUIRE(r.num_dimensions == 3);
    CHECK(r.shape[0] == 2);
    CHECK(r.shape[1] == -1);
    CHECK(r.shape[2] == 3);
  }
  SECTION("no options: a params struct with num_dimensions 0") {
    auto p = ParseOne(tflite::BuiltinOperator_RESHAPE);
    CHECK(p->As<TfLiteReshapeParams>().num_dimensions == 0);
  }
  SECTION("exactly the capacity is fine") {
    tflite::ReshapeOptionsT o;
    o.new_shape.assign(TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT, 1);
    auto p = ParseOne(tflite::BuiltinOperator_RESHAPE, Options(o));
    CHECK(p->As<TfLiteReshapeParams>().num_dimensions == TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT);
  }
  SECTION("one more than the capacity is an error, and nothing is returned") {
    tflite::ReshapeOptionsT o;
    o.new_shape.assign(TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT + 1, 1);
    auto p = ParseOne(tflite::BuiltinOperator_RESHAPE, Options(o));
    CHECK(p->status == kTfLiteError);
    CHECK(p->data == nullptr);
    CHECK(p->error == "RESHAPE: new_shape has 9 dimensions, at most 8 are supported");
  }
}

TEST_CASE("SQUEEZE: squeeze_dims") {
  tflite::SqueezeOptionsT o;
  o.squeeze_dims = {0, 2};
  auto p = ParseOne(tflite::BuiltinOperator_SQUEEZE, Options(o));
  const auto& s = p->As<TfLiteSqueezeParams>();
  REQUIRE(s.num_squeeze_dims == 2);
  CHECK(s.squeeze_dims[0] == 0);
  CHECK(s.squeeze_dims[1] == 2);
}

TEST_CASE("STRIDED_SLICE: all masks and offset") {
  tflite::StridedSliceOptionsT o;
  o.begin_mask = 1;
  o.end_mask = 2;
  o.ellipsis_mask = 4;
  o.new_axis_mask = 8;
  o.shrink_axis_mask = 16;
  o.offset = true;
  auto p = ParseOne(tflite::BuiltinOperator_STRIDED_SLICE, Options(o));
  const auto& s = p->As<TfLiteStridedSliceParams>();
  CHECK(s.begin_mask == 1);
  CHECK(s.end_mask == 2);
  CHECK(s.ellipsis_mask == 4);
  CHECK(s.new_axis_mask == 8);
  CHECK(s.shrink_axis_mask == 16);
  CHECK(s.offset);
}

TEST_CASE("Reducers: keep_dims") {
  for (BuiltinOperator code :
       {tflite::BuiltinOperator_MEAN, tflite::BuiltinOperator_SUM,
        tflite::BuiltinOperator_REDUCE_MAX, tflite::BuiltinOperator_REDUCE_MIN,
        tflite::BuiltinOperator_REDUCE_PROD, tflite::BuiltinOperator_REDUCE_ANY,
        tflite::BuiltinOperator_REDUCE_ALL}) {
    INFO(BuiltinOpName(code));
    tflite::ReducerOptionsT o;
    o.keep_dims = true;
    auto p = ParseOne(code, Options(o));
    CHECK(p->As<TfLiteReducerParams>().keep_dims);
  }
}

TEST_CASE("RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR: flags") {
  tflite::ResizeBilinearOptionsT b;
  b.align_corners = true;
  b.half_pixel_centers = false;
  auto pb = ParseOne(tflite::BuiltinOperator_RESIZE_BILINEAR, Options(b));
  CHECK(pb->As<TfLiteResizeBilinearParams>().align_corners);
  CHECK_FALSE(pb->As<TfLiteResizeBilinearParams>().half_pixel_centers);

  tflite::ResizeNearestNeighborOptionsT n;
  n.align_corners = false;
  n.half_pixel_centers = true;
  auto pn = ParseOne(tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR, Options(n));
  CHECK_FALSE(pn->As<TfLiteResizeNearestNeighborParams>().align_corners);
  CHECK(pn->As<TfLiteResizeNearestNeighborParams>().half_pixel_centers);
}

TEST_CASE("CAST: schema TensorTypes become TfLiteTypes") {
  tflite::CastOptionsT o;
  o.in_data_type = tflite::TensorType_FLOAT16;    // schema 1
  o.out_data_type = tflite::TensorType_BFLOAT16;  // schema 18
  auto p = ParseOne(tflite::BuiltinOperator_CAST, Options(o));
  const auto& c = p->As<TfLiteCastParams>();
  CHECK(c.in_data_type == kTfLiteFloat16);    // 10
  CHECK(c.out_data_type == kTfLiteBFloat16);  // 19
}

TEST_CASE("CAST: an unknown TensorType is an error") {
  tflite::CastOptionsT o;
  o.in_data_type = tflite::TensorType_INT8;
  o.out_data_type = static_cast<TensorType>(42);
  auto p = ParseOne(tflite::BuiltinOperator_CAST, Options(o));
  CHECK(p->status == kTfLiteError);
  CHECK(p->data == nullptr);
  CHECK(p->error.rfind("CAST: out_data_type: unsupported tensor type 42", 0) == 0);
}

TEST_CASE("SHAPE, ARG_MAX, ARG_MIN, UNIQUE: output types") {
  tflite::ShapeOptionsT shape;
  shape.out_type = tflite::TensorType_INT64;
  CHECK(ParseOne(tflite::BuiltinOperator_SHAPE, Options(shape))->As<TfLiteShapeParams>().out_type ==
        kTfLiteInt64);

  tflite::ArgMaxOptionsT amax;
  amax.output_type = tflite::TensorType_INT32;
  CHECK(ParseOne(tflite::BuiltinOperator_ARG_MAX, Options(amax))
            ->As<TfLiteArgMaxParams>()
            .output_type == kTfLiteInt32);

  tflite::ArgMinOptionsT amin;
  amin.output_type = tflite::TensorType_INT64;
  CHECK(ParseOne(tflite::BuiltinOperator_ARG_MIN, Options(amin))
            ->As<TfLiteArgMinParams>()
            .output_type == kTfLiteInt64);

  tflite::UniqueOptionsT uniq;  // schema default INT32
  CHECK(ParseOne(tflite::BuiltinOperator_UNIQUE, Options(uniq))
            ->As<TfLiteUniqueParams>()
            .index_out_type == kTfLiteInt32);
  uniq.idx_out_type = tflite::TensorType_INT64;
  CHECK(ParseOne(tflite::BuiltinOperator_UNIQUE, Options(uniq))
            ->As<TfLiteUniqueParams>()
            .index_out_type == kTfLiteInt64);
}

TEST_CASE("LEAKY_RELU alpha, GELU approximate, SOFTMAX beta") {
  tflite::LeakyReluOptionsT leaky;
  leaky.alpha = 0.25f;
  CHECK(ParseOne(tflite::BuiltinOperator_LEAKY_RELU, Options(leaky))
            ->As<TfLiteLeakyReluParams>()
            .alpha == 0.25f);

  tflite::GeluOptionsT gelu;
  gelu.approximate = true;
  CHECK(ParseOne(tflite::BuiltinOperator_GELU, Options(gelu))->As<TfLiteGeluParams>().approximate);
  CHECK_FALSE(ParseOne(tflite::BuiltinOperator_GELU)->As<TfLiteGeluParams>().approximate);

  tflite::SoftmaxOptionsT softmax;
  softmax.beta = 0.5f;
  CHECK(
      ParseOne(tflite::BuiltinOperator_SOFTMAX, Options(softmax))->As<TfLiteSoftmaxParams>().beta ==
      0.5f);
}

TEST_CASE("GATHER: axis and batch_dims") {
  tflite::GatherOptionsT o;
  o.axis = 2;
  o.batch_dims = 1;
  auto p = ParseOne(tflite::BuiltinOperator_GATHER, Options(o));
  CHECK(p->As<TfLiteGatherParams>().axis == 2);
  CHECK(p->As<TfLiteGatherParams>().batch_dims == 1);
}

TEST_CASE("IF and WHILE: subgraph indices") {
  tflite::IfOptionsT if_options;
  if_options.then_subgraph_index = 1;
  if_options.else_subgraph_index = 2;
  auto pi = ParseOne(tflite::BuiltinOperator_IF, Options(if_options), 2);
  CHECK(pi->As<TfLiteIfParams>().then_subgraph_index == 1);
  CHECK(pi->As<TfLiteIfParams>().else_subgraph_index == 2);

  tflite::WhileOptionsT while_options;
  while_options.cond_subgraph_index = 2;
  while_options.body_subgraph_index = 1;
  auto pw = ParseOne(tflite::BuiltinOperator_WHILE, Options(while_options), 2);
  CHECK(pw->As<TfLiteWhileParams>().cond_subgraph_index == 2);
  CHECK(pw->As<TfLiteWhileParams>().body_subgraph_index == 1);

  tflite::CallOnceOptionsT call_once;
  call_once.init_subgraph_index = 1;
  auto pc = ParseOne(tflite::BuiltinOperator_CALL_ONCE, Options(call_once), 1);
  CHECK(pc->As<TfLiteCallOnceParams>().init_subgraph_index == 1);
}

TEST_CASE("LSTM: kernel type, and options are required") {
  tflite::LSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.cell_clip = 10.0f;
  o.proj_clip = 2.0f;
  o.kernel_type = tflite::LSTMKernelType_BASIC;
  o.asymmetric_quantize_inputs = true;
  auto p = ParseOne(tflite::BuiltinOperator_LSTM, Options(o));
  const auto& l = p->As<TfLiteLSTMParams>();
  CHECK(l.activation == kTfLiteActTanh);
  CHECK(l.cell_clip == 10.0f);
  CHECK(l.proj_clip == 2.0f);
  CHECK(l.kernel_type == kTfLiteLSTMBasicKernel);
  CHECK(l.asymmetric_quantize_inputs);

  auto missing = ParseOne(tflite::BuiltinOperator_LSTM);
  CHECK(missing->status == kTfLiteError);
  CHECK(missing->data == nullptr);
  CHECK(missing->error.rfind("LSTM: ", 0) == 0);
}

TEST_CASE("Sequence LSTMs: BIDIRECTIONAL time_major defaults to true in the schema") {
  auto p = ParseOne(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM,
                    Options(tflite::BidirectionalSequenceLSTMOptionsT{}));
  CHECK(p->As<TfLiteBidirectionalSequenceLSTMParams>().time_major);

  tflite::UnidirectionalSequenceLSTMOptionsT u;
  u.time_major = true;
  u.diagonal_recurrent_tensors = true;
  u.cell_clip = 3.0f;
  auto pu = ParseOne(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, Options(u));
  const auto& ul = pu->As<TfLiteUnidirectionalSequenceLSTMParams>();
  CHECK(ul.time_major);
  CHECK(ul.diagonal_recurrent_tensors);
  CHECK(ul.cell_clip == 3.0f);
}

TEST_CASE("BUCKETIZE and VAR_HANDLE: pointers into the model") {
  tflite::BucketizeOptionsT b;
  b.boundaries = {0.0f, 1.5f, 3.0f};
  auto pb = ParseOne(tflite::BuiltinOperator_BUCKETIZE, Options(b));
  const auto& bucket = pb->As<TfLiteBucketizeParams>();
  REQUIRE(bucket.num_boundaries == 3);
  CHECK(bucket.boundaries[1] == 1.5f);
  const auto* base = pb->bytes.data();
  CHECK(reinterpret_cast<const uint8_t*>(bucket.boundaries) > base);
  CHECK(reinterpret_cast<const uint8_t*>(bucket.boundaries) < base + pb->bytes.size());

  tflite::VarHandleOptionsT v;
  v.shared_name = "counter";
  auto pv = ParseOne(tflite::BuiltinOperator_VAR_HANDLE, Options(v));
  const auto& var = pv->As<TfLiteVarHandleParams>();
  CHECK(var.container == nullptr);  // empty strings are not written by the builder
  REQUIRE(var.shared_name != nullptr);
  CHECK(std::string(var.shared_name) == "counter");
}

TEST_CASE("HASHTABLE: dtypes converted") {
  tflite::HashtableOptionsT o;
  o.table_id = 7;
  o.key_dtype = tflite::TensorType_STRING;
  o.value_dtype = tflite::TensorType_INT64;
  auto p = ParseOne(tflite::BuiltinOperator_HASHTABLE, Options(o));
  const auto& h = p->As<TfLiteHashtableParams>();
  CHECK(h.table_id == 7);
  CHECK(h.key_dtype == kTfLiteString);
  CHECK(h.value_dtype == kTfLiteInt64);
}

TEST_CASE("Options of the wrong union type count as absent") {
  tflite::AddOptionsT add;
  add.fused_activation_function = tflite::ActivationFunctionType_RELU;
  auto p = ParseOne(tflite::BuiltinOperator_CONV_2D, Options(add));
  const auto& c = p->As<TfLiteConvParams>();
  CHECK(c.activation == kTfLiteActNone);
  CHECK(c.stride_width == 0);
  CHECK(c.dilation_width_factor == 0);  // zeroed, not the schema default 1
}

TEST_CASE("StableHLO ops from builtin_options_2") {
  SECTION("STABLEHLO_PAD: lengths must agree") {
    tflite::StablehloPadOptionsT o;
    o.edge_padding_low = {1, 2};
    o.edge_padding_high = {3, 4};
    o.interior_padding = {0, 1};
    auto ok = ParseOne(tflite::BuiltinOperator_STABLEHLO_PAD, Options2(o));
    CHECK(ok->As<TfLiteStablehloPadParams>().edge_padding_high[1] == 4);
    o.interior_padding = {0};
    auto bad = ParseOne(tflite::BuiltinOperator_STABLEHLO_PAD, Options2(o));
    CHECK(bad->status == kTfLiteError);
    CHECK(bad->error.rfind("STABLEHLO_PAD: ", 0) == 0);
  }
  SECTION("STABLEHLO_REDUCE_WINDOW: missing attributes are filled") {
    tflite::StablehloReduceWindowOptionsT o;
    o.window_dimensions = {2, 2};
    o.padding = {0, 1, 1, 0};
    o.body_subgraph_index = 1;
    auto p = ParseOne(tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW, Options2(o), 1);
    const auto& r = p->As<TfLiteStablehloReduceWindowParams>();
    CHECK(r.window_dimensions[1] == 2);
    CHECK(r.window_dimensions[2] == 0);  // copied attributes leave the tail zero
    CHECK(r.window_strides[0] == 1);
    CHECK(r.window_strides[7] == 1);  // filled attributes fill the whole array
    CHECK(r.padding[1] == 1);
    CHECK(r.body_subgraph_index == 1);

    o.window_strides = {1, 1, 1};
    auto bad = ParseOne(tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW, Options2(o), 1);
    CHECK(bad->status == kTfLiteError);
    CHECK(bad->error.rfind("STABLEHLO_REDUCE_WINDOW: window_strides has 3 entries", 0) == 0);
  }
  SECTION("STABLEHLO_SCATTER: arrays are bounded") {
    tflite::StablehloScatterOptionsT o;
    o.update_window_dims = {1, 2};
    o.index_vector_dim = 1;
    auto p = ParseOne(tflite::BuiltinOperator_STABLEHLO_SCATTER, Options2(o));
    CHECK(p->As<TfLiteStablehloScatterParams>().num_update_window_dims == 2);
    CHECK(p->As<TfLiteStablehloScatterParams>().num_inserted_window_dims == 0);
    o.inserted_window_dims.assign(9, 0);
    auto bad = ParseOne(tflite::BuiltinOperator_STABLEHLO_SCATTER, Options2(o));
    CHECK(bad->error ==
          "STABLEHLO_SCATTER: inserted_window_dims has 9 entries, at most 8 "
          "are supported");
  }
  SECTION("STABLEHLO_COMPOSITE and STABLEHLO_CASE") {
    tflite::StableHLOCompositeOptionsT c;
    c.name = "odml.rms_norm";
    c.decomposition_subgraph_index = 1;
    c.version = 3;
    auto pc = ParseOne(tflite::BuiltinOperator_STABLEHLO_COMPOSITE, Options2(c), 1);
    const auto& comp = pc->As<TfLiteStablehloCompositeParams>();
    CHECK(std::string(comp.name) == "odml.rms_norm");
    CHECK(comp.subgraph_index == 1);
    CHECK(comp.version == 3);
    CHECK(comp.attributes_size == 0);

    tflite::StablehloCaseOptionsT k;
    k.branch_subgraph_indices = {1, 2, 3};
    auto pk = ParseOne(tflite::BuiltinOperator_STABLEHLO_CASE, Options2(k));
    CHECK(pk->As<TfLiteStablehloCaseParams>().num_branches == 3);
    CHECK(pk->As<TfLiteStablehloCaseParams>().branch_subgraph_indices[2] == 3);
  }
  SECTION("REDUCE_WINDOW: UNSUPPORTED is refused, absent options accepted") {
    tflite::ReduceWindowOptionsT o;
    o.reduce_function = tflite::ReduceWindowFunction_MAXIMUM;
    auto p = ParseOne(tflite::BuiltinOperator_REDUCE_WINDOW, Options2(o));
    CHECK(p->As<TfLiteReduceWindowParams>().reduce_function == TfLiteReduceWindowFunctionMax);
    o.reduce_function = tflite::ReduceWindowFunction_UNSUPPORTED;
    CHECK(ParseOne(tflite::BuiltinOperator_REDUCE_WINDOW, Options2(o))->status == kTfLiteError);
    CHECK(ParseOne(tflite::BuiltinOperator_REDUCE_WINDOW)
              ->As<TfLiteReduceWindowParams>()
              .reduce_function == TfLiteReduceWindowFunctionUnsupported);
  }
}

TEST_CASE("ConvertTensorType maps every schema type") {
  const std::vector<std::pair<TensorType, TfLiteType>> expected = {
      {tflite::TensorType_FLOAT32, kTfLiteFloat32},
      {tflite::TensorType_FLOAT16, kTfLiteFloat16},
      {tflite::TensorType_INT32, kTfLiteInt32},
      {tflite::TensorType_UINT8, kTfLiteUInt8},
      {tflite::TensorType_INT64, kTfLiteInt64},
      {tflite::TensorType_STRING, kTfLiteString},
      {tflite::TensorType_BOOL, kTfLiteBool},
      {tflite::TensorType_INT16, kTfLiteInt16},
      {tflite::TensorType_COMPLEX64, kTfLiteComplex64},
      {tflite::TensorType_INT8, kTfLiteInt8},
      {tflite::TensorType_FLOAT64, kTfLiteFloat64},
      {tflite::TensorType_COMPLEX128, kTfLiteComplex128},
      {tflite::TensorType_UINT64, kTfLiteUInt64},
      {tflite::TensorType_RESOURCE, kTfLiteResource},
      {tflite::TensorType_VARIANT, kTfLiteVariant},
      {tflite::TensorType_UINT32, kTfLiteUInt32},
      {tflite::TensorType_UINT16, kTfLiteUInt16},
      {tflite::TensorType_INT4, kTfLiteInt4},
      {tflite::TensorType_BFLOAT16, kTfLiteBFloat16},
      {tflite::TensorType_INT2, kTfLiteInt2},
  };
  REQUIRE(expected.size() == static_cast<size_t>(tflite::TensorType_MAX) + 1);
  for (const auto& [in, out] : expected) {
    INFO(tflite::EnumNameTensorType(in));
    TfLiteType t = kTfLiteNoType;
    std::string error;
    CHECK(ConvertTensorType(in, &t, &error) == kTfLiteOk);
    CHECK(t == out);
    CHECK(error.empty());
  }
  TfLiteType t = kTfLiteFloat32;
  std::string error;
  CHECK(ConvertTensorType(static_cast<TensorType>(-1), &t, &error) == kTfLiteError);
  CHECK(t == kTfLiteNoType);
  CHECK(error.rfind("unsupported tensor type -1", 0) == 0);
  CHECK(ConvertTensorType(static_cast<TensorType>(100), &t, nullptr) == kTfLiteError);
}

// Every builtin op of the schema, without options: never crashes, refuses exactly the
// ops upstream refuses, and gives params exactly to the ops upstream gives them to.
TEST_CASE("Every builtin op parses without options as upstream does") {
  using namespace tflite;  // NOLINT: a list of enumerators
  const std::set<int> refused = {
      BuiltinOperator_LSTM,
      BuiltinOperator_DELEGATE,
      BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES,
      BuiltinOperator_STABLEHLO_REDUCE_WINDOW,
      BuiltinOperator_STABLEHLO_PAD,
      BuiltinOperator_STABLEHLO_COMPOSITE,
      BuiltinOperator_STABLEHLO_CASE,
  };
  const std::set<int> with_params = {
      BuiltinOperator_ADD,
      BuiltinOperator_ARG_MAX,
      BuiltinOperator_ARG_MIN,
      BuiltinOperator_AVERAGE_POOL_2D,
      BuiltinOperator_BATCH_MATMUL,
      BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM,
      BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN,
      BuiltinOperator_BUCKETIZE,
      BuiltinOperator_CALL_ONCE,
      BuiltinOperator_CAST,
      BuiltinOperator_CONCATENATION,
      BuiltinOperator_CONV_2D,
      BuiltinOperator_CONV_3D,
      BuiltinOperator_CONV_3D_TRANSPOSE,
      BuiltinOperator_CUMSUM,
      BuiltinOperator_DEPTH_TO_SPACE,
      BuiltinOperator_DEPTHWISE_CONV_2D,
      BuiltinOperator_DIV,
      BuiltinOperator_EMBEDDING_LOOKUP_SPARSE,
      BuiltinOperator_FAKE_QUANT,
      BuiltinOperator_FULLY_CONNECTED,
      BuiltinOperator_GATHER,
      BuiltinOperator_GELU,
      BuiltinOperator_HASHTABLE,
      BuiltinOperator_IF,
      BuiltinOperator_L2_NORMALIZATION,
      BuiltinOperator_L2_POOL_2D,
      BuiltinOperator_LEAKY_RELU,
      BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION,
      BuiltinOperator_LSH_PROJECTION,
      BuiltinOperator_MAX_POOL_2D,
      BuiltinOperator_MEAN,
      BuiltinOperator_MIRROR_PAD,
      BuiltinOperator_MUL,
      BuiltinOperator_MULTINOMIAL,
      BuiltinOperator_ONE_HOT,
      BuiltinOperator_PACK,
      BuiltinOperator_RANDOM_STANDARD_NORMAL,
      BuiltinOperator_RANDOM_UNIFORM,
      BuiltinOperator_REDUCE_ALL,
      BuiltinOperator_REDUCE_ANY,
      BuiltinOperator_REDUCE_MAX,
      BuiltinOperator_REDUCE_MIN,
      BuiltinOperator_REDUCE_PROD,
      BuiltinOperator_REDUCE_WINDOW,
      BuiltinOperator_RESHAPE,
      BuiltinOperator_RESIZE_BILINEAR,
      BuiltinOperator_RESIZE_NEAREST_NEIGHBOR,
      BuiltinOperator_REVERSE_SEQUENCE,
      BuiltinOperator_RNN,
      BuiltinOperator_SHAPE,
      BuiltinOperator_SKIP_GRAM,
      BuiltinOperator_SOFTMAX,
      BuiltinOperator_SPACE_TO_DEPTH,
      BuiltinOperator_SPARSE_TO_DENSE,
      BuiltinOperator_SPLIT,
      BuiltinOperator_SPLIT_V,
      BuiltinOperator_SQUEEZE,
      BuiltinOperator_STABLEHLO_GATHER,
      BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR,
      BuiltinOperator_STABLEHLO_SCATTER,
      BuiltinOperator_STRIDED_SLICE,
      BuiltinOperator_SUB,
      BuiltinOperator_SUM,
      BuiltinOperator_SVDF,
      BuiltinOperator_TRANSPOSE_CONV,
      BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
      BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN,
      BuiltinOperator_UNIQUE,
      BuiltinOperator_UNPACK,
      BuiltinOperator_VAR_HANDLE,
      BuiltinOperator_WHILE,
  };
  for (int code = BuiltinOperator_MIN; code <= BuiltinOperator_MAX; ++code) {
    // The loader refuses a CUSTOM code without a custom name; it is checked below.
    if (!IsKnownBuiltinOp(code) || code == BuiltinOperator_CUSTOM) continue;
    const auto op = static_cast<BuiltinOperator>(code);
    INFO(BuiltinOpName(code));
    const bool calls = code == BuiltinOperator_IF || code == BuiltinOperator_WHILE ||
                       code == BuiltinOperator_CALL_ONCE;
    auto p = ParseOne(op, {}, 0, calls ? 1 : 0);
    if (refused.count(code) != 0) {
      CHECK(p->status == kTfLiteError);
      CHECK(p->data == nullptr);
      CHECK(p->error.rfind(BuiltinOpName(code) + ": ", 0) == 0);
    } else {
      CHECK(p->status == kTfLiteOk);
      CHECK(p->error.empty());
      CHECK((p->data != nullptr) == (with_params.count(code) != 0));
    }
  }
}

TEST_CASE("Unknown codes and a null operator are errors, CUSTOM has no params") {
  auto p = ParseOne(tflite::BuiltinOperator_ADD);
  void* data = reinterpret_cast<void*>(0x1);
  std::string error;
  CHECK(ParseBuiltinOptions(p->op, static_cast<BuiltinOperator>(4000), &data, &error) ==
        kTfLiteError);
  CHECK(data == nullptr);
  CHECK(error == "UNKNOWN_BUILTIN_OP(4000): unknown builtin operator code 4000");

  CHECK(ParseBuiltinOptions(nullptr, tflite::BuiltinOperator_ADD, &data, nullptr) == kTfLiteError);
  CHECK(data == nullptr);

  // CUSTOM ops read custom_options themselves: no builtin_data.
  error.clear();
  CHECK(ParseBuiltinOptions(p->op, tflite::BuiltinOperator_CUSTOM, &data, &error) == kTfLiteOk);
  CHECK(data == nullptr);
  CHECK(error.empty());
}

}  // namespace
}  // namespace tflite_inspect
