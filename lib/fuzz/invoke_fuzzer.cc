// libFuzzer target: bytes -> FlatBufferModel -> InterpreterBuilder -> (XNNPACK) ->
// AllocateTensors -> seeded inputs -> Invoke -> outputs read. What `tflite-inspect run`
// does with a model, in process. Run it with scripts/fuzz.sh (ASan + UBSan). On the
// CPU-only pass the GPU delegate's node validation runs too (SelectGpuNodes: every
// op's check and the partition choice, which need no OpenCL device; nothing is
// replaced), so crafted nodes reach the GPU checks as they would with --use_gpu.
//
// A crash, sanitizer report, leak, timeout or out-of-memory is a bug: a model that the
// loader accepts must be refused by some Prepare or Eval with a message, never reach a
// kernel with sizes it does not check. The interpreter runs under the resource limits
// the tools offer (memory limit, WHILE iteration cap), so that a valid model asking for
// 100 GB or looping forever is a refusal, not an OOM or a hang.
//
// Mutations: libFuzzer's byte mutations, and (half of the time) a structure-aware one
// (flatbuffer_mutator.h) that edits a verified model in place: shapes, types, tensor
// indices, buffers, quantization parameters, op versions, option fields, constant bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "custom_ops/mediapipe/mediapipe_ops.h"
#include "fuzz/flatbuffer_mutator.h"
#include "gpu/gpu_delegate.h"
#include "inspect/node_attributes.h"
#include "model/model.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"
#include "tools/input_gen.h"
#include "xnnpack/xnnpack_delegate.h"

namespace {

struct AlignedFree {
  void operator()(uint8_t* p) const { ::operator delete[](p, std::align_val_t(16)); }
};

class SilentReporter : public tflite::ErrorReporter {
 public:
  using tflite::ErrorReporter::Report;
  int Report(const char*, va_list) override { return 0; }
};

// Well under libFuzzer's -malloc_limit_mb (2048) in scripts/fuzz.sh (kernels keep a few
// buffers of a tensor's size besides the arena), and small enough that one input runs
// in well under the 20 s timeout under ASan.
constexpr size_t kMemoryLimit = 64u << 20;
constexpr int64_t kMaxWhileIterations = 1000;
// A valid model can also declare billions of multiply-adds (a 7x65536 filter over a padded
// image: 2.35 G, 6.6 s in Release, past the 20 s timeout under ASan): legal, slow work,
// the time TFLite would take too, not a robustness question. Such a model (or one whose
// pooling layers do as much work, PoolingWork) is built and allocated here, not invoked.
constexpr int64_t kMaxMacs = 200'000'000;
// Pooling's taps run element by element, each through the kernel's reduce lambda with
// instrumented loads: under ASan about 70 ns a tap-element, fifteen times a GEMM's
// multiply-add. An L2_POOL_2D of 100 M (131,072 outputs x a 255 x 3 filter) took 6.8 s
// alone and passed the 20 s timeout on a loaded machine; the bound is 25 M (under 2 s).
constexpr int64_t kMaxPoolingWork = 25'000'000;
// Elementwise work is cheap per element but instrumented too, and the fuzzer's compare
// tracing (-fsanitize=fuzzer) adds a callback per compare: a WHERE counting 50 M bools
// took 9 s alone, a 16x8 TRANSPOSE_CONV requantizing 25 M outputs 10.8 s, past the 20 s
// timeout while a build ran beside them (0.1-0.4 s in Release). The bounds are on the
// elements a node reads and writes, from the prepared shapes: 8 M for one node, 48 M for
// all. The seeds stay well below: at most 1.05 M for a node (unet_128_16x8) and 17.1 M
// for a model (selfie_segmentation, 0.7 s of CPU here for both passes).
constexpr int64_t kMaxNodeTensorWork = 8'000'000;
constexpr int64_t kMaxTensorWork = 48'000'000;

// The multiply-adds the model's static shapes declare (inspect_ops' count), all subgraphs.
int64_t DeclaredMacs(const tflite::FlatBufferModel& model) {
  const tflite_inspect::Model& m = model.inspect_model();
  const auto* subgraphs = model->subgraphs();
  int64_t total = 0;
  for (flatbuffers::uoffset_t s = 0; subgraphs != nullptr && s < subgraphs->size(); ++s) {
    const tflite::SubGraph* sg = subgraphs->Get(s);
    if (sg->operators() == nullptr || sg->tensors() == nullptr) continue;
    for (flatbuffers::uoffset_t o = 0; o < sg->operators()->size(); ++o) {
      const tflite_inspect::OpCode& code = m.op_code_of(static_cast<int>(s), static_cast<int>(o));
      const tflite::Operator& op = *sg->operators()->Get(o);
      const int64_t macs = code.is_custom()
                               ? tflite_inspect::CustomNodeMacs(code.custom_name, op, *sg->tensors())
                               : tflite_inspect::NodeMacs(op, code.builtin, *sg->tensors());
      if (macs > 0) total += std::min<int64_t>(macs, kMaxMacs + 1);
      if (total > kMaxMacs) return total;
    }
  }
  return total;
}

// Pooling is not multiply-adds (inspect_ops does not count it), but its work is the same
// kind of legal, slow loop: output elements x filter taps (L2_POOL_2D with a 3 x 65,540
// filter over a 65,536-wide image: 26 s in Release). So is LOCAL_RESPONSE_NORMALIZATION's,
// output elements x the channels of its window (min(depth, 2 x radius)): the long campaign
// of 2026-12-05 timed out on one whose window ran over the whole of a deep row (over a
// minute alone under ASan). From the shapes Prepare computed.
int64_t PoolingWork(const tflite::Interpreter& interpreter) {
  int64_t total = 0;
  for (int n : interpreter.execution_plan()) {
    const auto* nr = interpreter.node_and_registration(n);
    if (nr == nullptr) continue;
    const int32_t code = nr->second.builtin_code;
    const bool lrn = code == tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION;
    if (code != tflite::BuiltinOperator_AVERAGE_POOL_2D &&
        code != tflite::BuiltinOperator_MAX_POOL_2D && code != tflite::BuiltinOperator_L2_POOL_2D &&
        !lrn) {
      continue;
    }
    if (nr->first.builtin_data == nullptr || nr->first.outputs == nullptr ||
        nr->first.outputs->size < 1) {
      continue;
    }
    const TfLiteTensor* out = interpreter.tensor(nr->first.outputs->data[0]);
    if (out == nullptr || out->dims == nullptr || out->dims->size < 1) continue;
    int64_t elements = 1;
    for (int d = 0; d < out->dims->size; ++d) {
      elements = std::min<int64_t>(elements * std::max(out->dims->data[d], 0), kMaxMacs + 1);
    }
    int64_t taps;
    if (lrn) {
      const auto* params = static_cast<const TfLiteLocalResponseNormParams*>(nr->first.builtin_data);
      taps = std::min<int64_t>(std::max(out->dims->data[out->dims->size - 1], 0),
                               2 * int64_t{std::max(params->radius, 0)});
    } else {
      const auto* params = static_cast<const TfLitePoolParams*>(nr->first.builtin_data);
      taps = std::min<int64_t>(
          int64_t{std::max(params->filter_height, 0)} * std::max(params->filter_width, 0),
          kMaxMacs + 1);
    }
    total += std::min<int64_t>(elements * taps, kMaxMacs + 1);
    if (total > kMaxPoolingWork) return total;
  }
  return total;
}

// The multiply-adds of the shapes Prepare computed (inspect_ops' count over them), which a
// crafted model's declared shapes may understate by orders of magnitude (a CONV_2D whose
// filter is its own 65536 x 4 input, declared with a 4 x 4 output: 25 M declared, 137 G
// after Prepare, over a minute in Release).
int64_t PreparedMacs(const tflite::Interpreter& interpreter) {
  int64_t total = 0;
  for (int n : interpreter.execution_plan()) {
    const auto* nr = interpreter.node_and_registration(n);
    if (nr == nullptr) continue;
    const TfLiteNode& node = nr->first;
    auto dims = [&](const TfLiteIntArray* tensors, size_t i) {
      std::vector<int64_t> d;
      const TfLiteTensor* t = tensors != nullptr && i < static_cast<size_t>(tensors->size)
                                  ? interpreter.tensor(tensors->data[i]) : nullptr;
      if (t == nullptr || t->dims == nullptr) return d;
      for (int k = 0; k < t->dims->size; ++k) {
        if (t->dims->data[k] <= 0) return std::vector<int64_t>{};
        d.push_back(t->dims->data[k]);
      }
      return d;
    };
    // A custom op's work as its builtin counterpart's (CustomNodeMacs): the campaign of
    // 2026-12-05 timed out on a MediaPipe Convolution2DTransposeBias with a 128 x 128 filter
    // over 128 x 128 x 16 (4.3 G multiply-adds, 0.9 s in Release, minutes under ASan).
    const int32_t code = nr->second.builtin_code;
    const bool adj_x = code == tflite::BuiltinOperator_BATCH_MATMUL && node.builtin_data != nullptr &&
                       static_cast<const TfLiteBatchMatMulParams*>(node.builtin_data)->adj_x;
    auto input = [&](size_t i) { return dims(node.inputs, i); };
    auto output = [&](size_t i) { return dims(node.outputs, i); };
    const int64_t macs =
        code == tflite::BuiltinOperator_CUSTOM
            ? (nr->second.custom_name != nullptr
                   ? tflite_inspect::CustomNodeMacs(nr->second.custom_name, input, output)
                   : 0)
            : tflite_inspect::NodeMacs(code, input, output, adj_x);
    if (macs > 0) total += std::min<int64_t>(macs, kMaxMacs + 1);
    if (total > kMaxMacs) return total;
  }
  return total;
}

// Whether the elements the nodes read and write (from the shapes Prepare computed; a
// tensor read by several nodes counts for each) stay under both bounds above.
bool TensorWorkFits(const tflite::Interpreter& interpreter) {
  int64_t total = 0;
  for (int n : interpreter.execution_plan()) {
    const auto* nr = interpreter.node_and_registration(n);
    if (nr == nullptr) continue;
    int64_t node_total = 0;
    for (const TfLiteIntArray* tensors : {nr->first.inputs, nr->first.outputs}) {
      for (int i = 0; tensors != nullptr && i < tensors->size; ++i) {
        const TfLiteTensor* t = interpreter.tensor(tensors->data[i]);
        if (t == nullptr || t->dims == nullptr) continue;
        int64_t elements = 1;
        for (int d = 0; d < t->dims->size; ++d) {
          elements = std::min<int64_t>(elements * std::max(t->dims->data[d], 0), kMaxTensorWork + 1);
        }
        node_total += elements;
      }
    }
    total += node_total;
    if (node_total > kMaxNodeTensorWork || total > kMaxTensorWork) return false;
  }
  return true;
}

volatile size_t g_sink = 0;

// A static-shape delegate that only asks the GPU delegate which nodes it would take.
TfLiteDelegate GpuCheckDelegate() {
  TfLiteDelegate d = TfLiteDelegateCreate();
  d.Prepare = [](TfLiteContext* context, TfLiteDelegate*) -> TfLiteStatus {
    tflite_inspect::NodeSelection selection;
    tflite_inspect::SelectGpuNodes(context, tflite_inspect::GpuDelegateOptions{}, &selection);
    g_sink = g_sink + selection.nodes.size();
    return kTfLiteOk;
  };
  return d;
}

const tflite::OpResolver& Resolver() {
  static const auto* resolver = [] {
    auto* r = new tflite::ops::builtin::BuiltinOpResolver();
    tflite_inspect::RegisterMediaPipeOps(r);
    return r;
  }();
  return *resolver;
}

// Returns whether the model was too much work to invoke (known from the pass without
// XNNPACK, whose plan still has every node: the XNNPACK pass takes its answer).
// force_fp16: XNNPACK asked for fp16 inference (--xnnpack_force_fp16), where this
// XNNPACK's fp16 rewrite runs (and can abort) on the delegate's subgraphs.
bool Run(const uint8_t* bytes, size_t size, bool use_xnnpack, bool heavy, bool force_fp16 = false) {
  SilentReporter reporter;
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes),
                                                        size, &reporter);
  if (model == nullptr) return heavy;
  std::unique_ptr<tflite::Interpreter> interpreter;
  if (tflite::InterpreterBuilder(*model, Resolver(), &reporter)(&interpreter, 1) != kTfLiteOk) {
    return heavy;
  }
  interpreter->SetMemoryLimit(kMemoryLimit);
  interpreter->SetMaxWhileIterations(kMaxWhileIterations);
  tflite::TfLiteDelegateUniquePtr delegate(nullptr, [](TfLiteDelegate*) {});
  TfLiteDelegate gpu_check = GpuCheckDelegate();
  if (!use_xnnpack) interpreter->ModifyGraphWithDelegate(&gpu_check);
  if (use_xnnpack) {
    tflite_inspect::XnnpackDelegateOptions options;
    options.force_fp16 = force_fp16;
    auto created = tflite_inspect::CreateXnnpackDelegate(options);
    if (created.ok()) {
      delegate = std::move(created.value());
      // A failing delegate leaves the graph on the CPU: both outcomes are exercised.
      interpreter->ModifyGraphWithDelegate(delegate.get());
    }
  }
  if (interpreter->AllocateTensors() != kTfLiteOk) return heavy;
  heavy = heavy || DeclaredMacs(*model) > kMaxMacs || PreparedMacs(*interpreter) > kMaxMacs ||
          PoolingWork(*interpreter) > kMaxPoolingWork || !TensorWorkFits(*interpreter);
  if (heavy) return true;
  std::vector<uint8_t> data;
  for (size_t i = 0; i < interpreter->inputs().size(); ++i) {
    TfLiteTensor* t = interpreter->input_tensor(i);
    if (t == nullptr || !tflite_inspect::GenerateInput(*t, 1, static_cast<int>(i), &data).ok()) {
      return heavy;
    }
    if (data.size() == t->bytes) tflite_inspect::CopyInputBytes(t, data.data(), data.size());
  }
  if (interpreter->Invoke() != kTfLiteOk) return heavy;
  size_t sum = 0;
  for (size_t i = 0; i < interpreter->outputs().size(); ++i) {
    const TfLiteTensor* t = interpreter->output_tensor(i);
    if (t == nullptr || t->data.raw == nullptr) continue;
    for (size_t b = 0; b < t->bytes; ++b) sum += static_cast<uint8_t>(t->data.raw[b]);
  }
  g_sink = g_sink + sum;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::unique_ptr<uint8_t[], AlignedFree> buf(
      static_cast<uint8_t*>(::operator new[](size == 0 ? 1 : size, std::align_val_t(16))));
  if (size != 0) std::memcpy(buf.get(), data, size);
  // The same model with and without XNNPACK: the delegate's own checks and the CPU
  // kernels' checks are both on the path of every input.
  // One input in four also asks XNNPACK for fp16 (chosen by the bytes: replayable).
  const bool heavy = Run(buf.get(), size, /*use_xnnpack=*/false, /*heavy=*/false);
  const bool fp16 = size > 0 && data[size / 2] % 4 == 0;
  Run(buf.get(), size, /*use_xnnpack=*/true, heavy, fp16);
  return 0;
}

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  if (seed % 2 == 0) {
    const size_t n = tflite_inspect::fuzz::MutateFlatbufferModel(data, size, seed / 2);
    if (n != 0) return n;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
