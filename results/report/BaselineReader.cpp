// Reading a baseline (Baseline.hpp: from_json, read_baseline_file): user input, each value checked with
// a message of its own, older versions' labels translated (LabelVersions.hpp). A file is streamed:
// each figure becomes its entry as the parser reads it, so the document never holds a baseline's
// figures (tests/mpi/baseline_memory.sh holds the peak to 4x the file's size).
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "results/base/CheckIds.hpp"
#include "results/base/FigureNames.hpp"
#include "results/report/Baseline.hpp"
#include "results/report/FigureVocabulary.hpp"
#include "results/schema/InputFile.hpp"

namespace gpuscale::results {
namespace {

using nlohmann::json;

// Figures read before their group, by the group's index in "groups".
using StreamedFigures = std::map<std::size_t, std::vector<BaselineFigure>>;

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

// What a figure entry says on its own; its group's checks follow in check_figure.
BaselineFigure figure_from_json(const json& jf) {
  BaselineFigure f;
  try {
    jf.at("phase").get_to(f.phase);
    jf.at("metric").get_to(f.metric);
    jf.at("labels").get_to(f.labels);
    jf.at("unit").get_to(f.unit);
    f.better = better_from_string(jf.at("better").get<std::string>());
  } catch (const json::exception& e) {
    refuse_input(std::string("malformed baseline figure: ") + e.what());
  }
  const std::string name = "figure " + baseline_key(f);
  try {
    f.median = finite(jf, "median");
    f.mad = finite(jf, "mad");
    f.min = finite(jf, "min");
    f.max = finite(jf, "max");
    f.runs = integer_at_least(jf, "runs", 1);
    f.values = integer_at_least(jf, "values", static_cast<long long>(f.runs));
  } catch (const std::invalid_argument& e) {
    refuse_input(name + ": " + e.what());
  }
  if (f.mad < 0 || f.min > f.median || f.median > f.max)
    refuse_input(name + ": needs min <= median <= max and mad >= 0");
  return f;
}

// The checks that need the file's label_version and the group's runs, and the names the entry uses.
void check_figure(BaselineFigure& f, std::size_t group_runs, int label_version) {
  try {
    translate_labels(f.metric, f.labels, label_version);
  } catch (const std::invalid_argument& e) {
    refuse_input("figure " + f.phase + "/" + f.metric + ": " + e.what());
  }
  const std::string name = "figure " + baseline_key(f);
  if (f.runs > group_runs) refuse_input(name + ": measured in more runs than its group has");
  // An entry no run's figure can match would judge nothing (results/report/FigureVocabulary.hpp).
  std::vector<std::string> keys;
  for (const auto& [key, value] : f.labels) keys.push_back(key);
  if (f.phase == names::kChecks) refuse_input(name + ": a check's own figure is no baseline figure");
  if (const auto why = names_nothing(f.phase, f.metric, keys, f.unit); !why.empty()) refuse_input(name + ": " + why);
  if (f.min < 0 && !names::can_be_negative(f.metric)) refuse_input(name + ": " + f.metric + " is never negative");
}

BaselineGroup read_group(const json& jg, int label_version, std::vector<BaselineFigure> figures) {
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
  if (!jg.at("figures").is_array()) refuse_input(name + ": \"figures\" must be an array");
  for (const auto& jf : jg.at("figures")) figures.push_back(figure_from_json(jf));  // those not streamed
  if (figures.empty()) refuse_input(name + ": no figures, so it judges nothing");
  std::set<std::string> keys;
  for (auto& f : figures) {
    check_figure(f, g.runs, label_version);
    if (!keys.insert(baseline_key(f)).second) refuse_input(name + ": figure " + baseline_key(f) + " twice");
  }
  g.figures = std::move(figures);
  return g;
}

// The label_version a baseline's labels are in: its own from version 2 on; unknown in a version-1 file.
int label_version_of(const json& j, long long baseline_version) {
  if (baseline_version < 2) {
    if (j.contains("label_version")) refuse_input("baseline_version 1 has no label_version");
    return kLabelVersionUnknown;
  }
  const auto it = j.find("label_version");
  if (it == j.end() || !it->is_number_integer() || it->get<long long>() < 1 || it->get<long long>() > kLabelVersion)
    refuse_input("label_version " + (it == j.end() ? std::string("absent") : it->dump()) +
                 " is not supported (this gpuscale reads 1 to " + std::to_string(kLabelVersion) + ")");
  return static_cast<int>(it->get<long long>());
}

Baseline read_baseline(const json& j, StreamedFigures streamed) {
  if (!j.is_object() || !j.contains("baseline_version")) refuse_input("not a gpuscale baseline (no baseline_version)");
  const json& version = j.at("baseline_version");
  if (!version.is_number_integer() || version.get<long long>() < kOldestBaselineVersion ||
      version.get<long long>() > kBaselineVersion)
    refuse_input("baseline_version " + version.dump() + " is not supported (this gpuscale reads " +
                 std::to_string(kOldestBaselineVersion) + " to " + std::to_string(kBaselineVersion) + ")");
  const int label_version = label_version_of(j, version.get<long long>());
  Baseline b;
  try {
    b.tool_version = j.value("tool_version", "");
    b.sources = j.value("sources", std::vector<std::string>{});
    if (!j.at("groups").is_array() || j.at("groups").empty())
      refuse_input("\"groups\" is empty: the baseline judges nothing");
    for (std::size_t i = 0; i < j.at("groups").size(); ++i) {
      b.groups.push_back(read_group(j.at("groups")[i], label_version, std::move(streamed[i])));
      for (std::size_t k = 0; k + 1 < b.groups.size(); ++k)
        if (b.groups[k].shape == b.groups.back().shape)
          refuse_input("two groups for " + describe(b.groups.back().shape) + "; a shape has one group");
    }
  } catch (const json::exception& e) {
    refuse_input(std::string("malformed baseline: ") + e.what());
  }
  return b;
}

// "/groups/N/figures" -> N; nullopt for any other array.
std::optional<std::size_t> figures_group(const std::string& path) {
  static const std::string kHead = "/groups/", kTail = "/figures";
  if (path.size() <= kHead.size() + kTail.size() || path.compare(0, kHead.size(), kHead) != 0 ||
      path.compare(path.size() - kTail.size(), kTail.size(), kTail) != 0)
    return std::nullopt;
  const std::string number = path.substr(kHead.size(), path.size() - kHead.size() - kTail.size());
  char* end = nullptr;
  const unsigned long long n = std::strtoull(number.c_str(), &end, 10);
  if (number.empty() || *end != '\0') return std::nullopt;
  return static_cast<std::size_t>(n);
}

}  // namespace

void from_json(const json& j, Baseline& b) { b = read_baseline(j, {}); }

Baseline read_baseline_file(const std::string& path) {
  try {
    StreamedFigures streamed;
    const json j = parse_input_file(path, [&](const std::string& array, std::size_t, json& element) {
      const auto group = figures_group(array);
      if (!group || !element.is_object()) return false;
      streamed[*group].push_back(figure_from_json(element));
      return true;
    });
    return read_baseline(j, std::move(streamed));
  } catch (const InputError& e) {
    refuse_input(e.what());
  } catch (const std::invalid_argument& e) {
    refuse_input(path + ": " + e.what());
  }
}

}  // namespace gpuscale::results
