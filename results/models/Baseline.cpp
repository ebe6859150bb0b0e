#include "results/models/Baseline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "results/models/FigureNames.hpp"
#include "results/models/Statistics.hpp"
#include "results/schema/CheckIds.hpp"
#include "results/schema/InputFile.hpp"
#include "results/schema/JsonFields.hpp"

namespace gpuscale::results {
namespace {

using nlohmann::json;

Labels without_rank(Labels labels) {
  labels.erase(names::kRank);
  return labels;
}

// The values of one figure key across the group's runs, and the first figure seen (its unit and
// direction).
struct Pool {
  Figure first;
  std::vector<double> values;
  std::set<std::size_t> runs;
};

BaselineFigure summarize_pool(const Pool& pool) {
  BaselineFigure b{pool.first.phase, pool.first.metric, without_rank(pool.first.labels), pool.first.unit,
                   pool.first.better};
  b.median = median(pool.values);
  std::vector<double> deviations;
  for (const double v : pool.values) deviations.push_back(std::fabs(v - b.median));
  b.mad = median(deviations);
  const auto [lo, hi] = std::minmax_element(pool.values.begin(), pool.values.end());
  b.min = *lo;
  b.max = *hi;
  b.values = pool.values.size();
  b.runs = pool.runs.size();
  return b;
}

// A check fails when raised at warning or error severity (as --expect's checks_must_pass counts it).
std::set<std::string> failed_checks(const RunReport& run) {
  std::set<std::string> failed;
  for (const auto& c : run.checks)
    if (c.severity != Severity::info) failed.insert(c.id);
  return failed;
}

BaselineGroup make_group(const std::vector<const RunReport*>& runs) {
  BaselineGroup group;
  group.shape = machine_shape(*runs.front());
  group.runs = runs.size();
  std::map<std::string, Pool> pools;
  std::set<std::string> ever_failed;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    for (const auto& f : flatten(*runs[r])) {
      if (f.phase == names::kChecks || std::isnan(f.value)) continue;
      auto& pool = pools.try_emplace(baseline_key(f), Pool{f, {}, {}}).first->second;
      if (pool.first.unit != f.unit) continue;  // the same key in another unit is another figure
      pool.values.push_back(f.value);
      pool.runs.insert(r);
    }
    const auto failed = failed_checks(*runs[r]);
    ever_failed.insert(failed.begin(), failed.end());
  }
  for (const auto& [key, pool] : pools) group.figures.push_back(summarize_pool(pool));
  for (const auto& id : check_ids::all())
    if (!ever_failed.count(id) && !check_ids::is_baseline(id)) group.checks_passed.push_back(id);
  return group;
}

double finite(const json& j, const char* key) {
  if (!j.contains(key) || !j.at(key).is_number()) refuse_input(std::string("\"") + key + "\" must be a number");
  const double x = j.at(key).get<double>();
  if (!std::isfinite(x)) refuse_input(std::string("\"") + key + "\" must be finite");
  return x;
}

// A count the file must give as an integer of at least `least`.
std::size_t integer_at_least(const json& j, const char* key, long long least) {
  if (!j.contains(key) || !j.at(key).is_number_integer() || j.at(key).get<long long>() < least)
    refuse_input(std::string("\"") + key + "\" must be an integer >= " + std::to_string(least) + ", not " +
                 (j.contains(key) ? j.at(key).dump() : std::string("absent")));
  return j.at(key).get<std::size_t>();
}

BaselineFigure read_figure(const json& jf, std::size_t group_runs) {
  BaselineFigure f;
  jf.at("phase").get_to(f.phase);
  jf.at("metric").get_to(f.metric);
  jf.at("labels").get_to(f.labels);
  jf.at("unit").get_to(f.unit);
  f.better = better_from_string(jf.at("better").get<std::string>());
  const std::string name = "figure " + baseline_key(f);
  try {
    f.median = finite(jf, "median");
    f.mad = finite(jf, "mad");
    f.min = finite(jf, "min");
    f.max = finite(jf, "max");
    f.runs = integer_at_least(jf, "runs", 1);
    if (f.runs > group_runs) refuse_input("measured in more runs than its group has");
    f.values = integer_at_least(jf, "values", static_cast<long long>(f.runs));
  } catch (const std::invalid_argument& e) {
    refuse_input(name + ": " + e.what());
  }
  if (f.mad < 0 || f.min > f.median || f.median > f.max)
    refuse_input(name + ": needs min <= median <= max and mad >= 0");
  // Metrics outside the named list (a phase's own, or a later version's) are taken as they are.
  if (f.min < 0 && names::is_known_metric(f.metric) && !names::can_be_negative(f.metric))
    refuse_input(name + ": " + f.metric + " is never negative");
  return f;
}

BaselineGroup read_group(const json& jg) {
  BaselineGroup g;
  jg.at("gpu").get_to(g.shape.gpu);
  if (g.shape.gpu.empty() || g.shape.gpu.rfind("mixed: ", 0) == 0)
    refuse_input("group \"" + g.shape.gpu + "\": a group is of one GPU model");
  const auto per_node = integer_at_least(jg, "ranks_per_node", 1);
  if (per_node > 1u << 20) refuse_input("\"ranks_per_node\" " + std::to_string(per_node) + " is not a node's");
  g.shape.ranks_per_node = static_cast<int>(per_node);
  const std::string name = "group " + describe(g.shape);
  try {
    g.runs = integer_at_least(jg, "runs", 1);
  } catch (const std::invalid_argument& e) {
    refuse_input(name + ": " + e.what());
  }
  jg.at("checks_passed").get_to(g.checks_passed);
  std::set<std::string> ids;
  for (const auto& id : g.checks_passed) {
    if (!check_ids::is_known(id)) refuse_input(name + ": unknown check id '" + id + "' in checks_passed");
    if (!ids.insert(id).second) refuse_input(name + ": check id '" + id + "' twice in checks_passed");
  }
  if (!jg.at("figures").is_array() || jg.at("figures").empty())
    refuse_input(name + ": no figures, so it judges nothing");
  std::set<std::string> keys;
  for (const auto& jf : jg.at("figures")) {
    g.figures.push_back(read_figure(jf, g.runs));
    if (!keys.insert(baseline_key(g.figures.back())).second)
      refuse_input(name + ": figure " + baseline_key(g.figures.back()) + " twice");
  }
  return g;
}

// Which run a report is of: its start time and every rank's host and process. Copies of one run, and
// its rewrites by `gpuscale report`, share it; two runs never do (a process is on one host at a time).
std::string run_identity(const RunReport& run) {
  std::string id = run.start_time;
  for (const auto& r : run.ranks) id += "|" + r.host + ":" + std::to_string(r.pid);
  return id;
}

}  // namespace

MachineShape machine_shape(const RunReport& run) {
  std::set<std::string> models;
  std::set<int> local_sizes;
  for (const auto& r : run.ranks) {
    models.insert(r.gpu ? r.gpu->name : "cpu (" + r.cpu_model + ")");
    local_sizes.insert(r.local_size);
  }
  MachineShape shape;
  for (const auto& m : models) shape.gpu += (shape.gpu.empty() ? "" : ", ") + m;
  if (models.size() > 1) shape.gpu = "mixed: " + shape.gpu;
  shape.ranks_per_node = local_sizes.size() == 1 ? *local_sizes.begin() : 0;
  return shape;
}

std::string describe(const MachineShape& shape) {
  return shape.gpu + ", " +
         (shape.ranks_per_node ? std::to_string(shape.ranks_per_node) + " ranks per node" : "uneven ranks per node");
}

std::string baseline_key(const std::string& phase, const std::string& metric, const Labels& labels) {
  return phase + "/" + metric + "/" + labels_text(without_rank(labels));
}
std::string baseline_key(const Figure& f) { return baseline_key(f.phase, f.metric, f.labels); }
std::string baseline_key(const BaselineFigure& f) { return baseline_key(f.phase, f.metric, f.labels); }

Baseline make_baseline(const std::vector<RunReport>& runs, const std::vector<std::string>& sources) {
  if (runs.empty()) refuse_input("a baseline needs at least one run");
  Baseline baseline;
  baseline.sources = sources;
  std::vector<std::pair<MachineShape, std::vector<const RunReport*>>> by_shape;
  std::map<std::string, std::string> seen;  // run identity -> the first file of that run
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& run = runs[i];
    const std::string name = i < sources.size() ? sources[i] : "run " + std::to_string(i + 1);
    if (const auto why = unfinished_reason(run); !why.empty())
      refuse_input(name + " is not a complete run (" + why + "); a baseline is made from finished runs only");
    if (const auto [it, first] = seen.emplace(run_identity(run), name); !first)
      refuse_input(name + " is the same run as " + it->second + " (started " + run.start_time +
                   ", the same ranks and processes); each run counts once");
    const auto shape = machine_shape(run);
    if (shape.gpu.rfind("mixed: ", 0) == 0)
      refuse_input(name + " mixes GPU models (" + shape.gpu.substr(7) +
                   "); a baseline is per model: give runs of one model");
    if (shape.ranks_per_node == 0) refuse_input(name + " has uneven ranks per node; a baseline is per node shape");
    auto it = std::find_if(by_shape.begin(), by_shape.end(), [&](const auto& g) { return g.first == shape; });
    if (it == by_shape.end()) it = by_shape.insert(by_shape.end(), {shape, {}});
    it->second.push_back(&run);
  }
  for (const auto& [shape, group_runs] : by_shape) {
    baseline.groups.push_back(make_group(group_runs));
    if (baseline.groups.back().figures.empty())
      refuse_input("the runs of " + describe(shape) + " measured no figure; a baseline of them would judge nothing");
  }
  return baseline;
}

const BaselineGroup* find_group(const Baseline& baseline, const MachineShape& shape) {
  for (const auto& g : baseline.groups)
    if (g.shape == shape) return &g;
  return nullptr;
}

void to_json(json& j, const BaselineFigure& f) { write_fields(j, f); }
void to_json(json& j, const BaselineGroup& g) { write_fields(j, g); }
void to_json(json& j, const Baseline& b) { write_fields(j, b); }

void from_json(const json& j, Baseline& b) {
  if (!j.is_object() || !j.contains("baseline_version")) refuse_input("not a gpuscale baseline (no baseline_version)");
  if (!j["baseline_version"].is_number_integer() || j["baseline_version"].get<long long>() != kBaselineVersion)
    refuse_input("baseline_version " + j["baseline_version"].dump() + " is not supported (this gpuscale reads " +
                 std::to_string(kBaselineVersion) + ")");
  try {
    b.baseline_version = kBaselineVersion;
    b.tool_version = j.value("tool_version", "");
    b.sources = j.value("sources", std::vector<std::string>{});
    b.groups.clear();
    if (!j.at("groups").is_array() || j.at("groups").empty())
      refuse_input("\"groups\" is empty: the baseline judges nothing");
    for (const auto& jg : j.at("groups")) {
      b.groups.push_back(read_group(jg));
      for (std::size_t k = 0; k + 1 < b.groups.size(); ++k)
        if (b.groups[k].shape == b.groups.back().shape)
          refuse_input("two groups for " + describe(b.groups.back().shape) + "; a shape has one group");
    }
  } catch (const json::exception& e) {
    refuse_input(std::string("malformed baseline: ") + e.what());
  }
}

Baseline read_baseline_file(const std::string& path) {
  try {
    return parse_input_json(read_input_file(path), path).get<Baseline>();
  } catch (const InputError& e) {
    refuse_input(e.what());
  } catch (const std::invalid_argument& e) {
    refuse_input(path + ": " + e.what());
  }
}

}  // namespace gpuscale::results
