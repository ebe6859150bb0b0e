#pragma once
// Dense (no sparsity) peak TFLOP/s of known GPUs per precision, for "% of peak" figures. Sources:
// NVIDIA's data sheets: H100 SXM5 / H200 SXM: fp32 67, tf32 494.7, fp16/bf16 989.4 (the sheets
// print the sparse figures 989/1979; dense is half); H100 PCIe: 51, 378, 756; H100 NVL and H200
// NVL: 60, 418 (NVL sheet: 835 sparse), 835 (1671 sparse); A100 SXM4 and PCIe: 19.5, 156, 312;
// L40S: 91.6, 183, 362; HGX B200: 75, 1100, 2250 (sheet: 2.2 PF tf32, 4.5 PF fp16/bf16 sparse).
#include <optional>
#include <string_view>

namespace gpuscale::results {

// gpu_name as CUDA reports it ("NVIDIA H200", "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB");
// precision "fp32" | "tf32" | "fp16" | "bf16". nullopt for an unknown GPU or precision.
std::optional<double> peak_tflops(std::string_view gpu_name, std::string_view precision);

// The data sheet's HBM bandwidth in GB/s (1e9 B/s): H200 4800 (SXM and NVL), H100 SXM 3350, H100 NVL
// 3900, H100 PCIe 2000, A100 80GB SXM 2039, A100 80GB PCIe 1935, A100 40GB 1555, L40S 864 (GDDR6),
// B200 8000. nullopt for an unknown GPU.
std::optional<double> peak_memory_gbps(std::string_view gpu_name);

// True when every space-separated word of `words` occurs in `gpu_name` (how these tables match).
bool gpu_name_matches(std::string_view gpu_name, std::string_view words);

}  // namespace gpuscale::results
