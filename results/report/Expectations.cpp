#include "results/report/Expectations.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "results/base/CheckIds.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/RuleInputRanges.hpp"
#include "results/base/Spelling.hpp"
#include "results/report/FigureVocabulary.hpp"
#include "results/schema/InputFile.hpp"

namespace gpuscale::results {
namespace {

using nlohmann::json;

double number(const json& j, const std::string& where) {
  if (!j.is_number()) refuse_input(where + " must be a number");
  const double x = j.get<double>();
  if (!std::isfinite(x)) refuse_input(where + " must be a finite number");
  return x;
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

// Refuses a threshold that no run could meet or that names nothing a run measures.
void check_possible(const Threshold& t, const std::string& where, const LabelValues& values) {
  // An unknown phase or metric, a metric of another phase, a label key the metric never carries
  // (results/report/FigureVocabulary.hpp).
  std::vector<std::string> keys;
  for (const auto& [key, value] : t.labels) keys.push_back(key);
  if (const auto why = names_nothing(t.phase, t.metric, keys); !why.empty()) refuse_input(where + ": " + why);
  if (t.min && t.max && *t.min > *t.max)
    refuse_input(where + ": min " + shortest(*t.min) + " is above max " + shortest(*t.max) +
                 ", which no figure can meet");
  if (t.max && *t.max < 0 && !names::can_be_negative(t.metric))
    refuse_input(where + ": " + t.metric + " is never negative, so a max of " + shortest(*t.max) + " cannot be met");
  for (const auto& [label, value] : t.labels) {
    const auto known = values.find(label);
    if (known != values.end() && std::find(known->second.begin(), known->second.end(), value) == known->second.end())
      refuse_input(where + ": unknown " + label + " '" + value + "'" + did_you_mean(value, known->second) + " (" +
                   joined(known->second) + ")");
  }
}

// Label values may be written as numbers ("bytes": 1048576); figures hold them as text.
std::string label_text(const json& j, const std::string& where) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_integer()) return std::to_string(j.get<long long>());
  if (j.is_number()) return shortest(j.get<double>());
  refuse_input(where + " must be a string or a number");
}

std::string describe(const Threshold& t) {
  std::string text = (t.phase.empty() ? "" : t.phase + " ") + t.metric;
  if (!t.labels.empty()) text += " " + labels_text(t.labels);
  if (t.min) text += " >= " + shortest(*t.min);
  if (t.max) text += " <= " + shortest(*t.max);
  return text;
}

Threshold generic(const json& j, const std::string& where, const LabelValues& values) {
  if (!j.is_object()) refuse_input(where + " must be an object");
  static const std::set<std::string> kKeys = {"name", "phase", "metric", "labels", "min", "max"};
  for (const auto& [key, value] : j.items())
    if (!kKeys.count(key)) refuse_input(where + ": unknown key '" + key + "'");
  Threshold t;
  if (!j.contains("metric") || !j["metric"].is_string()) refuse_input(where + ": \"metric\" (a string) is required");
  t.metric = j["metric"].get<std::string>();
  if (j.contains("phase")) t.phase = label_text(j["phase"], where + ".phase");
  if (j.contains("labels")) {
    if (!j["labels"].is_object()) refuse_input(where + ".labels must be an object");
    for (const auto& [key, value] : j["labels"].items()) t.labels[key] = label_text(value, where + ".labels." + key);
  }
  if (j.contains("min")) t.min = number(j["min"], where + ".min");
  if (j.contains("max")) t.max = number(j["max"], where + ".max");
  if (!t.min && !t.max) refuse_input(where + ": give \"min\" or \"max\"");
  check_possible(t, where, values);
  t.name = j.contains("name") ? label_text(j["name"], where + ".name") : describe(t);
  return t;
}

// "min_busbw": [{"op": "allreduce", "bytes": 1073741824, "scope": "world", "gbps": 300}, ...]
void min_busbw(const json& j, Expectations& e, const LabelValues& values) {
  if (!j.is_array()) refuse_input("min_busbw must be an array of {op, bytes, scope, gbps}");
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string where = "min_busbw[" + std::to_string(i) + "]";
    if (!j[i].is_object() || !j[i].contains("gbps")) refuse_input(where + ": \"gbps\" is required");
    Threshold t{"", phase_of_metric(names::kBusBw), names::kBusBw, {}, number(j[i]["gbps"], where + ".gbps"), std::nullopt};
    for (const auto& [key, value] : j[i].items()) {
      if (key == "gbps") continue;
      if (key != names::kOp && key != names::kBytes && key != names::kScope && key != names::kRanks)
        refuse_input(where + ": unknown key '" + key + "' (op, bytes, scope, ranks, gbps)");
      t.labels[key] = label_text(value, where + "." + key);
    }
    check_possible(t, where, values);
    t.name = "min busbw " + labels_text(t.labels) + " >= " + shortest(*t.min) + " GB/s";
    e.thresholds.push_back(t);
  }
}

// "min_tflops": {"bf16": 600, "fp32": 40}
void min_tflops(const json& j, Expectations& e, const LabelValues& values) {
  if (!j.is_object()) refuse_input("min_tflops must be an object {precision: TFLOP/s}");
  for (const auto& [precision, value] : j.items()) {
    Threshold t{"", phase_of_metric(names::kTflops), names::kTflops, {{names::kPrecision, precision}},
                number(value, "min_tflops." + precision), std::nullopt};
    check_possible(t, "min_tflops." + precision, values);
    t.name = "min TFLOP/s " + precision + " >= " + shortest(*t.min);
    e.thresholds.push_back(t);
  }
}

}  // namespace

Expectations parse_expectations(const json& j, const LabelValues& values) {
  if (!j.is_object()) refuse_input("the expect file must hold a JSON object");
  Expectations e;
  for (const auto& [key, value] : j.items()) {
    if (key == "min_busbw") {
      min_busbw(value, e, values);
    } else if (key == "min_tflops") {
      min_tflops(value, e, values);
    } else if (key == "max_straggler_spread") {
      e.thresholds.push_back({"", "", names::kStragglerSpread, {}, std::nullopt, number(value, key)});
      check_possible(e.thresholds.back(), key, values);
      e.thresholds.back().name = "max straggler spread <= " + shortest(*e.thresholds.back().max);
    } else if (key == "min_scaling_efficiency") {
      e.thresholds.push_back({"", phase_of_metric(names::kScalingEfficiency), names::kScalingEfficiency, {}, number(value, key), std::nullopt});
      check_possible(e.thresholds.back(), key, values);
      e.thresholds.back().name = "min scaling efficiency >= " + shortest(*e.thresholds.back().min);
    } else if (key == "checks_must_pass") {
      if (!value.is_array()) refuse_input("checks_must_pass must be an array of check ids");
      for (const auto& item : value) {
        const std::string id = label_text(item, "checks_must_pass[]");
        if (!check_ids::is_known(id))
          refuse_input("checks_must_pass: unknown check id '" + id + "' (known: " + check_ids::known_text() + ")");
        e.checks_must_pass.push_back(id);
      }
    } else if (key == "baseline_tolerance") {
      if (!value.is_object()) refuse_input("baseline_tolerance must be an object {KEY: fraction}");
      for (const auto& [figure, fraction] : value.items()) {
        const double x = number(fraction, "baseline_tolerance." + figure);
        check_tolerance_override(figure, x);
        e.baseline_tolerance[figure] = x;
      }
    } else if (key == "pair_threshold" || key == "isolate_threshold") {
      const double x = number(value, key);
      const bool pair = key == "pair_threshold";
      if (!(pair ? is_pair_threshold(x) : is_isolate_threshold(x)))
        refuse_input(key + (pair ? " must lie in [0, 1]" : " must lie in (0, 1)") + ", a fraction of the median");
      (pair ? e.rule_inputs.pair_threshold : e.rule_inputs.isolate_threshold) = x;
    } else if (key == "busy_utilization_pct") {
      const double x = number(value, key);
      if (!is_busy_utilization_pct(x)) refuse_input(key + " must lie in (0, 100], a percentage");
      e.rule_inputs.busy_utilization_pct = x;
    } else if (key == "thresholds") {
      if (!value.is_array()) refuse_input("thresholds must be an array");
      for (std::size_t i = 0; i < value.size(); ++i)
        e.thresholds.push_back(generic(value[i], "thresholds[" + std::to_string(i) + "]", values));
    } else {
      refuse_input("unknown key '" + key +
                   "' (min_busbw, min_tflops, max_straggler_spread, min_scaling_efficiency, "
                   "checks_must_pass, baseline_tolerance, pair_threshold, isolate_threshold, busy_utilization_pct, "
                   "thresholds)");
    }
  }
  return e;
}

Expectations read_expectations_file(const std::string& path, const LabelValues& values) {
  json j;
  try {
    j = parse_input_file(path);
  } catch (const InputError& ex) {
    refuse_input(std::string("--expect ") + ex.what());
  }
  try {
    return parse_expectations(j, values);
  } catch (const std::invalid_argument& ex) {
    refuse_input("--expect " + path + ": " + ex.what());
  }
}

}  // namespace gpuscale::results
