#include "results/RunReport.hpp"

#include <stdexcept>

#include "results/JsonFields.hpp"

namespace gpuscale::results {

const char* verdict_result(const Verdict& v) { return v.incomplete ? "INCOMPLETE" : v.passed ? "PASS" : "FAIL"; }

std::string unfinished_reason(const RunReport& r) {
  if (r.failure) return "failed";
  if (r.interrupted) return "interrupted";
  return r.complete ? "" : "complete: false";
}

void to_json(nlohmann::json& j, const Verdict& v) {
  j = {{"passed", v.passed}, {"result", verdict_result(v)}, {"reasons", v.reasons}, {"rules", v.rules}};
}

void from_json(const nlohmann::json& j, Verdict& v) {
  j.at("passed").get_to(v.passed);
  std::string result;
  get_if_present(j, "result", result);
  v.incomplete = result == "INCOMPLETE";
  j.at("reasons").get_to(v.reasons);
  get_if_present(j, "rules", v.rules);
}

void to_json(nlohmann::json& j, const RunFailure& f) {
  j = {{"exit_code", f.exit_code}, {"message", f.message}, {"rank", f.rank},
       {"ranks_not_responding", f.ranks_not_responding}};
}

void from_json(const nlohmann::json& j, RunFailure& f) {
  j.at("exit_code").get_to(f.exit_code);
  j.at("message").get_to(f.message);
  j.at("rank").get_to(f.rank);
  j.at("ranks_not_responding").get_to(f.ranks_not_responding);
}

void to_json(nlohmann::json& j, const SkippedPhase& s) { j = {{"phase", s.phase}, {"reason", s.reason}}; }

void from_json(const nlohmann::json& j, SkippedPhase& s) {
  j.at("phase").get_to(s.phase);
  j.at("reason").get_to(s.reason);
}

void to_json_shell(nlohmann::json& j, const RunReport& r) {
  j = {{"schema_version", kSchemaVersion},  // the document written is in this build's schema, whatever was read
       {"tool", "gpuscale"},
       {"tool_version", r.tool_version},
       {"command_line", r.command_line},
       {"start_time", r.start_time},
       {"elapsed_s", r.elapsed_s},
       {"world", {{"size", r.world_size}, {"nodes", r.node_count}}},
       {"phases_completed", r.phases_completed},
       {"phases_skipped", r.phases_skipped},
       {"checks", r.checks},
       {"verdict", r.verdict},
       {"straggler_threshold", r.straggler_threshold},
       {"interrupted", r.interrupted},
       {"complete", r.complete},
       {"output_set", r.output_set}};
  if (r.emulation) j["world"]["emulated"] = *r.emulation;
  put_optional(j, "collectives", r.collectives);
  j["train"] = r.train;
  if (r.projection) j["projection"] = *r.projection;
  if (r.budget) j["budget"] = *r.budget;
  if (!r.tenants.empty()) j["tenants"] = r.tenants;
  if (!r.shared_phases.empty()) j["shared_phases"] = r.shared_phases;
  if (!r.outliers.empty()) j["outliers"] = r.outliers;
  if (r.failure) j["failure"] = *r.failure;
  for_each_per_rank_array([&j](const char* key, auto) { j[key] = nlohmann::json::array(); });
}

void to_json(nlohmann::json& j, const RunReport& r) {
  to_json_shell(j, r);
  for_each_per_rank_array([&](const char* key, auto member) { j[key] = r.*member; });
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
    r.schema_version = version->get<int>();
    j.at("tool_version").get_to(r.tool_version);
    j.at("command_line").get_to(r.command_line);
    j.at("start_time").get_to(r.start_time);
    j.at("elapsed_s").get_to(r.elapsed_s);
    j.at("world").at("size").get_to(r.world_size);
    j.at("world").at("nodes").get_to(r.node_count);
    get_optional(j.at("world"), "emulated", r.emulation);
    j.at("phases_completed").get_to(r.phases_completed);
    get_if_present(j, "phases_skipped", r.phases_skipped);
    j.at("ranks").get_to(r.ranks);
    // Both are judged afresh from the records (`gpuscale report`): a file without them still reads.
    get_if_present(j, "checks", r.checks);
    get_if_present(j, "verdict", r.verdict);
    j.at("interrupted").get_to(r.interrupted);
    get_if_present(j, "straggler_threshold", r.straggler_threshold);
    // Version 1 had no such field: its files are taken as complete, as they were then.
    if (r.schema_version >= 2) j.at("complete").get_to(r.complete);
    get_if_present(j, "output_set", r.output_set);
    get_if_present(j, "trace_spans", r.trace_spans);
    get_optional(j, "collectives", r.collectives);
    get_if_present(j, "compute", r.compute);
    get_if_present(j, "train", r.train);
    get_if_present(j, "burn", r.burn);
    get_if_present(j, "links", r.links);
    get_optional(j, "projection", r.projection);
    get_optional(j, "budget", r.budget);
    get_if_present(j, "tenants", r.tenants);
    get_if_present(j, "shared_phases", r.shared_phases);
    get_if_present(j, "outliers", r.outliers);
    get_optional(j, "failure", r.failure);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed run report: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("malformed run report: ") + e.what());
  }
}

}  // namespace gpuscale::results
