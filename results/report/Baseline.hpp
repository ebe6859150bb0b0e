#pragma once
// A baseline: what a set of healthy runs measured, per figure and machine shape, so that later runs
// can be judged against it (`gpuscale baseline RUN.json... -o BASE.json`, then `--baseline BASE.json`;
// the rules are in judge/BaselineRules.hpp, the file format in docs/REPORT.md).
//
// Runs are grouped by shape: the GPU model (or "cpu (MODEL)" on the CPU backend) and the ranks per
// node. Within a group every figure (but the checks' own) is keyed by phase, metric and labels; a
// figure labelled `rank` is pooled over ranks (the key drops `rank`), so one run already gives a
// spread over its ranks, and a run of another node count is judged rank by rank against the same entry.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/Figure.hpp"
#include "results/models/LabelVersions.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

// Bumped on any change a reader must know about; readers take kOldestBaselineVersion up to it and
// refuse every other. 2: `label_version` (results/models/LabelVersions.hpp); a version-1 file has none.
inline constexpr int kBaselineVersion = 2;
inline constexpr int kOldestBaselineVersion = 1;

struct BaselineFigure {
  std::string phase, metric;
  Labels labels;  // without `rank` for a per-rank figure
  std::string unit;
  Better better = Better::none;
  double median = 0;
  double mad = 0;  // median absolute deviation from `median`, in `unit`
  double min = 0, max = 0;
  std::size_t values = 0;  // how many values (runs x ranks) the statistics are over
  std::size_t runs = 0;    // in how many of the group's runs the figure was measured
};

struct MachineShape {
  std::string gpu;         // GPU name, "cpu (MODEL)", or "mixed: A, B" (never in a baseline)
  int ranks_per_node = 0;  // 0: uneven across nodes (never in a baseline)
  bool operator==(const MachineShape&) const = default;
};

struct BaselineGroup {
  MachineShape shape;
  std::size_t runs = 0;
  std::vector<BaselineFigure> figures;     // in key order
  std::vector<std::string> checks_passed;  // check ids raised at warning or error in none of the runs
};

struct Baseline {
  int baseline_version = kBaselineVersion;
  int label_version = kLabelVersion;  // of the labels as read: a reader translates older ones to this
  std::string tool_version;
  std::vector<std::string> sources;  // the run files it was made from, as given
  std::vector<BaselineGroup> groups;
};

// A baseline is read by from_json's own reader, not read_fields: it is user input, and each value is
// checked with a message of its own (below). The lists say the keys it writes.
constexpr auto json_fields(const BaselineFigure*) {
  using T = BaselineFigure;
  return fields(field("phase", &T::phase), field("metric", &T::metric), field("labels", &T::labels),
                field("unit", &T::unit), field("better", &T::better).as<BetterName>(), field("median", &T::median),
                field("mad", &T::mad), field("min", &T::min), field("max", &T::max), field("values", &T::values),
                field("runs", &T::runs));
}

constexpr auto json_fields(const BaselineGroup*) {
  using T = BaselineGroup;
  return fields(field("gpu", [](auto& g) -> auto& { return g.shape.gpu; }),
                field("ranks_per_node", [](auto& g) -> auto& { return g.shape.ranks_per_node; }),
                field("runs", &T::runs), field("checks_passed", &T::checks_passed), field("figures", &T::figures));
}

constexpr auto json_fields(const Baseline*) {
  using T = Baseline;
  return fields(field("baseline_version", &T::baseline_version), field("label_version", &T::label_version),
                field("tool_version", &T::tool_version),
                field("sources", &T::sources), field("groups", &T::groups));
}

// The shape of a run, from its ranks' environment.
MachineShape machine_shape(const RunReport& run);
std::string describe(const MachineShape& shape);  // "NVIDIA H200, 8 ranks per node"

// The key a figure is matched by in a baseline: figure_key without the `rank` label.
std::string baseline_key(const std::string& phase, const std::string& metric, const Labels& labels);
std::string baseline_key(const Figure& f);
std::string baseline_key(const BaselineFigure& f);

// Builds a baseline from `runs` (sources[i] names runs[i]). Throws std::invalid_argument with one
// line for a run that is not complete (interrupted, failed or still running), that mixes GPU models
// or has uneven ranks per node, that is a copy of an earlier one (same start time, hosts and processes:
// refused, not counted once, since a second copy in the list is a mistake in how it was made), for a
// shape whose runs measured no figure, or for no runs at all.
Baseline make_baseline(const std::vector<RunReport>& runs, const std::vector<std::string>& sources);

// The group whose shape is `shape`, or nullptr.
const BaselineGroup* find_group(const Baseline& baseline, const MachineShape& shape);

void to_json(nlohmann::json& j, const BaselineFigure& f);
void to_json(nlohmann::json& j, const BaselineGroup& g);
void to_json(nlohmann::json& j, const Baseline& b);
// Reads baseline_version 1 and 2; labels of an older label_version are translated (LabelVersions.hpp)
// and the baseline reads as of today's. Throws std::invalid_argument with one line for another
// baseline_version or label_version, labels without a known translation, a malformed document,
// or one that would judge nothing or judges by impossible values: no group, a group with no figure or
// no run, ranks_per_node < 1, a shape or a figure twice, an unknown check id, counts below 1, a
// negative value of a named metric that is never negative (names::can_be_negative).
void from_json(const nlohmann::json& j, Baseline& b);

// Reads PATH (through parse_input_file, streaming its figures); errors are std::invalid_argument
// prefixed with it.
Baseline read_baseline_file(const std::string& path);

}  // namespace gpuscale::results
