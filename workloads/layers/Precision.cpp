#include "workloads/layers/Precision.hpp"

#include <algorithm>
#include <string>

#include "harness/Error.hpp"

namespace gpuscale::workloads {

std::string_view to_string(Precision p) {
  switch (p) {
    case Precision::fp32:
      return "fp32";
    case Precision::tf32:
      return "tf32";
    case Precision::fp16:
      return "fp16";
    case Precision::bf16:
      return "bf16";
  }
  return "?";
}

Precision parse_precision(std::string_view text) {
  for (Precision p : kAllPrecisions)
    if (to_string(p) == text) return p;
  if (text == "float32" || text == "float") return Precision::fp32;
  if (text == "float16" || text == "half") return Precision::fp16;
  if (text == "bfloat16") return Precision::bf16;
  throw harness::UsageError("unknown precision '" + std::string(text) + "' (use fp32, tf32, fp16, bf16 or all)");
}

std::vector<Precision> parse_precision_list(std::string_view text) {
  if (text == "all") return {std::begin(kAllPrecisions), std::end(kAllPrecisions)};
  std::vector<Precision> list;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const Precision p = parse_precision(text.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (std::find(list.begin(), list.end(), p) == list.end()) list.push_back(p);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return list;
}

harness::DataType storage_type(Precision p) {
  switch (p) {
    case Precision::fp16:
      return harness::DataType::float16;
    case Precision::bf16:
      return harness::DataType::bfloat16;
    default:
      return harness::DataType::float32;
  }
}

double relative_error_limit(Precision p) {
  switch (p) {
    case Precision::fp32:
      return 1e-5;
    // TF32 keeps 10 mantissa bits of each input: about 5e-4 relative per product, averaging out over
    // the reduction; 2e-3 leaves room for truncating hardware without hiding a wrong result.
    case Precision::tf32:
      return 2e-3;
    default:
      return 1e-2;
  }
}

}  // namespace gpuscale::workloads
