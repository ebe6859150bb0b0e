#include "results/MidRunTenancy.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"

namespace gpuscale::results {
bool measured_shared(const std::vector<std::string>& shared_phases, const std::string& phase) {
  return std::find(shared_phases.begin(), shared_phases.end(), phase) != shared_phases.end();
}

void to_json(nlohmann::json& j, const MidRunTenant& t) {
  j = {{"phase", t.phase}, {"rank", t.rank}, {"host", t.host}, {"gpu", t.gpu}, {"pid", t.process.pid},
       {"name", t.process.name}, {"compute", t.process.compute}};
  put_optional(j, "memory_bytes", t.process.used_memory_bytes);
  put_optional(j, "utilization_pct", t.utilization_pct);
}

void from_json(const nlohmann::json& j, MidRunTenant& t) {
  j.at("phase").get_to(t.phase);
  j.at("rank").get_to(t.rank);
  j.at("host").get_to(t.host);
  get_if_present(j, "gpu", t.gpu);
  j.at("pid").get_to(t.process.pid);
  j.at("name").get_to(t.process.name);
  j.at("compute").get_to(t.process.compute);
  get_optional(j, "memory_bytes", t.process.used_memory_bytes);
  get_optional(j, "utilization_pct", t.utilization_pct);
}

}  // namespace gpuscale::results
