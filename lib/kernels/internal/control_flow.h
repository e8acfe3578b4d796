// Helpers of the control-flow kernels (IF, WHILE, CALL_ONCE): find the subgraphs a
// node names, and move tensor values (shape and bytes) into a subgraph's inputs or out
// of its outputs, resizing and re-allocating the target when shapes differ, as TFLite's
// control_flow_common.h does.
//
// Values are staged through a copy (TensorValue), so a subgraph whose AllocateTensors
// moves its arena cannot invalidate the source. Types are checked equal; string,
// resource and variant tensors are not supported (their bytes are not a flat value).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_CONTROL_FLOW_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_CONTROL_FLOW_H_

#include <algorithm>
#include <cstring>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace control_flow {

// The subgraph `index` of the interpreter, or an error naming `what` when it is out of
// range or is the calling subgraph itself.
inline TfLiteStatus GetSubgraph(TfLiteContext* context, int index, const char* what,
                                Subgraph** out) {
  Subgraph* self = static_cast<Subgraph*>(context->impl_);
  auto* all = self->subgraphs();
  if (all == nullptr || index < 0 || static_cast<size_t>(index) >= all->size() ||
      index == self->index()) {
    TF_LITE_KERNEL_LOG(context, "%s subgraph index %d is invalid (the model has %d subgraphs).",
                       what, index, all == nullptr ? 0 : static_cast<int>(all->size()));
    return kTfLiteError;
  }
  *out = (*all)[index].get();
  return kTfLiteOk;
}

inline bool FlatType(TfLiteType t) {
  return t != kTfLiteString && t != kTfLiteResource && t != kTfLiteVariant;
}

// A tensor's shape and bytes.
struct TensorValue {
  std::vector<int> dims;
  std::vector<char> bytes;
};

// Into `v`, reusing its buffers (a loop snapshots every iteration).
inline void SnapshotInto(const TfLiteTensor* t, TensorValue* v) {
  v->dims.assign(t->dims->data, t->dims->data + t->dims->size);
  if (t->bytes > 0 && t->data.raw != nullptr) {
    v->bytes.assign(t->data.raw, t->data.raw + t->bytes);
  } else {
    v->bytes.clear();
  }
}

inline TensorValue Snapshot(const TfLiteTensor* t) {
  TensorValue v;
  SnapshotInto(t, &v);
  return v;
}

// (skipping the indices `keep` marks: their values are unchanged)
inline void SnapshotAll(Subgraph* sg, const std::vector<int>& indices,
                        std::vector<TensorValue>* values, const std::vector<bool>* keep = nullptr) {
  values->resize(indices.size());
  for (size_t i = 0; i < indices.size(); ++i) {
    if (keep != nullptr && (*keep)[i]) continue;
    SnapshotInto(sg->tensor(indices[i]), &(*values)[i]);
  }
}

// Which of sg's inputs a node of sg reads or sg outputs as it is; the others' values
// never matter (a WHILE condition typically reads only its counter), so SetInputs need
// not copy them.
inline std::vector<bool> ReadInputs(Subgraph* sg) {
  const std::vector<int>& inputs = sg->inputs();
  std::vector<bool> read(inputs.size(), false);
  auto mark = [&](int t) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i] == t) read[i] = true;
    }
  };
  for (int t : sg->outputs()) mark(t);
  for (size_t n = 0; n < sg->nodes_size(); ++n) {
    const TfLiteIntArray* node_inputs =
        sg->node_and_registration(static_cast<int>(n))->first.inputs;
    for (int k = 0; node_inputs != nullptr && k < node_inputs->size; ++k)
      mark(node_inputs->data[k]);
  }
  return read;
}

inline bool SameDims(const TfLiteTensor* t, const std::vector<int>& dims) {
  return t->dims != nullptr && static_cast<size_t>(t->dims->size) == dims.size() &&
         std::equal(dims.begin(), dims.end(), t->dims->data);
}

// Whether a node of sg writes tensor t.
inline bool NodeWrites(Subgraph* sg, int t) {
  for (size_t n = 0; n < sg->nodes_size(); ++n) {
    const TfLiteIntArray* outs = sg->node_and_registration(static_cast<int>(n))->first.outputs;
    for (int k = 0; outs != nullptr && k < outs->size; ++k) {
      if (outs->data[k] == t) return true;
    }
  }
  return false;
}

// Of the inputs `candidates` marks, those whose bytes hold a value copied in until the
// next copy: listed once among sg's inputs, not a variable (stateful kernels write those
// in place) and written by no node of sg (inputs live through the whole arena plan).
inline std::vector<bool> KeptInputs(Subgraph* sg, const std::vector<bool>& candidates) {
  const std::vector<int>& inputs = sg->inputs();
  std::vector<bool> kept(inputs.size(), false);
  for (size_t i = 0; i < inputs.size() && i < candidates.size(); ++i) {
    const TfLiteTensor* t = sg->tensor(inputs[i]);
    kept[i] = candidates[i] && t != nullptr && !t->is_variable &&
              std::count(inputs.begin(), inputs.end(), inputs[i]) == 1 &&
              !NodeWrites(sg, inputs[i]);
  }
  return kept;
}

// The loop variables a WHILE body passes through unchanged (its output i is its input i,
// a kept input): their value is the loop's initial one on every iteration, so they need
// no snapshot and, once copied in, no copy (a Keras LSTM's input sequence is one: copying
// it twice an iteration was most of that loop's copying).
inline std::vector<bool> PassThrough(Subgraph* body) {
  const std::vector<int>& inputs = body->inputs();
  const std::vector<int>& outputs = body->outputs();
  std::vector<bool> same(inputs.size(), false);
  for (size_t i = 0; i < inputs.size() && i < outputs.size(); ++i)
    same[i] = inputs[i] == outputs[i];
  return KeptInputs(body, same);
}

// Where SetInputs last copied each input of a subgraph (null: not yet).
using Placed = std::vector<const char*>;

// Resizes the inputs of `sg` to `values`' shapes and allocates its tensors, then copies
// the bytes in (unless copy is false: Prepare knows shapes only; with `read`
// (ReadInputs), only the inputs sg reads). With `invariant` and `placed`: an input whose
// value does not change between calls (and is a KeptInputs one of sg) and that was copied
// into the same bytes of an arena not planned again since is not copied again.
inline TfLiteStatus SetInputs(TfLiteContext* context, Subgraph* sg,
                              const std::vector<TensorValue>& values, bool copy = true,
                              const std::vector<bool>* read = nullptr,
                              const std::vector<bool>* invariant = nullptr,
                              Placed* placed = nullptr) {
  TF_LITE_ENSURE_EQ(context, sg->inputs().size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const int index = sg->inputs()[i];
    if (!SameDims(sg->tensor(index), values[i].dims)) {
      TF_LITE_ENSURE_OK(context, sg->ResizeInputTensor(index, values[i].dims));
    }
  }
  // An invokable subgraph's AllocateTensors changes nothing: its arena keeps its bytes.
  const bool kept = sg->IsInvokable();
  TF_LITE_ENSURE_OK(context, sg->AllocateTensors());
  if (placed != nullptr) placed->resize(values.size(), nullptr);
  for (size_t i = 0; copy && i < values.size(); ++i) {
    if (read != nullptr && !(*read)[i]) continue;
    TfLiteTensor* t = sg->tensor(sg->inputs()[i]);
    TF_LITE_ENSURE_EQ(context, t->bytes, values[i].bytes.size());
    if (placed != nullptr && invariant != nullptr && (*invariant)[i]) {
      if (kept && t->data.raw != nullptr && (*placed)[i] == t->data.raw) continue;
      (*placed)[i] = t->data.raw;
    }
    if (t->bytes > 0) std::memcpy(t->data.raw, values[i].bytes.data(), t->bytes);
  }
  return kTfLiteOk;
}

// Copies `values` into the node's tensors `outputs` (resizing those whose shape differs;
// during Invoke that turns them dynamic).
inline TfLiteStatus SetNodeTensors(TfLiteContext* context, const TfLiteIntArray* outputs,
                                   const std::vector<TensorValue>& values) {
  TF_LITE_ENSURE_EQ(context, static_cast<size_t>(outputs->size), values.size());
  for (int i = 0; i < outputs->size; ++i) {
    if (outputs->data[i] == kTfLiteOptionalTensor) continue;
    TfLiteTensor* t = &context->tensors[outputs->data[i]];
    if (!SameDims(t, values[i].dims) || (t->data.raw == nullptr && !values[i].bytes.empty())) {
      TfLiteIntArray* dims = TfLiteIntArrayCreate(static_cast<int>(values[i].dims.size()));
      std::copy(values[i].dims.begin(), values[i].dims.end(), dims->data);
      TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, t, dims));
    }
    TF_LITE_ENSURE_EQ(context, t->bytes, values[i].bytes.size());
    if (t->bytes > 0) std::memcpy(t->data.raw, values[i].bytes.data(), t->bytes);
  }
  return kTfLiteOk;
}

// Values of the node's tensors `indices` (skipping none: optional entries are errors).
inline TfLiteStatus SnapshotNode(TfLiteContext* context, const TfLiteIntArray* indices, int first,
                                 std::vector<TensorValue>* out) {
  out->clear();
  for (int i = first; i < indices->size; ++i) {
    TF_LITE_ENSURE(context, indices->data[i] >= 0);
    out->push_back(Snapshot(&context->tensors[indices->data[i]]));
  }
  return kTfLiteOk;
}

// Checks that tensors `a` (of the node, from `first`) and the subgraph's `b` agree in count
// and type, and that the types are flat values.
inline TfLiteStatus CheckTypes(TfLiteContext* context, const TfLiteIntArray* a, int first,
                               Subgraph* sg, const std::vector<int>& b, const char* what) {
  if (static_cast<size_t>(a->size - first) != b.size()) {
    TF_LITE_KERNEL_LOG(context, "%s: the subgraph has %d tensors, the node %d.", what,
                       static_cast<int>(b.size()), a->size - first);
    return kTfLiteError;
  }
  for (size_t i = 0; i < b.size(); ++i) {
    const int ti = a->data[first + i];
    TF_LITE_ENSURE(context, ti >= 0);
    const TfLiteTensor* x = &context->tensors[ti];
    const TfLiteTensor* y = sg->tensor(b[i]);
    TF_LITE_ENSURE(context, y != nullptr);
    if (x->type != y->type || !FlatType(x->type)) {
      TF_LITE_KERNEL_LOG(context, "%s %d: type %s vs %s in the subgraph (flat types only).", what,
                         static_cast<int>(i), TfLiteTypeGetName(x->type),
                         TfLiteTypeGetName(y->type));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

}  // namespace control_flow
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_CONTROL_FLOW_H_
