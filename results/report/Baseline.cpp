#include "results/report/Baseline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "results/base/CheckIds.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/JsonFields.hpp"
#include "results/base/Statistics.hpp"
#include "results/report/RunFigures.hpp"
#include "results/schema/InputFile.hpp"

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

}  // namespace gpuscale::results
