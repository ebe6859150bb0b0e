#include "results/base/GpuReference.hpp"

#include <iterator>

#include "results/base/Format.hpp"
#include "results/base/GpuPeak.hpp"

namespace gpuscale::results {
namespace {

constexpr std::string_view kMeasuredH200 =
    "NVIDIA H200 data sheet; measured on one H200 at 700 W, driver 580, CUDA 13.0: gpuscale burn bf16 M8192 "
    "N8192 K8192, pinned 1 GiB copies alone, 4 GiB device copy";

// Host links and NVLink from each model's NVIDIA data sheet (NVLink: the sheet's bidirectional
// total / 2). Models without a measured figure take their floors from the data-sheet figures alone.
constexpr GpuReference kReferences[] = {
    {"H200 NVL", "H200 NVL", "NVIDIA H200 NVL", 5, 16, 450, {}, {}, {},
     "NVIDIA H200 NVL data sheet: PCIe gen5 x16, 900 GB/s NVLink bridge"},
    {"H200 SXM", "H200", "NVIDIA H200", 5, 16, 450, 674, 55.2, 4270, kMeasuredH200},
    {"H100 NVL", "H100 NVL", "NVIDIA H100 NVL", 5, 16, 300, {}, {}, {},
     "NVIDIA H100 NVL data sheet: PCIe gen5 x16, 600 GB/s NVLink bridge"},
    {"H100 PCIe", "H100 PCIe", "NVIDIA H100 PCIe", 5, 16, 300, {}, {}, {},
     "NVIDIA H100 PCIe data sheet: PCIe gen5 x16, 600 GB/s NVLink bridge (where fitted)"},
    {"H100 SXM", "H100", "NVIDIA H100 80GB HBM3", 5, 16, 450, {}, {}, {},
     "NVIDIA H100 SXM5 data sheet: PCIe gen5 x16, 900 GB/s NVLink 4"},
    {"A100 80GB PCIe", "A100 80GB PCIe", "NVIDIA A100 80GB PCIe", 4, 16, 300, {}, {}, {},
     "NVIDIA A100 PCIe data sheet: PCIe gen4 x16, 600 GB/s NVLink bridge (where fitted)"},
    {"A100 40GB PCIe", "A100 PCIE", "NVIDIA A100-PCIE-40GB", 4, 16, 300, {}, {}, {},
     "NVIDIA A100 PCIe data sheet: PCIe gen4 x16, 600 GB/s NVLink bridge (where fitted)"},
    {"A100 80GB SXM", "A100 80GB", "NVIDIA A100-SXM4-80GB", 4, 16, 300, {}, {}, {},
     "NVIDIA A100 SXM4 data sheet: PCIe gen4 x16, 600 GB/s NVLink 3"},
    {"A100 40GB SXM", "A100", "NVIDIA A100-SXM4-40GB", 4, 16, 300, {}, {}, {},
     "NVIDIA A100 SXM4 data sheet: PCIe gen4 x16, 600 GB/s NVLink 3"},
    {"B200", "B200", "NVIDIA B200", 5, 16, 900, {}, {}, {},
     "NVIDIA HGX B200 data sheet: 1.8 TB/s NVLink 5; host link gen5 x16 as HGX B200 hosts run it"},
    {"L40S", "L40S", "NVIDIA L40S", 4, 16, {}, {}, {}, {}, "NVIDIA L40S data sheet: PCIe gen4 x16, no NVLink"},
};

}  // namespace

std::span<const GpuReference> gpu_references() { return kReferences; }

const GpuReference* find_gpu_reference(std::string_view gpu_name) {
  for (const auto& r : kReferences)
    if (gpu_name_matches(gpu_name, r.match)) return &r;
  return nullptr;
}

std::optional<Floor> burn_floor(std::string_view gpu_name, std::string_view precision) {
  if (precision != "bf16" && precision != "fp16") return std::nullopt;
  const auto peak = peak_tflops(gpu_name, precision);
  if (!peak || !find_gpu_reference(gpu_name)) return std::nullopt;
  return Floor{kBurnFloorOfPeak * *peak, percent(kBurnFloorOfPeak, 0) + " of the data sheet's " + fixed(*peak, 0) +
                                             " dense " + std::string(precision) + " TFLOP/s"};
}

std::optional<Floor> host_link_floor(std::string_view gpu_name, std::optional<unsigned> gen,
                                     std::optional<unsigned> width) {
  std::string origin = "as NVML read it";
  if (!gen || !width) {
    const auto* reference = find_gpu_reference(gpu_name);
    if (!reference) return std::nullopt;
    gen = reference->pcie_gen, width = reference->pcie_width;
    origin = "the model's own link";
  }
  const auto lane = pcie_lane_gbps(*gen);
  if (!lane || *width == 0) return std::nullopt;
  const double rate = *lane * *width;
  return Floor{kHostLinkFloorOfRate * rate, percent(kHostLinkFloorOfRate, 0) + " of PCIe gen" + std::to_string(*gen) +
                                                " x" + std::to_string(*width) + "'s " + fixed(rate, 1) + " GB/s, " +
                                                origin};
}

std::optional<Floor> hbm_floor(std::string_view gpu_name) {
  const auto peak = peak_memory_gbps(gpu_name);
  if (!peak || !find_gpu_reference(gpu_name)) return std::nullopt;
  return Floor{kHbmFloorOfPeak * *peak,
               percent(kHbmFloorOfPeak, 0) + " of the data sheet's " + fixed(*peak, 0) + " GB/s"};
}

std::optional<Floor> compute_floor(std::string_view gpu_name, std::string_view precision) {
  const auto peak = peak_tflops(gpu_name, precision);
  if (!peak || !find_gpu_reference(gpu_name)) return std::nullopt;
  return Floor{kComputeFloorOfPeak * *peak, percent(kComputeFloorOfPeak, 0) + " of the data sheet's " +
                                                fixed(*peak, 1) + " dense " + std::string(precision) + " TFLOP/s"};
}

std::optional<double> pcie_lane_gbps(unsigned gen) {
  switch (gen) {
    case 1: return 0.25;
    case 2: return 0.5;
    case 3: return 0.985;
    case 4: return 1.969;
    case 5: return 3.938;
    case 6: return 7.563;  // 64 GT/s, FLIT mode: 242 of every 256 bytes carry data
    default: return std::nullopt;
  }
}

}  // namespace gpuscale::results
