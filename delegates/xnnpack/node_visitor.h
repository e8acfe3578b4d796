// One function per op both answers "can XNNPACK run this node (and if not, why)" and
// defines the node in an XNNPACK subgraph: called with subgraph == nullptr it only
// checks, so the check cannot drift from what is built (STYLE.md, habit 6).
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_NODE_VISITOR_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_NODE_VISITOR_H_

#include <xnnpack.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "kernels/internal/depthwise_float.h"
#include "kernels/internal/elementwise.h"
#include "kernels/internal/max_pool_f32.h"
#include "kernels/internal/mean_quantized.h"
#include "xnnpack/binary_f32.h"
#include "xnnpack/conv_f32.h"
#include "kernels/internal/depthwise_dot.h"
#include "xnnpack/conv_qs8.h"
#include "xnnpack/binary_qs8.h"
#include "xnnpack/depthwise_f32.h"
#include "xnnpack/transformer_f32.h"
#include "xnnpack/transpose_conv_f32.h"
#include "xnnpack/transpose_conv_qs8.h"

namespace tflite_inspect {
namespace xnnpack {

struct VisitContext {
  TfLiteContext* context = nullptr;
  xnn_subgraph_t subgraph = nullptr;  // null: check only
  // TFLite tensor index -> XNNPACK value id (defined before the nodes are visited).
  const std::vector<uint32_t>* ids = nullptr;
  // Static float data of tensors the delegate computed itself (fp16 weights dequantized
  // at prepare), by tensor index; null entries mean "use the tensor's own data".
  const std::vector<const float*>* static_data = nullptr;
  std::string reason;  // why the node is not supported, or why defining it failed
  bool float_only = false;  // refuse quantized nodes (XNNPACK applied by default)
  // The graph has dynamic-range (hybrid) nodes, whose input quantization on the CPU turns
  // a last-bit difference into a whole step: float nodes are taken only where the
  // delegate computes TFLite's builtin kernels' bits (BuiltinBitsNode).
  bool builtin_bits = false;
  // A RELU-family node folded into the float step being planned (XnnpackKernel's
  // FindFoldedClamps): ActivationRange narrows the step's own clamp to [clamp_min, clamp_max].
  float clamp_min = -std::numeric_limits<float>::infinity();
  float clamp_max = std::numeric_limits<float>::infinity();
  // Float tensors that a convolution writes and an ADD alone reads (XnnpackKernel): a 1x1
  // convolution writing one is worth the own step, which can fold the ADD.
  const std::set<int>* residual_inputs = nullptr;
  // Dynamic tensors are no reason to refuse: the partition is planned at Invoke with that
  // run's shapes (set when deciding on a graph whose run-time shapes the runtime marked,
  // and when planning such a partition).
  bool dynamic_ok = false;

  bool Refuse(std::string why) {
    reason = std::move(why);
    return false;
  }
  uint32_t id(int tensor) const { return (*ids)[tensor]; }
};

// In a graph with builtin_bits: whether the delegate takes a float node it supports. It
// does where the result is TFLite's builtin kernels' bit for bit (XNNPACK's exact
// operations: arithmetic of one rounding, clamps, max pooling, copies; the delegate's own
// steps summing in TFLite's order) and where the CPU kernel is not bit-exact either
// (LOGISTIC, TANH, GELU, ...); not where only the CPU kernel is (DEPTHWISE_CONV_2D,
// AVERAGE_POOL_2D): then false, with the reason in v.reason.
bool BuiltinBitsNode(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);

// Whether the node is supported (check mode) or was defined (define mode).
bool VisitNode(VisitContext& v, int node_index, const TfLiteNode& node,
               const TfLiteRegistration& reg);

// --- Helpers shared by the op files ---
const TfLiteTensor& Tensor(const VisitContext& v, int index);
// A tensor whose data is fixed before inference: a model constant, a folded constant,
// or one the delegate dequantizes itself (fp16 weights).
bool IsStatic(const VisitContext& v, int index);
const void* StaticData(const VisitContext& v, int index);
// A constant of the model file itself (kTfLiteMmapRo), not one the runtime computed at
// prepare: what TFLite's delegate requires of shape, axes and slice arguments.
bool IsModelConstant(const VisitContext& v, int index);
// Reads a small constant int32 / int64 vector of the model (begin, size, perm, axis,
// strides, paddings); false, with the reason in v, for anything else.
bool ConstInts(VisitContext& v, int index, const char* what, std::vector<int64_t>* out);
// The operands *a and *b of a binary op writing `out`: both of out's shape (*period 0), or
// one of them a vector along out's last dimension (every other dimension 1: *period its
// length), made *b by swapping them where the op commutes. False for other broadcasts.
bool SameShapeOrChannelVector(const VisitContext& v, int out, bool commutes, int* a, int* b,
                              size_t* period);
// FLOAT32 with a known, non-dynamic shape (or a static fp16 weight folded to FLOAT32).
bool CheckFloat(VisitContext& v, int index, const char* what);
bool CheckRank(VisitContext& v, int index, int min_rank, int max_rank, const char* what);
// INT8 or UINT8 with affine quantization, a known shape; per-tensor unless
// `channel_dim` >= 0, where per-channel scales along that dimension are allowed (INT8
// only, zero points 0).
bool CheckQuantized(VisitContext& v, int index, const char* what, int channel_dim = -1);
bool IsQuantized8(const TfLiteTensor& t);
// Float32 input and output, or (ops that only move or pick values: PAD, RESHAPE,
// MAX_POOL_2D) quantized ones of one type with the same scale and zero point.
bool CheckFloatOrSameQuantized(VisitContext& v, int input, int output);
// Per-tensor scale / zero point (the first entry for per-channel tensors).
float ScaleOf(const TfLiteTensor& t);
int ZeroPointOf(const TfLiteTensor& t);
bool IsPerChannel(const TfLiteTensor& t);
// The [min, max] an activation clamps to; false (with a reason) for unsupported ones.
bool ActivationRange(VisitContext& v, TfLiteFusedActivation act, float* min, float* max);
// The fused activation of an ADD, SUB, MUL or DIV node (none for other ops).
TfLiteFusedActivation BinaryActivation(const TfLiteNode& node, int builtin_code);
bool Defined(VisitContext& v, xnn_status status, const char* what);

// Quantized (qs8 / qu8) CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, MUL
// (ops_quantized.cc); PAD, RESHAPE, SQUEEZE and MAX_POOL_2D take quantized tensors in
// their own visitors.
bool VisitQuantizedConv(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitQuantizedFullyConnected(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
// An int8 TRANSPOSE_CONV the delegate's own step takes (TransposeConvQs8: stride = filter
// size, no padding); checks only (this XNNPACK has no per-channel int8 deconvolution).
bool VisitQuantizedTransposeConv(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
// ADD and SUB (the same scale limits; SUB as XNNPACK's subtract).
bool VisitQuantizedAdd(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitQuantizedMul(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);

// Op families (ops_*.cc).
bool VisitConv2D(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitDepthwiseConv2D(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitTransposeConv(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitFullyConnected(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
// MediaPipe's Convolution2DTransposeBias custom op, which TFLite's XNNPACK delegate takes
// too (as a deconvolution).
bool VisitMediaPipeTransposeConvBias(VisitContext& v, const TfLiteNode& node);
bool VisitBinary(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitUnary(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitPooling(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitMean(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitShape(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitDequantize(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitQuantize(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
// DENSIFY, or DEQUANTIZE of FLOAT16 weights: nodes whose outputs the delegate takes as
// static weights (folded at prepare), not work of a partition.
bool IsWeightNode(const VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitDensify(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);

// --- Ops this XNNPACK lacks, run by the delegate itself as strided copies (ops_glue.cc) ---
// One copy from tensor `src` to tensor `dst`; offsets and strides in elements.
struct StridedCopy {
  int src = -1, dst = -1;
  size_t element_size = 4;  // float32, or 1 for INT8 / UINT8 with unchanged quantization
  int rank = 0;
  size_t shape[XNN_MAX_TENSOR_DIMS] = {0};
  ptrdiff_t src_offset = 0, dst_offset = 0;
  ptrdiff_t src_stride[XNN_MAX_TENSOR_DIMS] = {0}, dst_stride[XNN_MAX_TENSOR_DIMS] = {0};
};
// CONCATENATION, SLICE, STRIDED_SLICE, SPLIT, TRANSPOSE.
bool IsGlueOp(int builtin_code);
// Checks the node; with `copies`, also appends the copies that compute it.
bool VisitGlue(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
               std::vector<StridedCopy>* copies);
// A float RESHAPE or SQUEEZE XNNPACK would take (VisitShape), as one contiguous copy.
bool FloatReshapeCopy(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                      StridedCopy* copy);
// A DEPTH_TO_SPACE XNNPACK would take (VisitShape; float, or 8-bit quantized as its input),
// as one strided copy: this
// XNNPACK's took 1.7 ns an element on ESPCN's 3 x 3 blocks of one channel.
bool DepthToSpaceCopy(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                      StridedCopy* copy);
// A SPACE_TO_DEPTH TFLite 2.21's XNNPACK takes (float, or 8-bit quantized as its input;
// this XNNPACK has no such operator), as one strided copy; false, with the reason where it
// is one, otherwise.
bool SpaceToDepthCopy(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                      StridedCopy* copy);
// A TRANSPOSE node VisitGlue takes: its permutation; false for any other node.
bool TransposePermutation(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                          std::vector<int>* perm);
// Split over `pool` in whole rows when large.
void RunCopy(const StridedCopy& copy, const void* src, void* dst, pthreadpool_t pool);

// --- Float DEPTHWISE_CONV_2D run by the delegate's own kernel (depthwise_f32.h) ---
struct DepthwiseStep {
  int input = -1, filter = -1, bias = -1, output = -1;
  DepthwiseF32Params params;
  // In graphs with builtin_bits: the builtin kernel's code in TFLite's order of sums
  // (kernels/internal/depthwise_float.h, any stride, dilation, depth multiplier), with
  // params' activation range.
  bool builtin = false;
  tflite::dwconv::Geometry geometry{};
  // int8 (QS8, depth multiplier 1) on int16 pair dot products (kernels/internal/
  // depthwise_dot.h) with XNNPACK's fp32 requantization: TFLite's XNNPACK bytes.
  std::shared_ptr<const tflite::dwconv::DotDepthwise> qs8;
  // A float CONV_2D with one input and one output channel per group (Keras'
  // Conv2D(groups=C)): its filter [C][kh][kw][1] as the depthwise [kh][kw][C], read instead
  // of the filter tensor.
  std::shared_ptr<const std::vector<float>> filter_by_tap;
};
// Whether this XNNPACK runs a float depthwise filter of `taps` taps (kh x kw) on a depthwise
// micro-kernel; it runs any other as a grouped convolution, one output channel per group.
bool XnnpackHasDepthwiseF32Kernel(int taps);
// Whether this CPU gets the own int8 depthwise (DotDepthwise::Available()); the
// environment variable TFI_XNNPACK_OWN_GEMM=0 or =1 decides instead, as for the others.
bool OwnDepthwiseQs8Wanted();
// Output columns below which XNNPACK's own depthwise kernel is as fast (measured:
// docs/performance.md), so the node stays in the XNNPACK runtime.
constexpr int kOwnDepthwiseMinWidth = 12;
// A PAD of the height and width folded into a depthwise or convolution step (XnnpackKernel::
// FindFoldedPads): the step reads the PAD's input `input` with `top` rows and `left`
// columns more padding (the bottom and right follow from the output size); the padding's
// value is what the step pads with (float 0, the int8 input's zero point).
struct FoldedPadding {
  int input = -1;
  int top = 0, left = 0;
};
// Whether the delegate runs this (XNNPACK-supported) node with its own kernel; fills
// `step` when it does. With `pad`, the step as it reads through a folded PAD.
bool PlanOwnDepthwise(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                      DepthwiseStep* step, const FoldedPadding* pad = nullptr);
// Whether a CONV_2D is a depthwise convolution written with groups (float or int8, as many
// groups as input channels, one output channel each), which PlanOwnDepthwise plans as one.
bool IsDepthwiseGroupsConv(const VisitContext& v, const TfLiteNode& node,
                           const TfLiteRegistration& reg);

// --- Float CONV_2D on the builtin kernels' GEMM where this XNNPACK's is slow (conv_f32.h) ---
// --- and int8 CONV_2D on the dot-product GEMM where this XNNPACK has no VNNI (conv_qs8.h) ---
// A float residual ADD folded into the convolution or fully connected step before it
// (XnnpackKernel::FindFoldedResiduals): the step adds tensor `tensor` ([rows][channels],
// zeros beyond `channels`) to its output rows, clamps them to [min, max] and, where
// `prelu` is a tensor (one slope per output channel), applies that PRELU.
struct StepResidual {
  int tensor = -1;  // -1: none
  int channels = 0;
  float min = -3.40282347e+38f;
  float max = 3.40282347e+38f;
  int prelu = -1;
};
struct ConvStep {
  int input = -1, output = -1;
  std::shared_ptr<const ConvF32> op;   // float, or
  std::shared_ptr<const ConvQs8> qs8;  // int8
  StepResidual residual;               // float only
  bool swish = false;                  // float only: writes output * sigmoid(output)
};
// Whether the delegate runs this (XNNPACK-supported) node with its own convolution: a float
// CONV_2D of one group on a CPU where OwnConvF32Wanted(), an int8 one where
// OwnConvQs8Wanted(); fills `step` when it does. With `pad` (CONV_2D only), the step as
// it reads through a folded PAD.
bool PlanOwnConv(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                 ConvStep* step, const FoldedPadding* pad = nullptr);
struct FullyConnectedStep {
  int input = -1, output = -1;
  std::shared_ptr<const FullyConnectedF32> op;
  StepResidual residual;
};
// The same for a float FULLY_CONNECTED with constant weights (and bias).
bool PlanOwnFullyConnected(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                           FullyConnectedStep* step);

// --- Non-overlapping transposed convolutions run as GEMMs (transpose_conv_f32.h) ---
struct TransposeConvStep {
  int input = -1, output = -1;
  std::shared_ptr<const TransposeConvF32> op;     // float, or
  std::shared_ptr<const TransposeConvQs8> qs8;    // int8
};
// MediaPipe's Convolution2DTransposeBias or TRANSPOSE_CONV with stride = filter size, no
// padding and at most this many values per input pixel and filter row (filter width x
// output channels): where XNNPACK's 16-wide deconvolution tiles are mostly padding.
constexpr int kOwnTransposeConvMaxColumns = 4;
bool PlanOwnTransposeConv(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                          TransposeConvStep* step);

// --- Same-shape ADD / SUB / MUL split over the threads (binary_f32.h) ---
struct BinaryStep {
  BinaryOp op = BinaryOp::kAdd;
  int a = -1, b = -1, output = -1;
  size_t elements = 0;
  float min = 0, max = 0;
  size_t period = 0;  // b a vector of `period` values repeated along a (0: same shape)
  size_t inner = 1;   // each of b's values over this many consecutive elements of a
};
// Fewer elements than this stay with XNNPACK (one thread is as fast there).
constexpr size_t kOwnBinaryMinElements = 16384;
// Same-shape operands only with `threads` > 1 (on one thread XNNPACK's own loop is the
// same); a tensor by a vector along its last dimension (ADD and MUL either way round, SUB
// with the vector second) on any number. `whole_runtime`: the node is one of an XNNPACK
// runtime of such ops only, which the steps replace whatever the size and threads. And
// ADD / SUB / MUL / SQUARED_DIFFERENCE of a tensor by values each repeated over a block of
// it (a group norm's [.., groups, 1] statistics against [.., groups, channels]), where this
// XNNPACK's broadcast took 2.5 ns an element.
bool PlanOwnBinary(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                   int threads, BinaryStep* step, bool whole_runtime = false);
// Whether PlanOwnBinary takes the node as a block broadcast (inner > 1).
bool IsBlockBroadcastBinary(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                            int threads);

// --- int8 MUL, ADD, SUB, same shape or by a last-dimension vector, on AVX-512 or AVX2 (binary_qs8.h) ---
struct BinaryQs8Step {
  int a = -1, b = -1, output = -1;  // b: the operand that may be the vector
  size_t elements = 0, period = 0;  // period: b's length when it repeats, else 0
  BinaryQs8Params params;
};
// Whether the delegate runs this (XNNPACK-supported) int8 MUL, ADD or SUB itself (SUB only
// with the vector second); fills `step` then.
bool PlanOwnBinaryQs8(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                      BinaryQs8Step* step);

// --- 8-bit LOGISTIC, TANH, GELU, ELU, HARD_SWISH: this XNNPACK has no quantized version;
// the delegate runs them as 256-entry tables built by the builtin kernels' own code
// (kernels/internal/byte_table.h), so they give the builtin kernels' bytes ---
struct ByteTableStep {
  int input = -1, output = -1;
  size_t elements = 0;
  tflite::elementwise::ByteLut lut;
};
// Whether the node is such an op with 8-bit tensors the table serves; fills `step` when
// given. Refuses (with the reason) an 8-bit node of those ops that the table cannot serve.
bool PlanByteTable(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                   ByteTableStep* step);
// Whether PlanByteTable decides the node (an op with a table, 8-bit input).
bool IsByteTableNode(const VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);

// --- Float MAX_POOL_2D on the separable max (kernels/internal/max_pool_f32.h): this
// XNNPACK's pooling kernel is SSE, a window's values one by one ---
struct MaxPoolStep {
  int input = -1, output = -1;
  tflite::max_pool_f32::Geometry geometry;
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
};
// Whether the delegate runs the node, a float MAX_POOL_2D that VisitPooling takes (larger
// than 1x1), with its own step: on a CPU with AVX2 (OwnStepWanted's way); fills `step`.
bool PlanOwnMaxPool(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                    MaxPoolStep* step);

// --- Float TANH, RSQRT, GELU, MEAN and BATCH_MATMUL, which this XNNPACK lacks and
// TFLite's takes: the delegate's own steps on the builtin kernels' code (transformer_f32.h,
// ops_transformer.cc) ---
struct UnaryF32Step {
  UnaryF32 op = UnaryF32::kTanh;
  int input = -1, output = -1;
  size_t elements = 0;
  int depth = 1;      // kSoftmax: the row length (last dimension)
  float beta = 1.0f;  // kSoftmax
};
struct MeanF32Step {
  int input = -1, output = -1;
  std::shared_ptr<const MeanF32> op;
};
// Float SUM, REDUCE_MAX, REDUCE_MIN: the builtin kernels' arithmetic and order
// (kernels/internal/reduce.h), so their bits in every graph.
enum class ReduceF32 { kSum, kMax, kMin };
struct ReduceF32Step {
  int input = -1, output = -1;
  ReduceF32 op = ReduceF32::kSum;
  std::vector<int> dims;      // the input's shape
  std::vector<bool> reduced;  // per input dimension
  int64_t out_count = 0;
};
struct LayerNormStep {
  int input = -1, output = -1;
  std::shared_ptr<const LayerNormF32> op;
};
// An 8-bit MEAN this XNNPACK's global average pooling does not take (rank 3, other axes
// than height and width, a scale ratio beyond its range) and TFLite's newer XNNPACK does:
// the reference kernels' arithmetic (kernels/internal/mean_quantized.h), so the bytes are
// the builtin kernel's.
struct MeanQs8Step {
  int input = -1, output = -1;
  std::vector<int> dims;
  std::vector<char> reduced;  // per dimension of dims
  tflite::mean_quantized::Params params;
  bool uint8 = false;
  std::shared_ptr<std::vector<int64_t>> sums;  // scratch: one Invoke at a time
};
// The axes of a reduction (an int32 1-D constant of the model, not empty, each in [-rank,
// rank)) as a flag per input dimension; false, with the reason, otherwise.
bool ReducedAxes(VisitContext& v, int axes, int rank, std::vector<bool>* reduced);
// Whether the node is an 8-bit MEAN for MeanQs8Step (one XNNPACK's global average pooling
// does not take).
bool IsOwnQuantizedMean(const VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool PlanMeanQs8(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg, MeanQs8Step* step);
struct BatchMatMulStep {
  int lhs = -1, rhs = -1, output = -1;
  std::shared_ptr<BatchMatMulF32> op;  // holds scratch: one Invoke at a time
};
// Whether the node is one of those with a float input (MEAN: one XNNPACK's global average
// pooling does not take), which the delegate runs with one of the steps below.
bool IsOwnFloatNode(const VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);
bool PlanUnaryF32(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                  UnaryF32Step* step);
bool PlanMeanF32(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                 MeanF32Step* step);
bool PlanReduceF32(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                   ReduceF32Step* step);
// A float LOGISTIC of at most kSmallLogisticElements values, which PlanUnaryF32 plans: in a
// runtime with only such nodes and the binary steps' arithmetic (an LSTM cell's gates),
// the builtin code's step costs less than invoking XNNPACK for it.
constexpr size_t kSmallLogisticElements = 4096;
bool SmallFloatLogistic(const VisitContext& v, const TfLiteNode& node,
                        const TfLiteRegistration& reg);
bool PlanBatchMatMulF32(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                        BatchMatMulStep* step);

// x times f(x), f one of those tables (swish as converted: MUL(x, LOGISTIC(x))), with the
// same shapes: the product depends on x alone, so it is one table of x, each entry the
// table's byte multiplied as `mul` multiplies (BinaryQs8One): the bytes of the two steps, one
// pass instead of a MUL's two reads. `tables`: the table steps planned so far in the
// partition, by output tensor. False when `mul` is not such a product.
bool ComposeMulOfTable(const BinaryQs8Step& mul, const std::map<int, ByteTableStep>& tables,
                       ByteTableStep* fused);

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_NODE_VISITOR_H_
