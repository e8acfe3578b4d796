#include "gpu/gpu_delegate.h"

#include <algorithm>
#include <cstring>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "delegate/partition_helper.h"
#include "gpu/ops.h"
#include "kernels/internal/fp16.h"
#include "runtime/delegation_record.h"
#include "runtime/runtime_context.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_inspect {

namespace gpu {
extern const char* const kKernelSource;  // cl_sources.cc, generated from cl/*.cl
}  // namespace gpu

namespace {

using gpu::Arg;
using gpu::ClErrorName;
using gpu::KernelArg;

constexpr char kName[] = "TfLiteGpuDelegateV2";

class GpuDelegate;

// One partition: device buffers for its tensors, constants uploaded once, and the list
// of kernel launches that computes it.
class GpuPartition : public gpu::Builder {
 public:
  // A tensor crossing the partition boundary.
  struct Boundary {
    int tensor;
    cl_mem buffer;   // the tensor's storage
    cl_mem staging;  // host-format twin (float32 under fp16 storage, or the 8-bit data), else null
    int count;
    TfLiteType type;
    float scale;     // INT8/UINT8: the tensor's quantization
    int zero_point;
    cl_kernel convert = nullptr;  // staging <-> storage, arguments set once (null: none needed)
    bool quantized() const { return type == kTfLiteInt8 || type == kTfLiteUInt8; }
    size_t host_bytes() const { return static_cast<size_t>(count) * (quantized() ? 1 : 4); }
  };
  explicit GpuPartition(GpuDelegate* delegate);
  ~GpuPartition() override;

  TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params);
  TfLiteStatus Eval(TfLiteContext* context);
  // CopyFromBufferHandle: the partition output behind `handle` into `tensor`'s host data.
  TfLiteStatus ReadBack(TfLiteContext* context, TfLiteBufferHandle handle, TfLiteTensor* tensor);
  // Before the partition goes: its outputs' host data is theirs again (no stale marks,
  // no handles), e.g. when the runtime undoes the delegate for a resize.
  void Release(TfLiteContext* context);
  const Boundary* Output(TfLiteBufferHandle handle) const;
  // A kernel with its arguments set, owned by the partition (boundary conversions).
  cl_kernel MakeKernel(const char* kernel, const std::vector<KernelArg>& args);
  // A launch step's kernel with its arguments set; null after Fail.
  cl_kernel StepKernel(const char* kernel, const std::vector<KernelArg>& args);
  // Enqueues a boundary's conversion, if it has one.
  cl_int Convert(const Boundary& b);

  // gpu::Builder
  cl_mem Tensor(int tensor) override;
  void Alias(int out, int in) override {
    Tensor(in);
    const int root = Root(in);
    alias_[out] = root;
    auto last = last_use_.find(out);
    auto& r = root_last_[root];
    r = std::max(r, last != last_use_.end() ? last->second : std::numeric_limits<int>::max());
    if (pinned_.count(out)) r = std::numeric_limits<int>::max();
  }
  cl_mem Constant(const void* data, size_t bytes) override;
  bool Launch(const char* kernel, const std::vector<KernelArg>& args, std::vector<size_t> global) override;
  bool LaunchGroups(const char* kernel, const std::vector<KernelArg>& args, size_t groups) override;
  const float* ConstFloat(int tensor) override;

 private:
  int Root(int t) const {
    auto it = alias_.find(t);
    return it == alias_.end() ? t : it->second;
  }
  cl_mem NewBuffer(size_t bytes, cl_mem_flags flags, const void* host);
  // Returns to the pool the buffers of tensors whose last use was at `position`
  // or before.
  void ReleaseFinished(int position) {
    for (auto it = root_last_.begin(); it != root_last_.end();) {
      if (it->second <= position && !pinned_.count(it->first)) {
        cl_mem m = buffers_[it->first];
        if (m != nullptr && sizes_.count(m)) free_.insert({sizes_[m], m});
        it = root_last_.erase(it);
      } else {
        ++it;
      }
    }
  }
  void Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }

  struct Step {
    cl_kernel kernel;
    cl_uint dims;
    size_t global[3];
    size_t local[3];
    int node;
  };

  GpuDelegate* delegate_;
  TfLiteContext* context_ = nullptr;
  int current_node_ = -1;
  std::string current_op_;
  std::string error_;
  std::map<int, cl_mem> buffers_;  // tensor -> buffer (roots only)
  std::map<int, int> alias_;
  // Activation buffers are shared between tensors whose lifetimes (in partition order)
  // do not overlap: the queue is in order, so a buffer is free again once the last
  // launch reading its tensor is enqueued.
  std::map<int, int> last_use_;          // tensor -> last node position that uses it
  std::set<int> pinned_;                 // partition inputs and outputs: never shared
  std::map<cl_mem, size_t> sizes_;       // activation buffer -> bytes
  std::multimap<size_t, cl_mem> free_;   // free activation buffers by size
  std::map<int, int> root_last_;         // root tensor -> last position of any alias
  std::vector<cl_mem> owned_;
  std::map<int, std::vector<float>> const_floats_;  // FLOAT16 constants made FLOAT32
  std::vector<Step> steps_;
  std::vector<cl_kernel> kernels_;  // MakeKernel's
  std::vector<Boundary> inputs_, outputs_;
  std::map<TfLiteBufferHandle, size_t> handles_;  // buffer handle -> outputs_ index
  int64_t device_bytes_ = 0;
};

class GpuDelegate {
 public:
  GpuDelegate(const GpuDelegateOptions& options, std::shared_ptr<gpu::ClEnv> env, cl_program program)
      : options_(options), env_(std::move(env)), program_(program) {
    delegate_ = TfLiteDelegateCreate();
    delegate_.data_ = this;
    delegate_.flags = kTfLiteDelegateFlagsNone;  // static shapes: partitions are built once
    delegate_.Prepare = PrepareThunk;
    delegate_.CopyFromBufferHandle = [](TfLiteContext* context, TfLiteDelegate* d, TfLiteBufferHandle handle,
                                        TfLiteTensor* tensor) {
      GpuPartition* owner = static_cast<GpuDelegate*>(d->data_)->Owner(handle);
      if (owner == nullptr) {
        TF_LITE_KERNEL_LOG(context, "%s: buffer handle %d is not live", kName, handle);
        return kTfLiteError;
      }
      return owner->ReadBack(context, handle, tensor);
    };
    // Handles belong to partitions, which release them themselves.
    delegate_.FreeBufferHandle = [](TfLiteContext*, TfLiteDelegate*, TfLiteBufferHandle* handle) {
      *handle = kTfLiteNullBufferHandle;
    };
  }

  TfLiteBufferHandle NewHandle(GpuPartition* owner) {
    owners_[next_handle_] = owner;
    return next_handle_++;
  }
  void DropHandle(TfLiteBufferHandle h) { owners_.erase(h); }
  // The live partition behind a handle, or null.
  GpuPartition* Owner(TfLiteBufferHandle h) const {
    auto it = owners_.find(h);
    return it == owners_.end() ? nullptr : it->second;
  }

  static TfLiteStatus PrepareThunk(TfLiteContext* context, TfLiteDelegate* d) {
    return static_cast<GpuDelegate*>(d->data_)->Prepare(context);
  }

  TfLiteDelegate* delegate() { return &delegate_; }
  const GpuDelegateOptions& options() const { return options_; }
  gpu::ClEnv& env() { return *env_; }
  cl_program program() const { return program_; }
  bool fp16_storage() const { return options_.precision_loss_allowed; }
  GpuDelegateStats& stats() { return stats_; }

 private:
  TfLiteStatus Prepare(TfLiteContext* context);

  GpuDelegateOptions options_;
  std::shared_ptr<gpu::ClEnv> env_;
  cl_program program_;
  TfLiteDelegate delegate_;
  GpuDelegateStats stats_;
  std::map<TfLiteBufferHandle, GpuPartition*> owners_;
  TfLiteBufferHandle next_handle_ = 1;
};

GpuPartition::GpuPartition(GpuDelegate* delegate) : delegate_(delegate) {}

GpuPartition::~GpuPartition() {
  Release(nullptr);
  for (auto& s : steps_) clReleaseKernel(s.kernel);
  for (cl_kernel k : kernels_) clReleaseKernel(k);
  for (cl_mem m : owned_) clReleaseMemObject(m);
  delegate_->stats().device_bytes -= device_bytes_;
}

cl_mem GpuPartition::NewBuffer(size_t bytes, cl_mem_flags flags, const void* host) {
  if (!error_.empty()) return nullptr;
  cl_int err = CL_SUCCESS;
  // At least 4 bytes (an empty or one-half buffer is still a valid kernel argument); the
  // copy of a shorter host value is padded first, or OpenCL reads past its end.
  uint8_t padded[4] = {};
  if (host != nullptr && bytes < sizeof padded) {
    if (bytes > 0) std::memcpy(padded, host, bytes);
    host = padded;
  }
  cl_mem m = clCreateBuffer(delegate_->env().context(), flags | (host != nullptr ? CL_MEM_COPY_HOST_PTR : 0),
                            std::max<size_t>(bytes, 4), const_cast<void*>(host), &err);
  if (err != CL_SUCCESS) {
    Fail(fmt::format("node {} ({}): cannot allocate {} bytes on OpenCL device {}: {}", current_node_,
                     current_op_, bytes, delegate_->env().info().Describe(), ClErrorName(err)));
    return nullptr;
  }
  owned_.push_back(m);
  device_bytes_ += static_cast<int64_t>(bytes);
  delegate_->stats().device_bytes += static_cast<int64_t>(bytes);
  return m;
}

const float* GpuPartition::ConstFloat(int t) {
  const TfLiteTensor& tensor = context_->tensors[t];
  if (tensor.type == kTfLiteFloat32) return tensor.data.f;
  auto it = const_floats_.find(t);
  if (it != const_floats_.end()) return it->second.data();
  std::vector<float>& f = const_floats_[t];
  const int n = gpu::NumElements(tensor);
  f.resize(static_cast<size_t>(n));
  if (tensor.type == kTfLiteFloat16) {
    const auto* h = reinterpret_cast<const uint16_t*>(tensor.data.raw);
    for (int i = 0; i < n; ++i) f[static_cast<size_t>(i)] = tflite::fp16::HalfToFloat(h[i]);
    return f.data();
  }
  // INT8 / UINT8 / INT32 with affine quantization, per tensor or per channel.
  const auto* q = static_cast<const TfLiteAffineQuantization*>(tensor.quantization.params);
  const int channels = q->scale->size;
  const int axis = channels > 1 ? q->quantized_dimension : 0;
  int inner = 1;
  for (int d = axis + 1; channels > 1 && d < tensor.dims->size; ++d) inner *= tensor.dims->data[d];
  for (int i = 0; i < n; ++i) {
    const int ch = channels > 1 ? (i / inner) % channels : 0;
    const float scale = q->scale->data[ch];
    const int zp = q->zero_point != nullptr && q->zero_point->size > ch ? q->zero_point->data[ch] : 0;
    const int v = tensor.type == kTfLiteInt8    ? tensor.data.int8[i]
                  : tensor.type == kTfLiteUInt8 ? tensor.data.uint8[i]
                                                : tensor.data.i32[i];
    f[static_cast<size_t>(i)] = static_cast<float>(v - zp) * scale;
  }
  return f.data();
}

cl_mem GpuPartition::Tensor(int tensor) {
  const int t = Root(tensor);
  auto it = buffers_.find(t);
  if (it != buffers_.end()) return it->second;
  const TfLiteTensor& x = context_->tensors[t];
  const int n = gpu::NumElements(x);
  const size_t elem = delegate_->fp16_storage() ? 2 : 4;
  cl_mem m;
  if (gpu::IsConstant(x)) {
    // A constant operand (e.g. a MUL's scale): uploaded once, in the storage type.
    const float* f = ConstFloat(t);
    if (elem == 2) {
      std::vector<uint16_t> h(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) h[static_cast<size_t>(i)] = tflite::fp16::FloatToHalf(f[i]);
      m = NewBuffer(h.size() * 2, CL_MEM_READ_ONLY, h.data());
    } else {
      m = NewBuffer(static_cast<size_t>(n) * 4, CL_MEM_READ_ONLY, f);
    }
  } else {
    const size_t bytes = static_cast<size_t>(n) * elem;
    auto best = free_.lower_bound(bytes);
    if (!pinned_.count(t) && best != free_.end()) {
      m = best->second;
      free_.erase(best);
    } else {
      m = NewBuffer(bytes, CL_MEM_READ_WRITE, nullptr);
      if (m != nullptr) sizes_[m] = bytes;
    }
    auto last = last_use_.find(t);
    root_last_[t] = last != last_use_.end() ? last->second : std::numeric_limits<int>::max();
  }
  buffers_[t] = m;
  return m;
}

cl_mem GpuPartition::Constant(const void* data, size_t bytes) {
  return NewBuffer(bytes, CL_MEM_READ_ONLY, data);
}

// A step's kernel with its arguments set; null after Fail (naming the node).
cl_kernel GpuPartition::StepKernel(const char* name, const std::vector<KernelArg>& args) {
  if (!error_.empty()) return nullptr;
  cl_int err = CL_SUCCESS;
  std::string what = "clCreateKernel";
  cl_kernel k = clCreateKernel(delegate_->program(), name, &err);
  for (size_t i = 0; i < args.size() && err == CL_SUCCESS; ++i) {
    err = clSetKernelArg(k, static_cast<cl_uint>(i), args[i].size, args[i].bytes.data());
    if (err != CL_SUCCESS) what = fmt::format("argument {}", i);
  }
  if (err != CL_SUCCESS) {
    if (k != nullptr) clReleaseKernel(k);
    Fail(fmt::format("node {} ({}): kernel '{}' on OpenCL device {}: {}: {}", current_node_, current_op_, name,
                     delegate_->env().info().Describe(), what, ClErrorName(err)));
    return nullptr;
  }
  return k;
}

bool GpuPartition::Launch(const char* name, const std::vector<KernelArg>& args, std::vector<size_t> global) {
  cl_kernel k = StepKernel(name, args);
  if (k == nullptr) return false;
  Step s{};
  s.kernel = k;
  s.node = current_node_;
  s.dims = static_cast<cl_uint>(global.size());
  // Work-groups: 64 items along the first axis for 1-D work, 16x4 for 2-D, 8x4x2 for
  // 3-D (pixels x rows x channel blocks), within the kernel's limit; the global size is
  // rounded up to whole groups (kernels check their bounds).
  size_t limit = 0;
  clGetKernelWorkGroupInfo(k, delegate_->env().device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(limit), &limit, nullptr);
  static const size_t kLocal[3][3] = {{64, 1, 1}, {16, 4, 1}, {8, 4, 2}};
  size_t total = 1;
  for (cl_uint d = 0; d < s.dims; ++d) {
    size_t l = kLocal[s.dims - 1][d];
    while (l > 1 && (l / 2 >= global[d] || total * l > std::max<size_t>(limit, 1))) l /= 2;
    s.local[d] = l;
    total *= l;
    s.global[d] = (std::max<size_t>(global[d], 1) + l - 1) / l * l;
  }
  steps_.push_back(s);
  return true;
}

bool GpuPartition::LaunchGroups(const char* name, const std::vector<KernelArg>& args, size_t groups) {
  // No outputs, no step: a group reads its output's inputs unchecked (an empty tensor's
  // buffer holds none).
  if (groups == 0) return error_.empty();
  cl_kernel k = StepKernel(name, args);
  if (k == nullptr) return false;
  Step s{};
  s.kernel = k;
  s.node = current_node_;
  s.dims = 1;
  // A power of two (the kernels' tree reduction halves it), at most kGroupWidth.
  size_t limit = 0;
  clGetKernelWorkGroupInfo(k, delegate_->env().device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(limit), &limit, nullptr);
  size_t width = gpu::kGroupWidth;
  while (width > 1 && width > std::max<size_t>(limit, 1)) width /= 2;
  s.local[0] = width;
  s.global[0] = groups * width;
  steps_.push_back(s);
  return true;
}

TfLiteStatus GpuPartition::Init(TfLiteContext* context, const TfLiteDelegateParams* params) {
  context_ = context;
  const auto& options = delegate_->options();
  for (const TfLiteIntArray* list : {params->input_tensors, params->output_tensors}) {
    for (int i = 0; i < list->size; ++i) pinned_.insert(list->data[i]);
  }
  for (int i = 0; i < params->nodes_to_replace->size; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, params->nodes_to_replace->data[i], &node, &reg));
    for (const TfLiteIntArray* list : {node->inputs, node->outputs}) {
      for (int k = 0; k < list->size; ++k) {
        if (list->data[k] >= 0) last_use_[list->data[k]] = i;
      }
    }
  }
  for (int i = 0; i < params->nodes_to_replace->size; ++i) {
    ReleaseFinished(i - 1);
    const int n = params->nodes_to_replace->data[i];
    TfLiteNode* node;
    TfLiteRegistration* reg;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
    current_node_ = n;
    current_op_ = OpNameOf(*reg);
    // Folded at prepare: their outputs are constants the consumers read.
    if ((reg->builtin_code == kTfLiteBuiltinDequantize || reg->builtin_code == kTfLiteBuiltinDensify) &&
        gpu::IsConstant(context->tensors[node->outputs->data[0]])) {
      continue;
    }
    gpu::OpContext c;
    c.context = context;
    c.build = this;
    c.enable_quant = options.enable_quant;
    if (!gpu::VisitNode(c, *node, *reg) || !error_.empty()) {
      TF_LITE_KERNEL_LOG(context, "%s: cannot build node %d (%s): %s", kName, n, current_op_.c_str(),
                         !error_.empty() ? error_.c_str() : c.reason.c_str());
      return kTfLiteError;
    }
    // Quantized outputs are rounded to their grid (aliases share their input's values).
    const bool alias = reg->builtin_code == kTfLiteBuiltinReshape || reg->builtin_code == kTfLiteBuiltinSqueeze ||
                       reg->builtin_code == kTfLiteBuiltinExpandDims;
    for (int o = 0; o < node->outputs->size && !alias; ++o) {
      const int t = node->outputs->data[o];
      float scale;
      int zp;
      if (!gpu::PerTensorQuant(context->tensors[t], &scale, &zp)) continue;
      const bool is_signed = context->tensors[t].type == kTfLiteInt8;
      const int count = gpu::NumElements(context->tensors[t]);
      Launch("fake_quant", {Arg(Tensor(t)), Arg(count), Arg(scale), Arg(zp), Arg(is_signed ? -128 : 0),
                            Arg(is_signed ? 127 : 255)},
             {static_cast<size_t>(count)});
    }
    if (!options.inject_fault_op.empty() && current_op_ == options.inject_fault_op) {
      for (int o = 0; o < node->outputs->size; ++o) {
        const int t = node->outputs->data[o];
        const int count = gpu::NumElements(context->tensors[t]);
        const float inf = std::numeric_limits<float>::infinity();
        Launch("unary", {Arg(Tensor(t)), Arg(Tensor(t)), Arg(count), Arg(7), Arg(0.0f), Arg(-inf), Arg(inf)},
               {static_cast<size_t>((count + 3) / 4)});
      }
    }
  }
  current_node_ = -1;
  current_op_ = "partition boundary";
  const bool half = delegate_->fp16_storage();
  auto boundary = [&](int t, bool input) -> Boundary {
    const TfLiteTensor& x = context->tensors[t];
    Boundary b{t, Tensor(t), nullptr, gpu::NumElements(x), x.type, 0.0f, 0};
    // A float32 or 8-bit twin for conversions on the device (fp16 storage, quantized),
    // and the kernel that converts, made once.
    const bool is_signed = x.type == kTfLiteInt8;
    if (gpu::PerTensorQuant(x, &b.scale, &b.zero_point)) {
      b.staging = NewBuffer(static_cast<size_t>(b.count), CL_MEM_READ_WRITE, nullptr);
      b.convert = input ? MakeKernel("dequantize_in", {Arg(b.staging), Arg(b.buffer), Arg(b.count), Arg(b.scale),
                                                       Arg(b.zero_point), Arg(is_signed ? 1 : 0)})
                        : MakeKernel("quantize_out", {Arg(b.buffer), Arg(b.staging), Arg(b.count), Arg(b.scale),
                                                      Arg(b.zero_point), Arg(is_signed ? -128 : 0),
                                                      Arg(is_signed ? 127 : 255)});
    } else if (half) {
      b.staging = NewBuffer(static_cast<size_t>(b.count) * 4, CL_MEM_READ_WRITE, nullptr);
      b.convert = input ? MakeKernel("to_storage", {Arg(b.staging), Arg(b.buffer), Arg(b.count)})
                        : MakeKernel("from_storage", {Arg(b.buffer), Arg(b.staging), Arg(b.count)});
    }
    return b;
  };
  for (int i = 0; i < params->input_tensors->size; ++i) {
    const int t = params->input_tensors->data[i];
    if (t < 0 || gpu::IsConstant(context->tensors[t]) || buffers_.count(Root(t)) == 0) continue;
    inputs_.push_back(boundary(t, true));
  }
  // Outputs stay on the device behind a buffer handle; the runtime copies them out
  // (CopyFromBufferHandle) only when something on the host reads them.
  for (int i = 0; i < params->output_tensors->size; ++i) {
    const int t = params->output_tensors->data[i];
    if (t < 0 || gpu::IsConstant(context->tensors[t])) continue;
    outputs_.push_back(boundary(t, false));
    const TfLiteBufferHandle h = delegate_->NewHandle(this);
    handles_[h] = outputs_.size() - 1;
    TfLiteTensor& x = context->tensors[t];
    x.delegate = delegate_->delegate();
    x.buffer_handle = h;
    x.data_is_stale = false;
  }
  if (!error_.empty()) {
    TF_LITE_KERNEL_LOG(context, "%s: %s", kName, error_.c_str());
    return kTfLiteError;
  }
  return kTfLiteOk;
}

const GpuPartition::Boundary* GpuPartition::Output(TfLiteBufferHandle handle) const {
  auto it = handles_.find(handle);
  return it == handles_.end() ? nullptr : &outputs_[it->second];
}

TfLiteStatus GpuPartition::ReadBack(TfLiteContext* context, TfLiteBufferHandle handle, TfLiteTensor* t) {
  const Boundary* b = Output(handle);
  if (b == nullptr || t->data.raw == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: cannot copy buffer handle %d out", kName, handle);
    return kTfLiteError;
  }
  cl_command_queue q = delegate_->env().queue();
  cl_int err = Convert(*b);
  if (err == CL_SUCCESS) {
    err = clEnqueueReadBuffer(q, b->staging != nullptr ? b->staging : b->buffer, CL_TRUE, 0, b->host_bytes(),
                              t->data.raw, 0, nullptr, nullptr);
  }
  if (err != CL_SUCCESS) {
    TF_LITE_KERNEL_LOG(context, "%s: reading back tensor %d on OpenCL device %s: %s", kName, b->tensor,
                       delegate_->env().info().Describe().c_str(), ClErrorName(err).c_str());
    return kTfLiteError;
  }
  delegate_->stats().bytes_from_device += static_cast<int64_t>(b->host_bytes());
  return kTfLiteOk;
}

void GpuPartition::Release(TfLiteContext* context) {
  for (const auto& [handle, index] : handles_) {
    delegate_->DropHandle(handle);
    if (context == nullptr) continue;
    TfLiteTensor& t = context->tensors[outputs_[index].tensor];
    if (t.buffer_handle == handle) {
      t.buffer_handle = kTfLiteNullBufferHandle;
      t.data_is_stale = false;
    }
  }
  handles_.clear();
}

cl_kernel GpuPartition::MakeKernel(const char* name, const std::vector<KernelArg>& args) {
  if (!error_.empty()) return nullptr;
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(delegate_->program(), name, &err);
  for (size_t i = 0; i < args.size() && err == CL_SUCCESS; ++i) {
    err = clSetKernelArg(k, static_cast<cl_uint>(i), args[i].size, args[i].bytes.data());
  }
  if (err != CL_SUCCESS) {
    if (k != nullptr) clReleaseKernel(k);
    Fail(fmt::format("kernel '{}': {}", name, ClErrorName(err)));
    return nullptr;
  }
  kernels_.push_back(k);
  return k;
}

cl_int GpuPartition::Convert(const Boundary& b) {
  if (b.convert == nullptr) return CL_SUCCESS;
  const size_t local = 64, global = (static_cast<size_t>(b.count) + 63) / 64 * 64;
  return clEnqueueNDRangeKernel(delegate_->env().queue(), b.convert, 1, nullptr, &global, &local, 0, nullptr, nullptr);
}

TfLiteStatus GpuPartition::Eval(TfLiteContext* context) {
  cl_command_queue q = delegate_->env().queue();
  auto fail = [&](const std::string& what, cl_int err) {
    TF_LITE_KERNEL_LOG(context, "%s: %s on OpenCL device %s: %s", kName, what.c_str(),
                       delegate_->env().info().Describe().c_str(), ClErrorName(err).c_str());
    clFinish(q);
    return kTfLiteError;
  };
  for (const Boundary& b : inputs_) {
    const TfLiteTensor& t = context->tensors[b.tensor];
    // Written by another partition of this delegate and still on the device: copy it
    // there instead of through the host.
    GpuPartition* owner = t.data_is_stale && t.delegate == delegate_->delegate() ? delegate_->Owner(t.buffer_handle)
                                                                                  : nullptr;
    if (owner != nullptr) {
      if (const Boundary* src = owner->Output(t.buffer_handle)) {
        const size_t elem = delegate_->fp16_storage() ? 2 : 4;
        const cl_int err = clEnqueueCopyBuffer(q, src->buffer, b.buffer, 0, 0, static_cast<size_t>(b.count) * elem,
                                               0, nullptr, nullptr);
        if (err != CL_SUCCESS) return fail(fmt::format("copying tensor {} between partitions", b.tensor), err);
        continue;
      }
    }
    if (t.data.raw == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: input tensor %d has no data", kName, b.tensor);
      return kTfLiteError;
    }
    const size_t bytes = b.host_bytes();
    cl_int err = clEnqueueWriteBuffer(q, b.staging != nullptr ? b.staging : b.buffer, CL_FALSE, 0, bytes,
                                      t.data.raw, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) return fail(fmt::format("uploading tensor {}", b.tensor), err);
    err = Convert(b);
    if (err != CL_SUCCESS) return fail(fmt::format("converting tensor {}", b.tensor), err);
    delegate_->stats().bytes_to_device += static_cast<int64_t>(bytes);
  }
  for (const Step& s : steps_) {
    const cl_int err = clEnqueueNDRangeKernel(q, s.kernel, s.dims, nullptr, s.global, s.local, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      std::string op = "?";
      if (context->GetNodeAndRegistration(context, s.node, &node, &reg) == kTfLiteOk) op = OpNameOf(*reg);
      return fail(fmt::format("node {} ({}): clEnqueueNDRangeKernel", s.node, op), err);
    }
  }
  for (const Boundary& b : outputs_) context->tensors[b.tensor].data_is_stale = true;
  const cl_int err = clFinish(q);
  if (err != CL_SUCCESS) return fail("clFinish", err);
  ++delegate_->stats().invocations;
  return kTfLiteOk;
}

TfLiteRegistration PartitionRegistration() {
  TfLiteRegistration r{};
  r.builtin_code = kTfLiteBuiltinDelegate;
  r.custom_name = kName;
  r.version = 1;
  r.init = [](TfLiteContext* context, const char* buffer, size_t) -> void* {
    const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
    auto* self = static_cast<GpuDelegate*>(params->delegate->data_);
    auto partition = std::make_unique<GpuPartition>(self);
    if (partition->Init(context, params) != kTfLiteOk) return nullptr;
    return partition.release();
  };
  r.free = [](TfLiteContext* context, void* buffer) {
    auto* partition = static_cast<GpuPartition*>(buffer);
    partition->Release(context);
    delete partition;
  };
  r.prepare = [](TfLiteContext* context, TfLiteNode* node) -> TfLiteStatus {
    if (node->user_data == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: the partition was not built", kName);
      return kTfLiteError;
    }
    return kTfLiteOk;
  };
  r.invoke = [](TfLiteContext* context, TfLiteNode* node) -> TfLiteStatus {
    auto* partition = static_cast<GpuPartition*>(node->user_data);
    if (partition == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: the partition was not built", kName);
      return kTfLiteError;
    }
    return partition->Eval(context);
  };
  return r;
}

PartitionLimits GpuLimits(const GpuDelegateOptions& options) {
  PartitionLimits limits;
  // TFLite's GPU delegate: max_delegated_partitions <= 0 means 1.
  limits.max_delegated_partitions = options.max_delegated_partitions <= 0 ? 1 : options.max_delegated_partitions;
  limits.min_nodes_per_partition = options.min_nodes_per_partition;
  limits.first_delegate_node_index = options.first_delegate_node_index;
  limits.last_delegate_node_index = options.last_delegate_node_index;
  return limits;
}

TfLiteStatus GpuDelegate::Prepare(TfLiteContext* context) {
  const PartitionLimits limits = GpuLimits(options_);
  NodeSelection selection;
  TF_LITE_ENSURE_STATUS(SelectGpuNodes(context, options_, &selection));

  // LiteRT's GetOpsToReplace: one message, only when some node is unsupported and not
  // every node runs on the GPU (a partition dropped by the limits alone says nothing);
  // the record keeps one line each.
  std::vector<std::string> log;
  const int on_gpu = static_cast<int>(selection.nodes.size());
  if (!selection.unsupported_info.empty() && on_gpu < selection.num_total_nodes) {
    log.push_back("Following operations are not supported by GPU delegate:");
    log.insert(log.end(), selection.unsupported_info.begin(), selection.unsupported_info.end());
    const int on_cpu = selection.num_total_nodes - on_gpu;
    log.push_back(on_gpu > 0 ? fmt::format("{} operations will run on the GPU, and the remaining {} "
                                           "operations will run on the CPU.", on_gpu, on_cpu)
                             : fmt::format("No operations will run on the GPU, and all {} "
                                           "operations will run on the CPU.", on_cpu));
  }
  if (!log.empty()) {
    std::string message = log.front();
    for (size_t i = 1; i < log.size(); ++i) message += "\n" + log[i];
    TF_LITE_KERNEL_LOG(context, "%s", message.c_str());
  }
  if (DelegationRecord* record = CurrentDelegationRecord(context)) {
    record->limits = limits.Describe() +
                     (options_.max_delegated_partitions <= 0
                          ? fmt::format(" (options.max_delegated_partitions={} means 1 for the GPU delegate, "
                                        "as in TFLite)",
                                        options_.max_delegated_partitions)
                          : "");
    record->log.insert(record->log.end(), log.begin(), log.end());
  }
  TfLiteIntArray* nodes = TfLiteIntArrayCreate(on_gpu);
  std::copy(selection.nodes.begin(), selection.nodes.end(), nodes->data);
  const TfLiteStatus status =
      context->ReplaceNodeSubsetsWithDelegateKernels(context, PartitionRegistration(), nodes, &delegate_);
  TfLiteIntArrayFree(nodes);
  return status;
}

}  // namespace

TfLiteStatus SelectGpuNodes(TfLiteContext* context, const GpuDelegateOptions& options,
                            NodeSelection* selection) {
  const bool enable_quant = options.enable_quant;
  auto supported = [enable_quant](TfLiteContext* ctx, TfLiteNode* node, TfLiteRegistration* reg,
                                  std::string* details) {
    gpu::OpContext c;
    c.context = ctx;
    c.enable_quant = enable_quant;
    const bool ok = gpu::VisitNode(c, *node, *reg);
    if (!ok && details != nullptr) *details = c.reason;
    return ok;
  };
  return SelectNodesToDelegate(context, supported, GpuLimits(options), selection);
}

Result<tflite::TfLiteDelegateUniquePtr> CreateGpuDelegate(const GpuDelegateOptions& options) {
  auto env = gpu::ClEnv::Get(options.device);
  if (!env.ok()) return env.status();
  const std::string build_options =
      fmt::format("-cl-std=CL1.2 -DFP16_STORAGE={} -DGROUP_WIDTH={}", options.precision_loss_allowed ? 1 : 0,
                  gpu::kGroupWidth);
  gpu::BuildStats build;
  auto program = env.value()->Program(gpu::kKernelSource, build_options, options.cache_dir,
                                      options.cache_token, &build);
  if (!program.ok()) return program.status();
  auto* d = new GpuDelegate(options, env.value(), program.value());
  GpuDelegateStats& s = d->stats();
  s.device = env.value()->info().Describe();
  s.cpu_device = (env.value()->info().type & CL_DEVICE_TYPE_CPU) != 0;
  s.precision = options.precision_loss_allowed ? "fp16 storage, fp32 arithmetic" : "fp32";
  s.program_build_ms = build.build_ms;
  s.program_from_disk = build.from_disk;
  s.program_from_memory = build.from_memory;
  s.cache_file = build.cache_file;
  s.cache_note = build.cache_note;
  return tflite::TfLiteDelegateUniquePtr(d->delegate(), [](TfLiteDelegate* td) {
    delete static_cast<GpuDelegate*>(td->data_);
  });
}

const GpuDelegateStats* GetGpuDelegateStats(const TfLiteDelegate* delegate) {
  if (delegate == nullptr || delegate->Prepare == nullptr || delegate->data_ == nullptr) return nullptr;
  if (delegate->Prepare != GpuDelegate::PrepareThunk) return nullptr;  // not ours
  return &static_cast<GpuDelegate*>(delegate->data_)->stats();
}

}  // namespace tflite_inspect
