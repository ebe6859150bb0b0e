#pragma once
// Reference figures per GPU model, and the floors a GPU is held to whatever the job's other GPUs do
// (a lone GPU, or eight equally slow ones, has no median to fall below): data that the console, the
// HTML and the expect templates show; the judge decides what lies under a floor (judge/GpuFloors.hpp). Dense peaks and HBM
// bandwidth come from results/base/GpuPeak.hpp (the data sheets); this table adds each model's host link
// and NVLink bandwidth from its data sheet and the known-good figures measured on it, each with its
// source. A floor is a fraction of a data-sheet figure:
//   burn  kBurnFloorOfPeak of the dense bf16/fp16 peak. One H200 at its 700 W cap sustains 674 TFLOP/s
//         bf16 in gpuscale burn (68% of 989); beside another process computing it sustains 316-372
//         (32-38%). 56% (554 on an H200) passes the first with an 18% margin and fails the second;
//         other models take the same fraction of their own dense peak.
//   host link  kHostLinkFloorOfRate of what the PCIe link carries per direction: the link NVML read
//         (maximum generation x width) where known, else the model's data-sheet link. Pinned copies
//         reach 55.2 GB/s on gen5 x16 (88% of 63).
//   hbm   kHbmFloorOfPeak of the data-sheet bandwidth, counting bytes read plus written. A device copy
//         moves 4263-4277 GB/s on an H200 (89% of 4800).
//   compute  kComputeFloorOfPeak of the dense peak for the precision, for the forward pass of the
//         compute phase's large GEMM (the default shape set's matmul, 4096^3) only: small shapes never
//         near the peak. One H200 ran it at tf32 409-411 TFLOP/s (83% of 494.7), bf16 790-797 (80% of
//         989.4), fp16 757 (77%) and fp32 51 (76%) in five --quick runs and a default run; 50% passes
//         those by 50% or more and fails a GPU at under ~62% of that speed. The expect templates
//         (launch/ExpectTemplates.hpp) hold it; no built-in rule does.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gpuscale::results {

inline constexpr double kBurnFloorOfPeak = 0.56;
inline constexpr double kHostLinkFloorOfRate = 0.70;
inline constexpr double kHbmFloorOfPeak = 0.75;
inline constexpr double kComputeFloorOfPeak = 0.5;

struct GpuReference {
  std::string_view model;  // "H200 SXM"
  std::string_view match;  // words that must all occur in CUDA's device name (most specific first)
  std::string_view cuda_name;  // an example of CUDA's name for it, for tests and docs
  unsigned pcie_gen = 0, pcie_width = 0;  // the host link of the board (data sheet)
  std::optional<double> nvlink_gbps;      // NVLink per direction, GB/s (data sheet's total / 2); none: no NVLink
  // Known-good figures measured on a healthy GPU of the model at its default power limit.
  std::optional<double> measured_burn_tflops, measured_h2d_gbps, measured_hbm_gbps;
  std::string_view source;  // where the link, NVLink and measured figures come from
};

// Every model with reference figures, most specific match first.
std::span<const GpuReference> gpu_references();
// The reference of the GPU CUDA names `gpu_name`, or nullptr for an unknown model.
const GpuReference* find_gpu_reference(std::string_view gpu_name);

struct Floor {
  double value = 0;    // in the figure's unit (TFLOP/s, GB/s)
  std::string source;  // "56% of the data sheet's 989 dense bf16 TFLOP/s"
};

// The burn's floor for `precision` on `gpu_name`: bf16 and fp16 only (the fraction was measured on
// half-precision GEMMs); nullopt for an unknown model or another precision.
std::optional<Floor> burn_floor(std::string_view gpu_name, std::string_view precision);
// The floor of a pinned host copy alone on its node, from the link NVML read (gen, width: the
// maximum the GPU and slot allow) or, where unread, the model's own link.
std::optional<Floor> host_link_floor(std::string_view gpu_name, std::optional<unsigned> gen,
                                     std::optional<unsigned> width);
// The floor of the device-to-device copy (bytes read plus written).
std::optional<Floor> hbm_floor(std::string_view gpu_name);
// The floor of the large GEMM of the compute phase at `precision` (any of fp32, tf32, fp16, bf16);
// nullopt for an unknown model or precision.
std::optional<Floor> compute_floor(std::string_view gpu_name, std::string_view precision);

// GB/s one PCIe lane carries per direction for generation `gen` (1..6); nullopt for others.
std::optional<double> pcie_lane_gbps(unsigned gen);

}  // namespace gpuscale::results
