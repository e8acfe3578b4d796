// One XNNPACK partition. Its nodes, in plan order, are cut into segments: each maximal
// run of nodes XNNPACK runs becomes one XNNPACK runtime, and each run of nodes this
// kernel computes itself is a list of steps between them, so such nodes do not split the
// partition: ops this XNNPACK lacks (CONCATENATION, SLICE, ...; ops_glue.cc) as strided
// copies, float depthwise convolutions with the delegate's own kernel, which is faster
// than this XNNPACK's (depthwise_f32.h), and, on CPUs without AVX-512, float convolutions
// and fully connected layers on the builtin kernels' GEMM (conv_f32.h). Tensors internal to the
// partition get no arena memory from the interpreter: those that cross segments (and,
// when there are own steps, most others) live in one arena of the kernel's, planned by
// lifetime; the rest stay inside their XNNPACK runtime.
// Static weights are packed once, in Init. Not thread-safe (one Invoke at a time).
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_KERNEL_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_KERNEL_H_

#include <xnnpack.h>

#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "runtime/arena_planner.h"
#include "tensorflow/lite/delegates/utils/simple_delegate.h"
#include "xnnpack/node_visitor.h"

namespace tflite_inspect {
namespace xnnpack {

class XnnpackKernel : public tflite::SimpleDelegateKernelInterface {
 public:
  // fp16_sources: float tensor -> the FLOAT16 constant a DEQUANTIZE makes it from.
  // builtin_bits: VisitContext::builtin_bits (a graph with dynamic-range nodes).
  // runtime_flags: ORed into every xnn_create_runtime_v2 call's flags.
  XnnpackKernel(bool force_fp16, bool builtin_bits, std::map<int, int> fp16_sources,
                uint32_t runtime_flags = 0)
      : force_fp16_(force_fp16), builtin_bits_(builtin_bits), fp16_sources_(std::move(fp16_sources)),
        runtime_flags_(runtime_flags) {}
  ~XnnpackKernel() override;

  TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) override;
  TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) override;
  TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) override;

 private:
  struct Segment {
    std::vector<int> nodes;
    bool xnnpack = true;              // else: steps run by the kernel
    xnn_runtime_t runtime = nullptr;  // xnnpack
    std::vector<int> externals;       // xnnpack: tensors bound at setup
    std::vector<uint32_t> external_ids;
    std::vector<void*> setup_pointers;
    std::vector<void*> pointers;  // this run's (reused: no allocation per run)
    // !xnnpack: the steps, in order.
    using Step =
        std::variant<StridedCopy, DepthwiseStep, ConvStep, FullyConnectedStep, TransposeConvStep,
                     BinaryStep, ByteTableStep, BinaryQs8Step, UnaryF32Step, MeanF32Step,
                     BatchMatMulStep, LayerNormStep, MeanQs8Step, MaxPoolStep, ReduceF32Step>;
    std::vector<Step> steps;
    // !xnnpack: each step's node and its op's name (the tag of its profiling event).
    std::vector<int> step_nodes;
    std::vector<std::string> step_tags;
    // xnnpack under force_fp16: why this runtime runs in fp32 ("" where in fp16).
    std::string fp32_reason;
  };
  struct Folded {
    int tensor;
    const float* data;
    size_t bytes;
  };

  void DequantizeWeights(const TfLiteTensor& half, int t);
  TfLiteStatus DequantizeFp16Weights(TfLiteContext* context, const std::vector<int>& nodes,
                                     const std::set<int>& outputs);
  TfLiteStatus CutSegments(TfLiteContext* context, const std::vector<int>& nodes);
  static TfLiteStatus Dataflow(TfLiteContext* context, const std::vector<int>& nodes,
                               std::map<int, int>* producer,
                               std::map<int, std::vector<int>>* readers);
  // The partition's dataflow, computed once in Init for the FindFolded* passes (readers
  // is indexed with [], so a tensor nobody reads gets an empty list).
  struct Flow {
    std::map<int, int> producer;
    std::map<int, std::vector<int>> readers;
  };
  TfLiteStatus FindFoldedClamps(TfLiteContext* context, const std::vector<int>& nodes, Flow& flow);
  TfLiteStatus FindFoldedTransposes(TfLiteContext* context, const std::vector<int>& nodes, Flow& flow);
  TfLiteStatus FindResidualInputs(TfLiteContext* context, const std::vector<int>& nodes,
                                  Flow& flow);
  TfLiteStatus FindFoldedSwish(TfLiteContext* context, const std::vector<int>& nodes, Flow& flow);
  TfLiteStatus FindFoldedResiduals(TfLiteContext* context, const std::vector<int>& nodes, Flow& flow);
  TfLiteStatus FindFoldedPads(TfLiteContext* context, const std::vector<int>& nodes, Flow& flow);
  TfLiteStatus FindFoldedLayerNorms(TfLiteContext* context, const std::vector<int>& nodes, Flow& flow);
  // Node n was folded into another node's step by a FindFolded* pass and runs none itself.
  bool RunsNoStep(int n) const;
  // Node n runs a step with other nodes' work folded into it (or read through views).
  bool HasFoldedWork(int n) const;
  TfLiteStatus CreateRuntime(TfLiteContext* context, Segment* segment);
  std::string Fp16RewriteHazard(TfLiteContext* context, const Segment& segment,
                                const std::set<int>& external_outputs) const;
  TfLiteStatus DefineValue(TfLiteContext* context, xnn_subgraph_t subgraph, int t, uint32_t flags,
                           const VisitContext& v, std::vector<uint32_t>* ids);
  // Where tensor t's bytes are now: the kernel's buffer, static data, or the tensor's.
  void* Pointer(TfLiteContext* context, int t) const;
  TfLiteStatus RunSegment(TfLiteContext* context, Segment* segment);
  // Pointers of `tensors` (-1: none, nullptr) into `out`; false, with a log line naming
  // the tensor, when one has no buffer.
  bool Buffers(TfLiteContext* context, std::initializer_list<int> tensors, void** out) const;
  TfLiteStatus RunStep(TfLiteContext* context, const StridedCopy& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const DepthwiseStep& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const ConvStep& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const FullyConnectedStep& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const TransposeConvStep& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const BinaryStep& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const ByteTableStep& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const BinaryQs8Step& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const UnaryF32Step& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const MeanF32Step& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const ReduceF32Step& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const MaxPoolStep& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const MeanQs8Step& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const BatchMatMulStep& step) const;
  TfLiteStatus RunStep(TfLiteContext* context, const LayerNormStep& step) const;
  void Note(TfLiteContext* context, int nodes) const;

  // A VisitContext over this kernel's static data and builtin_bits.
  VisitContext NewVisit(TfLiteContext* context) const {
    VisitContext v;
    v.context = context;
    v.static_data = &static_data_;
    v.builtin_bits = builtin_bits_;
    v.residual_inputs = &residual_inputs_;
    // The delegate gave this kernel only nodes it can plan: a dynamic tensor among them
    // is one shaped at Invoke, and this kernel is planned then (PartitionKernel).
    v.dynamic_ok = true;
    return v;
  }
  // Whether node n is one this kernel computes itself rather than XNNPACK.
  bool RunsItself(TfLiteContext* context, const TfLiteNode& node, const TfLiteRegistration& reg);

  bool force_fp16_;
  bool builtin_bits_;
  pthreadpool_t pool_ = nullptr;  // the interpreter's, shared with the XNNPACK runtimes
  int threads_ = 1;
  std::map<int, int> fp16_sources_;
  uint32_t runtime_flags_ = 0;
  std::set<int> inputs_, outputs_;
  std::vector<Segment> segments_;
  std::vector<int> producer_;  // tensor -> segment writing it, -1 outside the partition
  // Tensors internal to the partition that the kernel keeps (PlanArena): offset in arena_.
  // live: tensor -> [first, last] position in the partition's run order.
  TfLiteStatus PlanArena(TfLiteContext* context, const std::vector<int>& tensors,
                         const std::map<int, std::pair<int, int>>& live);
  // By tensor index (-1: not in the arena); a vector, not a map: Pointer() reads it for
  // every buffer of every step (a WHILE body's partition runs thousands of times a second).
  std::vector<int64_t> arena_offset_;
  ArenaPlanner arena_;
  std::vector<const float*> static_data_;
  std::vector<std::unique_ptr<float[]>> weights_;
  std::vector<Folded> folded_outputs_;
  std::set<int> winograd_nodes_;  // float CONV_2D nodes run by Winograd's F(2x2, 3x3)
  std::set<int> table_muls_;  // MUL nodes run as one table composed with their input's
  // RELU / RELU6 / RELU_N1_TO_1 / RELU_0_TO_1 nodes folded into the own float step before
  // them (as XNNPACK fuses a clamp into its producer): producer node -> {clamp node, its
  // range}, and the clamp nodes, which run no step of their own.
  struct FoldedClamp {
    int node;
    float min, max;
  };
  std::map<int, FoldedClamp> clamp_after_;
  std::set<int> folded_clamps_;
  // TRANSPOSE nodes between an own float BATCH_MATMUL and one of its operands, read or
  // written by nothing else: the matrix multiply reads the transpose's input (or writes its
  // output) through strides, and the transposed copy is never formed. Per BATCH_MATMUL
  // node, its operands' tensors and element strides (lhs, rhs, output; tensor -1: its own,
  // contiguous); the TRANSPOSE nodes run no step.
  struct OperandView {
    int tensor = -1;
    std::vector<int64_t> strides;
  };
  struct MatMulViews {
    OperandView operand[3];
  };
  // Float swish as converted, MUL(x, LOGISTIC(x)) of one shape, the LOGISTIC's output read
  // by that MUL alone: the MUL node runs x * sigmoid(x) in one pass (UnaryF32::kSwish; MUL
  // node -> x), the LOGISTIC node runs no step and its output is never formed.
  std::map<int, int> swish_muls_;
  std::set<int> folded_logistics_;
  // Where x is a float depthwise or convolution step's output read by nothing but the
  // swish: that step computes the swish on its rows and writes the MUL's output (node ->
  // that tensor); the MUL runs no step either.
  std::map<int, int> swish_after_;
  // Float tensors a CONV_2D of the partition writes and one ADD alone reads (found first:
  // whether a 1x1 convolution runs as the own step depends on it, VisitContext).
  std::set<int> residual_inputs_;
  std::set<int> folded_swish_muls_;
  // Float residual ADDs: ADD(y, r) where y is the output of an own float convolution or
  // fully connected step and read by nothing else. The step adds r on its output rows while
  // they are in cache (gemm::FloatOutputStage's residual) and writes the ADD's output, or
  // that of a RELU-family node after it (its clamp composed with the ADD's activation) or
  // of a PRELU after it (constant slopes, one per channel);
  // where r is a zero PAD of the channels of s, the step reads s and adds zeros beyond its
  // channels. y, r and the sum are never formed; the ADD, PAD and clamp nodes run no step.
  struct FoldedResidual {
    int add = -1, pad = -1, clamp = -1;  // nodes (clamp: a RELU-family or PRELU); -1: none
    int output = -1;                     // the tensor the step writes
    StepResidual residual;
  };
  std::map<int, FoldedResidual> residual_after_;  // convolution or fully connected node -> its
  std::set<int> folded_residual_nodes_;           // the ADD, PAD and clamp nodes folded
  // A zero PAD of the height and width only (int8: of the zero point), read by nothing but
  // own depthwise steps: each reads the PAD's input with the padding added to its own (a
  // PAD before a stride-2 VALID depthwise convolution, as MediaPipe's detectors have them;
  // XNNPACK fuses such a PAD into its convolution alike). The PAD node runs no step.
  struct PadBefore {
    int pad = -1;                // the PAD node
    FoldedPadding padding;  // its input, which the depthwise step reads, and its padding
  };
  std::map<int, PadBefore> pad_before_;  // depthwise node -> the PAD before it
  std::set<int> folded_pads_;
  // Float layer norms as converted (LayerNormF32): the last node, the final ADD, runs one
  // step reading x and writing its output; the other nine (or ten) run no step and their
  // outputs are never formed.
  std::map<int, LayerNormStep> layer_norms_;  // the final ADD node -> its step
  std::set<int> folded_layer_norm_nodes_;
  // ADD / SUB / MUL nodes of what would be an XNNPACK runtime of such ops only (an LSTM
  // cell's gate arithmetic between the own steps): run as BinarySteps instead.
  std::set<int> binary_runtime_nodes_;
  std::map<int, MatMulViews> matmul_views_;
  void UseViews(TfLiteContext* context, const TfLiteNode& node, const MatMulViews& views,
                BatchMatMulStep* step) const;
  std::set<int> folded_transposes_;
};

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_KERNEL_H_
