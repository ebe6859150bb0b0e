#pragma once
// User thresholds for the verdict (--expect FILE). Generic form: a threshold selects figures by phase,
// metric and label filters and demands min and/or max of every figure it selects. The named forms
// (min_busbw, min_tflops, max_straggler_spread, min_scaling_efficiency) become generic thresholds;
// checks_must_pass lists check ids that must not appear at warning or error severity;
// baseline_tolerance sets per-figure tolerances for --baseline (results/report/ToleranceOverrides.hpp, judged by judge/BaselineTolerance.hpp);
// pair_threshold, isolate_threshold and busy_utilization_pct set the rule inputs of the same names.
// The file format is documented in docs/REPORT.md.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/Figure.hpp"
#include "results/base/RuleOutcome.hpp"
#include "results/report/Baseline.hpp"
#include "results/report/ToleranceOverrides.hpp"

namespace gpuscale::results {

struct Threshold {
  std::string name;    // how the verdict names it; derived from the rest when the file gives none
  std::string phase;   // "" matches any phase
  std::string metric;
  Labels labels;       // every one must be among a figure's labels
  std::optional<double> min, max;  // in the figures' unit
};

// The thresholds of the rules over records, where the file sets them: each replaces the run's own
// (its command-line option, kept in the record) when the run is judged, live or by `gpuscale report`.
struct RuleInputs {
  std::optional<double> pair_threshold;        // collectives.pairs.threshold (--pair-threshold)
  std::optional<double> isolate_threshold;     // collectives.isolation.threshold (--isolate-threshold)
  std::optional<double> busy_utilization_pct;  // busy_utilization_pct (gpu-in-use; no option)
};

struct Expectations {
  std::vector<Threshold> thresholds;
  RuleInputs rule_inputs;
  std::vector<std::string> checks_must_pass;
  std::optional<Baseline> baseline;         // --baseline FILE
  ToleranceOverrides baseline_tolerance;    // the file's, then --baseline-tolerance KEY=FRAC (which wins)
  bool require_complete = false;            // --require-complete (judge/Coverage.hpp)
  // --expect auto: the template was picked for the run's GPU model and profile when it was judged
  // (launch/ExpectTemplates.hpp); its verdict line says which, or why none applies.
  bool auto_template = false;
  std::optional<RuleOutcome> source;
};

// The values a threshold's label may take, per label name ("op" -> the registered ops, "precision" ->
// the math modes), from the layers that own them; a label not listed takes any value.
using LabelValues = std::map<std::string, std::vector<std::string>>;

// Throws std::invalid_argument with one line naming the problem (unknown key, wrong type, no bound, a
// bound no figure can meet, a label value outside `values`).
Expectations parse_expectations(const nlohmann::json& j, const LabelValues& values = {});
// Reads and parses PATH; errors are prefixed with it.
Expectations read_expectations_file(const std::string& path, const LabelValues& values = {});

}  // namespace gpuscale::results
