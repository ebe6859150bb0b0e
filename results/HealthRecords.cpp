#include "results/HealthRecords.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"

namespace gpuscale::results {
namespace {

// 64-bit hashes as 16 hex digits: JSON readers that hold numbers as doubles would round them.
std::string hex64(std::uint64_t value) {
  char text[20];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::uint64_t parse_hex64(const std::string& text) { return std::stoull(text, nullptr, 16); }

}  // namespace

void to_json(nlohmann::json& j, const GpuProcess& v) {
  j = {{"pid", v.pid}, {"name", v.name}, {"compute", v.compute}};
  put_optional(j, "used_memory_bytes", v.used_memory_bytes);
}
void from_json(const nlohmann::json& j, GpuProcess& v) {
  j.at("pid").get_to(v.pid);
  j.at("name").get_to(v.name);
  j.at("compute").get_to(v.compute);
  get_optional(j, "used_memory_bytes", v.used_memory_bytes);
}

void to_json(nlohmann::json& j, const Tenancy& v) {
  j = {{"probed", v.probed},
       {"unavailable_reason", v.unavailable_reason},
       {"processes", v.processes},
       {"utilization_pct", v.utilization_pct},
       {"memory_used_bytes", v.memory_used_bytes}};
}
void from_json(const nlohmann::json& j, Tenancy& v) {
  j.at("probed").get_to(v.probed);
  get_if_present(j, "unavailable_reason", v.unavailable_reason);
  get_if_present(j, "processes", v.processes);
  get_if_present(j, "utilization_pct", v.utilization_pct);
  get_if_present(j, "memory_used_bytes", v.memory_used_bytes);
}

void to_json(nlohmann::json& j, const LibraryFile& v) {
  j = {{"kind", v.kind},   {"requested", v.requested},   {"found", v.found},
       {"path", v.path},   {"size_bytes", v.size_bytes}, {"fnv1a64", hex64(v.fnv1a64)},
       {"version", v.version}};
}
void from_json(const nlohmann::json& j, LibraryFile& v) {
  j.at("kind").get_to(v.kind);
  j.at("requested").get_to(v.requested);
  j.at("found").get_to(v.found);
  j.at("path").get_to(v.path);
  j.at("size_bytes").get_to(v.size_bytes);
  v.fnv1a64 = parse_hex64(j.at("fnv1a64").get<std::string>());
  get_if_present(j, "version", v.version);
}

void to_json(nlohmann::json& j, const AdapterPort& v) {
  j = {{"port", v.port},           {"state", v.state},         {"phys_state", v.phys_state},
       {"rate_gbps", v.rate_gbps}, {"rate_text", v.rate_text}, {"link_layer", v.link_layer}};
}
void from_json(const nlohmann::json& j, AdapterPort& v) {
  j.at("port").get_to(v.port);
  j.at("state").get_to(v.state);
  j.at("phys_state").get_to(v.phys_state);
  j.at("rate_gbps").get_to(v.rate_gbps);
  get_if_present(j, "rate_text", v.rate_text);
  j.at("link_layer").get_to(v.link_layer);
}

void to_json(nlohmann::json& j, const RdmaAdapter& v) {
  j = {{"name", v.name}, {"numa_node", v.numa_node}, {"ports", v.ports}};
}
void from_json(const nlohmann::json& j, RdmaAdapter& v) {
  j.at("name").get_to(v.name);
  get_if_present(j, "numa_node", v.numa_node);
  j.at("ports").get_to(v.ports);
}

void to_json(nlohmann::json& j, const NetworkAdapters& v) {
  j = {{"probed", v.probed},
       {"adapters", v.adapters},
       {"interfaces", v.interfaces},
       {"peermem_loaded", v.peermem_loaded},
       {"dmabuf_possible", v.dmabuf_possible}};
}
void from_json(const nlohmann::json& j, NetworkAdapters& v) {
  j.at("probed").get_to(v.probed);
  get_if_present(j, "adapters", v.adapters);
  get_if_present(j, "interfaces", v.interfaces);
  get_if_present(j, "peermem_loaded", v.peermem_loaded);
  get_if_present(j, "dmabuf_possible", v.dmabuf_possible);
}

}  // namespace gpuscale::results
