#include "results/RankEnv.hpp"

#include <iterator>

#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"

namespace gpuscale::results {

void to_json(nlohmann::json& j, const NvLinkGroup& v) {
  j = {{"remote_pci_bus_id", v.remote_pci_bus_id}, {"link_count", v.link_count}, {"version", v.version}};
}
void from_json(const nlohmann::json& j, NvLinkGroup& v) {
  j.at("remote_pci_bus_id").get_to(v.remote_pci_bus_id);
  j.at("link_count").get_to(v.link_count);
  j.at("version").get_to(v.version);
}

void to_json(nlohmann::json& j, const PeerAccess& v) {
  j = {{"peer_pci_bus_id", v.peer_pci_bus_id}, {"cuda_visible", v.cuda_visible}, {"can_access", v.can_access},
       {"performance_rank", v.performance_rank}, {"nvlink_count", v.nvlink_count}};
}
void from_json(const nlohmann::json& j, PeerAccess& v) {
  j.at("peer_pci_bus_id").get_to(v.peer_pci_bus_id);
  j.at("can_access").get_to(v.can_access);
  j.at("performance_rank").get_to(v.performance_rank);
  get_if_present(j, "cuda_visible", v.cuda_visible);
  get_if_present(j, "nvlink_count", v.nvlink_count);
}

void to_json(nlohmann::json& j, const GpuInfo& v) {
  j = {{"cuda_index", v.cuda_index},
       {"name", v.name},
       {"uuid", v.uuid},
       {"pci_bus_id", v.pci_bus_id},
       {"compute_capability", std::to_string(v.cc_major) + "." + std::to_string(v.cc_minor)},
       {"cc_major", v.cc_major},
       {"cc_minor", v.cc_minor},
       {"memory_total_bytes", v.memory_total_bytes},
       {"memory_free_bytes", v.memory_free_bytes},
       {"sm_count", v.sm_count},
       {"numa_node", v.numa_node},
       {"nvlinks", v.nvlinks},
       {"peers", v.peers}};
  put_optional(j, "sm_clock_mhz", v.sm_clock_mhz);
  put_optional(j, "sm_clock_max_mhz", v.sm_clock_max_mhz);
  put_optional(j, "memory_clock_mhz", v.memory_clock_mhz);
  put_optional(j, "clock_event_reasons", v.clock_event_reasons);
  put_optional(j, "temperature_c", v.temperature_c);
  put_optional(j, "power_draw_w", v.power_draw_w);
  put_optional(j, "power_limit_w", v.power_limit_w);
  put_optional(j, "ecc_corrected_volatile", v.ecc_corrected_volatile);
  put_optional(j, "ecc_uncorrected_volatile", v.ecc_uncorrected_volatile);
  put_optional(j, "remapped_rows_pending", v.remapped_rows_pending);
  put_optional(j, "remapped_rows_failure", v.remapped_rows_failure);
  put_optional(j, "ecc_enabled", v.ecc_enabled);
  put_optional(j, "mig_enabled", v.mig_enabled);
  put_optional(j, "persistence_enabled", v.persistence_enabled);
  put_optional(j, "power_management_limit_w", v.power_management_limit_w);
  put_optional(j, "power_default_limit_w", v.power_default_limit_w);
  put_optional(j, "applications_clock_sm_mhz", v.applications_clock_sm_mhz);
  put_optional(j, "default_applications_clock_sm_mhz", v.default_applications_clock_sm_mhz);
  put_optional(j, "pcie_gen", v.pcie_gen);
  put_optional(j, "pcie_width", v.pcie_width);
  put_optional(j, "pcie_gen_max", v.pcie_gen_max);
  put_optional(j, "pcie_width_max", v.pcie_width_max);
}

void from_json(const nlohmann::json& j, GpuInfo& v) {
  j.at("cuda_index").get_to(v.cuda_index);
  j.at("name").get_to(v.name);
  j.at("uuid").get_to(v.uuid);
  j.at("pci_bus_id").get_to(v.pci_bus_id);
  j.at("cc_major").get_to(v.cc_major);
  j.at("cc_minor").get_to(v.cc_minor);
  j.at("memory_total_bytes").get_to(v.memory_total_bytes);
  j.at("memory_free_bytes").get_to(v.memory_free_bytes);
  j.at("sm_count").get_to(v.sm_count);
  get_if_present(j, "numa_node", v.numa_node);
  get_if_present(j, "nvlinks", v.nvlinks);
  get_if_present(j, "peers", v.peers);
  get_optional(j, "sm_clock_mhz", v.sm_clock_mhz);
  get_optional(j, "sm_clock_max_mhz", v.sm_clock_max_mhz);
  get_optional(j, "memory_clock_mhz", v.memory_clock_mhz);
  get_optional(j, "clock_event_reasons", v.clock_event_reasons);
  get_optional(j, "temperature_c", v.temperature_c);
  get_optional(j, "power_draw_w", v.power_draw_w);
  get_optional(j, "power_limit_w", v.power_limit_w);
  get_optional(j, "ecc_corrected_volatile", v.ecc_corrected_volatile);
  get_optional(j, "ecc_uncorrected_volatile", v.ecc_uncorrected_volatile);
  get_optional(j, "remapped_rows_pending", v.remapped_rows_pending);
  get_optional(j, "remapped_rows_failure", v.remapped_rows_failure);
  get_optional(j, "ecc_enabled", v.ecc_enabled);
  get_optional(j, "mig_enabled", v.mig_enabled);
  get_optional(j, "persistence_enabled", v.persistence_enabled);
  get_optional(j, "power_management_limit_w", v.power_management_limit_w);
  get_optional(j, "power_default_limit_w", v.power_default_limit_w);
  get_optional(j, "applications_clock_sm_mhz", v.applications_clock_sm_mhz);
  get_optional(j, "default_applications_clock_sm_mhz", v.default_applications_clock_sm_mhz);
  get_optional(j, "pcie_gen", v.pcie_gen);
  get_optional(j, "pcie_width", v.pcie_width);
  get_optional(j, "pcie_gen_max", v.pcie_gen_max);
  get_optional(j, "pcie_width_max", v.pcie_width_max);
}

void to_json(nlohmann::json& j, const Versions& v) {
  j = {{"driver", v.driver},
       {"cuda_driver_api", v.cuda_driver_api},
       {"cuda_runtime", v.cuda_runtime},
       {"cublas", v.cublas},
       {"cudnn_header", v.cudnn_header},
       {"cudnn_library", v.cudnn_library},
       {"nccl_header", v.nccl_header},
       {"nccl_library", v.nccl_library},
       {"mpi_library", v.mpi_library},
       {"mpi_standard", v.mpi_standard}};
}
void from_json(const nlohmann::json& j, Versions& v) {
  j.at("driver").get_to(v.driver);
  j.at("cuda_driver_api").get_to(v.cuda_driver_api);
  j.at("cuda_runtime").get_to(v.cuda_runtime);
  j.at("cublas").get_to(v.cublas);
  j.at("cudnn_header").get_to(v.cudnn_header);
  j.at("cudnn_library").get_to(v.cudnn_library);
  j.at("nccl_header").get_to(v.nccl_header);
  j.at("nccl_library").get_to(v.nccl_library);
  j.at("mpi_library").get_to(v.mpi_library);
  j.at("mpi_standard").get_to(v.mpi_standard);
}

void to_json(nlohmann::json& j, const NcclPaths& v) {
  j = {{"captured", v.captured}, {"unavailable_reason", v.unavailable_reason}, {"nodes", v.nodes},
       {"local_ranks", v.local_ranks}, {"network", v.network}, {"transports", v.transports}};
}
void from_json(const nlohmann::json& j, NcclPaths& v) {
  j.at("captured").get_to(v.captured);
  get_if_present(j, "unavailable_reason", v.unavailable_reason);
  get_if_present(j, "nodes", v.nodes);
  get_if_present(j, "local_ranks", v.local_ranks);
  get_if_present(j, "network", v.network);
  get_if_present(j, "transports", v.transports);
}

void to_json(nlohmann::json& j, const SmokeTest& v) {
  j = {{"ran", v.ran},         {"passed", v.passed},   {"skipped_reason", v.skipped_reason},
       {"transport", v.transport}, {"elements", v.elements}, {"wrong", v.wrong},
       {"init_s", v.init_s},   {"op_s", v.op_s},       {"error", v.error}};
  j["nccl_paths"] = v.nccl;
}
void from_json(const nlohmann::json& j, SmokeTest& v) {
  j.at("ran").get_to(v.ran);
  j.at("passed").get_to(v.passed);
  j.at("skipped_reason").get_to(v.skipped_reason);
  j.at("transport").get_to(v.transport);
  j.at("elements").get_to(v.elements);
  j.at("wrong").get_to(v.wrong);
  j.at("init_s").get_to(v.init_s);
  j.at("op_s").get_to(v.op_s);
  j.at("error").get_to(v.error);
  get_if_present(j, "nccl_paths", v.nccl);
}

void to_json(nlohmann::json& j, const RankEnv& v) {
  j = {{"rank", v.rank},
       {"world_size", v.world_size},
       {"local_rank", v.local_rank},
       {"local_size", v.local_size},
       {"node", v.node},
       {"node_count", v.node_count},
       {"host", v.host},
       {"backend", v.backend},
       {"backend_fallback", v.backend_fallback},
       {"launcher", v.launcher},
       {"pid", v.pid},
       {"cpu_model", v.cpu_model},
       {"cpu_online", v.cpu_online},
       {"cpu_affinity", v.cpu_affinity},
       {"cpu_affinity_count", v.cpu_affinity_count},
       {"numa_cpus", v.numa_cpus},
       {"visible_gpu_count", v.visible_gpu_count},
       {"versions", v.versions},
       {"variables", v.variables},
       {"smoke_allreduce", v.smoke}};
  j["gpu"] = v.gpu ? nlohmann::json(*v.gpu) : nlohmann::json(nullptr);
  put_optional(j, "slurm", v.slurm);
  j["tenancy"] = v.tenancy;
  j["nccl_libraries"] = v.nccl_libraries;
  j["network"] = v.network;
}

void from_json(const nlohmann::json& j, RankEnv& v) {
  j.at("rank").get_to(v.rank);
  j.at("world_size").get_to(v.world_size);
  j.at("local_rank").get_to(v.local_rank);
  j.at("local_size").get_to(v.local_size);
  j.at("node").get_to(v.node);
  j.at("node_count").get_to(v.node_count);
  j.at("host").get_to(v.host);
  j.at("backend").get_to(v.backend);
  get_if_present(j, "backend_fallback", v.backend_fallback);
  get_if_present(j, "launcher", v.launcher);
  get_if_present(j, "pid", v.pid);
  get_if_present(j, "cpu_model", v.cpu_model);
  get_if_present(j, "cpu_online", v.cpu_online);
  get_if_present(j, "cpu_affinity", v.cpu_affinity);
  get_if_present(j, "cpu_affinity_count", v.cpu_affinity_count);
  get_if_present(j, "numa_cpus", v.numa_cpus);
  get_if_present(j, "visible_gpu_count", v.visible_gpu_count);
  j.at("versions").get_to(v.versions);
  get_if_present(j, "variables", v.variables);
  get_if_present(j, "smoke_allreduce", v.smoke);
  get_optional(j, "gpu", v.gpu);
  get_optional(j, "slurm", v.slurm);
  get_if_present(j, "tenancy", v.tenancy);
  get_if_present(j, "nccl_libraries", v.nccl_libraries);
  get_if_present(j, "network", v.network);
}

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
