#include "results/base/GpuPeak.hpp"

namespace gpuscale::results {
namespace {

struct DataSheet {
  std::string_view match;  // all of these substrings, space separated, must occur in the name
  double fp32, tf32, half;
};

// Most specific first: "H100 NVL" and "H100 PCIe" before the plain "H100" (SXM).
constexpr DataSheet kPeaks[] = {
    {"H200 NVL", 60, 417.5, 835}, {"H200", 67, 494.7, 989.4}, {"H100 NVL", 60, 417.5, 835}, {"H100 PCIe", 51, 378, 756},
    {"H100", 67, 494.7, 989.4},   {"A100", 19.5, 156, 312},   {"L40S", 91.6, 183, 362},
    {"B200", 75, 1100, 2250},
};

}  // namespace

bool gpu_name_matches(std::string_view name, std::string_view words) {
  while (!words.empty()) {
    const auto space = words.find(' ');
    const auto word = words.substr(0, space);
    if (name.find(word) == std::string_view::npos) return false;
    words = space == std::string_view::npos ? std::string_view{} : words.substr(space + 1);
  }
  return true;
}

namespace {

struct MemoryPeak {
  std::string_view match;  // as DataSheet::match
  double gbps;
};

constexpr MemoryPeak kMemoryPeaks[] = {
    {"H200", 4800},          {"H100 NVL", 3900}, {"H100 PCIe", 2000}, {"H100", 3350}, {"A100 80GB PCIe", 1935},
    {"A100 80GB", 2039},     {"A100", 1555},     {"L40S", 864},       {"B200", 8000},
};

}  // namespace

std::optional<double> peak_memory_gbps(std::string_view gpu_name) {
  for (const auto& p : kMemoryPeaks)
    if (gpu_name_matches(gpu_name, p.match)) return p.gbps;
  return std::nullopt;
}

std::optional<double> peak_tflops(std::string_view gpu_name, std::string_view precision) {
  for (const auto& p : kPeaks) {
    if (!gpu_name_matches(gpu_name, p.match)) continue;
    if (precision == "fp32") return p.fp32;
    if (precision == "tf32") return p.tf32;
    if (precision == "fp16" || precision == "bf16") return p.half;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace gpuscale::results
