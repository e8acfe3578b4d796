// One function per op both answers "can the GPU delegate run this node (and if not,
// why)" and, given a Builder, records the OpenCL kernel launches that compute it, so the
// check cannot drift from what is built (STYLE.md, habit 6).
#ifndef TFLITE_INSPECT_DELEGATES_GPU_OPS_H_
#define TFLITE_INSPECT_DELEGATES_GPU_OPS_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/cl_env.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_inspect {
namespace gpu {

// A kernel argument by value: a buffer, an int, a float or an int2/int4.
struct KernelArg {
  size_t size = 0;
  std::array<unsigned char, 16> bytes{};
  template <typename T>
  static KernelArg Of(const T& v) {
    static_assert(sizeof(T) <= 16, "kernel argument too large");
    KernelArg a;
    a.size = sizeof(T);
    std::memcpy(a.bytes.data(), &v, sizeof(T));
    return a;
  }
};
inline KernelArg Arg(cl_mem m) { return KernelArg::Of(m); }
inline KernelArg Arg(int v) { return KernelArg::Of(static_cast<cl_int>(v)); }
inline KernelArg Arg(float v) { return KernelArg::Of(v); }
inline KernelArg Arg(const cl_int4& v) { return KernelArg::Of(v); }
inline KernelArg Arg(const cl_int2& v) { return KernelArg::Of(v); }

// The widest work-group of LaunchGroups: the kernels' GROUP_WIDTH (given at program
// build), which sizes their local arrays.
constexpr size_t kGroupWidth = 64;
// From this many taps per output on, pooling and reductions use a work-group per output
// (a work-item alone would walk them serially: a 128x128 global average pool is 4
// work-items for 16 channels).
constexpr int kGroupReduceMin = 64;

// Makes device buffers and kernel launches for one partition (gpu_delegate.cc).
class Builder {
 public:
  virtual ~Builder() = default;
  // The device buffer of a runtime tensor (activations, in the storage type).
  virtual cl_mem Tensor(int tensor) = 0;
  // `out` uses `in`'s buffer (RESHAPE, SQUEEZE: same dense layout).
  virtual void Alias(int out, int in) = 0;
  // A read-only buffer holding `bytes` (weights, tables), uploaded now.
  virtual cl_mem Constant(const void* data, size_t bytes) = 0;
  // Appends a launch of `kernel` over `global` work-items (rounded up to work-groups).
  virtual bool Launch(const char* kernel, const std::vector<KernelArg>& args,
                      std::vector<size_t> global) = 0;
  // Appends a launch of `groups` 1-D work-groups of a power-of-two width up to
  // kGroupWidth: kernels that reduce one output per group in local memory.
  virtual bool LaunchGroups(const char* kernel, const std::vector<KernelArg>& args, size_t groups) = 0;
  // Float data of a constant tensor (FLOAT32, or FLOAT16 weights dequantized).
  virtual const float* ConstFloat(int tensor) = 0;
};

struct OpContext {
  TfLiteContext* context = nullptr;
  Builder* build = nullptr;  // null: check only
  bool enable_quant = false;
  std::string reason;        // why the node is not supported, or why building failed

  bool Refuse(std::string why) {
    reason = std::move(why);
    return false;
  }
  const TfLiteTensor& T(int index) const { return context->tensors[index]; }
};

// Whether the node is supported (check mode) or was built (build mode).
bool VisitNode(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);

// --- Helpers shared by the op files (ops_common.cc) ---
// INT8/UINT8 with affine quantization.
bool IsQuantized8(const TfLiteTensor& t);
// Scale and zero point of a per-tensor quantized INT8/UINT8 tensor; false otherwise.
bool PerTensorQuant(const TfLiteTensor& t, float* scale, int* zero_point);
// Model constants and folded constants (e.g. DEQUANTIZE of fp16 weights at prepare).
bool IsConstant(const TfLiteTensor& t);
// An activation tensor the GPU can hold: FLOAT32 (or per-tensor INT8/UINT8 with
// enable_quant, held as real values), rank 1-4, static shape.
bool CheckActivation(OpContext& c, int tensor, const char* what);
// A constant FLOAT32 tensor (or FLOAT16, or with enable_quant INT8/UINT8/INT32 with
// affine quantization: dequantized at prepare).
bool CheckConstFloat(OpContext& c, int tensor, const char* what);
// The clamp range of a fused activation; false (with a reason) for unsupported ones.
bool ActivationRange(OpContext& c, TfLiteFusedActivation act, float* lo, float* hi);
// The shape right-aligned to 4-D (leading 1s).
cl_int4 Shape4(const TfLiteTensor& t);
int NumElements(const TfLiteTensor& t);
// Global work for 4-channel-per-item NHWC kernels: (W, N*H, ceil(C/4)).
std::vector<size_t> PixelWork(const cl_int4& oshape);
// Global work for (last axis, the rest) kernels.
std::vector<size_t> RowWork(const cl_int4& shape, int per_item = 1);

// Op families (ops_*.cc).
bool VisitConv2D(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitDepthwiseConv2D(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitTransposeConv(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitFullyConnected(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitTransposeConvBias(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitLandmarksToMatrix(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitTransformLandmarks(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitTransformTensorBilinear(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitPooling(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitMean(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitSoftmax(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitUnary(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitBinary(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitReshape(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitConcatenation(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitSliceLike(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitTranspose(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitPad(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitResize(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitSpaceDepth(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitDequantize(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);
bool VisitQuantize(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg);

}  // namespace gpu
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_GPU_OPS_H_
