#include "results/world/HealthRecords.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

void Hex64::write(nlohmann::json& out, std::uint64_t value) {
  char text[20];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  out = text;
}

void Hex64::read(const nlohmann::json& in, std::uint64_t& value) {
  value = std::stoull(in.get<std::string>(), nullptr, 16);
}

GPUSCALE_JSON_FROM_FIELDS(GpuProcess)
GPUSCALE_JSON_FROM_FIELDS(Tenancy)
GPUSCALE_JSON_FROM_FIELDS(LibraryFile)
GPUSCALE_JSON_FROM_FIELDS(AdapterPort)
GPUSCALE_JSON_FROM_FIELDS(RdmaAdapter)
GPUSCALE_JSON_FROM_FIELDS(NetworkAdapters)

}  // namespace gpuscale::results
