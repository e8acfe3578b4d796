// Crafted models, one per class of TFLite's CVE history (testdata/malformed/, written by
// this file's builders): every tool — run, benchmark_model, inference_diff,
// delegate_report, inspect_ops — must answer each with its exit code and the exact
// reason, never a signal or a hang. inspect_ops reads models the runtime refuses (that
// is its job) and must not crash on them.
//
// The committed files are these builders' output: the test fails when a file differs
// from what its builder makes. Regenerate after changing a builder with
//   TFI_WRITE_MALFORMED=testdata/malformed build/cmd/malformed_cli_test
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "flatbuffers/flexbuffers.h"
#include "fmt/format.h"
#include "testing/command.h"

namespace fs = std::filesystem;
using tflite_inspect::ModelBuilder;
using tflite_inspect::Options;
using tflite_inspect::QuantSpec;
using tflite_inspect::testing::ReadFile;
using tflite_inspect::testing::RunCommand;

namespace {

const std::string kBin = TFLITE_INSPECT_BIN;
const fs::path kCorpus = fs::path(TFI_SOURCE_DIR) / "testdata" / "malformed";
constexpr auto kF32 = tflite::TensorType_FLOAT32;
constexpr auto kI32 = tflite::TensorType_INT32;
constexpr auto kI8 = tflite::TensorType_INT8;

struct Case {
  std::string name;
  std::function<ModelBuilder()> build;
  std::string message;  // in the stderr of every tool that builds an interpreter
  // Found only when the data is seen (Invoke): delegate_report, which does not invoke,
  // reports the model and exits 0.
  bool at_invoke = false;
};

// in [1,4] -> op -> out [1,4]
ModelBuilder Unary(tflite::BuiltinOperator op, std::vector<int32_t> in_shape = {1, 4},
                   std::vector<int32_t> out_shape = {1, 4}) {
  ModelBuilder b;
  int in = b.AddTensor(kF32, in_shape, "in");
  int out = b.AddTensor(kF32, out_shape, "out");
  b.AddOperator(op, {in}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

// in -> ADD(in, w) -> mid -> ADD(mid, w) -> out
ModelBuilder AddChain() {
  ModelBuilder b;
  int in = b.AddTensor(kF32, {1, 4}, "in");
  int w = b.AddConstTensor<float>(kF32, {1, 4}, {1, 2, 3, 4}, "w");
  int mid = b.AddTensor(kF32, {1, 4}, "mid");
  int out = b.AddTensor(kF32, {1, 4}, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, w}, {mid}, Options(tflite::AddOptionsT()));
  b.AddOperator(tflite::BuiltinOperator_ADD, {mid, w}, {out}, Options(tflite::AddOptionsT()));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

ModelBuilder Conv(int stride, std::vector<int32_t> in_shape, std::vector<int32_t> filter_shape) {
  ModelBuilder b;
  int in = b.AddTensor(kF32, in_shape, "in");
  size_t n = 1;
  for (int d : filter_shape) n *= static_cast<size_t>(d);
  int f = b.AddConstTensor<float>(kF32, filter_shape, std::vector<float>(n, 0.5f), "filter");
  int out = b.AddTensor(kF32, {1, 4, 4, filter_shape[0]}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_w = o.stride_h = stride;
  o.dilation_w_factor = o.dilation_h_factor = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f}, {out}, Options(o));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

// int16 TANH with the given input scale (output scale 2^-15, as int16 TANH needs).
ModelBuilder Int16Tanh(float input_scale) {
  ModelBuilder b;
  QuantSpec qi{{input_scale}, {0}, 0};
  QuantSpec qo{{1.0f / 32768}, {0}, 0};
  int in = b.AddTensor(tflite::TensorType_INT16, {1, 4}, "in", &qi);
  int out = b.AddTensor(tflite::TensorType_INT16, {1, 4}, "out", &qo);
  b.AddOperator(tflite::BuiltinOperator_TANH, {in}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

ModelBuilder QuantizedAdd(QuantSpec q_in) {
  ModelBuilder b;
  QuantSpec q{{0.5f}, {0}, 0};
  int in = b.AddTensor(kI8, {1, 4}, "in", &q_in);
  int w = b.AddConstTensor<int8_t>(kI8, {1, 4}, {1, 2, 3, 4}, "w", &q);
  int out = b.AddTensor(kI8, {1, 4}, "out", &q);
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, w}, {out}, Options(tflite::AddOptionsT()));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

ModelBuilder Gather(int32_t index) {
  ModelBuilder b;
  int in = b.AddTensor(kF32, {4, 2}, "params");
  int idx = b.AddConstTensor<int32_t>(kI32, {1}, {index}, "indices");
  int out = b.AddTensor(kF32, {1, 2}, "out");
  b.AddOperator(tflite::BuiltinOperator_GATHER, {in, idx}, {out},
                Options(tflite::GatherOptionsT()));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

ModelBuilder Transpose(std::vector<int32_t> perm) {
  ModelBuilder b;
  int in = b.AddTensor(kF32, {2, 3}, "in");
  int p = b.AddConstTensor<int32_t>(kI32, {static_cast<int32_t>(perm.size())}, perm, "perm");
  int out = b.AddTensor(kF32, {3, 2}, "out");
  b.AddOperator(tflite::BuiltinOperator_TRANSPOSE, {in, p}, {out},
                Options(tflite::TransposeOptionsT()));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

ModelBuilder Reshape(std::vector<int32_t> shape) {
  ModelBuilder b;
  int in = b.AddTensor(kF32, {2, 3}, "in");
  int s = b.AddConstTensor<int32_t>(kI32, {static_cast<int32_t>(shape.size())}, shape, "shape");
  int out = b.AddTensor(kF32, shape, "out");
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {in, s}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

ModelBuilder Split(int num_splits) {
  ModelBuilder b;
  int axis = b.AddConstTensor<int32_t>(kI32, {}, {1}, "axis");
  int in = b.AddTensor(kF32, {2, 4}, "in");
  int out = b.AddTensor(kF32, {2, 2}, "out");
  tflite::SplitOptionsT o;
  o.num_splits = num_splits;
  b.AddOperator(tflite::BuiltinOperator_SPLIT, {axis, in}, {out}, Options(o));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

// WHILE whose body subgraph (1) runs WHILE again with itself as body.
ModelBuilder WhileCycle() {
  ModelBuilder b;
  int x = b.AddTensor(kI32, {1}, "x");
  int y = b.AddTensor(kI32, {1}, "y");
  tflite::WhileOptionsT w;
  w.cond_subgraph_index = 1;
  w.body_subgraph_index = 1;
  b.AddOperator(tflite::BuiltinOperator_WHILE, {x}, {y}, Options(w));
  b.SetInputs({x});
  b.SetOutputs({y});
  b.UseSubgraph(b.AddSubgraph("loop"));
  int a = b.AddTensor(kI32, {1}, "a");
  int c = b.AddTensor(kI32, {1}, "c");
  b.AddOperator(tflite::BuiltinOperator_WHILE, {a}, {c}, Options(w));
  b.SetInputs({a});
  b.SetOutputs({c});
  b.UseSubgraph(0);
  return b;
}

std::vector<Case> Cases() {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  return {
      {"two_producers",
       [] {
         ModelBuilder b = AddChain();
         b.subgraph(0).operators[1]->outputs = {2};
         b.subgraph(0).operators[1]->inputs = {0, 1};
         return b;
       },
       "Tensor 2 ('mid') of subgraph 0 is an output of operators 0 and 1; a tensor has one "
       "producer."},
      {"writes_constant",
       [] {
         ModelBuilder b = AddChain();
         b.subgraph(0).operators[1]->outputs = {1};
         return b;
       },
       "Operator 1 of subgraph 0 writes tensor 1 ('w'), which is a constant."},
      {"out_of_order",
       [] {
         ModelBuilder b = AddChain();
         std::swap(b.subgraph(0).operators[0], b.subgraph(0).operators[1]);
         return b;
       },
       "Operator 0 of subgraph 0 reads tensor 2 ('mid'), which operator 1 writes later: the "
       "operators are not in dependency order."},
      {"writes_subgraph_input",
       [] {
         ModelBuilder b = AddChain();
         b.subgraph(0).operators[1]->outputs = {0};
         b.subgraph(0).outputs = {0};
         return b;
       },
       "Operator 1 of subgraph 0 writes tensor 0 ('in'), which is an input of the subgraph."},
      {"writes_variable",
       [] {
         ModelBuilder b = AddChain();
         const int state = b.AddVariableTensor(kF32, {1, 2}, "state");
         b.subgraph(0).operators[1]->outputs = {state};
         b.subgraph(0).outputs = {2};
         return b;
       },
       "Operator 1 of subgraph 0 writes tensor 4 ('state'), a variable: state is updated in "
       "place by the operators that read it."},
      {"reads_own_output",
       [] {
         ModelBuilder b = AddChain();
         b.subgraph(0).operators[1]->inputs = {3, 1};
         return b;
       },
       "Operator 1 of subgraph 0 reads tensor 3 ('out'), which operator 1 writes (itself)"},
      {"reads_unwritten_bool",
       [] {
         // in AND ghost -> both -> REDUCE_ANY: "ghost" is neither an input, a constant nor
         // a variable, and nothing writes it (TFLite reads its arena bytes: an invoke_fuzzer
         // finding, a bool load of 0xbe).
         ModelBuilder b;
         const auto kBool = tflite::TensorType_BOOL;
         int in = b.AddTensor(kBool, {2, 2}, "in");
         int ghost = b.AddTensor(kBool, {2, 2}, "ghost");
         int both = b.AddTensor(kBool, {2, 2}, "both");
         int axis = b.AddConstTensor<int32_t>(kI32, {1}, {1}, "axis");
         int out = b.AddTensor(kBool, {2}, "out");
         b.AddOperator(tflite::BuiltinOperator_LOGICAL_AND, {in, ghost}, {both});
         tflite::ReducerOptionsT r;
         b.AddOperator(tflite::BuiltinOperator_REDUCE_ANY, {both, axis}, {out}, Options(r));
         b.SetInputs({in});
         b.SetOutputs({out});
         return b;
       },
       "Operator 0 of subgraph 0 (LOGICAL_AND) reads tensor 1 ('ghost'), which no operator "
       "writes: it is not an input of the subgraph, a constant or a variable."},
      {"output_unwritten",
       [] {
         ModelBuilder b = AddChain();
         const int ghost = b.AddTensor(kF32, {1, 4}, "ghost");
         b.subgraph(0).outputs = {3, ghost};
         return b;
       },
       "Output #1 of subgraph 0 is tensor 4 ('ghost'), which no operator writes: it is not an "
       "input of the subgraph, a constant or a variable."},
      {"zero_point_out_of_range", [] { return QuantizedAdd({{0.5f}, {1000}, 0}); },
       "zero_point[0] is 1000, outside [-128, 127] for INT8. Tensor 0 has invalid quantization "
       "parameters."},
      {"zero_point_2pow40", [] { return QuantizedAdd({{0.5f}, {-(int64_t{1} << 40)}, 0}); },
       "zero_point[0] is -1099511627776, outside [-128, 127] for INT8."},
      {"scale_nan", [nan] { return QuantizedAdd({{nan}, {0}, 0}); },
       "scale[0] is nan; scales must be finite and non-negative."},
      {"scale_negative", [] { return QuantizedAdd({{-1.f}, {0}, 0}); },
       "scale[0] is -1; scales must be finite and non-negative."},
      {"scale_ratio_out_of_range", [] { return QuantizedAdd({{1e30f}, {0}, 0}); },
       "ADD/SUB output scale too small for the input scales"},
      {"rsqrt_scale_ratio",
       [] {
         ModelBuilder b;
         QuantSpec q{{1e6f}, {0}, 0};
         int in = b.AddTensor(kI8, {1, 4}, "in", &q);
         int out = b.AddTensor(kI8, {1, 4}, "out", &q);
         b.AddOperator(tflite::BuiltinOperator_RSQRT, {in}, {out}, {}, 2);
         b.SetInputs({in});
         b.SetOutputs({out});
         return b;
       },
       "RSQRT: its quantization parameters give a rescaling multiplier of 1e-09, which needs "
       "a right shift over 31 bits"},
      {"tanh_int16_scale_too_large",
       // a float-to-int conversion of a 1.2e34 multiplier was undefined
       [] { return Int16Tanh(1e30f); },
       "TANH int16 input scale 1e+30 is too large: its rescale multiplier 1.2288e+34 does not "
       "fit 15 bits."},
      {"sparse_tensor_as_input",
       [] {  // a sparse constant read by ADD: its buffer holds 2 of its 16 elements
         ModelBuilder b;
         int in = b.AddTensor(kF32, {4, 4}, "in");
         int w = b.AddConstTensor<float>(kF32, {4, 4}, {1, 2}, "sparse");
         auto sp = std::make_unique<tflite::SparsityParametersT>();
         sp->traversal_order = {0, 1};
         auto d0 = std::make_unique<tflite::DimensionMetadataT>();
         d0->format = tflite::DimensionType_DENSE;
         d0->dense_size = 4;
         auto d1 = std::make_unique<tflite::DimensionMetadataT>();
         d1->format = tflite::DimensionType_SPARSE_CSR;
         tflite::Int32VectorT segments, indices;
         segments.values = {0, 1, 1, 1, 2};
         indices.values = {0, 3};
         d1->array_segments.Set(std::move(segments));
         d1->array_indices.Set(std::move(indices));
         sp->dim_metadata.push_back(std::move(d0));
         sp->dim_metadata.push_back(std::move(d1));
         b.subgraph(0).tensors[w]->sparsity = std::move(sp);
         int out = b.AddTensor(kF32, {4, 4}, "out");
         b.AddOperator(tflite::BuiltinOperator_ADD, {in, w}, {out}, Options(tflite::AddOptionsT()));
         b.SetInputs({in});
         b.SetOutputs({out});
         return b;
       },
       "Operator 0 of subgraph 0 (ADD) reads sparse tensor 1 ('sparse') as input 1: only "
       "DENSIFY's input and FULLY_CONNECTED's weights may be sparse."},
      {"tanh_int16_scale_too_small",
       // a zero multiplier, then 3 << 31
       [] { return Int16Tanh(1e-30f); },
       "TANH int16 input scale 1e-30 is too small: its rescale multiplier stays below 1 after "
       "a 31-bit shift."},
      {"per_channel_count_mismatch", [] { return QuantizedAdd({{0.5f, 0.5f, 0.5f}, {0, 0, 0}, 1}); },
       "num_scales must be 1 for per-layer quantization, or 4 for per-axis quantization, but "
       "got 3."},
      {"quantized_dimension_out_of_range", [] { return QuantizedAdd({{0.5f}, {0}, 5}); },
       "quantized_dimension must be in range [0, 2). Was 5."},
      {"while_calls_itself", WhileCycle, "subgraph 1 calls itself"},
      {"conv_zero_stride", [] { return Conv(0, {1, 4, 4, 2}, {3, 3, 3, 2}); },
       "params->stride_width > 0 && params->stride_height > 0 was not true"},
      {"conv_options_wrong_union",
       [] {  // a Pool2DOptions table (strides 1) where CONV_2D reads Conv2DOptions
         ModelBuilder b;
         int in = b.AddTensor(kF32, {1, 4, 4, 2}, "in");
         int f = b.AddConstTensor<float>(kF32, {3, 3, 3, 2}, std::vector<float>(54, 0.5f),
                                         "filter");
         int out = b.AddTensor(kF32, {1, 4, 4, 3}, "out");
         tflite::Pool2DOptionsT o;
         o.padding = tflite::Padding_SAME;
         o.stride_w = o.stride_h = 1;
         b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f}, {out}, Options(o));
         b.SetInputs({in});
         b.SetOutputs({out});
         return b;
       },
       "Node number 0 (CONV_2D): its builtin_options is a Pool2DOptions table where CONV_2D "
       "reads Conv2DOptions (as in TFLite, it gets zeroed parameters)."},
      {"dequantize_input_missing",
       [] {  // -1 where DEQUANTIZE needs its input: XNNPACK looks before any prepare
         ModelBuilder b;
         int in = b.AddTensor(kF32, {1, 4}, "in");
         int mid = b.AddTensor(kF32, {1, 4}, "mid");
         int out = b.AddTensor(kF32, {1, 4}, "out");
         b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {-1}, {mid});
         b.AddOperator(tflite::BuiltinOperator_ADD, {in, mid}, {out}, Options(tflite::AddOptionsT()));
         b.SetInputs({in});
         b.SetOutputs({out});
         return b;
       },
       "Node number 0 (DEQUANTIZE) failed to prepare."},
      {"conv_input_missing",
       [] {  // -1 as CONV_2D's input
         ModelBuilder b;
         int in = b.AddTensor(kF32, {1, 4, 4, 2}, "in");
         int f = b.AddConstTensor<float>(kF32, {3, 3, 3, 2}, std::vector<float>(54, 0.5f),
                                         "filter");
         int mid = b.AddTensor(kF32, {1, 4, 4, 3}, "mid");
         int out = b.AddTensor(kF32, {1, 4, 4, 3}, "out");
         tflite::Conv2DOptionsT o;
         o.padding = tflite::Padding_SAME;
         o.stride_w = o.stride_h = 1;
         o.dilation_w_factor = o.dilation_h_factor = 1;
         b.AddOperator(tflite::BuiltinOperator_CONV_2D, {-1, f}, {mid}, Options(o));
         b.AddOperator(tflite::BuiltinOperator_RELU, {mid}, {out});
         b.SetInputs({in});
         b.SetOutputs({out});
         return b;
       },
       "Node number 0 (CONV_2D) failed to prepare."},
      {"conv_zero_input_channels", [] { return Conv(1, {1, 4, 4, 0}, {3, 3, 3, 0}); },
       "input depth 0 is not a multiple of the filter depth 0"},
      {"conv_zero_input_channels_nonzero_filter",
       [] { return Conv(1, {1, 4, 4, 0}, {3, 3, 3, 3}); },  // 0 groups: a division by zero
       "input depth 0 is not a multiple of the filter depth 3"},
      {"conv_channels_mismatch", [] { return Conv(1, {1, 4, 4, 2}, {3, 3, 3, 5}); },
       "input depth 2 is not a multiple of the filter depth 5"},
      {"huge_tensor",
       [] { return Unary(tflite::BuiltinOperator_RELU, {65536, 65536, 64}, {65536, 65536, 64}); },
       "tensor 0 ('in') needs 1099511627776 bytes"},
      {"gather_index_out_of_range", [] { return Gather(100); },
       "GATHER: index 100 is out of bounds [0, 4)", true},
      {"gather_negative_index", [] { return Gather(-5); },
       "GATHER: index -5 is out of bounds [0, 4)", true},
      {"transpose_perm_out_of_range", [] { return Transpose({0, 7}); },
       "TRANSPOSE: perm[1] = 7 is out of range or repeated"},
      {"transpose_perm_repeated", [] { return Transpose({1, 1}); },
       "TRANSPOSE: perm[1] = 1 is out of range or repeated"},
      {"reshape_element_mismatch", [] { return Reshape({5, 7}); },
       "RESHAPE: cannot reshape 6 elements into shape [5,7]"},
      {"split_zero_splits", [] { return Split(0); }, "params->num_splits >= 1 was not true."},
      {"split_uneven", [] { return Split(3); },
       "NumOutputs(node) != params->num_splits (1 != 3)"},
      {"op_input_out_of_range",
       [] {
         ModelBuilder b = AddChain();
         b.subgraph(0).operators[0]->inputs = {0, 57};
         return b;
       },
       "input #1 refers to tensor 57, but the subgraph has 4 tensors"},
      {"constant_buffer_too_small",
       [] {
         ModelBuilder b;
         int in = b.AddTensor(kF32, {1, 4}, "in");
         int w = b.AddConstTensorBytes(kF32, {1, 4}, {0, 0, 0, 0}, "w");
         int out = b.AddTensor(kF32, {1, 4}, "out");
         b.AddOperator(tflite::BuiltinOperator_ADD, {in, w}, {out}, Options(tflite::AddOptionsT()));
         b.SetInputs({in});
         b.SetOutputs({out});
         return b;
       },
       "holds 4 bytes, but shape [1,4] of FLOAT32 needs 16 bytes"},
      {"op_version_int_max",
       [] {
         ModelBuilder b = Unary(tflite::BuiltinOperator_RELU);
         b.model().operator_codes[0]->version = std::numeric_limits<int32_t>::max();
         return b;
       },
       "version '2147483647'"},
      {"shape_product_overflow",
       [] {
         return Unary(tflite::BuiltinOperator_RELU, {2147483647, 2147483647, 2147483647, 4},
                      {1, 4});
       },
       "more elements than fit in int64"},
      {"unresolved_custom_op",
       [] {
         ModelBuilder b;
         int in = b.AddTensor(kF32, {1, 4}, "in");
         int out = b.AddTensor(kF32, {1, 4}, "out");
         b.AddCustomOperator("NoSuchOp", {in}, {out});
         b.SetInputs({in});
         b.SetOutputs({out});
         return b;
       },
       "Encountered unresolved custom op: NoSuchOp."},
      {"detection_postprocess_option_not_int32",
       [] {
         // Found by the invoke fuzzer: a float out of range (and a negative float for a bool)
         // in the custom options, which flexbuffers' own conversions cast with undefined
         // behaviour.
         flexbuffers::Builder fbb;
         fbb.Map([&] {
           fbb.Double("max_detections", 1e30);
           fbb.Int("max_classes_per_detection", 1);
           fbb.Double("use_regular_nms", -1.0);
           fbb.Int("num_classes", 1);
           fbb.Float("nms_iou_threshold", 0.5f);
           fbb.Float("y_scale", 10.0f);
           fbb.Float("x_scale", 10.0f);
           fbb.Float("h_scale", 5.0f);
           fbb.Float("w_scale", 5.0f);
         });
         fbb.Finish();
         ModelBuilder b;
         const int boxes = b.AddTensor(kF32, {1, 4, 4}, "boxes");
         const int scores = b.AddTensor(kF32, {1, 4, 2}, "scores");
         const int anchors = b.AddTensor(kF32, {4, 4}, "anchors");
         std::vector<int> outs;
         for (const char* name : {"out_boxes", "out_classes", "out_scores", "count"}) {
           outs.push_back(b.AddTensor(kF32, {1}, name));
         }
         b.AddCustomOperator("TFLite_Detection_PostProcess", {boxes, scores, anchors}, outs,
                             fbb.GetBuffer());
         b.SetInputs({boxes, scores, anchors});
         b.SetOutputs(outs);
         return b;
       },
       "TFLite_Detection_PostProcess: custom option 'max_detections' is not a 32-bit integer."},
      {"subgraph_input_constant",
       [] {
         ModelBuilder b = AddChain();
         b.subgraph(0).inputs = {1};
         return b;
       },
       "Input #0 of subgraph 0 is tensor 1 ('w'), a constant: inputs are written by the "
       "caller."},
      {"subgraph_input_minus_one",
       [] {
         ModelBuilder b = AddChain();
         b.subgraph(0).inputs = {-1};
         return b;
       },
       "Input #0 of subgraph 0 is -1: no tensor."},
      {"subgraph_output_minus_one",
       [] {
         ModelBuilder b = AddChain();
         b.subgraph(0).outputs = {3, -1};
         return b;
       },
       "Output #1 of subgraph 0 is -1: no tensor."},
  };
}

struct Tool {
  std::string name;
  std::string command;  // {} is the model
};

std::vector<Tool> Tools(const fs::path& out) {
  return {
      {"run", fmt::format("'{}' run --graph '{{}}' --output_dir '{}'", kBin, out.string())},
      {"benchmark_model",
       fmt::format("'{}' benchmark_model --graph='{{}}' --num_runs=1 --warmup_runs=1 "
                   "--min_secs=0 --warmup_min_secs=0",
                   kBin)},
      {"inference_diff", fmt::format("'{}' inference_diff --model_file='{{}}' --num_runs=1", kBin)},
      {"delegate_report", fmt::format("'{}' delegate_report --graph='{{}}'", kBin)},
  };
}

// In the sanitizer build (scripts/fuzz.sh tools) ASan/UBSan reports end up in stderr;
// their exit status is set apart too (ASAN_OPTIONS=exitcode=86), this names the report.
void CheckNoSanitizerReport(const std::string& err) {
  CHECK_THAT(err, !Catch::Contains("Sanitizer") && !Catch::Contains("runtime error:"));
}

}  // namespace

TEST_CASE("crafted models: every tool exits 1 with the reason, the corpus is what the "
          "builders make") {
  const fs::path dir = tflite_inspect::testing::TempDir("malformed_cli_test");
  const char* write_to = std::getenv("TFI_WRITE_MALFORMED");
  const std::vector<Case> cases = Cases();
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      const std::vector<uint8_t> bytes = c.build().Build();
      const fs::path model = dir / (c.name + ".tflite");
      {
        ModelBuilder b = c.build();
        REQUIRE(b.WriteFile(model.string()).ok());
      }
      if (write_to != nullptr) {
        ModelBuilder b = c.build();
        REQUIRE(b.WriteFile((fs::path(write_to) / (c.name + ".tflite")).string()).ok());
      }
      const fs::path committed = kCorpus / (c.name + ".tflite");
      INFO("corpus file " << committed);
      CHECK(fs::exists(committed));
      if (fs::exists(committed)) {
        CHECK(ReadFile(committed) == std::string(bytes.begin(), bytes.end()));
      }
      for (const Tool& t : Tools(dir / (c.name + "_out"))) {
        // A hang is a failure too: 124 from timeout is not 1.
        const auto r = RunCommand("timeout 60 " +
                                  fmt::format(fmt::runtime(t.command), model.string()));
        INFO(t.name << " said:\n" << r.out << r.err);
        CheckNoSanitizerReport(r.err);
        if (c.at_invoke && t.name == "delegate_report") {
          CHECK(r.exit_code == 0);
          continue;
        }
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.out + r.err, Catch::Contains(c.message));
      }
      // inspect_ops reads what the runtime refuses; it may fail on what does not load.
      const auto inspect = RunCommand(fmt::format("timeout 60 '{}' inspect_ops --tensors '{}'",
                                                  kBin, model.string()));
      INFO("inspect_ops said:\n" << inspect.out << inspect.err);
      CheckNoSanitizerReport(inspect.err);
      CHECK((inspect.exit_code == 0 || inspect.exit_code == 1));
    }
  }
}

// The tools' resource-limit flags on valid models: a 4 MiB activation under
// --max_arena_mb=1, and a WHILE whose body never changes its condition under
// --max_while_iterations=100 (without the cap it would spin forever, as in TFLite).
TEST_CASE("resource-limit flags: every tool refuses with the size or the loop") {
  const fs::path dir = tflite_inspect::testing::TempDir("malformed_cli_test_limits");
  ModelBuilder big = Unary(tflite::BuiltinOperator_RELU, {1024, 1024}, {1024, 1024});
  const fs::path big_model = dir / "big.tflite";
  REQUIRE(big.WriteFile(big_model.string()).ok());
  ModelBuilder loop;
  {
    const auto kBool = tflite::TensorType_BOOL;
    int x = loop.AddTensor(kI32, {1}, "x");
    int y = loop.AddTensor(kI32, {1}, "y");
    tflite::WhileOptionsT w;
    w.cond_subgraph_index = 1;
    w.body_subgraph_index = 2;
    loop.AddOperator(tflite::BuiltinOperator_WHILE, {x}, {y}, Options(w));
    loop.SetInputs({x});
    loop.SetOutputs({y});
    loop.UseSubgraph(loop.AddSubgraph("cond"));  // x < x + 1: always true
    int cx = loop.AddTensor(kI32, {1}, "x");
    int one = loop.AddConstTensor<int32_t>(kI32, {1}, {1}, "one");
    int next = loop.AddTensor(kI32, {1}, "next");
    int less = loop.AddTensor(kBool, {1}, "less");
    loop.AddOperator(tflite::BuiltinOperator_ADD, {cx, one}, {next}, Options(tflite::AddOptionsT()));
    loop.AddOperator(tflite::BuiltinOperator_LESS, {cx, next}, {less});
    loop.SetInputs({cx});
    loop.SetOutputs({less});
    loop.UseSubgraph(loop.AddSubgraph("body"));  // x -> x
    int bx = loop.AddTensor(kI32, {1}, "x");
    int zero = loop.AddConstTensor<int32_t>(kI32, {1}, {0}, "zero");
    int same = loop.AddTensor(kI32, {1}, "same");
    loop.AddOperator(tflite::BuiltinOperator_ADD, {bx, zero}, {same}, Options(tflite::AddOptionsT()));
    loop.SetInputs({bx});
    loop.SetOutputs({same});
    loop.UseSubgraph(0);
  }
  const fs::path loop_model = dir / "loop.tflite";
  REQUIRE(loop.WriteFile(loop_model.string()).ok());
  for (const Tool& t : Tools(dir / "out")) {
    CAPTURE(t.name);
    const auto ok = RunCommand("timeout 60 " + fmt::format(fmt::runtime(t.command), big_model.string()));
    INFO("without the flag:\n" << ok.out << ok.err);
    CHECK(ok.exit_code == 0);
    const auto r = RunCommand("timeout 60 " +
                              fmt::format(fmt::runtime(t.command), big_model.string()) +
                              " --max_arena_mb=1");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out + r.err, Catch::Contains("needs 4194304 bytes (4.0 MiB), more than the "
                                              "memory limit of 1048576 bytes (1.0 MiB)"));
    const auto w = RunCommand("timeout 60 " +
                              fmt::format(fmt::runtime(t.command), loop_model.string()) +
                              " --max_while_iterations=100");
    INFO(w.out << w.err);
    if (t.name == "delegate_report") {  // it does not invoke
      CHECK(w.exit_code == 0);
      continue;
    }
    CHECK(w.exit_code == 1);
    CHECK_THAT(w.out + w.err, Catch::Contains("WHILE (cond subgraph 1, body subgraph 2): still "
                                              "running after 100 iterations, the iteration cap"));
    // Without the cap the loop spins, as in TFLite; Ctrl-C (SIGINT after 2 s) cancels it:
    // the tool names the loop and how far it got, and exits 130. -k: a tool that ignored
    // the interrupt would be killed (137), not hang the test.
    const auto i = RunCommand("timeout --preserve-status -k 30 -s INT 2 " +
                              fmt::format(fmt::runtime(t.command), loop_model.string()));
    INFO("interrupted:\n" << i.out << i.err);
    CHECK(i.exit_code == 130);
    CHECK_THAT(i.err, Catch::Contains("tflite-inspect: interrupted (SIGINT): stopping at the "
                                      "next operator"));
    CHECK_THAT(i.err, Catch::Contains("Client requested cancel during Invoke()"));
    CHECK_THAT(i.err, Catch::Matches("[\\s\\S]*WHILE \\(cond subgraph 1, body subgraph 2\\): "
                                     "(cancelled|cond failed|body failed) in iteration "
                                     "[0-9]+[\\s\\S]*"));
  }
}

// --max_arena_mb bounds what a tool allocates in all: inference_diff's two interpreters
// share it. A 400 KiB activation (two tensors live: about 800 KiB of arena) fits one
// interpreter under 1 MiB, not two.
TEST_CASE("resource-limit flags: inference_diff's two interpreters share the memory limit") {
  const fs::path dir = tflite_inspect::testing::TempDir("malformed_cli_test_shared_limit");
  ModelBuilder mid = Unary(tflite::BuiltinOperator_RELU, {200, 512}, {200, 512});
  const fs::path model = dir / "mid.tflite";
  REQUIRE(mid.WriteFile(model.string()).ok());
  const auto run = RunCommand(fmt::format("timeout 60 '{}' run --graph='{}' --output_dir='{}' "
                                          "--max_arena_mb=1", kBin, model.string(),
                                          (dir / "out").string()));
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  const auto diff = RunCommand(fmt::format("timeout 60 '{}' inference_diff --model_file='{}' "
                                           "--num_runs=1 --max_arena_mb=1", kBin,
                                           model.string()));
  INFO(diff.out << diff.err);
  CHECK(diff.exit_code == 1);
  CHECK_THAT(diff.err, Catch::Contains("already allocated by the interpreters that share the "
                                       "limit, that is over the memory limit of 1048576 bytes "
                                       "(1.0 MiB)"));
}
