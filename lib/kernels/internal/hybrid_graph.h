// Whether a graph holds dynamic-range (hybrid) nodes: float activations times 8-bit
// constant weights. Their input quantization turns a one-ulp difference in the float values
// it reads into a whole step, so the float kernels in such graphs (builtin CONV_2D and
// FULLY_CONNECTED, the XNNPACK delegate's own BATCH_MATMUL step) sum in TFLite's builtin order
// there (gemm::GemmKernel::kTfliteGemmOrder, kTfliteMatMulOrder) and in their fastest order
// elsewhere.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_GRAPH_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_GRAPH_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite {
namespace hybrid {

// Over the context's execution plan (the subgraph being prepared). True where the plan
// cannot be read, so that a caller errs on TFLite's order.
bool GraphHasHybridNodes(TfLiteContext* context);

// Whether a node of the plan QUANTIZEs `tensor` (a float kernel inside a full-integer graph,
// as the converter leaves CONV_3D): a last-bit difference in it can then move a step, so
// such kernels sum in TFLite's reference order. True where the plan cannot be read.
bool FeedsQuantize(TfLiteContext* context, int tensor);

}  // namespace hybrid
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_GRAPH_H_
