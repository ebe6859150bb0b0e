#include "harness/DataType.hpp"

#include <array>
#include <utility>

#include "harness/Error.hpp"

namespace gpuscale::harness {
namespace {

struct TypeInfo {
  DataType type;
  std::string_view name;
  std::size_t bytes;
};

constexpr std::array kTypes = {
    TypeInfo{DataType::int8, "int8", 1},     TypeInfo{DataType::uint8, "uint8", 1},
    TypeInfo{DataType::int32, "int32", 4},   TypeInfo{DataType::uint32, "uint32", 4},
    TypeInfo{DataType::int64, "int64", 8},   TypeInfo{DataType::uint64, "uint64", 8},
    TypeInfo{DataType::float16, "half", 2},  TypeInfo{DataType::bfloat16, "bfloat16", 2},
    TypeInfo{DataType::float32, "float", 4}, TypeInfo{DataType::float64, "double", 8},
};

constexpr std::array<std::pair<std::string_view, DataType>, 6> kAliases = {{
    {"float32", DataType::float32}, {"float16", DataType::float16}, {"fp16", DataType::float16},
    {"bf16", DataType::bfloat16},   {"float64", DataType::float64}, {"char", DataType::int8},
}};

const TypeInfo& info(DataType t) {
  for (const auto& i : kTypes)
    if (i.type == t) return i;
  return kTypes.back();
}

}  // namespace

std::size_t size_of(DataType t) { return info(t).bytes; }
std::string_view to_string(DataType t) { return info(t).name; }

std::string_view to_string(RedOp op) {
  switch (op) {
    case RedOp::sum: return "sum";
    case RedOp::prod: return "prod";
    case RedOp::min: return "min";
    case RedOp::max: return "max";
    case RedOp::avg: return "avg";
  }
  return "?";
}

DataType parse_data_type(std::string_view name) {
  for (const auto& i : kTypes)
    if (i.name == name) return i.type;
  for (const auto& [alias, type] : kAliases)
    if (alias == name) return type;
  throw UsageError("unknown data type '" + std::string(name) +
                   "' (use int8, uint8, int32, uint32, int64, uint64, half, bfloat16, float, double)");
}

RedOp parse_red_op(std::string_view name) {
  for (RedOp op : {RedOp::sum, RedOp::prod, RedOp::min, RedOp::max, RedOp::avg})
    if (to_string(op) == name) return op;
  throw UsageError("unknown reduction '" + std::string(name) + "' (use sum, prod, min, max, avg)");
}

}  // namespace gpuscale::harness
