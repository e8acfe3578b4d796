#include "util/machine.h"

#include <catch2/catch.hpp>

#include "util/strings.h"

namespace tflite_inspect {
namespace {

TEST_CASE("ParseCpuInfo names a big.LITTLE phone's cores from their MIDR parts") {
  // /proc/cpuinfo of an arm64 phone (Snapdragon 8 Gen 1 style: A510, A710, X2), trimmed.
  const std::string text =
      "processor\t: 0\nBogoMIPS\t: 38.40\nFeatures\t: fp asimd asimddp\n"
      "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\n"
      "CPU part\t: 0xd46\nCPU revision\t: 1\n\n"
      "processor\t: 4\nCPU implementer\t: 0x41\nCPU part\t: 0xd47\n\n"
      "processor\t: 7\nCPU implementer\t: 0x41\nCPU part\t: 0xd48\n\n"
      "processor\t: 8\nCPU implementer\t: 0x61\nCPU part\t: 0x022\n\n"
      "Hardware\t: Qualcomm Technologies, Inc SM8450\n";
  const auto cores = ParseCpuInfo(text);
  REQUIRE(cores.size() == 4);
  CHECK(cores[0].cpu == 0);
  CHECK(cores[0].part == "Cortex-A510");
  CHECK(cores[1].cpu == 4);
  CHECK(cores[1].part == "Cortex-A710");
  CHECK(cores[2].part == "Cortex-X2");
  CHECK(cores[3].part == "0x61:0x22");  // unnamed parts keep their numbers
}

TEST_CASE("ParseCpuInfo takes x86's model name and survives a non-numeric processor line") {
  const auto x86 = ParseCpuInfo("processor\t: 0\nmodel name\t: AMD EPYC\n\nprocessor\t: 1\n"
                                "model name\t: AMD EPYC\n");
  REQUIRE(x86.size() == 2);
  CHECK(x86[1].cpu == 1);
  CHECK(x86[1].part == "AMD EPYC");
  // Old 32-bit ARM kernels: "Processor : ARMv7 Processor rev 10 (v7l)" before the list.
  const auto old = ParseCpuInfo("Processor\t: ARMv7 Processor rev 10 (v7l)\nprocessor\t: 0\n"
                                "CPU implementer\t: 0x41\nCPU part\t: 0xc09\n");
  REQUIRE(old.size() == 1);
  CHECK(old[0].part == "Cortex-A9");
  CHECK(ParseCpuInfo("").empty());
  CHECK(ParseCpuInfo("processor : x\n").empty());
}

TEST_CASE("CPU lists and masks are written as taskset writes them") {
  CHECK(JoinRanges({6, 0, 1, 2, 3}, ",") == "0-3,6");
  CHECK(JoinRanges({4}, ",") == "4");
  CHECK(JoinRanges({}, ",") == "");
  CHECK(CpuMaskString({0, 1, 2, 3, 6}) == "0x4f");
  CHECK(CpuMaskString({4, 5, 6, 7}) == "0xf0");
  CHECK(CpuMaskString({9}) == "0x200");
}

TEST_CASE("DescribeMachine reports this process's affinity and one core entry per CPU in it") {
  const MachineInfo m = DescribeMachine();
  CHECK_FALSE(m.architecture.empty());
  REQUIRE_FALSE(m.affinity.empty());
  REQUIRE(m.cores.size() == m.affinity.size());
  for (size_t i = 0; i < m.cores.size(); ++i) CHECK(m.cores[i].cpu == m.affinity[i]);
}

}  // namespace
}  // namespace tflite_inspect
