#include "results/world/RankEnv.hpp"

#include <iterator>

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(NvLinkGroup)
GPUSCALE_JSON_FROM_FIELDS(PeerAccess)
GPUSCALE_JSON_FROM_FIELDS(GpuInfo)
GPUSCALE_JSON_FROM_FIELDS(Versions)
GPUSCALE_JSON_FROM_FIELDS(NcclPaths)
GPUSCALE_JSON_FROM_FIELDS(SmokeAllreduce)
GPUSCALE_JSON_FROM_FIELDS(RankEnv)

std::string dotted_version(int code) {
  if (code <= 0) return "-";
  const int major = code / 10000, minor = (code % 10000) / 100, patch = code % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::string nvlink_version_name(int nvml_version) {
  static const char* const kNames[] = {"?", "1.0", "2.0", "2.2", "3.0", "3.1", "4.0", "5.0", "6.0"};
  if (nvml_version < 0 || nvml_version >= static_cast<int>(std::size(kNames))) return "?";
  return kNames[nvml_version];
}

std::string cuda_version_string(int code) {
  if (code <= 0) return "-";
  return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10);
}

}  // namespace gpuscale::results
