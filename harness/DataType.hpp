#pragma once
// Element types and reductions of the collectives, independent of NCCL and MPI.
#include <cstddef>
#include <string>
#include <string_view>

namespace gpuscale::harness {

enum class DataType { int8, uint8, int32, uint32, int64, uint64, float16, bfloat16, float32, float64 };
enum class RedOp { sum, prod, min, max, avg };

std::size_t size_of(DataType t);
std::string_view to_string(DataType t);
std::string_view to_string(RedOp op);
// Accept nccl-tests' names too ("float", "half", "bfloat16", "int32", ...); throw UsageError otherwise.
DataType parse_data_type(std::string_view name);
RedOp parse_red_op(std::string_view name);

}  // namespace gpuscale::harness
