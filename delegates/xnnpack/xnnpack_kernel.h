// One XNNPACK partition. Its nodes, in plan order, are cut into segments: each maximal
// run of nodes XNNPACK can express becomes one XNNPACK runtime, and each run of ops
// this XNNPACK lacks (CONCATENATION, SLICE, ...; ops_glue.cc) is run by this kernel as
// strided copies, so such ops do not split the partition. Tensors internal to the
// partition get no arena memory from the interpreter: the kernel owns a buffer for each
// one that crosses between segments; the rest stay inside their XNNPACK runtime.
// Static weights are packed once, in Init. Not thread-safe (one Invoke at a time).
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_KERNEL_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_KERNEL_H_

#include <xnnpack.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/utils/simple_delegate.h"
#include "xnnpack/node_visitor.h"

namespace tflite_inspect {
namespace xnnpack {

class XnnpackKernel : public tflite::SimpleDelegateKernelInterface {
 public:
  // fp16_sources: float tensor -> the FLOAT16 constant a DEQUANTIZE makes it from.
  XnnpackKernel(bool force_fp16, std::map<int, int> fp16_sources)
      : force_fp16_(force_fp16), fp16_sources_(std::move(fp16_sources)) {}
  ~XnnpackKernel() override;

  TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) override;
  TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) override;
  TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) override;

 private:
  struct Segment {
    std::vector<int> nodes;
    bool xnnpack = true;              // else: copies run by the kernel
    xnn_runtime_t runtime = nullptr;  // xnnpack
    std::vector<int> externals;       // xnnpack: tensors bound at setup
    std::vector<uint32_t> external_ids;
    std::vector<void*> setup_pointers;
    std::vector<StridedCopy> copies;  // !xnnpack
  };
  struct Folded {
    int tensor;
    const float* data;
    size_t bytes;
  };

  void DequantizeWeights(const TfLiteTensor& half, int t);
  TfLiteStatus DequantizeFp16Weights(TfLiteContext* context, const std::vector<int>& nodes,
                                     const std::set<int>& outputs);
  void CutSegments(TfLiteContext* context, const std::vector<int>& nodes);
  TfLiteStatus CreateRuntime(TfLiteContext* context, Segment* segment);
  TfLiteStatus DefineValue(TfLiteContext* context, xnn_subgraph_t subgraph, int t, uint32_t flags,
                           const VisitContext& v, std::vector<uint32_t>* ids);
  // Where tensor t's bytes are now: the kernel's buffer, static data, or the tensor's.
  void* Pointer(TfLiteContext* context, int t) const;
  TfLiteStatus RunSegment(TfLiteContext* context, Segment* segment);
  void Note(TfLiteContext* context, int nodes) const;

  bool force_fp16_;
  std::map<int, int> fp16_sources_;
  std::set<int> inputs_, outputs_;
  std::vector<Segment> segments_;
  std::vector<int> producer_;  // tensor -> segment writing it, -1 outside the partition
  // Tensor -> buffer of a tensor internal to the partition that crosses segments.
  std::map<int, std::unique_ptr<float[]>> owned_;
  std::vector<const float*> static_data_;
  std::vector<std::unique_ptr<float[]>> weights_;
  std::vector<Folded> folded_outputs_;
};

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_KERNEL_H_
