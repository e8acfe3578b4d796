// Kernel goldens from the real TFLite runtime for the smaller builtin ops
// (ADD_N, ONE_HOT, WHERE, RANK, SIGN, ...): the same mechanism as
// tflite_goldens_test.cc (kernels/testing/golden_test_util.h,
// scripts/gen_kernel_goldens.py), each case one op whose non-constant inputs
// TFLite's script feeds with its seeded values (float N(0,1), int32/int64 in
// [0, 15], bool and 8-bit over their range).
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "kernels/testing/golden_test_util.h"
#include "kernels/testing/shape2_test_util.h"

namespace tflite_inspect {
namespace {

using golden_test::GoldenCase;
using shape2_test::Bools;
using shape2_test::Const;
using shape2_test::T;
using tflite::TensorType_BOOL;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_FLOAT64;
using tflite::TensorType_INT32;
using tflite::TensorType_INT64;
using tflite::TensorType_INT8;
using tflite::TensorType_UINT8;

// A graph input (fed by the golden script) and an output of the given type and
// shape.
T In(tflite::TensorType type, std::vector<int32_t> shape) { return T{type, std::move(shape)}; }
T Out(tflite::TensorType type, std::vector<int32_t> shape) { return In(type, std::move(shape)); }
T ConstBools(std::vector<int32_t> shape, const std::vector<int>& v) {
  return T{TensorType_BOOL, std::move(shape), Bools(v), true};
}

// One operator over `inputs` (constants or graph inputs) writing `outputs`.
ModelBuilder OneOp(tflite::BuiltinOperator op, const std::vector<T>& inputs,
                   const std::vector<T>& outputs, OpOptions options = {}, int version = 1) {
  ModelBuilder b;
  std::vector<int32_t> op_inputs, op_outputs, graph_inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const T& t = inputs[i];
    const std::string name = "in" + std::to_string(i);
    if (t.is_const) {
      op_inputs.push_back(b.AddConstTensorBytes(t.type, t.shape, t.data, name));
    } else {
      op_inputs.push_back(b.AddTensor(t.type, t.shape, name));
      graph_inputs.push_back(op_inputs.back());
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    op_outputs.push_back(b.AddTensor(outputs[i].type, outputs[i].shape, "out" + std::to_string(i)));
  }
  b.AddOperator(op, op_inputs, op_outputs, std::move(options), version);
  b.SetInputs(graph_inputs);
  b.SetOutputs(op_outputs);
  return b;
}

// --- ADD_N
// ----------------------------------------------------------------------------------

ModelBuilder AddN(tflite::TensorType type, int n, std::vector<int32_t> shape,
                  std::vector<int32_t> odd_shape = {}) {
  std::vector<T> inputs;
  for (int i = 0; i < n; ++i)
    inputs.push_back(In(type, i == n - 1 && !odd_shape.empty() ? odd_shape : shape));
  return OneOp(tflite::BuiltinOperator_ADD_N, inputs, {Out(type, shape)},
               Options(tflite::AddNOptionsT()));
}

// --- ONE_HOT
// --------------------------------------------------------------------------------

template <typename V>
ModelBuilder OneHot(T indices, T depth, tflite::TensorType type, V on, V off, int axis,
                    std::vector<int32_t> out_shape) {
  tflite::OneHotOptionsT o;
  o.axis = axis;
  return OneOp(
      tflite::BuiltinOperator_ONE_HOT,
      {std::move(indices), std::move(depth), Const<V>(type, {}, {on}), Const<V>(type, {}, {off})},
      {Out(type, std::move(out_shape))}, Options(o));
}

T Depth(int32_t d) { return Const<int32_t>(TensorType_INT32, {}, {d}); }

// --- WHERE, RANK, SIGN
// -------------------------------------------------------------------------

ModelBuilder Where(T cond, int version) {
  const int rank = static_cast<int>(cond.shape.size());
  return OneOp(tflite::BuiltinOperator_WHERE, {std::move(cond)}, {Out(TensorType_INT64, {1, rank})},
               Options(tflite::WhereOptionsT()), version);
}

ModelBuilder Rank(T input) {
  return OneOp(tflite::BuiltinOperator_RANK, {std::move(input)}, {Out(TensorType_INT32, {})},
               Options(tflite::RankOptionsT()));
}

ModelBuilder Sign(T input, int version) {
  T out = Out(input.type, input.shape);
  return OneOp(tflite::BuiltinOperator_SIGN, {std::move(input)}, {out},
               Options(tflite::SignOptionsT()), version);
}

// --- ATAN2, BITWISE_XOR, RIGHT_SHIFT
// --------------------------------------------------------------

// Two inputs of one op, the output of `out_shape` (the inputs' type).
ModelBuilder Binary(tflite::BuiltinOperator op, T a, T b, std::vector<int32_t> out_shape,
                    OpOptions options = {}) {
  T out = Out(a.type, std::move(out_shape));
  return OneOp(op, {std::move(a), std::move(b)}, {out}, std::move(options));
}

// --- DYNAMIC_UPDATE_SLICE
// --------------------------------------------------------------------------

// operand, update, start indices -> the operand's shape; v2 for int64 indices.
ModelBuilder DynamicUpdateSlice(T operand, T update, T start) {
  const int version = start.type == TensorType_INT64 ? 2 : 1;
  T out = Out(operand.type, operand.shape);
  return OneOp(tflite::BuiltinOperator_DYNAMIC_UPDATE_SLICE,
               {std::move(operand), std::move(update), std::move(start)}, {out}, {}, version);
}

// --- REDUCE_ANY, REDUCE_ALL, L2_POOL_2D, LOCAL_RESPONSE_NORMALIZATION
// -------------------------

ModelBuilder ReduceBool(tflite::BuiltinOperator op, std::vector<int32_t> shape,
                        std::vector<int32_t> axes, bool keep_dims, std::vector<int32_t> out_shape,
                        tflite::TensorType type = TensorType_BOOL) {
  tflite::ReducerOptionsT o;
  o.keep_dims = keep_dims;
  const int32_t n = static_cast<int32_t>(axes.size());
  return OneOp(op, {In(type, std::move(shape)), Const<int32_t>(TensorType_INT32, {n}, axes)},
               {Out(type, std::move(out_shape))}, Options(o));
}

ModelBuilder L2Pool(std::vector<int32_t> shape, int filter, int stride, bool same,
                    tflite::ActivationFunctionType act, std::vector<int32_t> out_shape,
                    tflite::TensorType type = TensorType_FLOAT32) {
  tflite::Pool2DOptionsT o;
  o.padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_h = o.stride_w = stride;
  o.filter_height = o.filter_width = filter;
  o.fused_activation_function = act;
  return OneOp(tflite::BuiltinOperator_L2_POOL_2D, {In(type, std::move(shape))},
               {Out(type, std::move(out_shape))}, Options(o));
}

ModelBuilder Lrn(std::vector<int32_t> shape, int radius, float bias, float alpha, float beta) {
  tflite::LocalResponseNormalizationOptionsT o;
  o.radius = radius;
  o.bias = bias;
  o.alpha = alpha;
  o.beta = beta;
  T out = Out(TensorType_FLOAT32, shape);
  return OneOp(tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION,
               {In(TensorType_FLOAT32, std::move(shape))}, {out}, Options(o));
}

// --- EMBEDDING_LOOKUP
// ------------------------------------------------------------------------

// Lookup of `ids` (a constant: indices out of range fail TFLite's Eval) in a
// `rows` x 2 x 3 table: float32 from the graph's input, or a seeded 8-bit
// constant with `q`.
ModelBuilder EmbeddingLookup(tflite::TensorType table_type, tflite::TensorType out_type, int rows,
                             std::vector<int32_t> ids, const QuantSpec* q) {
  ModelBuilder b;
  const int32_t n = static_cast<int32_t>(ids.size());
  const int lookup = b.AddConstTensor<int32_t>(TensorType_INT32, {n}, ids, "ids");
  int table;
  std::vector<int32_t> graph_inputs;
  if (table_type == TensorType_FLOAT32) {
    table = b.AddTensor(table_type, {rows, 2, 3}, "table");
    graph_inputs.push_back(table);
  } else {
    std::vector<uint8_t> bytes(static_cast<size_t>(rows) * 6);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 + 11);
    table = b.AddConstTensorBytes(table_type, {rows, 2, 3}, bytes, "table", q);
  }
  const QuantSpec* out_q = out_type == TensorType_FLOAT32 ? nullptr : q;
  const int out = b.AddTensor(out_type, {n, 2, 3}, "out", out_q);
  b.AddOperator(tflite::BuiltinOperator_EMBEDDING_LOOKUP, {lookup, table}, {out}, {},
                table_type == TensorType_FLOAT32 ? 1 : 3);
  b.SetInputs(graph_inputs);
  b.SetOutputs({out});
  return b;
}

const QuantSpec kTableScale{{0.0625f}, {0}, 0};
const QuantSpec kTableScaleZp{{0.0625f}, {3}, 0};
const QuantSpec kRowScales{{0.5f, 0.25f, 0.125f, 0.03f}, {0, 0, 0, 0}, 0};

const GoldenCase kCases[] = {
    {"add_n_float_three",
     [] {
       return AddN(TensorType_FLOAT32, 3, {2, 3, 4});
     },
     0},
    {"add_n_float_seven", [] { return AddN(TensorType_FLOAT32, 7, {17}); }, 0},
    {"add_n_int32_four",
     [] {
       return AddN(TensorType_INT32, 4, {5, 3});
     },
     0},
    {"add_n_shape_mismatch_refused",
     [] {
       return AddN(TensorType_FLOAT32, 3, {2, 3}, {3, 2});
     },
     0},
    {"one_hot_float_last_axis",
     [] {
       return OneHot<float>(In(TensorType_INT32, {2, 3}), Depth(10), TensorType_FLOAT32, 1.5f,
                            -0.5f, -1, {2, 3, 10});
     },
     0},
    {"one_hot_int32_int64_indices_axis0",
     [] {
       return OneHot<int32_t>(In(TensorType_INT64, {4}), Depth(12), TensorType_INT32, 7, -3, 0,
                              {12, 4});
     },
     0},
    {"one_hot_bool_middle_axis",
     [] {
       return OneHot<uint8_t>(In(TensorType_INT32, {2, 3}), Depth(16), TensorType_BOOL, 1, 0, 1,
                              {2, 16, 3});
     },
     0},
    {"one_hot_int8_negative_indices",
     [] {
       return OneHot<int8_t>(Const<int32_t>(TensorType_INT32, {5}, {-1, 0, 3, 4, 2}), Depth(4),
                             TensorType_INT8, 100, -100, -1, {5, 4});
     },
     0},
    {"one_hot_uint8_depth_input",  // a non-constant depth: the output is sized
                                   // in Eval
     [] {
       return OneHot<uint8_t>(In(TensorType_INT32, {3}), In(TensorType_INT32, {}), TensorType_UINT8,
                              9, 1, -1, {3, 1});
     },
     0},
    {"one_hot_axis_out_of_range_refused",
     [] {
       return OneHot<float>(In(TensorType_INT32, {3}), Depth(4), TensorType_FLOAT32, 1.0f, 0.0f, 2,
                            {3, 4});
     },
     0},
    {"where_bool",
     [] {
       return Where(In(TensorType_BOOL, {3, 4}), 1);
     },
     0},
    {"where_int32_3d",
     [] {
       return Where(In(TensorType_INT32, {2, 3, 4}), 2);
     },
     0},
    {"where_float_1d", [] { return Where(In(TensorType_FLOAT32, {6}), 2); }, 0},
    {"where_int8_constant",  // sized at Prepare
     [] {
       return Where(Const<int8_t>(TensorType_INT8, {2, 3}, {0, -1, 0, 5, 0, 0}), 2);
     },
     0},
    {"where_bool_constant_all_false",
     [] {
       return Where(ConstBools({2, 2}, {0, 0, 0, 0}), 1);
     },
     0},
    {"where_int16_refused", [] { return Where(In(tflite::TensorType_INT16, {4}), 2); }, 0},
    {"rank_float_4d",
     [] {
       return Rank(In(TensorType_FLOAT32, {2, 1, 3, 2}));
     },
     0},
    {"rank_int8_scalar", [] { return Rank(In(TensorType_INT8, {})); }, 0},
    {"sign_float",
     [] {
       return Sign(In(TensorType_FLOAT32, {3, 5}), 1);
     },
     0},
    {"sign_float64", [] { return Sign(In(TensorType_FLOAT64, {7}), 1); }, 0},
    {"sign_float_zeros_constant",
     [] {
       return Sign(Const<float>(TensorType_FLOAT32, {4}, {0.0f, -0.0f, -2.5f, 1e-30f}), 1);
     },
     0},
    {"sign_int32",
     [] {
       return Sign(Const<int32_t>(TensorType_INT32, {5}, {-7, 0, 3, -2147483647 - 1, 2147483647}),
                   2);
     },
     0},
    {"dynamic_update_slice_float_3d",
     [] {
       return DynamicUpdateSlice(In(TensorType_FLOAT32, {2, 5, 4}),
                                 In(TensorType_FLOAT32, {1, 2, 3}),
                                 Const<int32_t>(TensorType_INT32, {3}, {1, 2, 1}));
     },
     0},
    {"dynamic_update_slice_float_clamped_starts",  // negative and past-the-end starts
     [] {
       return DynamicUpdateSlice(In(TensorType_FLOAT32, {2, 5, 4}),
                                 In(TensorType_FLOAT32, {2, 3, 2}),
                                 Const<int32_t>(TensorType_INT32, {3}, {-3, 9, 7}));
     },
     0},
    {"dynamic_update_slice_kv_cache_row",  // one position of a [1, 8, 2, 4] cache, starts fed
     [] {
       return DynamicUpdateSlice(In(TensorType_FLOAT32, {1, 8, 2, 4}),
                                 In(TensorType_FLOAT32, {1, 1, 2, 4}), In(TensorType_INT32, {4}));
     },
     0},
    {"dynamic_update_slice_int8_int64_starts",
     [] {
       return DynamicUpdateSlice(In(TensorType_INT8, {4, 6}), In(TensorType_INT8, {2, 6}),
                                 Const<int64_t>(TensorType_INT64, {2}, {1, 0}));
     },
     0},
    {"dynamic_update_slice_int16_columns",
     [] {
       return DynamicUpdateSlice(In(tflite::TensorType_INT16, {3, 7}),
                                 In(tflite::TensorType_INT16, {3, 2}),
                                 Const<int32_t>(TensorType_INT32, {2}, {0, 4}));
     },
     0},
    {"dynamic_update_slice_int64_whole",  // the update covers the operand
     [] {
       return DynamicUpdateSlice(In(TensorType_INT64, {3, 3}), In(TensorType_INT64, {3, 3}),
                                 Const<int32_t>(TensorType_INT32, {2}, {2, 2}));
     },
     0},
    {"dynamic_update_slice_bool",
     [] {
       return DynamicUpdateSlice(In(TensorType_BOOL, {2, 3, 4}), In(TensorType_BOOL, {1, 3, 2}),
                                 Const<int32_t>(TensorType_INT32, {3}, {1, 0, 1}));
     },
     0},
    {"dynamic_update_slice_update_larger_refused",
     [] {
       return DynamicUpdateSlice(In(TensorType_FLOAT32, {2, 3}), In(TensorType_FLOAT32, {2, 4}),
                                 Const<int32_t>(TensorType_INT32, {2}, {0, 0}));
     },
     0},
    {"dynamic_update_slice_starts_rank_mismatch_refused",
     [] {
       return DynamicUpdateSlice(In(TensorType_FLOAT32, {2, 3}), In(TensorType_FLOAT32, {1, 1}),
                                 Const<int32_t>(TensorType_INT32, {3}, {0, 0, 0}));
     },
     0},
    {"dynamic_update_slice_float_indices_refused",
     [] {
       return DynamicUpdateSlice(In(TensorType_FLOAT32, {2, 3}), In(TensorType_FLOAT32, {1, 1}),
                                 Const<float>(TensorType_FLOAT32, {2}, {0.0f, 1.0f}));
     },
     0},
    {"atan2_float",
     [] {
       return Binary(tflite::BuiltinOperator_ATAN2, In(TensorType_FLOAT32, {3, 4}),
                     In(TensorType_FLOAT32, {3, 4}), {3, 4});
     },
     1e-6},
    {"atan2_float64",
     [] {
       return Binary(tflite::BuiltinOperator_ATAN2, In(TensorType_FLOAT64, {5}),
                     In(TensorType_FLOAT64, {5}), {5});
     },
     1e-12},
    {"atan2_float_signed_zeros_constant",  // the quadrants of +-0 and the axes
     [] {
       return Binary(tflite::BuiltinOperator_ATAN2,
                     Const<float>(TensorType_FLOAT32, {6}, {0.0f, -0.0f, 0.0f, -0.0f, 1.0f, -1.0f}),
                     Const<float>(TensorType_FLOAT32, {6}, {0.0f, 0.0f, -0.0f, -0.0f, 0.0f, -0.0f}),
                     {6});
     },
     0},
    {"atan2_rank_mismatch_refused",
     [] {
       return Binary(tflite::BuiltinOperator_ATAN2, In(TensorType_FLOAT32, {2, 3}),
                     In(TensorType_FLOAT32, {6}), {2, 3});
     },
     0},
    {"bitwise_xor_int32_broadcast",
     [] {
       return Binary(tflite::BuiltinOperator_BITWISE_XOR, In(TensorType_INT32, {2, 3}),
                     In(TensorType_INT32, {3}), {2, 3}, Options(tflite::BitwiseXorOptionsT()));
     },
     0},
    {"bitwise_xor_uint8",
     [] {
       return Binary(tflite::BuiltinOperator_BITWISE_XOR, In(TensorType_UINT8, {4, 5}),
                     In(TensorType_UINT8, {4, 5}), {4, 5}, Options(tflite::BitwiseXorOptionsT()));
     },
     0},
    {"bitwise_xor_int16_scalar",
     [] {
       return Binary(tflite::BuiltinOperator_BITWISE_XOR, In(tflite::TensorType_INT16, {3, 4}),
                     In(tflite::TensorType_INT16, {}), {3, 4},
                     Options(tflite::BitwiseXorOptionsT()));
     },
     0},
    {"bitwise_xor_float_refused",
     [] {
       return Binary(tflite::BuiltinOperator_BITWISE_XOR, In(TensorType_FLOAT32, {3}),
                     In(TensorType_FLOAT32, {3}), {3}, Options(tflite::BitwiseXorOptionsT()));
     },
     0},
    {"right_shift_int8_any_shift",  // shifts over int8's range: clamped to [0, 7]
     [] {
       return Binary(tflite::BuiltinOperator_RIGHT_SHIFT, In(TensorType_INT8, {2, 8}),
                     In(TensorType_INT8, {2, 8}), {2, 8}, Options(tflite::RightShiftOptionsT()));
     },
     0},
    {"right_shift_int32_constant_shifts",
     [] {
       return Binary(tflite::BuiltinOperator_RIGHT_SHIFT,
                     Const<int32_t>(TensorType_INT32, {2, 4},
                                    {-1000, 1000, -2147483647 - 1, 2147483647, 7, -7, 64, -64}),
                     Const<int32_t>(TensorType_INT32, {4}, {0, 3, 31, 40}), {2, 4},
                     Options(tflite::RightShiftOptionsT()));
     },
     0},
    {"right_shift_uint16",
     [] {
       return Binary(tflite::BuiltinOperator_RIGHT_SHIFT, In(tflite::TensorType_UINT16, {6}),
                     In(tflite::TensorType_UINT16, {6}), {6},
                     Options(tflite::RightShiftOptionsT()));
     },
     0},
    {"right_shift_float_refused",
     [] {
       return Binary(tflite::BuiltinOperator_RIGHT_SHIFT, In(TensorType_FLOAT32, {3}),
                     In(TensorType_FLOAT32, {3}), {3}, Options(tflite::RightShiftOptionsT()));
     },
     0},
    {"right_shift_uint32_scalar_shift",
     [] {
       return Binary(tflite::BuiltinOperator_RIGHT_SHIFT, In(tflite::TensorType_UINT32, {2, 3}),
                     Const<uint32_t>(tflite::TensorType_UINT32, {}, {5u}), {2, 3},
                     Options(tflite::RightShiftOptionsT()));
     },
     0},
    {"reduce_any_axis1",
     [] {
       return ReduceBool(tflite::BuiltinOperator_REDUCE_ANY, {3, 4, 2}, {1}, false, {3, 2});
     },
     0},
    {"reduce_any_all_axes_keep_dims",
     [] {
       return ReduceBool(tflite::BuiltinOperator_REDUCE_ANY, {2, 3}, {-1, 0}, true, {1, 1});
     },
     0},
    {"reduce_all_axis_last",
     [] {
       return ReduceBool(tflite::BuiltinOperator_REDUCE_ALL, {4, 2}, {1}, false, {4});
     },
     0},
    {"reduce_all_two_axes_keep_dims",
     [] {
       return ReduceBool(tflite::BuiltinOperator_REDUCE_ALL, {2, 2, 3}, {0, 2}, true, {1, 2, 1});
     },
     0},
    {"reduce_any_float_refused",
     [] {
       return ReduceBool(tflite::BuiltinOperator_REDUCE_ANY, {2, 3}, {0}, false, {3},
                         TensorType_FLOAT32);
     },
     0},
    {"l2_pool_valid_stride2",
     [] {
       return L2Pool({2, 6, 6, 3}, 2, 2, false, tflite::ActivationFunctionType_NONE, {2, 3, 3, 3});
     },
     0},
    {"l2_pool_same_relu6",
     [] {
       return L2Pool({1, 5, 7, 4}, 3, 2, true, tflite::ActivationFunctionType_RELU6, {1, 3, 4, 4});
     },
     0},
    {"l2_pool_same_stride1",
     [] {
       return L2Pool({1, 4, 4, 2}, 3, 1, true, tflite::ActivationFunctionType_RELU, {1, 4, 4, 2});
     },
     0},
    {"lrn_radius2",
     [] {
       return Lrn({1, 2, 3, 7}, 2, 1.0f, 0.5f, 0.75f);
     },
     0},
    {"lrn_radius5_wide",
     [] {
       return Lrn({2, 1, 2, 13}, 5, 2.0f, 1e-4f, 0.75f);
     },
     0},
    {"lrn_radius0_beta_negative",
     [] {
       return Lrn({1, 1, 1, 5}, 0, 0.5f, 0.3f, -0.5f);
     },
     0},
    {"lrn_rank3_refused",
     [] {
       tflite::LocalResponseNormalizationOptionsT o;
       return OneOp(tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION,
                    {In(TensorType_FLOAT32, {2, 3, 4})}, {Out(TensorType_FLOAT32, {2, 3, 4})},
                    Options(o));
     },
     0},
    {"embedding_lookup_float",
     [] {
       return EmbeddingLookup(TensorType_FLOAT32, TensorType_FLOAT32, 4, {2, 0, 3, 2}, nullptr);
     },
     0},
    {"embedding_lookup_int8_hybrid",
     [] {
       return EmbeddingLookup(TensorType_INT8, TensorType_FLOAT32, 5, {4, 1, 1}, &kTableScale);
     },
     0},
    {"embedding_lookup_uint8_hybrid",  // bytes over 127 are read as int8, as
                                       // TFLite does
     [] {
       return EmbeddingLookup(TensorType_UINT8, TensorType_FLOAT32, 3, {0, 2}, &kTableScale);
     },
     0},
    {"embedding_lookup_int8_per_row_scales",
     [] {
       return EmbeddingLookup(TensorType_INT8, TensorType_FLOAT32, 4, {3, 0, 2}, &kRowScales);
     },
     0},
    {"embedding_lookup_int8_copy",
     [] {
       return EmbeddingLookup(TensorType_INT8, TensorType_INT8, 3, {1, 2, 0, 1}, &kTableScaleZp);
     },
     0},
    {"embedding_lookup_hybrid_zero_point_refused",
     [] { return EmbeddingLookup(TensorType_INT8, TensorType_FLOAT32, 3, {1}, &kTableScaleZp); },
     0},
};

TEST_CASE("ops match TFLite's reference kernels on the testdata/kernels goldens") {
  golden_test::CheckCases(kCases, 1);
}

TEST_CASE("ops match the testdata/kernels goldens on two threads") {
  golden_test::CheckCases(kCases, 2);
}

// Refusals TFLite makes only in Eval (or not at all) and the checks on
// data-dependent sizes, which the goldens (refused at AllocateTensors or run)
// cannot show.
TEST_CASE("ONE_HOT refuses int16 values at Prepare and a negative depth") {
  auto r =
      shape2_test::Run(tflite::BuiltinOperator_ONE_HOT,
                       {Const<int32_t>(TensorType_INT32, {2}, {0, 1}), Depth(3),
                        Const<int16_t>(tflite::TensorType_INT16, {}, {1}),
                        Const<int16_t>(tflite::TensorType_INT16, {}, {0})},
                       {Out(tflite::TensorType_INT16, {2, 3})}, Options(tflite::OneHotOptionsT()));
  CHECK(r.prepare != kTfLiteOk);
  CHECK_THAT(r.errors, Catch::Contains("Type INT16"));
  r = shape2_test::Run(
      tflite::BuiltinOperator_ONE_HOT,
      {Const<int32_t>(TensorType_INT32, {2}, {0, 1}),
       shape2_test::Input<int32_t>(TensorType_INT32, {}, {-2}),
       Const<float>(TensorType_FLOAT32, {}, {1}), Const<float>(TensorType_FLOAT32, {}, {0})},
      {Out(TensorType_FLOAT32, {2, 1})}, Options(tflite::OneHotOptionsT()));
  CHECK(r.prepare == kTfLiteOk);
  CHECK(r.invoke != kTfLiteOk);
  CHECK_THAT(r.errors, Catch::Contains("depth must be >= 0, got -2"));
}

TEST_CASE("WHERE on a scalar condition fails Eval with TFLite's message") {
  auto r = shape2_test::Run(tflite::BuiltinOperator_WHERE,
                            {shape2_test::Input<float>(TensorType_FLOAT32, {}, {1.0f})},
                            {Out(TensorType_INT64, {1, 0})}, Options(tflite::WhereOptionsT()), 2);
  CHECK(r.prepare == kTfLiteOk);
  CHECK(r.invoke != kTfLiteOk);
  CHECK_THAT(r.errors, Catch::Contains("Where op requires condition w/ rank > 0"));
}

// A crafted bool constant can hold bytes other than 0 and 1 (found by an UBSan fuzz run):
// read as bytes, any non-zero one is true, with no invalid-bool load.
TEST_CASE("WHERE reads a bool condition as bytes: 2 counts as true") {
  auto r = shape2_test::Run(
      tflite::BuiltinOperator_WHERE,
      {T{TensorType_BOOL, {4}, std::vector<uint8_t>{0, 2, 1, 0}, /*is_const=*/true}},
      {Out(TensorType_INT64, {2, 1})}, Options(tflite::WhereOptionsT()), 1);
  REQUIRE(r.ok());
  CHECK(r.As<int64_t>() == std::vector<int64_t>{1, 2});
}

TEST_CASE("SIGN and ADD_N refuse the types TFLite's Eval refuses, at Prepare") {
  auto r = shape2_test::Run(tflite::BuiltinOperator_SIGN,
                            {shape2_test::Input<int8_t>(TensorType_INT8, {2}, {-1, 1})},
                            {Out(TensorType_INT8, {2})}, Options(tflite::SignOptionsT()), 2);
  CHECK(r.prepare != kTfLiteOk);
  CHECK_THAT(r.errors, Catch::Contains("Unsupported datatype for sign output: INT8"));
  r = shape2_test::Run(tflite::BuiltinOperator_ADD_N,
                       {shape2_test::Input<int64_t>(TensorType_INT64, {1}, {1}),
                        shape2_test::Input<int64_t>(TensorType_INT64, {1}, {2})},
                       {Out(TensorType_INT64, {1})}, Options(tflite::AddNOptionsT()));
  CHECK(r.prepare != kTfLiteOk);
  CHECK_THAT(r.errors, Catch::Contains("AddN only supports FLOAT32|INT32 now, got INT64."));
}

TEST_CASE(
    "L2_POOL_2D refuses 8-bit input at Prepare, with the message of "
    "TFLite's Eval") {
  tflite::Pool2DOptionsT o;
  o.stride_h = o.stride_w = o.filter_height = o.filter_width = 2;
  auto r =
      shape2_test::Run(tflite::BuiltinOperator_L2_POOL_2D,
                       {shape2_test::Input<uint8_t>(TensorType_UINT8, {1, 2, 2, 1}, {1, 2, 3, 4})},
                       {Out(TensorType_UINT8, {1, 1, 1, 1})}, Options(o));
  CHECK(r.prepare != kTfLiteOk);
  CHECK_THAT(r.errors, Catch::Contains("Type 3 not currently supported."));
}

TEST_CASE("EMBEDDING_LOOKUP fails Eval on an index out of range, with TFLite's message") {
  for (int32_t bad : {3, -1}) {
    CAPTURE(bad);
    auto r = shape2_test::Run(tflite::BuiltinOperator_EMBEDDING_LOOKUP,
                              {shape2_test::Input<int32_t>(TensorType_INT32, {2}, {0, bad}),
                               Const<float>(TensorType_FLOAT32, {3, 2}, {1, 2, 3, 4, 5, 6})},
                              {Out(TensorType_FLOAT32, {2, 2})});
    CHECK(r.prepare == kTfLiteOk);
    CHECK(r.invoke != kTfLiteOk);
    CHECK_THAT(r.errors, Catch::Contains("Embedding Lookup: index out of bounds. Got " +
                                         std::to_string(bad) + ", and bounds are [0, 2]"));
  }
  auto ok = shape2_test::Run(tflite::BuiltinOperator_EMBEDDING_LOOKUP,
                             {shape2_test::Input<int32_t>(TensorType_INT32, {2}, {2, 0}),
                              Const<float>(TensorType_FLOAT32, {3, 2}, {1, 2, 3, 4, 5, 6})},
                             {Out(TensorType_FLOAT32, {2, 2})});
  REQUIRE(ok.ok());
  CHECK(ok.As<float>() == std::vector<float>{5, 6, 1, 2});
}

// Writes each case's model.tflite (run by scripts/gen_kernel_goldens.py).
TEST_CASE("write op golden models", "[.write_kernel_models]") { golden_test::WriteModels(kCases); }

}  // namespace
}  // namespace tflite_inspect
