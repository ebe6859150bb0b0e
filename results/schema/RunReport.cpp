#include "results/schema/RunReport.hpp"

#include <stdexcept>

#include "results/base/JsonFields.hpp"
#include "results/base/MarkJson.hpp"

namespace gpuscale::results {

const char* verdict_result(const Verdict& v) { return v.incomplete ? "INCOMPLETE" : v.passed ? "PASS" : "FAIL"; }

std::string compact_start_time(const std::string& start_time) {
  std::string stamp;
  for (char c : start_time)
    if (c != '-' && c != ':') stamp += c;
  return stamp.empty() ? "unknown" : stamp;
}

std::string run_id(const RunReport& report) {
  const std::string stamp = compact_start_time(report.start_time);
  if (report.ranks.empty() || report.ranks.front().pid <= 0) return stamp;
  return stamp + "-" + std::to_string(report.ranks.front().pid);
}

std::string unfinished_reason(const RunReport& r) {
  if (r.failure) return "failed";
  if (r.interrupted) return "interrupted";
  return r.complete ? "" : "complete: false";
}

GPUSCALE_JSON_FROM_FIELDS(Verdict)
GPUSCALE_JSON_FROM_FIELDS(RunFailure)
GPUSCALE_JSON_FROM_FIELDS(SkippedPhase)

nlohmann::json world_json(const RunReport& r) {
  nlohmann::json world = {{"size", r.world_size}, {"nodes", r.node_count}};
  if (r.emulation) world["emulated"] = *r.emulation;
  return world;
}

void read_world(const nlohmann::json& world, RunReport& r) {
  world.at("size").get_to(r.world_size);
  world.at("nodes").get_to(r.node_count);
  get_optional(world, "emulated", r.emulation);
}

const MarkKey* find_mark_key(const RecordMark& mark) {
  const MarkKey* found = nullptr;
  const auto look = [&](std::span<const MarkKey> keys) {
    for (const auto& k : keys)
      if (k.phase == mark.phase && k.kind == mark.kind) found = &k;
  };
#define GPUSCALE_PHASE(name, member, records, json) look(mark_keys(static_cast<const records*>(nullptr)));
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
  return found;
}

void to_json_shell(nlohmann::json& j, const RunReport& r) {
  write_fields(j, r);
  for_each_per_rank_array([&j](const char* key, auto) { j[key] = nlohmann::json::array(); });
  // The marks of the phases written whole; those of the per-rank arrays go with their elements.
#define GPUSCALE_PHASE_JSON_per_rank(member)
#define GPUSCALE_PHASE_JSON_whole(member) \
  if (j.contains(#member)) write_marks(j[#member], mark_keys_of(r.member), r.marks);
#define GPUSCALE_PHASE(name, member, records, json) GPUSCALE_PHASE_JSON_##json(member)
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
#undef GPUSCALE_PHASE_JSON_whole
#undef GPUSCALE_PHASE_JSON_per_rank
  if (r.collectives && r.collectives->isolation) write_suspects(j["collectives"]["isolation"], r.suspects);
}

void to_json(nlohmann::json& j, const RunReport& r) {
  to_json_shell(j, r);
  for_each_per_rank_array([&](const char* key, auto member) {
    j[key] = r.*member;
    write_marks(j[key], mark_keys_of(r.*member), r.marks);
  });
}

void from_json(const nlohmann::json& j, RunReport& r) {
  if (!j.is_object()) throw std::runtime_error("not a gpuscale run report (expected a JSON object)");
  const auto version = j.find("schema_version");
  if (version == j.end() || !version->is_number_integer() || version->get<std::int64_t>() < kOldestSchemaVersion ||
      version->get<std::int64_t>() > kSchemaVersion) {
    if (version != j.end() && version->is_number_integer()) {
      throw std::runtime_error("schema_version " + version->dump() + " is not supported (this gpuscale reads " +
                               std::to_string(kOldestSchemaVersion) + " to " + std::to_string(kSchemaVersion) + ")");
    }
    throw std::runtime_error("not a gpuscale run report (no schema_version)");
  }
  try {
    read_fields(j, r);
    // Version 1 had no such field: its files are taken as complete, as they were then.
    if (r.schema_version >= 2) j.at("complete").get_to(r.complete);
    j.at("ranks");  // required; the other per-rank arrays came in later minors
    for_each_per_rank_array([&](const char* key, auto member) {
      get_if_present(j, key, r.*member);
      if (const auto it = j.find(key); it != j.end()) read_marks(*it, mark_keys_of(r.*member), r.marks);
    });
#define GPUSCALE_PHASE_JSON_per_rank(member)
#define GPUSCALE_PHASE_JSON_whole(member) \
  if (const auto it = j.find(#member); it != j.end()) read_marks(*it, mark_keys_of(r.member), r.marks);
#define GPUSCALE_PHASE(name, member, records, json) GPUSCALE_PHASE_JSON_##json(member)
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
#undef GPUSCALE_PHASE_JSON_whole
#undef GPUSCALE_PHASE_JSON_per_rank
    if (r.collectives && r.collectives->isolation) read_suspects(j.at("collectives").at("isolation"), r.suspects);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed run report: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("malformed run report: ") + e.what());
  }
}

}  // namespace gpuscale::results
