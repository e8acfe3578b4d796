#include "xnnpack/xnnpack_kernel.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "delegate/fused_activation.h"
#include "delegate/partition_helper.h"
#include "kernels/internal/fp16.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/reduce.h"
#include "kernels/internal/softmax_f32.h"
#include "kernels/internal/vector_math.h"
#include "runtime/delegation_record.h"
#include "runtime/graph_partition.h"
#include "runtime/runtime_context.h"
#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_inspect {
namespace xnnpack {
namespace {

constexpr char kName[] = "TfLiteXNNPackDelegate";

// Whether input `i` of a node is data XNNPACK reads, rather than a parameter read when
// the node is defined (TRANSPOSE_CONV's output shape, PAD's paddings, RESHAPE's shape,
// MEAN's axes).
bool IsDataInput(const TfLiteRegistration& reg, int i) {
  switch (reg.builtin_code) {
    case kTfLiteBuiltinTransposeConv: return i != 0;
    case kTfLiteBuiltinPad:
    case kTfLiteBuiltinPadv2:
    case kTfLiteBuiltinReshape:
    case kTfLiteBuiltinMean: return i == 0;
    default: return true;
  }
}

// Work under which a runtime gets no thread pool (multiply-adds, or elements written, of
// its largest operator: XNNPACK splits each operator over the pool on its own). 1 << 18
// kept the runtimes between the delegate's own steps (hard-swish, squeeze-excite, small
// depthwise layers) on the calling thread while the other thread waited: 13% of
// mobilenet_v3_large's time at two threads. 1 << 16, interleaved medians at two threads:
// mobilenet_v3 2615 -> 2556 us, palm_detection 3015 -> 2833, face_landmark 758 -> 705,
// mobilenet_v1_0.25 223 -> 197, bert_tiny unchanged; 1 << 14 lost part of it again.
constexpr double kMinRuntimeParallelWork = 1 << 16;

// The work of a runtime's largest operator: the elements it writes, times the filter's
// taps per output for convolutions and fully connected layers.
double RuntimeWork(TfLiteContext* context, const std::vector<int>& nodes) {
  double largest = 0;
  for (int n : nodes) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (context->GetNodeAndRegistration(context, n, &node, &reg) != kTfLiteOk) continue;
    double per_output = 1;
    const int op = reg->builtin_code;
    if ((op == kTfLiteBuiltinConv2d || op == kTfLiteBuiltinDepthwiseConv2d ||
         op == kTfLiteBuiltinFullyConnected || op == kTfLiteBuiltinTransposeConv) &&
        node->inputs->size >= 2 && node->inputs->data[1] >= 0) {
      const TfLiteTensor& f = context->tensors[node->inputs->data[1]];
      const int64_t taps = tflite::NumElements(&f);
      const int64_t channels = f.dims != nullptr && f.dims->size > 0
                                   ? f.dims->data[op == kTfLiteBuiltinDepthwiseConv2d ? f.dims->size - 1 : 0]
                                   : 1;
      per_output = channels > 0 ? static_cast<double>(taps) / static_cast<double>(channels) : 1;
    }
    double work = 0;
    for (int i = 0; i < node->outputs->size; ++i) {
      const int t = node->outputs->data[i];
      if (t >= 0) work += per_output * static_cast<double>(tflite::NumElements(&context->tensors[t]));
    }
    largest = std::max(largest, work);
  }
  return largest;
}

// Calls fn(tensor, is_output) for every tensor a node reads or writes as data.
template <typename Fn>
void ForEachValue(const TfLiteNode& node, const TfLiteRegistration& reg, Fn fn) {
  for (int i = 0; i < node.inputs->size; ++i) {
    if (node.inputs->data[i] >= 0 && IsDataInput(reg, i)) fn(node.inputs->data[i], false);
  }
  for (int i = 0; i < node.outputs->size; ++i) {
    if (node.outputs->data[i] >= 0) fn(node.outputs->data[i], true);
  }
}

}  // namespace

XnnpackKernel::~XnnpackKernel() {
  for (Segment& s : segments_) {
    if (s.runtime != nullptr) xnn_delete_runtime(s.runtime);
  }
}

TfLiteStatus XnnpackKernel::Init(TfLiteContext* context, const TfLiteDelegateParams* params) {
  const std::vector<int> nodes(params->nodes_to_replace->data,
                               params->nodes_to_replace->data + params->nodes_to_replace->size);
  inputs_ = std::set<int>(params->input_tensors->data,
                          params->input_tensors->data + params->input_tensors->size);
  outputs_ = std::set<int>(params->output_tensors->data,
                           params->output_tensors->data + params->output_tensors->size);
  static_data_.assign(context->tensors_size, nullptr);
  arena_offset_.assign(context->tensors_size, -1);
  RuntimeContext* runtime = GetRuntimeContext(context);
  pool_ = runtime != nullptr ? runtime->thread_pool : nullptr;
  threads_ = pool_ != nullptr ? static_cast<int>(pthreadpool_get_threads_count(pool_)) : 1;
  TF_LITE_ENSURE_STATUS(DequantizeFp16Weights(context, nodes, outputs_));
  Flow flow;
  TF_LITE_ENSURE_STATUS(Dataflow(context, nodes, &flow.producer, &flow.readers));
  TF_LITE_ENSURE_STATUS(FindResidualInputs(context, nodes, flow));
  TF_LITE_ENSURE_STATUS(FindFoldedClamps(context, nodes, flow));
  TF_LITE_ENSURE_STATUS(FindFoldedTransposes(context, nodes, flow));
  TF_LITE_ENSURE_STATUS(FindFoldedSwish(context, nodes, flow));
  TF_LITE_ENSURE_STATUS(FindFoldedResiduals(context, nodes, flow));
  TF_LITE_ENSURE_STATUS(FindFoldedPads(context, nodes, flow));
  TF_LITE_ENSURE_STATUS(FindFoldedLayerNorms(context, nodes, flow));
  TF_LITE_ENSURE_STATUS(CutSegments(context, nodes));

  // Which segments touch each tensor, and when (position in the run order) it is first
  // written and last read.
  VisitContext v = NewVisit(context);
  producer_.assign(context->tensors_size, -1);
  std::map<int, std::set<int>> users;
  std::map<int, std::pair<int, int>> live;  // tensor -> [first, last] position
  std::set<int> keep_internal;
  std::vector<std::vector<int>> touched;  // position -> tensors its node reads or writes
  std::map<int, std::vector<int>> touches;  // tensor -> positions that read or write it
  int position = 0;
  std::map<int, int> position_of;  // node -> position
  std::map<int, int> segment_of;   // node -> segment
  for (size_t s = 0; s < segments_.size(); ++s) {
    for (int n : segments_[s].nodes) {
      position_of[n] = position;
      segment_of[n] = static_cast<int>(s);
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      ForEachValue(*node, *reg, [&](int t, bool is_output) {
        users[t].insert(static_cast<int>(s));
        if (is_output) producer_[t] = static_cast<int>(s);
        auto it = live.try_emplace(t, position, position).first;
        it->second.second = position;
        if (touched.size() <= static_cast<size_t>(position)) touched.resize(position + 1);
        touched[position].push_back(t);
        touches[t].push_back(position);
        // XNNPACK fuses a PAD into the convolution after it, and a RELU-like clamp into
        // the op before it, only when the value between them is its own.
        const int op = reg->builtin_code;
        float clamp_lo, clamp_hi;
        if ((is_output && (op == kTfLiteBuiltinPad || op == kTfLiteBuiltinPadv2)) ||
            (!is_output && ReluOpClamp(op, &clamp_lo, &clamp_hi))) {
          keep_internal.insert(t);
        }
      });
      ++position;
    }
  }
  // A depthwise step computing the swish after it writes the MUL's output at its own
  // (earlier) position.
  for (const auto& [d, y] : swish_after_) {
    auto& span = live.at(y);
    span.first = std::min(span.first, position_of.at(d));
    users[y].insert(segment_of.at(d));
  }
  // A step adding a residual reads it, and writes the ADD's (or the clamp's) output, at
  // its own (earlier) position.
  for (const auto& [layer, f] : residual_after_) {
    const int at = position_of.at(layer);
    for (int t : {f.residual.tensor, f.output}) {
      auto it = live.try_emplace(t, at, at).first;
      it->second = {std::min(it->second.first, at), std::max(it->second.second, at)};
      users[t].insert(segment_of.at(layer));
    }
  }
  // A layer norm's step reads x at the final ADD's (later) position.
  for (const auto& [n, step] : layer_norms_) {
    const int at = position_of.at(n);
    auto it = live.try_emplace(step.input, at, at).first;
    it->second = {std::min(it->second.first, at), std::max(it->second.second, at)};
    users[step.input].insert(segment_of.at(n));
  }
  // A depthwise step reading through a folded PAD reads the PAD's input at its own position.
  for (const auto& [d, pad] : pad_before_) {
    const int at = position_of.at(d);
    auto it = live.try_emplace(pad.padding.input, at, at).first;
    it->second = {std::min(it->second.first, at), std::max(it->second.second, at)};
    users[pad.padding.input].insert(segment_of.at(d));
  }
  // A matrix multiply reading through a folded TRANSPOSE reads the transpose's input at its
  // own (later) position; one writing through it writes the transpose's output at its own
  // (earlier) position.
  for (const auto& [n, views] : matmul_views_) {
    const int at = position_of[n];
    for (int i = 0; i < 3; ++i) {
      const int t = views.operand[i].tensor;
      if (t < 0) continue;
      auto it = live.try_emplace(t, at, at).first;
      it->second = {std::min(it->second.first, at), std::max(it->second.second, at)};
    }
  }
  // A fused pair runs as one operator at the first node's position: every tensor of both
  // nodes must stay alive from the first to the second (a RELU's output is written by the
  // producer it is fused into; a convolution reads the input of the PAD fused into it).
  for (int t : keep_internal) {
    const auto span = live[t];
    for (int q : touches[t]) {
      for (int u : touched[q]) {
        auto& l = live[u];
        l = {std::min(l.first, span.first), std::max(l.second, span.second)};
      }
    }
  }
  // Tensors that cross segments or that the kernel's own steps touch live in one arena
  // of this kernel's. When the partition has own steps, so do the values internal to one
  // XNNPACK runtime (but those XNNPACK fuses through): each runtime would otherwise keep
  // private buffers, and a model cut into many runtimes would stream through cold memory.
  std::vector<int> planned;
  for (const auto& [t, segs] : users) {
    if (IsStatic(v, t) || inputs_.count(t) || outputs_.count(t)) continue;
    const bool crosses = segs.size() > 1 || !segments_[*segs.begin()].xnnpack;
    // A node output that nothing reads (and that is no graph output): XNNPACK drops an
    // internal value without consumers and then asserts on the node writing it, so it
    // gets memory here and is an external output of its runtime.
    const bool dead = producer_[t] >= 0 && touches[t].size() == 1;
    // (Not under force_fp16: this XNNPACK's fp16 rewrite cannot take an external output
    // that is read inside its runtime, Fp16RewriteHazard.)
    if (crosses || dead || (segments_.size() > 1 && !force_fp16_ && keep_internal.count(t) == 0)) {
      planned.push_back(t);
    }
  }
  TF_LITE_ENSURE_STATUS(PlanArena(context, planned, live));
  std::map<int, ByteTableStep> tables;  // the table steps so far, by output tensor
  std::set<int> unread;  // outputs of tables that only a composed MUL read: not computed
  table_muls_.clear();
  for (size_t s = 0; s < segments_.size(); ++s) {
    Segment& seg = segments_[s];
    if (seg.xnnpack) {
      TF_LITE_ENSURE_STATUS(CreateRuntime(context, &seg));
      continue;
    }
    for (int n : seg.nodes) {
      if (RunsNoStep(n)) continue;
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      // The same choice as RunsItself made when the segments were cut.
      const int op = reg->builtin_code;
      const auto clamp = clamp_after_.find(n);
      if (clamp != clamp_after_.end()) {
        v.clamp_min = clamp->second.min;
        v.clamp_max = clamp->second.max;
      }
      bool planned;
      const auto swish = swish_muls_.find(n);
      if (const auto norm = layer_norms_.find(n); norm != layer_norms_.end()) {
        seg.steps.emplace_back(norm->second);
        planned = true;
      } else if (swish != swish_muls_.end()) {
        const int out = node->outputs->data[0];
        seg.steps.emplace_back(
            UnaryF32Step{builtin_bits_ ? UnaryF32::kSwishBuiltin : UnaryF32::kSwish, swish->second,
                         out, static_cast<size_t>(tflite::NumElements(&context->tensors[out]))});
        planned = true;
      } else if (binary_runtime_nodes_.count(n) != 0 && FloatReshapeCopy(v, *node, *reg, nullptr)) {
        StridedCopy copy;
        planned = FloatReshapeCopy(v, *node, *reg, &copy);
        seg.steps.emplace_back(copy);
      } else if (IsGlueOp(op)) {
        std::vector<StridedCopy> copies;
        planned = VisitGlue(v, *node, *reg, &copies);
        seg.steps.insert(seg.steps.end(), copies.begin(), copies.end());
      } else if (DepthToSpaceCopy(v, *node, *reg, nullptr)) {
        StridedCopy copy;
        planned = DepthToSpaceCopy(v, *node, *reg, &copy);
        seg.steps.emplace_back(copy);
      } else if (SpaceToDepthCopy(v, *node, *reg, nullptr)) {
        StridedCopy copy;
        planned = SpaceToDepthCopy(v, *node, *reg, &copy);
        seg.steps.emplace_back(copy);
      } else if (PlanOwnMaxPool(v, *node, *reg, nullptr)) {
        MaxPoolStep step;
        planned = PlanOwnMaxPool(v, *node, *reg, &step);
        seg.steps.emplace_back(step);
      } else if (IsOwnQuantizedMean(v, *node, *reg)) {
        MeanQs8Step step;
        planned = PlanMeanQs8(v, *node, *reg, &step);
        seg.steps.emplace_back(std::move(step));
      } else if (IsOwnFloatNode(v, *node, *reg) ||
                 (binary_runtime_nodes_.count(n) != 0 && op == kTfLiteBuiltinLogistic)) {
        // (A LOGISTIC in binary_runtime_nodes_ passed SmallFloatLogistic when it was put
        // there: CutSegments.)
        if (op == kTfLiteBuiltinMean) {
          MeanF32Step step;
          planned = PlanMeanF32(v, *node, *reg, &step);
          seg.steps.emplace_back(std::move(step));
        } else if (op == kTfLiteBuiltinSum || op == kTfLiteBuiltinReduceMax ||
                   op == kTfLiteBuiltinReduceMin) {
          ReduceF32Step step;
          planned = PlanReduceF32(v, *node, *reg, &step);
          seg.steps.emplace_back(std::move(step));
        } else if (op == kTfLiteBuiltinBatchMatmul) {
          BatchMatMulStep step;
          planned = PlanBatchMatMulF32(v, *node, *reg, &step);
          const auto views = matmul_views_.find(n);
          if (planned && views != matmul_views_.end()) UseViews(context, *node, views->second, &step);
          seg.steps.emplace_back(std::move(step));
        } else {
          UnaryF32Step step;
          planned = PlanUnaryF32(v, *node, *reg, &step);
          seg.steps.emplace_back(step);
        }
      } else if ((op == kTfLiteBuiltinDepthwiseConv2d && !PlanOwnConv(v, *node, *reg, nullptr)) ||
                 (IsDepthwiseGroupsConv(v, *node, *reg) &&
                  PlanOwnDepthwise(v, *node, *reg, nullptr))) {
        DepthwiseStep step;
        const auto pad = pad_before_.find(n);
        planned = PlanOwnDepthwise(v, *node, *reg, &step,
                                   pad != pad_before_.end() ? &pad->second.padding : nullptr);
        const auto swish_after = swish_after_.find(n);
        if (planned && swish_after != swish_after_.end()) {
          step.output = swish_after->second;
          step.params.swish = true;
        }
        seg.steps.emplace_back(step);
      } else if (op == kTfLiteBuiltinConv2d ||
                 ((op == kTfLiteBuiltinFullyConnected || op == kTfLiteBuiltinDepthwiseConv2d) &&
                  PlanOwnConv(v, *node, *reg, nullptr))) {
        ConvStep step;
        const auto pad = pad_before_.find(n);
        planned = PlanOwnConv(v, *node, *reg, &step,
                              pad != pad_before_.end() ? &pad->second.padding : nullptr);
        if (const auto f = residual_after_.find(n); planned && f != residual_after_.end()) {
          step.output = f->second.output;
          step.residual = f->second.residual;
        }
        if (const auto y = swish_after_.find(n); planned && y != swish_after_.end()) {
          step.output = y->second;
          step.swish = true;
        }
        if (planned && step.op != nullptr && step.op->Winograd()) winograd_nodes_.insert(n);
        seg.steps.emplace_back(std::move(step));
      } else if (op == kTfLiteBuiltinFullyConnected) {
        FullyConnectedStep step;
        planned = PlanOwnFullyConnected(v, *node, *reg, &step);
        if (const auto f = residual_after_.find(n); planned && f != residual_after_.end()) {
          step.output = f->second.output;
          step.residual = f->second.residual;
        }
        seg.steps.emplace_back(std::move(step));
      } else if (IsByteTableNode(v, *node, *reg)) {
        ByteTableStep step;
        planned = PlanByteTable(v, *node, *reg, &step);
        seg.steps.emplace_back(step);
        if (planned) tables[step.output] = step;
      } else if (PlanOwnBinaryQs8(v, *node, *reg, nullptr)) {
        BinaryQs8Step step;
        planned = PlanOwnBinaryQs8(v, *node, *reg, &step);
        ByteTableStep fused;
        if (planned && ComposeMulOfTable(step, tables, &fused)) {
          seg.steps.emplace_back(fused);
          table_muls_.insert(n);
          const int f_of_x = fused.input == step.a ? step.b : step.a;
          if (touches[f_of_x].size() == 2 && outputs_.count(f_of_x) == 0) unread.insert(f_of_x);
        } else {
          seg.steps.emplace_back(step);
        }
      } else if (op == kTfLiteBuiltinAdd || op == kTfLiteBuiltinSub || op == kTfLiteBuiltinMul ||
                 op == kTfLiteBuiltinSquaredDifference) {
        BinaryStep step;
        planned =
            PlanOwnBinary(v, *node, *reg, threads_, &step, binary_runtime_nodes_.count(n) != 0);
        seg.steps.emplace_back(step);
      } else {
        TransposeConvStep step;
        planned = PlanOwnTransposeConv(v, *node, *reg, &step);
        seg.steps.emplace_back(std::move(step));
      }
      if (clamp != clamp_after_.end()) {
        v.clamp_min = -std::numeric_limits<float>::infinity();
        v.clamp_max = std::numeric_limits<float>::infinity();
        // The step writes the clamp node's output (the value between them is never formed).
        TfLiteNode* clamp_node;
        TfLiteRegistration* clamp_reg;
        TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, clamp->second.node,
                                                              &clamp_node, &clamp_reg));
        const int folded_output = clamp_node->outputs->data[0];
        std::visit(
            [&](auto& step) {
              using S = std::decay_t<decltype(step)>;
              if constexpr (std::is_same_v<S, ConvStep> || std::is_same_v<S, DepthwiseStep> ||
                            std::is_same_v<S, FullyConnectedStep>) {
                step.output = folded_output;
              }
            },
            seg.steps.back());
      }
      if (!planned) {
        TF_LITE_KERNEL_LOG(context, "%s: failed to plan node %d (%s): %s", kName, n,
                           OpNameOf(*reg).c_str(), v.reason.c_str());
        return kTfLiteError;
      }
      seg.step_nodes.resize(seg.steps.size(), n);
      seg.step_tags.resize(seg.steps.size(), OpNameOf(*reg));
    }
  }
  for (Segment& seg : segments_) {
    size_t kept = 0;
    for (size_t i = 0; i < seg.steps.size(); ++i) {
      const auto* t = std::get_if<ByteTableStep>(&seg.steps[i]);
      if (t != nullptr && unread.count(t->output) != 0) continue;
      if (kept != i) {
        seg.steps[kept] = std::move(seg.steps[i]);
        seg.step_nodes[kept] = seg.step_nodes[i];
        seg.step_tags[kept] = std::move(seg.step_tags[i]);
      }
      ++kept;
    }
    seg.steps.erase(seg.steps.begin() + static_cast<std::ptrdiff_t>(kept), seg.steps.end());
    seg.step_nodes.resize(kept);
    seg.step_tags.resize(kept);
  }
  Note(context, static_cast<int>(nodes.size()));
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::DequantizeFp16Weights(TfLiteContext* context, const std::vector<int>& nodes,
                                                  const std::set<int>& outputs) {
  // fp16 weights, whether their DEQUANTIZE is in this partition or not: dequantized
  // once, here, so XNNPACK packs them as static weights.
  for (int n : nodes) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
    for (int i = 0; i < node->inputs->size; ++i) {
      const int t = node->inputs->data[i];
      auto it = fp16_sources_.find(t);
      if (t < 0 || static_data_[t] != nullptr || it == fp16_sources_.end()) continue;
      DequantizeWeights(context->tensors[it->second], t);
    }
    if (reg->builtin_code == kTfLiteBuiltinDequantize) {
      const int out = node->outputs->data[0];
      auto it = fp16_sources_.find(out);
      if (it == fp16_sources_.end()) continue;
      if (static_data_[out] == nullptr) DequantizeWeights(context->tensors[it->second], out);
      if (outputs.count(out)) {
        folded_outputs_.push_back({out, static_data_[out], context->tensors[out].bytes});
      }
    }
  }
  return kTfLiteOk;
}

// The kernel's tensors placed by lifetime with the runtime's arena planner (largest
// first, lowest offset that no tensor alive at the same time overlaps; XNNPACK's reads
// past a tensor's end stay inside the arena, whose tail is padded).
TfLiteStatus XnnpackKernel::PlanArena(TfLiteContext* context, const std::vector<int>& tensors,
                                      const std::map<int, std::pair<int, int>>& live) {
  std::vector<ArenaPlanner::Request> requests;
  requests.reserve(tensors.size());
  for (int t : tensors) {
    const auto [first, last] = live.at(t);
    requests.push_back({t, context->tensors[t].bytes, first, last});
  }
  if (!arena_.Plan(requests)) {
    TF_LITE_KERNEL_LOG(context, "%s: cannot allocate %zu bytes for the partition's tensors", kName,
                       arena_.arena_bytes());
    return kTfLiteError;
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    arena_offset_[requests[i].tensor] = static_cast<int64_t>(arena_.offset(i));
  }
  return kTfLiteOk;
}

bool XnnpackKernel::RunsItself(TfLiteContext* context, const TfLiteNode& node,
                               const TfLiteRegistration& reg) {
  if (IsGlueOp(reg.builtin_code)) return true;
  VisitContext v = NewVisit(context);
  // XNNPACK has no quantized version of these: always the delegate's tables; nor these
  // float ops at all.
  if (IsByteTableNode(v, node, reg) || IsOwnFloatNode(v, node, reg) ||
      IsOwnQuantizedMean(v, node, reg) || SpaceToDepthCopy(v, node, reg, nullptr)) {
    return true;
  }
  // With --xnnpack_force_fp16 the user asked for XNNPACK's fp16 arithmetic everywhere.
  if (force_fp16_) return false;
  return DepthToSpaceCopy(v, node, reg, nullptr) || PlanOwnMaxPool(v, node, reg, nullptr) ||
         PlanOwnDepthwise(v, node, reg, nullptr) ||
         PlanOwnConv(v, node, reg, nullptr) || PlanOwnFullyConnected(v, node, reg, nullptr) ||
         PlanOwnTransposeConv(v, node, reg, nullptr) ||
         PlanOwnBinary(v, node, reg, threads_, nullptr) || PlanOwnBinaryQs8(v, node, reg, nullptr);
}

// Within the partition: the node writing each tensor, and the nodes reading it (a node
// once per input that names the tensor).
TfLiteStatus XnnpackKernel::Dataflow(TfLiteContext* context, const std::vector<int>& nodes,
                                     std::map<int, int>* producer,
                                     std::map<int, std::vector<int>>* readers) {
  for (int n : nodes) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
    for (int i = 0; i < node->outputs->size; ++i) (*producer)[node->outputs->data[i]] = n;
    for (int i = 0; i < node->inputs->size; ++i) {
      if (node->inputs->data[i] >= 0) (*readers)[node->inputs->data[i]].push_back(n);
    }
  }
  return kTfLiteOk;
}

// A float RELU / RELU6 / RELU_N1_TO_1 / RELU_0_TO_1 whose input is the output of a
// convolution or fully connected node that the kernel runs itself, read by nothing else
// (and no output of the partition): its clamp joins the step's fused activation, as
// XNNPACK fuses a clamp into the operator before it. Unfolded, the clamp was a pass of its
// own over the tensor in an XNNPACK runtime of one node between two steps
// (selfie_segmentation: 6% slower with the 1x1 convolutions as steps). Clamps compose:
// clamp(clamp(x, a, b), c, d) = clamp(x, max(a, c), min(b, d)) where the ranges overlap;
// where they do not the node stays unfolded.
TfLiteStatus XnnpackKernel::FindFoldedClamps(TfLiteContext* context, const std::vector<int>& nodes, Flow& flow) {
  clamp_after_.clear();
  folded_clamps_.clear();
  if (force_fp16_) return kTfLiteOk;
  std::map<int, int>& producer = flow.producer;
  std::map<int, std::vector<int>>& readers = flow.readers;
  for (int n : nodes) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
    float lo, hi;
    if (!ReluOpClamp(reg->builtin_code, &lo, &hi)) continue;
    if (node->inputs->size != 1 || node->outputs->size != 1 || node->outputs->data[0] < 0) continue;
    const int t = node->inputs->data[0];
    const auto p = producer.find(t);
    if (t < 0 || p == producer.end() || readers[t].size() != 1 || outputs_.count(t) != 0 ||
        clamp_after_.count(p->second) != 0 || context->tensors[t].type != kTfLiteFloat32 ||
        context->tensors[node->outputs->data[0]].type != kTfLiteFloat32) {
      continue;
    }
    TfLiteNode* pnode;
    TfLiteRegistration* preg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, p->second, &pnode, &preg));
    if (pnode->builtin_data == nullptr || pnode->outputs->size != 1) continue;
    TfLiteFusedActivation act;
    switch (preg->builtin_code) {
      case kTfLiteBuiltinConv2d:
        act = static_cast<const TfLiteConvParams*>(pnode->builtin_data)->activation;
        break;
      case kTfLiteBuiltinDepthwiseConv2d:
        act = static_cast<const TfLiteDepthwiseConvParams*>(pnode->builtin_data)->activation;
        break;
      case kTfLiteBuiltinFullyConnected:
        act = static_cast<const TfLiteFullyConnectedParams*>(pnode->builtin_data)->activation;
        break;
      default: continue;
    }
    float plo, phi;
    if (!FusedActivationClamp(act, &plo, &phi) || std::max(plo, lo) > std::min(phi, hi) ||
        !RunsItself(context, *pnode, *preg)) {
      continue;
    }
    clamp_after_[p->second] = {n, lo, hi};
    folded_clamps_.insert(n);
  }
  return kTfLiteOk;
}

namespace {

std::vector<int64_t> ContiguousElementStrides(const TfLiteIntArray& dims) {
  std::vector<int64_t> strides(dims.size);
  int64_t s = 1;
  for (int d = dims.size - 1; d >= 0; --d) {
    strides[d] = s;
    s *= dims.data[d];
  }
  return strides;
}

}  // namespace

// The step reads (writes) the folded transposes' tensors through their strides; its other
// operands are its own, contiguous.
void XnnpackKernel::UseViews(TfLiteContext* context, const TfLiteNode& node,
                             const MatMulViews& views, BatchMatMulStep* step) const {
  std::vector<int64_t> strides[3];
  int* tensors[3] = {&step->lhs, &step->rhs, &step->output};
  for (int i = 0; i < 3; ++i) {
    const OperandView& view = views.operand[i];
    const int own = i < 2 ? node.inputs->data[i] : node.outputs->data[0];
    strides[i] = view.tensor >= 0 ? view.strides : ContiguousElementStrides(*context->tensors[own].dims);
    if (view.tensor >= 0) *tensors[i] = view.tensor;
  }
  const TfLiteIntArray& lhs = *context->tensors[node.inputs->data[0]].dims;
  const TfLiteIntArray& rhs = *context->tensors[node.inputs->data[1]].dims;
  step->op->SetViews(std::vector<int>(lhs.data, lhs.data + lhs.size), std::move(strides[0]),
                     std::vector<int>(rhs.data, rhs.data + rhs.size), std::move(strides[1]),
                     std::move(strides[2]));
}

TfLiteStatus XnnpackKernel::FindResidualInputs(TfLiteContext* context,
                                               const std::vector<int>& nodes, Flow& flow) {
  residual_inputs_.clear();
  for (int n : nodes) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
    if (reg->builtin_code != kTfLiteBuiltinAdd || node->inputs->size != 2) continue;
    for (int i = 0; i < 2; ++i) {
      const int x = node->inputs->data[i];
      const auto p = flow.producer.find(x);
      if (x < 0 || p == flow.producer.end() || context->tensors[x].type != kTfLiteFloat32 ||
          flow.readers[x].size() != 1 || outputs_.count(x) != 0) {
        continue;
      }
      TfLiteNode* layer;
      TfLiteRegistration* layer_reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, p->second, &layer, &layer_reg));
      if (layer_reg->builtin_code == kTfLiteBuiltinConv2d) residual_inputs_.insert(x);
    }
  }
  return kTfLiteOk;
}

// Swish (SiLU) as TensorFlow converts it: LOGISTIC(x), read by nothing but a MUL of x by
// it, all three tensors of one shape and the MUL without a fused activation. XNNPACK runs
// the two as a pass that writes sigmoid(x) and a pass that reads x and it back: EfficientNet
// has two such pairs over its largest tensors in every block (about a fifth of the
// dynamic-range model's time at one thread). One step computes x * sigmoid(x) with
// vector_math's sigmoid (the builtin LOGISTIC's bits in dynamic-range graphs); where x is
// the output of a float depthwise step and read by nothing else, that step computes the
// swish on each output row while it is in cache and writes the MUL's output; so does a
// float convolution step (not in dynamic-range graphs) on each block of output rows. (That
// does not make the convolution worth an own step where XNNPACK's is the faster one: on
// Zen 4 the swish costs the same in cache as in a pass of its own, and EfficientNet-B1
// with its 1x1 expansions on the own GEMM was 2% slower at one thread.)
TfLiteStatus XnnpackKernel::FindFoldedSwish(TfLiteContext* context, const std::vector<int>& nodes, Flow& flow) {
  swish_muls_.clear();
  folded_logistics_.clear();
  swish_after_.clear();
  folded_swish_muls_.clear();
  if (force_fp16_) return kTfLiteOk;
  std::map<int, int>& producer = flow.producer;
  std::map<int, std::vector<int>>& readers = flow.readers;
  VisitContext v = NewVisit(context);
  auto is_float = [&](int t) { return t >= 0 && context->tensors[t].type == kTfLiteFloat32; };
  for (int n : nodes) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
    if (reg->builtin_code != kTfLiteBuiltinLogistic || node->inputs->size != 1 ||
        node->outputs->size != 1) {
      continue;
    }
    const int x = node->inputs->data[0], s = node->outputs->data[0];
    if (!is_float(x) || !is_float(s) || IsStatic(v, x) || readers[s].size() != 1 ||
        outputs_.count(s) != 0) {
      continue;
    }
    const int m = readers[s][0];
    TfLiteNode* mnode;
    TfLiteRegistration* mreg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, m, &mnode, &mreg));
    if (mreg->builtin_code != kTfLiteBuiltinMul || mnode->inputs->size != 2 ||
        mnode->outputs->size != 1 || mnode->builtin_data == nullptr ||
        static_cast<const TfLiteMulParams*>(mnode->builtin_data)->activation != kTfLiteActNone) {
      continue;
    }
    const int a = mnode->inputs->data[0], b = mnode->inputs->data[1], y = mnode->outputs->data[0];
    if (!((a == x && b == s) || (a == s && b == x)) || !is_float(y)) continue;
    const TfLiteIntArray* dx = context->tensors[x].dims;
    if (dx == nullptr || !TfLiteIntArrayEqual(dx, context->tensors[s].dims) ||
        !TfLiteIntArrayEqual(dx, context->tensors[y].dims)) {
      continue;
    }
    folded_logistics_.insert(n);
    const auto p = producer.find(x);
    if (p != producer.end() && readers[x].size() == 2 && outputs_.count(x) == 0 &&
        swish_after_.count(p->second) == 0) {
      TfLiteNode* pnode;
      TfLiteRegistration* preg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, p->second, &pnode, &preg));
      const int op = preg->builtin_code;
      if ((op == kTfLiteBuiltinDepthwiseConv2d || (op == kTfLiteBuiltinConv2d && !builtin_bits_)) &&
          pnode->outputs->size == 1 && pnode->inputs->size >= 2 &&
          is_float(pnode->inputs->data[0]) && RunsItself(context, *pnode, *preg)) {
        swish_after_[p->second] = y;
        folded_swish_muls_.insert(m);
        continue;
      }
    }
    swish_muls_[m] = x;
  }
  return kTfLiteOk;
}

namespace {

// Whether tensor t is a constant float PRELU slope per channel of `channels` (shape [C] or
// [1, ..., 1, C]), which the step reads as one slope per output column.
bool PerChannelSlopes(const VisitContext& v, int t, int channels) {
  if (t < 0 || !IsStatic(v, t)) return false;
  const TfLiteTensor& a = v.context->tensors[t];
  if (a.type != kTfLiteFloat32 || a.dims == nullptr || a.dims->size < 1 ||
      a.dims->data[a.dims->size - 1] != channels ||
      a.bytes != static_cast<size_t>(channels) * sizeof(float)) {
    return false;
  }
  for (int d = 0; d + 1 < a.dims->size; ++d) {
    if (a.dims->data[d] != 1) return false;
  }
  return true;
}

}  // namespace

// A residual connection as converted: ADD(y, r), y a float convolution's or fully connected
// layer's output that only the ADD reads, r of the same shape, often a zero PAD of the
// block's input along the channels, often a RELU (or a PRELU) after the sum. XNNPACK runs
// the ADD (the RELU fused), the PAD and a PRELU as passes of their own over the block's
// tensors, each an XNNPACK runtime between two of the kernel's steps:
// face_detection_short_range spent about 15% of its time at one thread there, palm_detection
// 7% in its PRELUs alone. The convolution's step adds r to each block of output rows while
// it is in cache, clamps (and multiplies by the PRELU's slopes), and writes the last tensor;
// the operations are the separate nodes', so the bits are theirs.
// r must be ready when the convolution runs: CutSegments makes the convolution read it.
TfLiteStatus XnnpackKernel::FindFoldedResiduals(TfLiteContext* context, const std::vector<int>& nodes, Flow& flow) {
  residual_after_.clear();
  folded_residual_nodes_.clear();
  if (force_fp16_) return kTfLiteOk;
  std::map<int, int>& producer = flow.producer;
  std::map<int, std::vector<int>>& readers = flow.readers;
  VisitContext v = NewVisit(context);
  auto is_float = [&](int t) {
    return t >= 0 && context->tensors[t].type == kTfLiteFloat32 && context->tensors[t].dims != nullptr &&
           context->tensors[t].dims->size >= 1;
  };
  auto node_of = [&](int n, TfLiteNode** node, TfLiteRegistration** reg) {
    return context->GetNodeAndRegistration(context, n, node, reg);
  };
  // Whether a tensor is read by one node of the partition alone, and is no output of it.
  auto only_read_by = [&](int t, int n) {
    const auto r = readers.find(t);
    return r != readers.end() && r->second.size() == 1 && r->second[0] == n && outputs_.count(t) == 0;
  };
  for (int n : nodes) {
    TfLiteNode* add;
    TfLiteRegistration* add_reg;
    TF_LITE_ENSURE_STATUS(node_of(n, &add, &add_reg));
    if (add_reg->builtin_code != kTfLiteBuiltinAdd || add->inputs->size != 2 ||
        add->outputs->size != 1 || add->builtin_data == nullptr) {
      continue;
    }
    float lo, hi;
    if (!FusedActivationClamp(static_cast<const TfLiteAddParams*>(add->builtin_data)->activation, &lo, &hi)) {
      continue;
    }
    const int z = add->outputs->data[0];
    if (!is_float(z) || !is_float(add->inputs->data[0]) || !is_float(add->inputs->data[1])) continue;
    const TfLiteIntArray* dims = context->tensors[z].dims;
    for (int side = 0; side < 2; ++side) {
      const int y = add->inputs->data[side], r = add->inputs->data[1 - side];
      if (y == r || !TfLiteIntArrayEqual(context->tensors[y].dims, dims) ||
          !TfLiteIntArrayEqual(context->tensors[r].dims, dims) || !only_read_by(y, n)) {
        continue;
      }
      const auto p = producer.find(y);
      if (p == producer.end() || residual_after_.count(p->second) != 0 ||
          clamp_after_.count(p->second) != 0) {
        continue;
      }
      TfLiteNode* layer;
      TfLiteRegistration* layer_reg;
      TF_LITE_ENSURE_STATUS(node_of(p->second, &layer, &layer_reg));
      const int op = layer_reg->builtin_code;
      if ((op != kTfLiteBuiltinConv2d && op != kTfLiteBuiltinFullyConnected) ||
          layer->outputs->size != 1 || layer->inputs->size < 2 || !is_float(layer->inputs->data[0]) ||
          layer->inputs->data[1] < 0 || context->tensors[layer->inputs->data[1]].dims == nullptr ||
          context->tensors[layer->inputs->data[1]].dims->size < 1 ||
          context->tensors[layer->inputs->data[1]].dims->data[0] != dims->data[dims->size - 1] ||
          !RunsItself(context, *layer, *layer_reg)) {
        continue;
      }
      FoldedResidual f;
      f.add = n;
      f.output = z;
      f.residual = {r, dims->data[dims->size - 1], lo, hi};
      // r = PAD(s) with zeros after the last dimension only: the step reads s.
      const auto q = producer.find(r);
      if (q != producer.end() && only_read_by(r, n)) {
        TfLiteNode* pad;
        TfLiteRegistration* pad_reg;
        TF_LITE_ENSURE_STATUS(node_of(q->second, &pad, &pad_reg));
        std::vector<int64_t> paddings;
        const int code = pad_reg->builtin_code;
        const int s = pad->inputs->size >= 2 ? pad->inputs->data[0] : -1;
        bool zeros = (code == kTfLiteBuiltinPad || code == kTfLiteBuiltinPadv2) && pad->outputs->size == 1 &&
                     is_float(s) && context->tensors[s].dims->size == dims->size &&
                     ConstInts(v, pad->inputs->data[1], "paddings", &paddings) &&
                     paddings.size() == 2 * static_cast<size_t>(dims->size);
        if (zeros && code == kTfLiteBuiltinPadv2 && pad->inputs->size > 2 && pad->inputs->data[2] >= 0) {
          const int c = pad->inputs->data[2];
          zeros = IsStatic(v, c) && context->tensors[c].type == kTfLiteFloat32 &&
                  context->tensors[c].bytes == sizeof(float) &&
                  *static_cast<const float*>(StaticData(v, c)) == 0.0f;
        }
        const int last = dims->size - 1;
        for (int d = 0; zeros && d < dims->size; ++d) {
          const int64_t s_dim = context->tensors[s].dims->data[d];
          zeros = paddings[2 * d] == 0 &&
                  (d == last ? s_dim >= 1 && s_dim + paddings[2 * d + 1] == dims->data[d]
                             : paddings[2 * d + 1] == 0 && s_dim == dims->data[d]);
        }
        if (zeros) {
          f.pad = q->second;
          f.residual.tensor = s;
          f.residual.channels = context->tensors[s].dims->data[last];
        }
      }
      // A RELU-family node after the sum: its clamp joins the ADD's. Or a PRELU of the sum
      // by constant slopes, one per channel (BlazePalm's blocks).
      const auto c = readers.find(z);
      if (c != readers.end() && c->second.size() == 1 && only_read_by(z, c->second[0])) {
        TfLiteNode* clamp;
        TfLiteRegistration* clamp_reg;
        TF_LITE_ENSURE_STATUS(node_of(c->second[0], &clamp, &clamp_reg));
        float clo, chi;
        const int out = clamp->outputs->size == 1 ? clamp->outputs->data[0] : -1;
        if (ReluOpClamp(clamp_reg->builtin_code, &clo, &chi) && clamp->inputs->size == 1 &&
            is_float(out) && std::max(lo, clo) <= std::min(hi, chi)) {
          f.clamp = c->second[0];
          f.output = out;
          f.residual.min = std::max(lo, clo);
          f.residual.max = std::min(hi, chi);
        } else if (clamp_reg->builtin_code == kTfLiteBuiltinPrelu && clamp->inputs->size == 2 &&
                   clamp->inputs->data[0] == z && is_float(out) &&
                   TfLiteIntArrayEqual(context->tensors[out].dims, dims) &&
                   PerChannelSlopes(v, clamp->inputs->data[1], dims->data[dims->size - 1])) {
          f.clamp = c->second[0];
          f.output = out;
          f.residual.prelu = clamp->inputs->data[1];
        }
      }
      for (int folded : {f.add, f.pad, f.clamp}) {
        if (folded >= 0) folded_residual_nodes_.insert(folded);
      }
      residual_after_[p->second] = f;
      break;
    }
  }
  return kTfLiteOk;
}

// PAD(s) with zeros around the height and width only, read by nothing but depthwise
// convolutions and convolutions that the kernel runs with its own kernels (XNNPACK fuses
// such a PAD into the convolutions it runs itself): each step reads s with
// its padding grown by the PAD's (the kernel reads zeros outside the input on every side),
// and the padded copy is never formed. pose_detection: 5 such PADs (two read by two
// depthwise nodes each), ~4% of its time at one thread in XNNPACK's copy. int8 likewise
// where the PAD pads with the input's zero point, the value the int8 step pads with (an
// exported PyTorch MobileNetV2 has a PAD before each of its 17 depthwise convolutions).
// Not with the builtin depthwise code (dynamic-range graphs), which skips taps outside the
// input where the PAD's zeros would be added.
TfLiteStatus XnnpackKernel::FindFoldedPads(TfLiteContext* context, const std::vector<int>& nodes, Flow& flow) {
  pad_before_.clear();
  folded_pads_.clear();
  if (force_fp16_ || builtin_bits_) return kTfLiteOk;
  std::map<int, int>& producer = flow.producer;
  std::map<int, std::vector<int>>& readers = flow.readers;
  VisitContext v = NewVisit(context);
  for (int n : nodes) {
    TfLiteNode* pad;
    TfLiteRegistration* pad_reg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &pad, &pad_reg));
    const int code = pad_reg->builtin_code;
    if ((code != kTfLiteBuiltinPad && code != kTfLiteBuiltinPadv2) || pad->inputs->size < 2 ||
        pad->outputs->size != 1 || folded_residual_nodes_.count(n) != 0) {
      continue;
    }
    const int s = pad->inputs->data[0], p = pad->outputs->data[0];
    const auto r = readers.find(p);
    std::vector<int64_t> paddings;
    if (s < 0 || p < 0 || r == readers.end() || r->second.empty() || outputs_.count(p) != 0 ||
        (context->tensors[s].type != kTfLiteFloat32 && context->tensors[s].type != kTfLiteInt8) ||
        context->tensors[p].type != context->tensors[s].type || context->tensors[s].dims == nullptr ||
        context->tensors[p].dims == nullptr || context->tensors[p].dims->size != 4 ||
        context->tensors[s].dims->size != 4 || !ConstInts(v, pad->inputs->data[1], "paddings", &paddings) ||
        paddings.size() != 8 || paddings[0] != 0 || paddings[1] != 0 || paddings[6] != 0 ||
        paddings[7] != 0 || paddings[2] < 0 || paddings[3] < 0 || paddings[4] < 0 || paddings[5] < 0 ||
        paddings[2] >= INT32_MAX / 2 || paddings[4] >= INT32_MAX / 2) {
      continue;
    }
    // The padding's value must be what the convolution step pads with: float 0; for int8 the
    // input's zero point (PAD pads with its output's zero point, PADV2 with its constant),
    // the PAD's input and output quantized alike.
    const TfLiteTensor& in = context->tensors[s];
    const TfLiteTensor& out = context->tensors[p];
    const bool int8 = in.type == kTfLiteInt8;
    if (int8 && (in.params.scale != out.params.scale || in.params.zero_point != out.params.zero_point)) {
      continue;
    }
    if (code == kTfLiteBuiltinPadv2 && pad->inputs->size > 2 && pad->inputs->data[2] >= 0) {
      const int c = pad->inputs->data[2];
      if (!IsStatic(v, c) || context->tensors[c].type != in.type ||
          context->tensors[c].bytes != (int8 ? 1 : sizeof(float)) ||
          (int8 ? *static_cast<const int8_t*>(StaticData(v, c)) != out.params.zero_point
                : *static_cast<const float*>(StaticData(v, c)) != 0.0f)) {
        continue;
      }
    }
    // Every reader: a depthwise or convolution step of the kernel's own that can take the
    // padding.
    const TfLiteIntArray* dims = in.dims;
    const FoldedPadding padding{s, static_cast<int>(paddings[2]), static_cast<int>(paddings[4])};
    bool all = dims->data[1] + paddings[2] + paddings[3] == out.dims->data[1] &&
               dims->data[2] + paddings[4] + paddings[5] == out.dims->data[2];
    for (size_t i = 0; all && i < r->second.size(); ++i) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, r->second[i], &node, &reg));
      DepthwiseStep step;
      all = node->inputs->size >= 2 && node->inputs->data[0] == p &&
            ((reg->builtin_code == kTfLiteBuiltinDepthwiseConv2d &&
              PlanOwnDepthwise(v, *node, *reg, &step, &padding) && !step.builtin) ||
             (reg->builtin_code == kTfLiteBuiltinDepthwiseConv2d &&
              PlanOwnConv(v, *node, *reg, nullptr, &padding)) ||
             (reg->builtin_code == kTfLiteBuiltinConv2d && PlanOwnConv(v, *node, *reg, nullptr, &padding)));
    }
    if (!all) continue;
    for (int d : r->second) pad_before_[d] = {n, padding};
    folded_pads_.insert(n);
  }
  return kTfLiteOk;
}

// A TRANSPOSE whose output only an own float BATCH_MATMUL reads (an attention block's
// heads split off, keys turned), or which is the only reader of such a node's output (the
// heads merged back): the matrix multiply reads the transpose's input through the permuted
// strides, or writes its output so, and the copy is never formed. The products are the
// same, in the same order. bert_tiny_64: 8 of its 91 nodes, ~6% of the time at one
// thread, were such copies. Not for an operand that is a constant (packed once anyway) or
// an output whose rows would not be contiguous (the GEMM writes rows); a TRANSPOSE folds
// into one matrix multiply only.
// Layer normalization as TensorFlow converts Keras' LayerNormalization (LayerNormF32 has
// the formula): ten nodes over the tensor, of which this XNNPACK runs NEG,
// SQUARED_DIFFERENCE, the ADD of epsilon, the MULs and the final ADD as three runtimes
// between the delegate's MEAN and RSQRT steps (bert_tiny_64: 12 small runtimes for 4 norms).
// Matched from the first MEAN: every value between x and the output read only inside the
// pattern and no output of the partition, both MEANs over the last axis only (keep_dims)
// and the delegate's own steps, epsilon a scalar constant, gamma and beta constants of the
// last dimension, no fused activation. The final ADD runs the step; x is read by other
// nodes too, so it is formed, and the final ADD depends on it through the pattern's nodes.
TfLiteStatus XnnpackKernel::FindFoldedLayerNorms(TfLiteContext* context,
                                                 const std::vector<int>& nodes, Flow& flow) {
  layer_norms_.clear();
  folded_layer_norm_nodes_.clear();
  if (force_fp16_) return kTfLiteOk;
  std::map<int, std::vector<int>>& readers = flow.readers;
  VisitContext v = NewVisit(context);
  auto claimed = [&](int n) { return RunsNoStep(n) || HasFoldedWork(n); };
  struct Op {
    int n = -1;
    const TfLiteNode* node = nullptr;
    const TfLiteRegistration* reg = nullptr;
    int in(int i) const { return i < node->inputs->size ? node->inputs->data[i] : -1; }
    int out() const { return node->outputs->data[0]; }
  };
  // Node n as an op of `code` with `inputs` inputs, one float output, no fused activation.
  auto as = [&](int n, int code, int inputs, Op* op) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (n < 0 || claimed(n) ||
        context->GetNodeAndRegistration(context, n, &node, &reg) != kTfLiteOk ||
        reg->builtin_code != code || node->inputs->size != inputs || node->outputs->size != 1 ||
        node->outputs->data[0] < 0 ||
        context->tensors[node->outputs->data[0]].type != kTfLiteFloat32 ||
        ((code == kTfLiteBuiltinAdd || code == kTfLiteBuiltinSub || code == kTfLiteBuiltinMul) &&
         node->builtin_data == nullptr) ||
        BinaryActivation(*node, code) != kTfLiteActNone) {
      return false;
    }
    *op = Op{n, node, reg};
    return true;
  };
  // The one node reading t (t no output of the partition), or -1.
  auto only_reader = [&](int t) {
    const std::vector<int>& r = readers[t];
    return r.size() == 1 && outputs_.count(t) == 0 ? r[0] : -1;
  };
  auto same_dims = [&](int a, int b) {
    return TfLiteIntArrayEqual(context->tensors[a].dims, context->tensors[b].dims);
  };
  for (int first : nodes) {
    Op mean;
    if (!as(first, kTfLiteBuiltinMean, 2, &mean) || !IsOwnFloatNode(v, *mean.node, *mean.reg)) continue;
    const int x = mean.in(0), m = mean.out();
    const TfLiteIntArray* xd = context->tensors[x].dims;
    const TfLiteIntArray* md = context->tensors[m].dims;
    if (context->tensors[x].type != kTfLiteFloat32 || IsStatic(v, x) || xd == nullptr ||
        xd->size < 2 || md == nullptr || md->size != xd->size || xd->data[xd->size - 1] < 2) {
      continue;
    }
    const int rank = xd->size, depth = xd->data[rank - 1];
    // Both means: over the last axis alone, keeping it as 1.
    auto last_axis_mean = [&](const Op& op) {
      std::vector<int64_t> axes;
      VisitContext probe = v;
      const auto* params = static_cast<const TfLiteReducerParams*>(op.node->builtin_data);
      const TfLiteIntArray* od = context->tensors[op.out()].dims;
      if (params == nullptr || !params->keep_dims || !ConstInts(probe, op.in(1), "axis", &axes) ||
          axes.size() != 1 || (axes[0] != rank - 1 && axes[0] != -1) || od == nullptr ||
          od->size != rank || od->data[rank - 1] != 1) {
        return false;
      }
      for (int d = 0; d + 1 < rank; ++d) {
        if (od->data[d] != xd->data[d]) return false;
      }
      return true;
    };
    if (!last_axis_mean(mean) || outputs_.count(m) != 0) continue;
    // m's readers: SQUARED_DIFFERENCE(x, m) and NEG(m) (no beta) or MUL(m, g) (beta).
    const std::vector<int> m_readers = readers[m];
    if (m_readers.size() != 2) continue;
    Op sqd, other;
    if (as(m_readers[0], kTfLiteBuiltinSquaredDifference, 2, &sqd)) {
      other.n = m_readers[1];
    } else if (as(m_readers[1], kTfLiteBuiltinSquaredDifference, 2, &sqd)) {
      other.n = m_readers[0];
    } else {
      continue;
    }
    if (!((sqd.in(0) == x && sqd.in(1) == m) || (sqd.in(0) == m && sqd.in(1) == x)) ||
        !same_dims(sqd.out(), x)) {
      continue;
    }
    Op var_mean, add_eps, rsqrt, mul_gamma;
    if (!as(only_reader(sqd.out()), kTfLiteBuiltinMean, 2, &var_mean) || var_mean.in(0) != sqd.out() ||
        !IsOwnFloatNode(v, *var_mean.node, *var_mean.reg) || !last_axis_mean(var_mean) ||
        !as(only_reader(var_mean.out()), kTfLiteBuiltinAdd, 2, &add_eps) ||
        !as(only_reader(add_eps.out()), kTfLiteBuiltinRsqrt, 1, &rsqrt) ||
        !IsOwnFloatNode(v, *rsqrt.node, *rsqrt.reg) ||
        !as(only_reader(rsqrt.out()), kTfLiteBuiltinMul, 2, &mul_gamma)) {
      continue;
    }
    const int eps_t = add_eps.in(0) == var_mean.out() ? add_eps.in(1) : add_eps.in(0);
    const int gamma_t = mul_gamma.in(0) == rsqrt.out() ? mul_gamma.in(1) : mul_gamma.in(0);
    if (!same_dims(add_eps.out(), m) || !same_dims(rsqrt.out(), m) || !same_dims(mul_gamma.out(), x) ||
        eps_t < 0 || !IsStatic(v, eps_t) || context->tensors[eps_t].type != kTfLiteFloat32 ||
        context->tensors[eps_t].bytes != sizeof(float) || !PerChannelSlopes(v, gamma_t, depth)) {
      continue;
    }
    const int g = mul_gamma.out();
    // g's readers: MUL(x, g) and MUL(NEG(m), g) or MUL(m, g).
    const std::vector<int> g_readers = readers[g];
    if (g_readers.size() != 2 || outputs_.count(g) != 0) continue;
    Op neg, mul_x, mul_m, sub_beta, final_add;
    const bool no_beta = as(other.n, kTfLiteBuiltinNeg, 1, &neg);
    const int m_side = no_beta ? neg.out() : m;
    if (no_beta && (!same_dims(neg.out(), m) || only_reader(neg.out()) < 0)) continue;
    bool paired = false;
    for (int k = 0; k < 2 && !paired; ++k) {
      paired = as(g_readers[k], kTfLiteBuiltinMul, 2, &mul_x) &&
               as(g_readers[1 - k], kTfLiteBuiltinMul, 2, &mul_m) &&
               ((mul_x.in(0) == x && mul_x.in(1) == g) || (mul_x.in(0) == g && mul_x.in(1) == x)) &&
               ((mul_m.in(0) == m_side && mul_m.in(1) == g) ||
                (mul_m.in(0) == g && mul_m.in(1) == m_side));
    }
    if (!paired || (!no_beta && mul_m.n != other.n) || (no_beta && only_reader(neg.out()) != mul_m.n) ||
        !same_dims(mul_x.out(), x) || !same_dims(mul_m.out(), x)) {
      continue;
    }
    int shift = mul_m.out();  // the value added to x * g
    int beta_t = -1;
    if (!no_beta) {
      // SUB(beta, m * g): beta first.
      if (!as(only_reader(mul_m.out()), kTfLiteBuiltinSub, 2, &sub_beta) ||
          sub_beta.in(1) != mul_m.out() || !PerChannelSlopes(v, sub_beta.in(0), depth) ||
          !same_dims(sub_beta.out(), x)) {
        continue;
      }
      beta_t = sub_beta.in(0);
      shift = sub_beta.out();
    } else if (only_reader(mul_m.out()) < 0) {
      continue;
    }
    if (!as(only_reader(mul_x.out()), kTfLiteBuiltinAdd, 2, &final_add) ||
        only_reader(shift) != final_add.n ||
        !((final_add.in(0) == mul_x.out() && final_add.in(1) == shift) ||
          (final_add.in(0) == shift && final_add.in(1) == mul_x.out())) ||
        !same_dims(final_add.out(), x)) {
      continue;
    }
    std::vector<int> dims(xd->data, xd->data + rank);
    const float eps = *static_cast<const float*>(StaticData(v, eps_t));
    const float* gamma = static_cast<const float*>(StaticData(v, gamma_t));
    const float* beta = beta_t >= 0 ? static_cast<const float*>(StaticData(v, beta_t)) : nullptr;
    layer_norms_[final_add.n] =
        LayerNormStep{x, final_add.out(), std::make_shared<const LayerNormF32>(dims, eps, gamma, beta)};
    for (const Op* op : {&mean, &sqd, &var_mean, &add_eps, &rsqrt, &mul_gamma, &mul_x, &mul_m}) {
      folded_layer_norm_nodes_.insert(op->n);
    }
    folded_layer_norm_nodes_.insert(no_beta ? neg.n : sub_beta.n);
  }
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::FindFoldedTransposes(TfLiteContext* context,
                                                 const std::vector<int>& nodes, Flow& flow) {
  matmul_views_.clear();
  folded_transposes_.clear();
  if (force_fp16_) return kTfLiteOk;
  std::map<int, int>& producer = flow.producer;
  std::map<int, std::vector<int>>& readers = flow.readers;
  VisitContext v = NewVisit(context);
  auto float_tensor = [&](int t) {
    return t >= 0 && context->tensors[t].type == kTfLiteFloat32 && !IsStatic(v, t);
  };
  auto fits_int = [](const std::vector<int64_t>& strides, const TfLiteIntArray& dims) {
    int64_t reach = 0;
    for (int d = 0; d < dims.size; ++d) reach += strides[d] * std::max(0, dims.data[d] - 1);
    return reach < std::numeric_limits<int>::max();
  };
  for (int n : nodes) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
    if (reg->builtin_code != kTfLiteBuiltinBatchMatmul || node->inputs->size != 2 ||
        node->outputs->size != 1 || !IsOwnFloatNode(v, *node, *reg) ||
        !PlanBatchMatMulF32(v, *node, *reg, nullptr)) {
      continue;
    }
    MatMulViews views;
    bool any = false;
    for (int i = 0; i < 2; ++i) {  // an operand read through a TRANSPOSE
      const int t = node->inputs->data[i];
      const auto p = producer.find(t);
      if (!float_tensor(t) || p == producer.end() || readers[t].size() != 1 ||
          outputs_.count(t) != 0 || folded_transposes_.count(p->second) != 0) {
        continue;
      }
      TfLiteNode* tnode;
      TfLiteRegistration* treg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, p->second, &tnode, &treg));
      std::vector<int> perm;
      if (!TransposePermutation(v, *tnode, *treg, &perm)) continue;
      const int src = tnode->inputs->data[0];
      if (!float_tensor(src)) continue;
      const std::vector<int64_t> src_strides = ContiguousElementStrides(*context->tensors[src].dims);
      OperandView& view = views.operand[i];
      view.tensor = src;
      for (int d = 0; d < static_cast<int>(perm.size()); ++d) view.strides.push_back(src_strides[perm[d]]);
      if (!fits_int(view.strides, *context->tensors[t].dims)) {
        view = OperandView{};
        continue;
      }
      folded_transposes_.insert(p->second);
      any = true;
    }
    const int out = node->outputs->data[0];
    const auto& out_readers = readers[out];
    if (float_tensor(out) && out_readers.size() == 1 && outputs_.count(out) == 0 &&
        folded_transposes_.count(out_readers[0]) == 0) {  // the output through a TRANSPOSE
      TfLiteNode* tnode;
      TfLiteRegistration* treg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, out_readers[0], &tnode, &treg));
      std::vector<int> perm;
      const int rank = context->tensors[out].dims->size;
      if (TransposePermutation(v, *tnode, *treg, &perm) && tnode->inputs->data[0] == out &&
          perm.back() == rank - 1 && float_tensor(tnode->outputs->data[0])) {
        const int dst = tnode->outputs->data[0];
        const std::vector<int64_t> dst_strides = ContiguousElementStrides(*context->tensors[dst].dims);
        OperandView& view = views.operand[2];
        view.tensor = dst;
        view.strides.assign(rank, 0);
        for (int d = 0; d < rank; ++d) view.strides[perm[d]] = dst_strides[d];
        if (fits_int(view.strides, *context->tensors[out].dims)) {
          folded_transposes_.insert(out_readers[0]);
          any = true;
        } else {
          view = OperandView{};
        }
      }
    }
    if (any) matmul_views_[n] = std::move(views);
  }
  return kTfLiteOk;
}

bool XnnpackKernel::RunsNoStep(int n) const {
  return folded_clamps_.count(n) != 0 ||            // computed by its producer's step
         folded_transposes_.count(n) != 0 ||        // read or written by a matrix multiply
         folded_logistics_.count(n) != 0 ||         // computed by its MUL's swish step
         folded_swish_muls_.count(n) != 0 ||        // computed by the depthwise step before
         folded_residual_nodes_.count(n) != 0 ||    // added by the layer's step before
         folded_pads_.count(n) != 0 ||              // read through the convolution step's padding
         folded_layer_norm_nodes_.count(n) != 0;    // computed by the final ADD's step
}

bool XnnpackKernel::HasFoldedWork(int n) const {
  return clamp_after_.count(n) != 0 || matmul_views_.count(n) != 0 ||
         swish_muls_.count(n) != 0 || swish_after_.count(n) != 0 ||
         residual_after_.count(n) != 0 || pad_before_.count(n) != 0 ||
         layer_norms_.count(n) != 0;
}

// Segments are the runtime's partitioning of the partition's nodes into those XNNPACK runs
// and those the kernel runs itself (TFLite's greedy epochs: fewer, longer XNNPACK runtimes,
// a copy op run where the plan's order allows, not necessarily where the plan put it).
// Weight nodes (DEQUANTIZE / DENSIFY of constants) are folded, so they cut nothing.
TfLiteStatus XnnpackKernel::CutSegments(TfLiteContext* context, const std::vector<int>& nodes) {
  GraphView view;
  view.num_tensors = static_cast<size_t>(context->tensors_size);
  std::vector<int> by_xnnpack;
  // A step that adds a residual reads it: the partitioning sees a copy of its node with
  // the residual as one more input, so the residual's producer runs first.
  std::vector<std::unique_ptr<TfLiteIntArray, decltype(&TfLiteIntArrayFree)>> extra_inputs;
  std::vector<std::unique_ptr<TfLiteNode>> shadows;
  for (int n : nodes) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
    VisitContext weights;
    weights.context = context;
    if (IsWeightNode(weights, *node, *reg)) continue;
    view.execution_plan.push_back(n);
    view.plan_nodes.push_back(node);
    if (const auto f = residual_after_.find(n); f != residual_after_.end()) {
      extra_inputs.emplace_back(TfLiteIntArrayCreate(node->inputs->size + 1), &TfLiteIntArrayFree);
      TfLiteIntArray* inputs = extra_inputs.back().get();
      std::copy(node->inputs->data, node->inputs->data + node->inputs->size, inputs->data);
      inputs->data[node->inputs->size] = f->second.residual.tensor;
      shadows.push_back(std::make_unique<TfLiteNode>(*node));
      shadows.back()->inputs = inputs;
      view.plan_nodes.back() = shadows.back().get();
    }
    view.num_total_nodes = std::max(view.num_total_nodes, static_cast<size_t>(n) + 1);
    // Folded nodes go with the step they are folded into; a swish MUL and a layer norm's
    // final ADD run an own step although XNNPACK could take the node alone.
    if (!RunsNoStep(n) && swish_muls_.count(n) == 0 && layer_norms_.count(n) == 0 &&
        !RunsItself(context, *node, *reg)) {
      by_xnnpack.push_back(n);
    }
  }
  std::vector<NodeSubset> subsets;
  PartitionGraphIntoIndependentNodeSubsets(view, by_xnnpack, /*greedily=*/true, &subsets);
  binary_runtime_nodes_.clear();
  for (NodeSubset& subset : subsets) {
    segments_.emplace_back();
    segments_.back().nodes = std::move(subset.nodes);
    segments_.back().xnnpack = subset.type == NodeSubset::kTfPartition;
    // A whole runtime of float ADD / SUB / MUL the binary step can run, reshapes (a copy)
    // and small LOGISTICs: those steps instead (the same bits but the LOGISTICs', which are
    // the builtin kernel's; invoking a runtime costs more than a small one's arithmetic,
    // and this XNNPACK runs them on one thread: an LSTM cell's gates). A step among other
    // XNNPACK operators would cut their runtime in two: those stay.
    Segment& seg = segments_.back();
    if (!seg.xnnpack || force_fp16_) continue;
    VisitContext v = NewVisit(context);
    bool binaries = !seg.nodes.empty();
    for (int n : seg.nodes) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      binaries = binaries &&
                 (PlanOwnBinary(v, *node, *reg, threads_, nullptr, /*whole_runtime=*/true) ||
                  FloatReshapeCopy(v, *node, *reg, nullptr) || SmallFloatLogistic(v, *node, *reg));
    }
    if (binaries) {
      seg.xnnpack = false;
      binary_runtime_nodes_.insert(seg.nodes.begin(), seg.nodes.end());
    }
  }
  return kTfLiteOk;
}

namespace {

// Whether input i of the node is weights or a bias (which this XNNPACK's fp16 rewrite leaves
// in fp32 and packs) rather than an activation it converts to fp16.
bool IsWeightInput(const TfLiteRegistration& reg, int i) {
  switch (reg.builtin_code) {
    case kTfLiteBuiltinConv2d:
    case kTfLiteBuiltinDepthwiseConv2d:
    case kTfLiteBuiltinFullyConnected:
    case kTfLiteBuiltinPrelu:
      return i >= 1;
    case kTfLiteBuiltinTransposeConv:
      return i != 2;
    case kTfLiteBuiltinCustom:
      return i >= 1;  // MediaPipe's Convolution2DTransposeBias
    default:
      return false;
  }
}

}  // namespace

// Why this XNNPACK's fp16 rewrite (XNN_FLAG_FORCE_FP16_INFERENCE) must not see the
// segment's subgraph, or "" where it may. The 2022 rewrite asserts (an abort, in Debian's
// build) on a value that is an external output of the runtime and also read inside it, and
// on a constant where a node reads an activation (a constant operand of ADD or MUL, a
// convolution of a constant: found by the fuzzer) where it does not refuse the node first.
std::string XnnpackKernel::Fp16RewriteHazard(TfLiteContext* context, const Segment& seg,
                                             const std::set<int>& external_outputs) const {
  const VisitContext v = NewVisit(context);
  for (int n : seg.nodes) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (context->GetNodeAndRegistration(context, n, &node, &reg) != kTfLiteOk) continue;
    // The rewrite takes HARD_SWISH, and its operator then asserts on the fp16 node
    // (xnnpack_delegate_test runs every op after a convolution under force_fp16, each in
    // a child process: this one aborts).
    if (reg->builtin_code == kTfLiteBuiltinHardSwish) {
      return fmt::format("#{} HARD_SWISH, whose fp16 operator this XNNPACK cannot create", n);
    }
    for (int i = 0; i < node->inputs->size; ++i) {
      const int t = node->inputs->data[i];
      if (t < 0 || !IsDataInput(*reg, i)) continue;
      if (external_outputs.count(t) != 0) {
        const char* name = context->tensors[t].name;
        return fmt::format("#{} reads tensor {}{}, which the runtime also writes out", n, t,
                           name != nullptr ? fmt::format(" ({})", name) : "");
      }
      if (!IsWeightInput(*reg, i) && IsStatic(v, t)) {
        return fmt::format("#{} {} reads a constant as an activation (input {})", n, OpNameOf(*reg),
                           i);
      }
    }
  }
  return "";
}

TfLiteStatus XnnpackKernel::CreateRuntime(TfLiteContext* context, Segment* seg) {
  const int self = static_cast<int>(seg - segments_.data());
  std::set<int> external_outputs;
  // The subgraph, defined again for a second xnn_create_runtime_v2 (which changes it).
  auto define =
      [&](std::unique_ptr<xnn_subgraph, decltype(&xnn_delete_subgraph)>* out) -> TfLiteStatus {
    xnn_subgraph_t subgraph = nullptr;
    if (xnn_create_subgraph(static_cast<uint32_t>(context->tensors_size), 0, &subgraph) !=
        xnn_status_success) {
      TF_LITE_KERNEL_LOG(context, "%s: xnn_create_subgraph failed", kName);
      return kTfLiteError;
    }
    out->reset(subgraph);
    seg->externals.clear();
    seg->external_ids.clear();
    std::vector<uint32_t> ids(context->tensors_size, XNN_INVALID_VALUE_ID);
    VisitContext v;
    v.context = context;
    v.ids = &ids;
    v.static_data = &static_data_;
    v.builtin_bits = builtin_bits_;
    v.dynamic_ok = true;  // see NewVisit
    // Values: written here and read later or outside (external output), written before
    // this segment (external input), or internal to this runtime.
    for (int n : seg->nodes) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      TfLiteStatus status = kTfLiteOk;
      ForEachValue(*node, *reg, [&](int t, bool) {
        if (status != kTfLiteOk || ids[t] != XNN_INVALID_VALUE_ID) return;
        uint32_t flags = 0;
        if (!IsStatic(v, t)) {
          if (producer_[t] != self)
            flags = XNN_VALUE_FLAG_EXTERNAL_INPUT;
          else if (outputs_.count(t) || arena_offset_[t] >= 0)
            flags = XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
        }
        status = DefineValue(context, subgraph, t, flags, v, &ids);
        if (flags != 0) {
          seg->externals.push_back(t);
          seg->external_ids.push_back(ids[t]);
        }
        if (flags == XNN_VALUE_FLAG_EXTERNAL_OUTPUT) external_outputs.insert(t);
      });
      TF_LITE_ENSURE_STATUS(status);
    }
    v.subgraph = subgraph;
    for (int n : seg->nodes) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      if (!VisitNode(v, n, *node, *reg)) {
        TF_LITE_KERNEL_LOG(context, "%s: failed to define node %d (%s): %s", kName, n,
                           OpNameOf(*reg).c_str(), v.reason.c_str());
        return kTfLiteError;
      }
    }
    return kTfLiteOk;
  };
  std::unique_ptr<xnn_subgraph, decltype(&xnn_delete_subgraph)> owner(nullptr, xnn_delete_subgraph);
  TF_LITE_ENSURE_STATUS(define(&owner));
  // A runtime of small operators runs on the calling thread: this XNNPACK splits even an
  // 8K-element ADD over the pool, and the hand-offs cost more than they save
  // (bert_tiny_64_dynamic at two threads: 490 us with the pool, 380 without; one thread 375;
  // a MobileNetV2 int8 runtime with a 7x7x960 depthwise convolution gains from the pool).
  pthreadpool_t pool = RuntimeWork(context, seg->nodes) < kMinRuntimeParallelWork ? nullptr : pool_;
  // --xnnpack_force_fp16: fp16 where this XNNPACK's rewrite takes the runtime; where it
  // would abort or refuses a node, the runtime runs in fp32 and the log says why.
  seg->fp32_reason.clear();
  bool fp16 = force_fp16_;
  if (fp16) {
    const std::string hazard = Fp16RewriteHazard(context, *seg, external_outputs);
    if (!hazard.empty()) {
      fp16 = false;
      seg->fp32_reason = hazard + " (this XNNPACK's fp16 rewrite would abort)";
    }
  }
  xnn_status st = xnn_create_runtime_v2(owner.get(), pool,
                                        (fp16 ? XNN_FLAG_FORCE_FP16_INFERENCE : 0) | runtime_flags_,
                                        &seg->runtime);
  if (fp16 && st == xnn_status_unsupported_parameter) {
    seg->fp32_reason = "this XNNPACK's fp16 rewrite refused one of its nodes (xnn_status 4)";
    TF_LITE_ENSURE_STATUS(define(&owner));
    st = xnn_create_runtime_v2(owner.get(), pool, runtime_flags_, &seg->runtime);
  }
  if (st != xnn_status_success) {
    TF_LITE_KERNEL_LOG(context, "%s: xnn_create_runtime_v2 failed (xnn_status %d)%s", kName,
                       static_cast<int>(st),
                       fp16 && st == xnn_status_unsupported_hardware
                           ? ": this XNNPACK cannot run fp16 inference on this CPU"
                           : "");
    return kTfLiteError;
  }
  return kTfLiteOk;
}

namespace {

// A float depthwise node on the builtin kernels' code outside dynamic-range graphs: a
// filter this XNNPACK has no depthwise kernel for (PlanOwnDepthwise).
bool IsBuiltinDepthwiseStep(VisitContext& v, const TfLiteNode& node,
                            const TfLiteRegistration& reg) {
  DepthwiseStep step;
  return PlanOwnDepthwise(v, node, reg, &step) && step.builtin;
}

}  // namespace

// delegate_report prints the record's log: it says which nodes this kernel copies itself.
void XnnpackKernel::Note(TfLiteContext* context, int nodes) const {
  DelegationRecord* record = CurrentDelegationRecord(context);
  if (record == nullptr) return;
  std::string copied, depth_to_space, space_to_depth, pooled, arithmetic_runtimes, small_logistics,
      convolved, builtin_depthwise, dot_depthwise, gemm_convolved, winograd, dot_convolved,
      transposed, transposed_qs8, elementwise, block_broadcast, tabled, multiplied, added,
      table_multiplied, own_float, own_means, folded, folded_transposes, swished, residuals, pads,
      norms;
  int runtimes = 0, own_nodes = 0;
  if (force_fp16_) {
    std::vector<std::string> fp32;
    int all = 0;
    for (const Segment& s : segments_) {
      if (!s.xnnpack) continue;
      ++all;
      if (s.fp32_reason.empty()) continue;
      fp32.push_back(fmt::format("the runtime of #{}{}: {}", s.nodes.front(),
                                 s.nodes.size() > 1 ? fmt::format(" to #{}", s.nodes.back()) : "",
                                 s.fp32_reason));
    }
    record->log.push_back(
        fmt::format("fp16 inference (--xnnpack_force_fp16): {} of {} XNNPACK runtime{}{}{}",
                    all - static_cast<int>(fp32.size()), all, all == 1 ? "" : "s",
                    fp32.empty() ? "" : "; in fp32: ", fmt::join(fp32, "; ")));
  }
  for (const Segment& s : segments_) {
    runtimes += s.xnnpack;
    if (s.xnnpack) continue;
    for (int n : s.nodes) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      if (context->GetNodeAndRegistration(context, n, &node, &reg) != kTfLiteOk) continue;
      const int op = reg->builtin_code;
      VisitContext v;
      v.context = context;
      v.builtin_bits = builtin_bits_;
      const bool int8 = node->inputs->size > 0 && node->inputs->data[0] >= 0 &&
                        context->tensors[node->inputs->data[0]].type == kTfLiteInt8;
      std::string& list =
          folded_layer_norm_nodes_.count(n) != 0 || layer_norms_.count(n) != 0  ? norms
          : binary_runtime_nodes_.count(n) != 0 && op == kTfLiteBuiltinLogistic ? small_logistics
          : binary_runtime_nodes_.count(n) != 0  ? arithmetic_runtimes
          : folded_residual_nodes_.count(n) != 0 ? residuals
          : folded_pads_.count(n) != 0           ? pads
          : folded_clamps_.count(n) != 0         ? folded
          : folded_transposes_.count(n) != 0     ? folded_transposes
          : swish_muls_.count(n) != 0 || folded_logistics_.count(n) != 0 ||
                  folded_swish_muls_.count(n) != 0
              ? swished
          : IsGlueOp(op)                              ? copied
          : DepthToSpaceCopy(v, *node, *reg, nullptr) ? depth_to_space
          : SpaceToDepthCopy(v, *node, *reg, nullptr) ? space_to_depth
          : PlanOwnMaxPool(v, *node, *reg, nullptr)   ? pooled
          : IsOwnFloatNode(v, *node, *reg)            ? own_float
          : IsOwnQuantizedMean(v, *node, *reg)        ? own_means
          : table_muls_.count(n) != 0                 ? table_multiplied
          : IsByteTableNode(v, *node, *reg)           ? tabled
          : op == kTfLiteBuiltinDepthwiseConv2d && int8 && PlanOwnConv(v, *node, *reg, nullptr)
              ? dot_convolved
          : (op == kTfLiteBuiltinDepthwiseConv2d || IsDepthwiseGroupsConv(v, *node, *reg)) && int8
              ? dot_depthwise
          : op == kTfLiteBuiltinDepthwiseConv2d && !builtin_bits_ &&
                  IsBuiltinDepthwiseStep(v, *node, *reg)
              ? builtin_depthwise
          : op == kTfLiteBuiltinDepthwiseConv2d || IsDepthwiseGroupsConv(v, *node, *reg) ? convolved
          : (op == kTfLiteBuiltinConv2d || op == kTfLiteBuiltinFullyConnected) && int8
              ? dot_convolved
          : op == kTfLiteBuiltinMul && int8                                  ? multiplied
          : (op == kTfLiteBuiltinAdd || op == kTfLiteBuiltinSub) && int8     ? added
          : winograd_nodes_.count(n) != 0                                    ? winograd
          : op == kTfLiteBuiltinConv2d || op == kTfLiteBuiltinFullyConnected ? gemm_convolved
          : IsBlockBroadcastBinary(v, *node, *reg, threads_)                 ? block_broadcast
          : op == kTfLiteBuiltinAdd || op == kTfLiteBuiltinSub || op == kTfLiteBuiltinMul
              ? elementwise
          : op == kTfLiteBuiltinTransposeConv && node->inputs->size > 2 &&
                  context->tensors[node->inputs->data[2]].type == kTfLiteInt8
              ? transposed_qs8
              : transposed;
      list += fmt::format("{}#{} {}", list.empty() ? "" : ", ", n, OpNameOf(*reg));
      if (folded_swish_muls_.count(n) != 0) {
        for (const auto& [d, y] : swish_after_) {
          if (y == node->outputs->data[0]) list += fmt::format(" (on the rows of #{})", d);
        }
      }
      for (const auto& [layer, f] : residual_after_) {
        if (f.add == n) list += fmt::format(" (on the rows of #{})", layer);
      }
      std::vector<std::string> into;
      for (const auto& [d, pad] : pad_before_) {
        if (pad.pad == n) into.push_back(fmt::format("#{}", d));
      }
      if (!into.empty()) list += fmt::format(" (into {})", fmt::join(into, " and "));
      ++own_nodes;
    }
  }
  if (own_nodes == 0) return;
  std::string what;
  auto say = [&what](const std::string& list, const std::string& kind) {
    if (!list.empty()) what += fmt::format("{}{}: {}", what.empty() ? "" : "; ", kind, list);
  };
  say(copied, "copies (this XNNPACK has no such operator)");
  say(depth_to_space, "DEPTH_TO_SPACE as a strided copy (faster than this XNNPACK's)");
  say(space_to_depth, "SPACE_TO_DEPTH as a strided copy (this XNNPACK has none)");
  say(pooled, "float MAX_POOL_2D as a separable max on vector lanes (this XNNPACK's pooling "
              "kernel is SSE, a window's values one by one)");
  say(arithmetic_runtimes,
      "float ADD / SUB / MUL and reshapes that would be XNNPACK runtimes of "
      "their own between the delegate's steps (invoking one costs more "
      "than their arithmetic)");
  say(small_logistics,
      "float LOGISTICs of a few values in such a runtime, on the builtin kernels' code");
  say(own_float, "float ops this XNNPACK lacks, on the builtin kernels' code");
  say(own_means, "8-bit MEANs this XNNPACK's global average pooling does not take (TFLite's "
                 "newer one does), on the reference kernels' arithmetic");
  say(convolved, "the delegate's depthwise kernel (faster than this XNNPACK's)");
  say(builtin_depthwise,
      "float depthwise filters this XNNPACK has no depthwise kernel for (it "
      "would run them as grouped convolutions), on the builtin kernels' code");
#if defined(__aarch64__)
  say(dot_depthwise, "int8 depthwise convolutions on int8 quad dot products (sdot; "
                     "TFI_XNNPACK_OWN_GEMM=1)");
#else
  say(dot_depthwise, "int8 depthwise convolutions on int16 pair dot products (vpdpwssd; this XNNPACK "
                     "multiplies one tap at a time in 32 bits)");
#endif
  say(gemm_convolved, "the builtin kernels' GEMM for float convolutions and fully connected "
                      "layers (faster than this XNNPACK's on a CPU without AVX-512, and for 1x1 "
                      "convolutions and windows one pixel high)");
  say(winograd, "float 3x3 stride-1 convolutions by Winograd's F(2x2, 3x3) on the builtin "
                "kernels' GEMM (2.25x fewer multiply-adds than this XNNPACK's direct ones)");
  say(dot_convolved, fmt::format("the builtin kernels' dot-product GEMM for int8 convolutions and "
                                 "fully connected layers ({}; this XNNPACK has no such kernels)",
                                 tflite::gemm::DotKernelName()));
  say(multiplied, fmt::format("int8 MUL on {}, {} bytes a step split over the threads (this "
                              "XNNPACK's is 16, a same-shape one on the calling thread)",
                              BinaryQs8IsaOnCpu().name, BinaryQs8IsaOnCpu().step_bytes));
  say(added, fmt::format("int8 ADD / SUB on {} split over the threads (this XNNPACK runs a "
                         "same-shape one on the calling thread)",
                         BinaryQs8IsaOnCpu().name));
  say(table_multiplied, "int8 MUL of a value by a lookup table of it (swish), one composed table");
  say(folded, "clamps folded into the step before them (XNNPACK fuses them alike)");
  say(swished,
      "float swish, a MUL of a value by its LOGISTIC, in one pass or on the rows of the "
      "convolution or depthwise convolution writing the value (the LOGISTIC's output "
      "never formed)");
  say(residuals, "float residual ADDs, with a zero channel PAD of the value added, a clamp or a "
                 "PRELU after them, on the output rows of the convolution or fully connected step "
                 "before them (its output and the sum never formed)");
  say(pads, "PADs of the height and width with zeros (int8: the zero point) read through the "
            "padding of the convolution step after them (never formed)");
  say(norms, "float layer norms as converted (MEAN, SQUARED_DIFFERENCE, MEAN, ADD, RSQRT, MUL, "
             "MUL, MUL, NEG or SUB, ADD) in one pass per row (the values between never formed)");
  say(folded_transposes, "transposes folded into the matrix multiply reading or writing them "
                         "(never formed)");
  say(transposed, "a GEMM for non-overlapping transposed convolutions (faster than this XNNPACK's "
                  "deconvolution)");
  say(transposed_qs8, fmt::format("the builtin kernels' dot-product GEMM for int8 non-overlapping "
                                  "transposed convolutions ({}; this XNNPACK has no per-channel "
                                  "int8 deconvolution)",
                                  tflite::gemm::DotKernelName()));
  say(block_broadcast,
      "float ADD / SUB / MUL / SQUARED_DIFFERENCE of a tensor by values each "
      "repeated over a block of it (a group norm's statistics; this XNNPACK's "
      "broadcast is 2-3x slower)");
  say(elementwise, "same-shape elementwise ops split over the threads (this XNNPACK runs them on "
                   "one), and float ops of a tensor by a vector along its last dimension (faster "
                   "than this XNNPACK's broadcast)");
  say(tabled, "8-bit lookup tables, the builtin kernels' own (this XNNPACK has no quantized "
              "version)");
  record->log.push_back(fmt::format("partition of {} nodes: {} XNNPACK runtime{}; {} node{} run by the delegate's own code, not by XNNPACK: {}",
                                    nodes, runtimes, runtimes == 1 ? "" : "s", own_nodes,
                                    own_nodes == 1 ? "" : "s", what));
}

TfLiteStatus XnnpackKernel::Prepare(TfLiteContext*, TfLiteNode*) {
  // Buffers may move when tensors are allocated again.
  for (Segment& s : segments_) s.setup_pointers.clear();
  return kTfLiteOk;
}

void* XnnpackKernel::Pointer(TfLiteContext* context, int t) const {
  if (arena_offset_[t] >= 0) return arena_.base() + arena_offset_[t];
  if (static_data_[t] != nullptr) return const_cast<float*>(static_data_[t]);
  return context->tensors[t].data.raw;
}

bool XnnpackKernel::Buffers(TfLiteContext* context, std::initializer_list<int> tensors,
                            void** out) const {
  for (int t : tensors) {
    *out = t >= 0 ? Pointer(context, t) : nullptr;
    if (t >= 0 && *out == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: tensor %d has no buffer", kName, t);
      return false;
    }
    ++out;
  }
  return true;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const StridedCopy& c) const {
  void* p[2];
  if (!Buffers(context, {c.src, c.dst}, p)) return kTfLiteError;
  RunCopy(c, p[0], p[1], pool_);
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const DepthwiseStep& d) const {
  if (d.qs8 != nullptr) {
    void* q[2];
    if (!Buffers(context, {d.input, d.output}, q)) return kTfLiteError;
    d.qs8->Run(static_cast<const int8_t*>(q[0]), static_cast<int8_t*>(q[1]), pool_);
    return kTfLiteOk;
  }
  void* p[4];
  if (!Buffers(context, {d.input, d.filter, d.bias, d.output}, p)) return kTfLiteError;
  if (d.builtin) {
    tflite::dwconv::FloatDepthwise(d.geometry, static_cast<const float*>(p[0]),
                                   static_cast<const float*>(p[1]), static_cast<const float*>(p[2]),
                                   /*bias_first=*/true, d.params.min, d.params.max,
                                   static_cast<float*>(p[3]), pool_, d.params.swish);
    return kTfLiteOk;
  }
  const float* filter = d.filter_by_tap != nullptr ? d.filter_by_tap->data()
                                                   : static_cast<const float*>(p[1]);
  RunDepthwiseF32(d.params, static_cast<const float*>(p[0]), filter,
                  static_cast<const float*>(p[2]), static_cast<float*>(p[3]), pool_);
  return kTfLiteOk;
}

namespace {

// The step's residual ADD with its values at `values` and PRELU slopes at `slopes` (none
// where the step has none).
const ResidualAdd* Residual(const StepResidual& r, const void* values, const void* slopes,
                            ResidualAdd* out) {
  if (r.tensor < 0) return nullptr;
  *out = {static_cast<const float*>(values), r.channels, r.min, r.max, static_cast<const float*>(slopes)};
  return out;
}

}  // namespace

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const ConvStep& c) const {
  void* p[4];
  if (!Buffers(context, {c.input, c.output, c.residual.tensor, c.residual.prelu}, p)) return kTfLiteError;
  if (c.qs8 != nullptr) {
    c.qs8->Run(static_cast<const int8_t*>(p[0]), static_cast<int8_t*>(p[1]), pool_);
  } else {
    ResidualAdd residual;
    c.op->Run(static_cast<const float*>(p[0]), static_cast<float*>(p[1]), pool_,
              Residual(c.residual, p[2], p[3], &residual), c.swish);
  }
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const FullyConnectedStep& f) const {
  void* p[4];
  if (!Buffers(context, {f.input, f.output, f.residual.tensor, f.residual.prelu}, p)) return kTfLiteError;
  ResidualAdd residual;
  f.op->Run(static_cast<const float*>(p[0]), static_cast<float*>(p[1]), pool_,
            Residual(f.residual, p[2], p[3], &residual));
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const TransposeConvStep& t) const {
  void* p[2];
  if (!Buffers(context, {t.input, t.output}, p)) return kTfLiteError;
  if (t.qs8 != nullptr) {
    t.qs8->Run(static_cast<const int8_t*>(p[0]), static_cast<int8_t*>(p[1]), pool_);
  } else {
    t.op->Run(static_cast<const float*>(p[0]), static_cast<float*>(p[1]), pool_);
  }
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const BinaryStep& b) const {
  void* p[3];
  if (!Buffers(context, {b.a, b.b, b.output}, p)) return kTfLiteError;
  RunBinaryF32(b.op, static_cast<const float*>(p[0]), static_cast<const float*>(p[1]),
               static_cast<float*>(p[2]), b.elements, b.min, b.max, pool_, b.period, b.inner);
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const BinaryQs8Step& m) const {
  void* p[3];
  if (!Buffers(context, {m.a, m.b, m.output}, p)) return kTfLiteError;
  RunBinaryQs8(m.params, static_cast<const int8_t*>(p[0]), static_cast<const int8_t*>(p[1]),
            m.period, static_cast<int8_t*>(p[2]), m.elements, pool_);
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const MaxPoolStep& m) const {
  void* p[2];
  if (!Buffers(context, {m.input, m.output}, p)) return kTfLiteError;
  tflite::max_pool_f32::MaxPool(m.geometry, static_cast<const float*>(p[0]),
                                static_cast<float*>(p[1]), m.min, m.max, pool_);
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const ByteTableStep& t) const {
  void* p[2];
  if (!Buffers(context, {t.input, t.output}, p)) return kTfLiteError;
  // Split over the pool from 32 K values (a lookup is cheap, so the work counts 8 a value),
  // in whole cache lines: EfficientNet-B1 int8's swish tables took 9% of the calling
  // thread's time at two threads while the other waited (4.60 -> 4.37 ms there).
  const auto* in = static_cast<const uint8_t*>(p[0]);
  auto* out = static_cast<uint8_t*>(p[1]);
  const size_t parts = std::min<size_t>(tflite::parallel::NumThreads(pool_), t.elements / 4096 + 1);
  const size_t part = ((t.elements + parts - 1) / parts + 63) & ~size_t{63};
  tflite::parallel::ParallelFor(pool_, parts, 8.0 * static_cast<double>(t.elements), [&](size_t i) {
    const size_t begin = std::min(t.elements, i * part), end = std::min(t.elements, begin + part);
    tflite::elementwise::ApplyByteLut(t.lut, in + begin, out + begin,
                                      static_cast<int64_t>(end - begin));
  });
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const UnaryF32Step& u) const {
  void* p[2];
  if (!Buffers(context, {u.input, u.output}, p)) return kTfLiteError;
  const auto rows = static_cast<int64_t>(u.elements / std::max(u.depth, 1));
  if (u.op == UnaryF32::kSoftmaxBuiltin) {
    tflite::softmax_f32::Softmax(static_cast<const float*>(p[0]), rows, u.depth, u.beta,
                                 static_cast<float*>(p[1]), pool_);
  } else if (u.op == UnaryF32::kSoftmax) {
    // Blocks of rows of at least 4,096 values over the pool.
    const auto* in = static_cast<const float*>(p[0]);
    auto* out = static_cast<float*>(p[1]);
    const int64_t block = std::max<int64_t>(1, 4096 / u.depth);
    const int64_t blocks = (rows + block - 1) / block;
    tflite::parallel::ParallelFor(
        pool_, static_cast<size_t>(blocks), 16.0 * static_cast<double>(u.elements), [&](size_t b) {
          const int64_t r0 = static_cast<int64_t>(b) * block, n = std::min(block, rows - r0);
          tflite::vector_math::Softmax(in + r0 * u.depth, n, u.depth, u.beta, out + r0 * u.depth);
        });
  } else {
    RunUnaryF32(u.op, static_cast<const float*>(p[0]), static_cast<float*>(p[1]), u.elements, pool_);
  }
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const MeanF32Step& m) const {
  void* p[2];
  if (!Buffers(context, {m.input, m.output}, p)) return kTfLiteError;
  m.op->Run(static_cast<const float*>(p[0]), static_cast<float*>(p[1]));
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const ReduceF32Step& r) const {
  void* p[2];
  if (!Buffers(context, {r.input, r.output}, p)) return kTfLiteError;
  const auto* in = static_cast<const float*>(p[0]);
  auto* out = static_cast<float*>(p[1]);
  const int rank = static_cast<int>(r.dims.size());
  switch (r.op) {
    case ReduceF32::kSum:
      tflite::reduce::ReduceArray(in, r.dims.data(), rank, r.reduced, out, r.out_count, 0.0f,
                                  tflite::reduce::Add{});
      break;
    case ReduceF32::kMax:
      tflite::reduce::ReduceArray(in, r.dims.data(), rank, r.reduced, out, r.out_count,
                                  std::numeric_limits<float>::lowest(), tflite::reduce::Max{});
      break;
    case ReduceF32::kMin:
      tflite::reduce::ReduceArray(in, r.dims.data(), rank, r.reduced, out, r.out_count,
                                  std::numeric_limits<float>::max(), tflite::reduce::Min{});
      break;
  }
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const MeanQs8Step& m) const {
  void* p[2];
  if (!Buffers(context, {m.input, m.output}, p)) return kTfLiteError;
  bool reduced[tflite::mean_quantized::kMaxDims] = {};
  for (size_t d = 0; d < m.reduced.size(); ++d) reduced[d] = m.reduced[d] != 0;
  const int rank = static_cast<int>(m.dims.size());
  if (m.uint8) {
    tflite::mean_quantized::Mean(static_cast<const uint8_t*>(p[0]), m.dims.data(), rank, reduced, m.params,
                                 static_cast<uint8_t*>(p[1]), m.sums.get());
  } else {
    tflite::mean_quantized::Mean(static_cast<const int8_t*>(p[0]), m.dims.data(), rank, reduced, m.params,
                                 static_cast<int8_t*>(p[1]), m.sums.get());
  }
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const BatchMatMulStep& b) const {
  void* p[3];
  if (!Buffers(context, {b.lhs, b.rhs, b.output}, p)) return kTfLiteError;
  b.op->Run(static_cast<const float*>(p[0]), static_cast<const float*>(p[1]),
            static_cast<float*>(p[2]), pool_);
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunStep(TfLiteContext* context, const LayerNormStep& l) const {
  void* p[2];
  if (!Buffers(context, {l.input, l.output}, p)) return kTfLiteError;
  l.op->Run(static_cast<const float*>(p[0]), static_cast<float*>(p[1]), pool_);
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::RunSegment(TfLiteContext* context, Segment* seg) {
  // With a profiler (benchmark_model --enable_op_profiling), one event a step or XNNPACK
  // runtime, as TFLite's delegate reports its operators: tagged with the step's op, or
  // "XNNPACK runtime", and the (first) node's index.
  auto* profiler = static_cast<tflite::Profiler*>(context->profiler);
  constexpr auto kEvent = tflite::Profiler::EventType::DELEGATE_OPERATOR_INVOKE_EVENT;
  if (!seg->xnnpack) {
    for (size_t i = 0; i < seg->steps.size(); ++i) {
      const uint32_t event =
          profiler != nullptr
              ? profiler->BeginEvent(seg->step_tags[i].c_str(), kEvent, seg->step_nodes[i], 0)
              : 0;
      const TfLiteStatus status =
          std::visit([&](const auto& s) { return RunStep(context, s); }, seg->steps[i]);
      if (profiler != nullptr) profiler->EndEvent(event);
      TF_LITE_ENSURE_STATUS(status);
    }
    return kTfLiteOk;
  }
  std::vector<void*>& pointers = seg->pointers;
  pointers.clear();
  for (int t : seg->externals) pointers.push_back(Pointer(context, t));
  if (pointers != seg->setup_pointers) {
    std::vector<xnn_external_value> values;
    for (size_t i = 0; i < pointers.size(); ++i) {
      if (pointers[i] == nullptr) {
        TF_LITE_KERNEL_LOG(context, "%s: tensor %d has no buffer", kName, seg->externals[i]);
        return kTfLiteError;
      }
      values.push_back({seg->external_ids[i], pointers[i]});
    }
    if (xnn_setup_runtime(seg->runtime, values.size(), values.data()) != xnn_status_success) {
      TF_LITE_KERNEL_LOG(context, "%s: xnn_setup_runtime failed", kName);
      return kTfLiteError;
    }
    seg->setup_pointers = pointers;
  }
  const uint32_t event = profiler != nullptr
                             ? profiler->BeginEvent("XNNPACK runtime", kEvent,
                                                    seg->nodes.empty() ? -1 : seg->nodes.front(), 0)
                             : 0;
  const xnn_status invoked = xnn_invoke_runtime(seg->runtime);
  if (profiler != nullptr) profiler->EndEvent(event);
  if (invoked != xnn_status_success) {
    TF_LITE_KERNEL_LOG(context, "%s: xnn_invoke_runtime failed", kName);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus XnnpackKernel::Eval(TfLiteContext* context, TfLiteNode*) {
  for (Segment& segment : segments_) TF_LITE_ENSURE_STATUS(RunSegment(context, &segment));
  // Dequantized weights that nodes outside the partition also read.
  for (const auto& f : folded_outputs_) {
    TfLiteTensor& t = context->tensors[f.tensor];
    if (t.allocation_type != kTfLitePersistentRo) std::memcpy(t.data.raw, f.data, f.bytes);
  }
  return kTfLiteOk;
}

// Float32 copy of the FLOAT16 constant `half`, kept as the static data of tensor `t`.
void XnnpackKernel::DequantizeWeights(const TfLiteTensor& half, int t) {
  const size_t count = half.bytes / sizeof(uint16_t);
  auto buf = std::make_unique<float[]>(count);
  const auto* h = reinterpret_cast<const uint16_t*>(half.data.raw);
  for (size_t k = 0; k < count; ++k) buf[k] = tflite::fp16::HalfToFloat(h[k]);
  static_data_[t] = buf.get();
  weights_.push_back(std::move(buf));
}

TfLiteStatus XnnpackKernel::DefineValue(TfLiteContext* context, xnn_subgraph_t subgraph, int t,
                                        uint32_t flags, const VisitContext& v,
                                        std::vector<uint32_t>* ids) {
  const TfLiteTensor& tensor = context->tensors[t];
  size_t dims[XNN_MAX_TENSOR_DIMS];
  if (tensor.dims == nullptr || tensor.dims->size > XNN_MAX_TENSOR_DIMS) {
    TF_LITE_KERNEL_LOG(context, "%s: tensor %d has an unsupported rank", kName, t);
    return kTfLiteError;
  }
  for (int i = 0; i < tensor.dims->size; ++i) dims[i] = static_cast<size_t>(tensor.dims->data[i]);
  const uint32_t external = flags != 0 ? static_cast<uint32_t>(t) : XNN_INVALID_VALUE_ID;
  const void* data = IsStatic(v, t) ? StaticData(v, t) : nullptr;
  const auto* q = tensor.quantization.type == kTfLiteAffineQuantization
                      ? static_cast<const TfLiteAffineQuantization*>(tensor.quantization.params)
                      : nullptr;
  uint32_t* id = &(*ids)[t];
  xnn_status st;
  if (static_data_[t] == nullptr && q != nullptr && q->scale != nullptr &&
      (tensor.type == kTfLiteInt8 || tensor.type == kTfLiteUInt8 || tensor.type == kTfLiteInt32)) {
    if (q->scale->size > 1) {
      st = xnn_define_channelwise_quantized_tensor_value(
          subgraph, tensor.type == kTfLiteInt32 ? xnn_datatype_qcint32 : xnn_datatype_qcint8,
          q->scale->data, tensor.dims->size, static_cast<size_t>(q->quantized_dimension), dims,
          data, external, flags, id);
    } else {
      const xnn_datatype type = tensor.type == kTfLiteInt8    ? xnn_datatype_qint8
                                : tensor.type == kTfLiteUInt8 ? xnn_datatype_quint8
                                                              : xnn_datatype_qint32;
      st = xnn_define_quantized_tensor_value(subgraph, type, ZeroPointOf(tensor), ScaleOf(tensor),
                                             tensor.dims->size, dims, data, external, flags, id);
    }
  } else {
    st = xnn_define_tensor_value(subgraph, xnn_datatype_fp32, tensor.dims->size, dims, data,
                                 external, flags, id);
  }
  if (st != xnn_status_success) {
    TF_LITE_KERNEL_LOG(context, "%s: cannot define tensor %d (xnn_status %d)", kName, t,
                       static_cast<int>(st));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace xnnpack
}  // namespace tflite_inspect
