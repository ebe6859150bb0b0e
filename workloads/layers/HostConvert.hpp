#pragma once
// Host-side conversions between tensors of float32, float16 or bfloat16 and double, for the cpu
// layers and for checking GPU results. Round to nearest even; other element types throw
// harness::UsageError.
#include <cstddef>
#include <vector>

#include "harness/DataType.hpp"

namespace gpuscale::workloads {

std::vector<double> to_double(const void* data, harness::DataType type, std::size_t count);
// dst[i] = src[i] (overwrite) or dst[i] = dst[i] + src[i] (add; the sum formed in double).
void from_double(const double* src, std::size_t count, harness::DataType type, void* dst, bool add);
// Rounds every value to what `type` can hold (the inputs a GPU kernel really sees).
void round_to(std::vector<double>& values, harness::DataType type);

}  // namespace gpuscale::workloads
