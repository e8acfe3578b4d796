// What a benchmark ran on: architecture, CPU model, the affinity mask in force and each
// CPU's core type and maximum frequency. Read from uname, sched_getaffinity,
// /proc/cpuinfo and /sys (any of them may be missing, as in a restricted Android shell:
// the fields are then empty, never an error).
#ifndef TFLITE_INSPECT_LIB_UTIL_MACHINE_H_
#define TFLITE_INSPECT_LIB_UTIL_MACHINE_H_

#include <string>
#include <vector>

namespace tflite_inspect {

struct CpuCore {
  int cpu = -1;
  std::string part;  // "Cortex-A55", "0x51:0x804" when unnamed, x86: the model name
  long max_khz = 0;  // cpufreq's cpuinfo_max_freq; 0 when unknown
};

struct MachineInfo {
  std::string architecture;  // uname's machine: "x86_64", "aarch64", "armv7l"
  std::string cpu_model;     // "model name" / "Hardware" of /proc/cpuinfo, or "unknown"
  int online_cpus = 0;
  std::vector<int> affinity;  // the CPUs this process may run on
  std::vector<CpuCore> cores; // one per CPU in `affinity` (when /proc/cpuinfo lists it)
};

// /proc/cpuinfo's text, one entry per "processor" block, parts named where known
// (ARM's "CPU implementer" / "CPU part" pairs, x86's "model name").
std::vector<CpuCore> ParseCpuInfo(const std::string& text);
// The name of an ARM MIDR implementer/part pair ("Cortex-A76"), or "" when unknown.
std::string ArmPartName(unsigned implementer, unsigned part);
// The CPUs as taskset writes a mask: hex, "0x4f" for {0,1,2,3,6}. (The list, "0-3,6":
// JoinRanges(cpus, ",") of util/strings.h.)
std::string CpuMaskString(const std::vector<int>& cpus);

MachineInfo DescribeMachine();

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_UTIL_MACHINE_H_
