#include "results/LinksRecord.hpp"

#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"

namespace gpuscale::results {

const CopyFigure* largest_copy(const LinksRecord& r, const std::string& direction, const std::string& memory,
                               const std::string& mode) {
  const CopyFigure* best = nullptr;
  for (const auto& c : r.copies)
    if (c.direction == direction && c.memory == memory && c.mode == mode && (!best || c.bytes > best->bytes)) best = &c;
  return best;
}

const HbmFigure* find_hbm(const LinksRecord& r, const std::string& kernel) {
  for (const auto& h : r.hbm)
    if (h.kernel == kernel) return &h;
  return nullptr;
}

void to_json(nlohmann::json& j, const CopyFigure& f) {
  j = {{"direction", f.direction}, {"memory", f.memory}, {"mode", f.mode},
       {"bytes", f.bytes},         {"samples_s", f.samples_s}, {"gbps", f.gbps}};
}
void from_json(const nlohmann::json& j, CopyFigure& f) {
  j.at("direction").get_to(f.direction);
  j.at("memory").get_to(f.memory);
  j.at("mode").get_to(f.mode);
  j.at("bytes").get_to(f.bytes);
  j.at("samples_s").get_to(f.samples_s);
  j.at("gbps").get_to(f.gbps);
}

void to_json(nlohmann::json& j, const HbmFigure& f) {
  j = {{"kernel", f.kernel}, {"bytes_moved", f.bytes_moved}, {"samples_s", f.samples_s}, {"gbps", f.gbps}};
}
void from_json(const nlohmann::json& j, HbmFigure& f) {
  j.at("kernel").get_to(f.kernel);
  j.at("bytes_moved").get_to(f.bytes_moved);
  j.at("samples_s").get_to(f.samples_s);
  j.at("gbps").get_to(f.gbps);
}

void to_json(nlohmann::json& j, const PcieUnderLoad& p) {
  j = {{"samples", p.samples}};
  put_optional(j, "gen", p.gen);
  put_optional(j, "width", p.width);
  put_optional(j, "gen_max", p.gen_max);
  put_optional(j, "width_max", p.width_max);
}
void from_json(const nlohmann::json& j, PcieUnderLoad& p) {
  j.at("samples").get_to(p.samples);
  get_optional(j, "gen", p.gen);
  get_optional(j, "width", p.width);
  get_optional(j, "gen_max", p.gen_max);
  get_optional(j, "width_max", p.width_max);
}

void to_json(nlohmann::json& j, const NvLinkCounters& c) {
  j = nlohmann::json::object();
  put_optional(j, "replay", c.replay);
  put_optional(j, "recovery", c.recovery);
  put_optional(j, "crc_flit", c.crc_flit);
  put_optional(j, "crc_data", c.crc_data);
}
void from_json(const nlohmann::json& j, NvLinkCounters& c) {
  get_optional(j, "replay", c.replay);
  get_optional(j, "recovery", c.recovery);
  get_optional(j, "crc_flit", c.crc_flit);
  get_optional(j, "crc_data", c.crc_data);
}

void to_json(nlohmann::json& j, const NvLinkStatus& s) {
  j = {{"link", s.link}, {"active_before", s.active_before}, {"active_after", s.active_after}, {"errors", s.errors}};
}
void from_json(const nlohmann::json& j, NvLinkStatus& s) {
  j.at("link").get_to(s.link);
  j.at("active_before").get_to(s.active_before);
  j.at("active_after").get_to(s.active_after);
  j.at("errors").get_to(s.errors);
}

void to_json(nlohmann::json& j, const LinksRecord& r) {
  j = {{"rank", r.rank},           {"node", r.node},           {"host", r.host},
       {"gpu", r.gpu},             {"pci_bus_id", r.pci_bus_id}, {"numa_node", r.numa_node},
       {"cpu_affinity", r.cpu_affinity}, {"copies", r.copies},   {"hbm", r.hbm},
       {"pcie", r.pcie},           {"nvlinks", r.nvlinks},     {"xids", r.xids},
       {"unreadable", r.unreadable}, {"h2d_slow", r.h2d_slow}, {"hbm_slow", r.hbm_slow}};
  put_optional(j, "hbm_peak_gbps", r.hbm_peak_gbps);
  put_optional(j, "h2d_floor_gbps", r.h2d_floor_gbps);
  put_optional(j, "hbm_floor_gbps", r.hbm_floor_gbps);
}
void from_json(const nlohmann::json& j, LinksRecord& r) {
  j.at("rank").get_to(r.rank);
  j.at("node").get_to(r.node);
  j.at("host").get_to(r.host);
  j.at("gpu").get_to(r.gpu);
  j.at("pci_bus_id").get_to(r.pci_bus_id);
  j.at("numa_node").get_to(r.numa_node);
  j.at("cpu_affinity").get_to(r.cpu_affinity);
  j.at("copies").get_to(r.copies);
  j.at("hbm").get_to(r.hbm);
  j.at("pcie").get_to(r.pcie);
  j.at("nvlinks").get_to(r.nvlinks);
  j.at("xids").get_to(r.xids);
  j.at("unreadable").get_to(r.unreadable);
  j.at("h2d_slow").get_to(r.h2d_slow);
  j.at("hbm_slow").get_to(r.hbm_slow);
  get_optional(j, "hbm_peak_gbps", r.hbm_peak_gbps);
  get_optional(j, "h2d_floor_gbps", r.h2d_floor_gbps);
  get_optional(j, "hbm_floor_gbps", r.hbm_floor_gbps);
}

}  // namespace gpuscale::results
