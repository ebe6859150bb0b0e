#pragma once
// The math modes of the layers. Each names how inputs are stored and how products are formed; every
// mode accumulates in fp32 on the GPU (double in the cpu reference).
//   fp32: fp32 storage, fp32 FMA (TF32 off)     tf32: fp32 storage, TF32 tensor cores
//   fp16: IEEE half storage, fp32 accumulation   bf16: bfloat16 storage, fp32 accumulation
#include <string_view>
#include <vector>

#include "harness/DataType.hpp"

namespace gpuscale::workloads {

enum class Precision { fp32, tf32, fp16, bf16 };

inline constexpr Precision kAllPrecisions[] = {Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16};

std::string_view to_string(Precision p);
// "fp32" | "tf32" | "fp16" | "bf16" (also "float32", "float16", "half", "bfloat16"); UsageError otherwise.
Precision parse_precision(std::string_view text);
// Comma-separated list, or "all"; duplicates removed, order kept. UsageError on an empty or bad item.
std::vector<Precision> parse_precision_list(std::string_view text);

// Element type of inputs and weights in this mode (float32, float16 or bfloat16).
harness::DataType storage_type(Precision p);

// Largest accepted relative error ||out - ref||_2 / ||ref||_2 against the double-precision reference
// (fp32 1e-5, tf32 2e-3, fp16 and bf16 1e-2).
double relative_error_limit(Precision p);

}  // namespace gpuscale::workloads
