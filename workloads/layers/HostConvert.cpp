#include "workloads/layers/HostConvert.hpp"

#include <cstdint>
#include <string>

#include "harness/Error.hpp"
#include "harness/HalfFloat.hpp"

namespace gpuscale::workloads {
namespace {

using harness::DataType;

double load(const void* data, DataType type, std::size_t i) {
  switch (type) {
    case DataType::float32:
      return static_cast<const float*>(data)[i];
    case DataType::float64:
      return static_cast<const double*>(data)[i];
    case DataType::float16:
      return harness::half_to_float(static_cast<const std::uint16_t*>(data)[i]);
    case DataType::bfloat16:
      return harness::bfloat16_to_float(static_cast<const std::uint16_t*>(data)[i]);
    default:
      break;
  }
  throw harness::UsageError("layers hold float, double, half or bfloat16, not " + std::string(to_string(type)));
}

void store(double value, DataType type, void* data, std::size_t i) {
  switch (type) {
    case DataType::float32:
      static_cast<float*>(data)[i] = static_cast<float>(value);
      return;
    case DataType::float64:
      static_cast<double*>(data)[i] = value;
      return;
    case DataType::float16:
      static_cast<std::uint16_t*>(data)[i] = harness::float_to_half(static_cast<float>(value));
      return;
    case DataType::bfloat16:
      static_cast<std::uint16_t*>(data)[i] = harness::float_to_bfloat16(static_cast<float>(value));
      return;
    default:
      break;
  }
  throw harness::UsageError("layers hold float, double, half or bfloat16, not " + std::string(to_string(type)));
}

}  // namespace

std::vector<double> to_double(const void* data, DataType type, std::size_t count) {
  std::vector<double> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = load(data, type, i);
  return out;
}

void from_double(const double* src, std::size_t count, DataType type, void* dst, bool add) {
  for (std::size_t i = 0; i < count; ++i) store(add ? load(dst, type, i) + src[i] : src[i], type, dst, i);
}

void round_to(std::vector<double>& values, DataType type) {
  if (type == DataType::float64) return;
  std::vector<unsigned char> scratch(size_of(type));
  for (double& v : values) {
    store(v, type, scratch.data(), 0);
    v = load(scratch.data(), type, 0);
  }
}

}  // namespace gpuscale::workloads
