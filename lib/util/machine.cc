#include "util/machine.h"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace tflite_inspect {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// "key : value" → key, value (trimmed); false for a line without a colon.
bool SplitField(const std::string& line, std::string* key, std::string* value) {
  const auto colon = line.find(':');
  if (colon == std::string::npos) return false;
  *key = Trim(line.substr(0, colon));
  *value = Trim(line.substr(colon + 1));
  return true;
}

}  // namespace

std::string ArmPartName(unsigned implementer, unsigned part) {
  struct Known {
    unsigned implementer, part;
    const char* name;
  };
  // The cores of phones and ARM servers of the last decade (Arm's MIDR part numbers).
  static const Known kKnown[] = {
      {0x41, 0xd03, "Cortex-A53"},  {0x41, 0xd04, "Cortex-A35"},  {0x41, 0xd05, "Cortex-A55"},
      {0x41, 0xd07, "Cortex-A57"},  {0x41, 0xd08, "Cortex-A72"},  {0x41, 0xd09, "Cortex-A73"},
      {0x41, 0xd0a, "Cortex-A75"},  {0x41, 0xd0b, "Cortex-A76"},  {0x41, 0xd0c, "Neoverse-N1"},
      {0x41, 0xd0d, "Cortex-A77"},  {0x41, 0xd40, "Neoverse-V1"}, {0x41, 0xd41, "Cortex-A78"},
      {0x41, 0xd44, "Cortex-X1"},   {0x41, 0xd46, "Cortex-A510"}, {0x41, 0xd47, "Cortex-A710"},
      {0x41, 0xd48, "Cortex-X2"},   {0x41, 0xd49, "Neoverse-N2"}, {0x41, 0xd4b, "Cortex-A78C"},
      {0x41, 0xd4d, "Cortex-A715"}, {0x41, 0xd4e, "Cortex-X3"},   {0x41, 0xd4f, "Neoverse-V2"},
      {0x41, 0xd80, "Cortex-A520"}, {0x41, 0xd81, "Cortex-A720"}, {0x41, 0xd82, "Cortex-X4"},
      {0x41, 0xc07, "Cortex-A7"},   {0x41, 0xc09, "Cortex-A9"},   {0x41, 0xc0d, "Cortex-A12"},
      {0x41, 0xc0e, "Cortex-A17"},  {0x41, 0xc0f, "Cortex-A15"},  {0x51, 0x800, "Kryo 2xx Gold"},
      {0x51, 0x801, "Kryo 2xx Silver"}, {0x51, 0x802, "Kryo 3xx Gold"},
      {0x51, 0x803, "Kryo 3xx Silver"}, {0x51, 0x804, "Kryo 4xx Gold"},
      {0x51, 0x805, "Kryo 4xx Silver"},
  };
  for (const auto& k : kKnown) {
    if (k.implementer == implementer && k.part == part) return k.name;
  }
  return "";
}

std::vector<CpuCore> ParseCpuInfo(const std::string& text) {
  std::vector<CpuCore> cores;
  long implementer = -1, part = -1;
  std::string model;
  auto finish = [&]() {
    if (cores.empty()) return;
    CpuCore& c = cores.back();
    if (implementer >= 0 && part >= 0) {
      c.part = ArmPartName(static_cast<unsigned>(implementer), static_cast<unsigned>(part));
      if (c.part.empty()) {
        std::ostringstream os;
        os << "0x" << std::hex << implementer << ":0x" << part;
        c.part = os.str();
      }
    } else {
      c.part = model;
    }
    implementer = part = -1;
    model.clear();
  };
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::string key, value;
    if (!SplitField(line, &key, &value)) continue;
    try {
      if (key == "processor") {
        finish();
        CpuCore c;
        c.cpu = std::stoi(value);
        cores.push_back(c);
      } else if (key == "CPU implementer") {
        implementer = std::stol(value, nullptr, 0);
      } else if (key == "CPU part") {
        part = std::stol(value, nullptr, 0);
      } else if (key == "model name") {
        model = value;
      }
    } catch (const std::exception&) {
      // A field that is not a number: skipped, the rest still parses.
    }
  }
  finish();
  return cores;
}

std::string CpuMaskString(const std::vector<int>& cpus) {
  // Nibbles, highest first, as taskset prints a mask of any width.
  int max_cpu = 0;
  for (int c : cpus) max_cpu = std::max(max_cpu, c);
  std::string hex;
  for (int nibble = max_cpu / 4; nibble >= 0; --nibble) {
    int v = 0;
    for (int c : cpus) {
      if (c / 4 == nibble) v |= 1 << (c % 4);
    }
    hex += "0123456789abcdef"[v];
  }
  return "0x" + hex;
}

MachineInfo DescribeMachine() {
  MachineInfo m;
  utsname u{};
  if (uname(&u) == 0) m.architecture = u.machine;
  const std::string cpuinfo = ReadText("/proc/cpuinfo");
  m.cpu_model = "unknown";
  std::istringstream in(cpuinfo);
  for (std::string line; std::getline(in, line);) {
    std::string key, value;
    if (SplitField(line, &key, &value) && (key == "model name" || key == "Hardware")) {
      m.cpu_model = value;
      break;
    }
  }
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  m.online_cpus = online > 0 ? static_cast<int>(online) : 0;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) m.affinity.push_back(c);
    }
  }
  const std::vector<CpuCore> listed = ParseCpuInfo(cpuinfo);
  for (int c : m.affinity) {
    CpuCore core;
    core.cpu = c;
    for (const CpuCore& l : listed) {
      if (l.cpu == c) core.part = l.part;
    }
    const std::string freq =
        Trim(ReadText("/sys/devices/system/cpu/cpu" + std::to_string(c) +
                      "/cpufreq/cpuinfo_max_freq"));
    if (!freq.empty()) {
      try {
        core.max_khz = std::stol(freq);
      } catch (const std::exception&) {
      }
    }
    m.cores.push_back(core);
  }
  return m;
}

}  // namespace tflite_inspect
