#include "tools/providers/gpu_provider.h"

#include <cstdio>

#include <fmt/format.h>

#include "cli/flags.h"
#include "gpu/gpu_delegate.h"

namespace tflite_inspect {
namespace {

bool Given(const CLI::Option* o) { return o != nullptr && o->count() > 0; }

class GpuProvider : public DelegateProvider {
 public:
  std::string name() const override { return "gpu"; }
  void AddFlags(CLI::App& app) override {
    AddBoolFlag(app, "--use_gpu", &use_, "Apply the GPU delegate (OpenCL)");
    AddBoolFlag(app, "--gpu_precision_loss_allowed", &options_.precision_loss_allowed,
                "Keep GPU activations in fp16 (default true, as TFLite); false: fp32 throughout");
    AddBoolFlag(app, "--gpu_experimental_enable_quant", &options_.enable_quant,
                "Let the GPU delegate take quantized models (default true, as TFLite)");
    sustained_speed_option_ = AddBoolFlag(
        app, "--gpu_inference_for_sustained_speed", &sustained_speed_,
        "TFLite: prefer maximizing the throughput. Accepted, no effect: this GPU delegate "
        "builds and runs its kernels one way (fixed work-group sizes, no tuning)");
    app.add_option("--gpu_backend", backend_, "GPU backend: cl (OpenCL); gl is not available")
        ->default_str("");
    wait_type_option_ = app.add_option(
        "--gpu_wait_type", wait_type_,
        "TFLite's Metal delegate's wait type (passive, active, do_not_wait, aggressive). "
        "Accepted, no effect: this OpenCL delegate waits with a blocking clFinish after "
        "each partition");
    app.add_option("--gpu_platform", options_.device.platform,
                   "OpenCL platform by index or name substring (default: the first with a GPU)");
    app.add_option("--gpu_device", options_.device.device,
                   "OpenCL device by index or name substring (default: a GPU, else the first device)");
    app.add_option("--gpu_cache_dir", cache_dir_, "Directory caching compiled GPU kernels");
    app.add_option("--delegate_serialize_dir", serialize_dir_,
                   "TFLite's cache directory for delegates (with --delegate_serialize_token)");
    app.add_option("--delegate_serialize_token", serialize_token_,
                   "Prefix of the cache files in --delegate_serialize_dir");
    AddBoolFlag(app, "--gpu_strict", &strict_,
                "Fail when the GPU delegate cannot be used (default: warn and run on the CPU)");
    app.add_option("--gpu_inject_fault", options_.inject_fault_op,
                   "Testing aid: negate the GPU results of every node of this op (e.g. ADD)")
        ->group("");  // hidden
  }
  std::vector<std::string> flag_names() const override { return {"use_gpu"}; }
  OptionFlags option_flags() const override {
    return {{"options.enable_quant", "--gpu_experimental_enable_quant"},
            {"options.device.platform", "--gpu_platform"},
            {"options.device.device", "--gpu_device"}};
  }
  void LogParams(bool verbose, std::vector<std::string>* lines) const override {
    if (verbose || use_) lines->push_back(fmt::format("Use gpu: [{}]", use_ ? 1 : 0));
    if (verbose || (use_ && !options_.precision_loss_allowed)) {
      lines->push_back(fmt::format("Allow lower precision in gpu: [{}]", options_.precision_loss_allowed ? 1 : 0));
    }
    if (verbose || (use_ && !options_.enable_quant)) {
      lines->push_back(fmt::format("Enable running quant models in gpu: [{}]", options_.enable_quant ? 1 : 0));
    }
    if (verbose || Given(sustained_speed_option_)) {
      lines->push_back(fmt::format("Prefer maximizing the throughput in gpu: [{}]", sustained_speed_ ? 1 : 0));
    }
    if (verbose || !backend_.empty()) lines->push_back(fmt::format("GPU backend: [{}]", backend_));
    if (verbose || Given(wait_type_option_)) lines->push_back(fmt::format("GPU delegate wait type: [{}]", wait_type_));
    if (verbose || !cache_dir_.empty()) lines->push_back(fmt::format("GPU cache dir: [{}]", cache_dir_));
    if (verbose || !serialize_dir_.empty()) {
      lines->push_back(fmt::format("Delegate serialize directory: [{}]", serialize_dir_));
    }
    if (verbose || !serialize_token_.empty()) {
      lines->push_back(fmt::format("Delegate serialize token: [{}]", serialize_token_));
    }
  }
  std::vector<std::string> FlagNotes() const override {
    std::vector<std::string> notes;
    if (sustained_speed_) {
      notes.push_back(
          "--gpu_inference_for_sustained_speed: no effect: this GPU delegate builds and runs "
          "its kernels one way (fixed work-group sizes, no tuning at start-up), the same for "
          "one answer as for sustained speed");
    }
    if (!wait_type_.empty()) {
      const bool known = wait_type_ == "passive" || wait_type_ == "active" ||
                         wait_type_ == "do_not_wait" || wait_type_ == "aggressive";
      notes.push_back(fmt::format(
          "--gpu_wait_type={}: no effect{}: this OpenCL GPU delegate always waits for the "
          "device with a blocking clFinish at the end of each partition's run (spinning or "
          "sleeping is the OpenCL driver's choice); wait types are TFLite's Metal delegate's "
          "(iOS, macOS)",
          wait_type_,
          known ? "" : " (and not one of TFLite's passive, active, do_not_wait, aggressive)"));
    }
    return notes;
  }
  Result<std::vector<DelegateInstance>> CreateDelegates(const DelegateCommonParams& common) override {
    std::vector<DelegateInstance> out;
    if (!use_) return out;
    if (!backend_.empty() && backend_ != "cl") {
      return InvalidArgument(backend_ == "gl"
                                 ? "--gpu_backend=gl is not available: this GPU delegate runs on OpenCL only "
                                   "(use --gpu_backend=cl)"
                                 : fmt::format("--gpu_backend={}: unknown backend (use cl)", backend_));
    }
    GpuDelegateOptions options = options_;
    options.max_delegated_partitions = common.max_delegated_partitions;
    options.min_nodes_per_partition = common.min_nodes_per_partition;
    options.first_delegate_node_index = common.first_delegate_node_index;
    options.last_delegate_node_index = common.last_delegate_node_index;
    // TFLite serializes only when both the directory and the token are given.
    if (!serialize_dir_.empty() != !serialize_token_.empty()) {
      return InvalidArgument("--delegate_serialize_dir and --delegate_serialize_token go together");
    }
    if (!cache_dir_.empty() && !serialize_dir_.empty()) {
      return InvalidArgument("give either --gpu_cache_dir or --delegate_serialize_dir, not both");
    }
    options.cache_dir = !cache_dir_.empty() ? cache_dir_ : serialize_dir_;
    options.cache_token = serialize_token_;
    auto created = CreateGpuDelegate(options);
    if (!created.ok()) {
      if (strict_ || common.strict) {
        return Status(created.status().code(), "GPU delegate: " + created.status().message());
      }
      std::fprintf(stderr, "WARNING: GPU delegate not created: %s. Running on the CPU.\n",
                   OptionsAsFlags(created.status().message(), option_flags()).c_str());
      return out;
    }
    std::fprintf(stderr, "INFO: Created TensorFlow Lite delegate for GPU.\n");
    if (const GpuDelegateStats* s = GetGpuDelegateStats(created.value().get());
        s != nullptr && s->cpu_device) {
      std::fprintf(stderr,
                   "WARNING: the OpenCL device %s is a CPU, not a GPU: the GPU delegate's "
                   "results are real, its latency is not a GPU's.\n",
                   s->device.c_str());
    }
    DelegateInstance d;
    d.provider = "gpu";
    d.label = "GPU";
    d.strict = strict_;
    auto deleter = created.value().get_deleter();
    d.delegate = {created.value().release(), deleter};
    const TfLiteDelegate* raw = d.delegate.get();
    d.counters = [raw]() {
      std::vector<std::pair<std::string, double>> c;
      const GpuDelegateStats* s = GetGpuDelegateStats(raw);
      if (s == nullptr) return c;
      c.push_back({"gpu_program_build_ms", s->program_build_ms});
      c.push_back({"gpu_program_from_disk_cache", s->program_from_disk ? 1 : 0});
      c.push_back({"gpu_program_from_process_cache", s->program_from_memory ? 1 : 0});
      c.push_back({"gpu_partition_runs", static_cast<double>(s->invocations)});
      c.push_back({"gpu_bytes_to_device", static_cast<double>(s->bytes_to_device)});
      c.push_back({"gpu_bytes_from_device", static_cast<double>(s->bytes_from_device)});
      c.push_back({"gpu_device_bytes", static_cast<double>(s->device_bytes)});
      return c;
    };
    d.description = [raw]() {
      const GpuDelegateStats* s = GetGpuDelegateStats(raw);
      if (s == nullptr) return std::string();
      std::string text = fmt::format("GPU: OpenCL device {}{}, {}; kernels {} in {:.1f} ms", s->device,
                                     s->cpu_device ? " (a CPU device: not a GPU's latency)" : "",
                                     s->precision,
                                     s->program_from_memory ? "already built in this process"
                                     : s->program_from_disk ? "loaded from " + s->cache_file
                                                            : "compiled from source",
                                     s->program_build_ms);
      if (!s->cache_note.empty()) text += " (" + s->cache_note + ")";
      return text;
    };
    out.push_back(std::move(d));
    return out;
  }

 private:
  bool use_ = false;
  bool strict_ = false;
  std::string backend_;
  bool sustained_speed_ = false;    // --gpu_inference_for_sustained_speed (no effect)
  std::string wait_type_;           // --gpu_wait_type (no effect)
  CLI::Option* sustained_speed_option_ = nullptr;
  CLI::Option* wait_type_option_ = nullptr;
  std::string cache_dir_, serialize_dir_, serialize_token_;
  GpuDelegateOptions options_{};
};

}  // namespace

std::unique_ptr<DelegateProvider> CreateGpuDelegateProvider() { return std::make_unique<GpuProvider>(); }

}  // namespace tflite_inspect
