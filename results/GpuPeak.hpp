#pragma once
// Dense (no sparsity) peak TFLOP/s of known GPUs per precision, for "% of peak" figures. Sources:
// NVIDIA's data sheets: H100 SXM5 / H200 SXM: fp32 67, tf32 494.7, fp16/bf16 989.4 (the sheets
// print the sparse figures 989/1979; dense is half); H100 PCIe: 51, 378, 756; H100 NVL and H200
// NVL: 60, 418 (NVL sheet: 835 sparse), 835 (1671 sparse); A100 SXM4 and PCIe: 19.5, 156, 312;
// L40S: 91.6, 183, 362.
#include <optional>
#include <string_view>

namespace gpuscale::results {

// gpu_name as CUDA reports it ("NVIDIA H200", "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB");
// precision "fp32" | "tf32" | "fp16" | "bf16". nullopt for an unknown GPU or precision.
std::optional<double> peak_tflops(std::string_view gpu_name, std::string_view precision);

}  // namespace gpuscale::results
