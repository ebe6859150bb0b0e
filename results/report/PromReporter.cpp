#include "results/report/PromReporter.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/models/GpuLabels.hpp"
#include "results/report/ChecksRan.hpp"
#include "results/report/Headlines.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::results {
namespace {

// HELP text escapes \ and newline (not quotes).
std::string help_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string sample_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return shortest(value);
}

using PromLabels = std::vector<std::pair<std::string, std::string>>;  // in the order written

std::string label_set(const PromLabels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (const auto& [key, value] : labels)
    out += (out.size() > 1 ? "," : "") + key + "=\"" + prom_label_value(value) + "\"";
  return out + "}";
}

void family(const std::string& name, const std::string& help, std::ostream& out) {
  out << "# HELP " << name << ' ' << help_text(help) << "\n# TYPE " << name << " gauge\n";
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// A headline's unit suffix as Prometheus' base unit: the name's new suffix, the factor to it, and the
// help text's unit words rewritten alike.
struct BaseUnit {
  const char* suffix;
  const char* base;
  double factor;
  const char* unit_in_help;
  const char* base_in_help;
};
constexpr BaseUnit kBaseUnits[] = {{"_gbps", "_bytes_per_second", 1e9, "(GB/s)", "(bytes per second)"},
                                   {"_tflops", "_flops", 1e12, "TFLOP/s", "FLOP/s"},
                                   {"_s", "_seconds", 1, "(s)", "(seconds)"}};

const BaseUnit& base_unit(const std::string& metric) {
  for (const auto& u : kBaseUnits) {
    const std::string suffix = u.suffix;
    if (metric.size() > suffix.size() && metric.compare(metric.size() - suffix.size(), suffix.size(), suffix) == 0)
      return u;
  }
  throw std::logic_error("headline " + metric + " has no unit suffix Prometheus' base units know");
}

std::string base_name(const std::string& metric, const BaseUnit& u) {
  return "gpuscale_" + metric.substr(0, metric.size() - std::string(u.suffix).size()) + u.base;
}

// The device index on the host of a rank's GPU (PromReporter.hpp: `gpu`).
std::string device_index(const RankEnv& e) {
  if (!e.gpu) return "";
  if (e.gpu->nvml_index) return std::to_string(*e.gpu->nvml_index);
  if (e.gpu->cuda_index < 0) return "";
  const auto it = e.variables.find("CUDA_VISIBLE_DEVICES");
  if (it == e.variables.end()) return std::to_string(e.gpu->cuda_index);
  std::vector<std::string> entries;
  std::stringstream list(it->second);
  for (std::string entry; std::getline(list, entry, ',');) entries.push_back(entry);
  if (static_cast<std::size_t>(e.gpu->cuda_index) >= entries.size()) return "";
  const auto& entry = entries[static_cast<std::size_t>(e.gpu->cuda_index)];
  const bool index =
      !entry.empty() && std::all_of(entry.begin(), entry.end(), [](unsigned char c) { return std::isdigit(c); });
  return index ? entry : "";
}

// Seconds since the epoch of an ISO 8601 UTC time ("2026-11-30T00:00:00Z", fractions ignored).
std::optional<double> epoch_seconds(const std::string& iso) {
  std::tm tm{};
  std::istringstream in(iso);
  in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%S");
  if (in.fail()) return std::nullopt;
  return static_cast<double>(timegm(&tm));
}

// Which ranks and nodes one file holds, and the labels of its GPUs and nodes.
class PromScope {
 public:
  PromScope(const RunReport& r, std::optional<int> node) : run_(r), node_(node), node_names_(node_names(r.ranks)) {}

  bool holds_rank(int rank) const { return known(rank) && (!node_ || env(rank).node == *node_); }
  bool holds_node(int node) const { return !node_ || node == *node_; }
  std::string node_host(int node) const { return node_name(node_names_, node); }
  // The Hostname of the job's series: the file's node, or rank 0's for the whole job.
  std::string file_host() const {
    if (node_) return node_host(*node_);
    return run_.ranks.empty() ? "" : node_host(run_.ranks.front().node);
  }
  PromLabels job() const { return {{"Hostname", file_host()}}; }
  PromLabels of(int rank) const {
    const auto& e = env(rank);
    return {{"Hostname", node_host(e.node)},    {"gpu", device_index(e)},
            {"UUID", e.gpu ? e.gpu->uuid : ""}, {"gpu_model", e.gpu ? e.gpu->name : ""},
            {"rank", std::to_string(rank)},     {"local_rank", std::to_string(e.local_rank)}};
  }
  int ranks_on(int node) const {
    return static_cast<int>(
        std::count_if(run_.ranks.begin(), run_.ranks.end(), [&](const RankEnv& e) { return e.node == node; }));
  }

 private:
  bool known(int rank) const { return rank >= 0 && rank < static_cast<int>(run_.ranks.size()); }
  const RankEnv& env(int rank) const { return run_.ranks[static_cast<std::size_t>(rank)]; }
  const RunReport& run_;
  std::optional<int> node_;
  std::map<int, std::string> node_names_;
};

void write_run(const RunReport& r, const PromScope& scope, std::ostream& out) {
  const auto label = label_set(scope.job());
  family("gpuscale_build_info", "1, labelled with the gpuscale version that ran and its report schema", out);
  auto info = scope.job();
  info.emplace_back("version", r.tool_version);
  info.emplace_back("schema_version", std::to_string(r.schema_version));
  out << "gpuscale_build_info" << label_set(info) << " 1\n";
  if (const auto start = epoch_seconds(r.start_time)) {
    family("gpuscale_run_start_timestamp_seconds", "when the run started, in seconds since the Unix epoch", out);
    out << "gpuscale_run_start_timestamp_seconds" << label << ' ' << sample_value(*start) << '\n';
  }
  family("gpuscale_run_complete", "1 once the job wrote its last report, 0 while it runs or when it died", out);
  out << "gpuscale_run_complete" << label << ' ' << (r.complete && !r.verdict.incomplete ? 1 : 0) << '\n';
  family("gpuscale_verdict_passed", "1 when the run's verdict passed, 0 when it failed or is incomplete", out);
  out << "gpuscale_verdict_passed" << label << ' ' << (std::string(verdict_result(r.verdict)) == "PASS" ? 1 : 0)
      << '\n';
  std::ostringstream rules;
  std::set<std::string> seen;  // a rule named twice would be a duplicate series
  for (const auto& rule : r.verdict.rules) {
    if (rule.result == RuleResult::skip || !seen.insert(rule.name).second) continue;
    auto labels = scope.job();
    labels.emplace_back("rule", rule.name);
    labels.emplace_back("result", std::string(to_string(rule.result)));
    rules << "gpuscale_rule_passed" << label_set(labels) << ' ' << (rule.result == RuleResult::fail ? 0 : 1) << '\n';
  }
  if (rules.tellp() == 0) return;
  family("gpuscale_rule_passed",
         "each verdict rule that ran: 1 when it passed (PASS or WARN), 0 when it failed; a rule absent did not run",
         out);
  out << rules.str();
}

// The most ranks an allreduce's bus bandwidth was measured over: under 2 it measures nothing.
int allreduce_ranks(const std::vector<Figure>& figures) {
  int most = 0;
  for (const auto& f : figures)
    if (f.phase == phase::collectives && f.metric == names::kBusBw && label_or_empty(f, names::kOp) == "allreduce" &&
        !label_or_empty(f, names::kRanks).empty())
      most = std::max(most, std::stoi(label_or_empty(f, names::kRanks)));
  return most;
}

void write_headlines(const RunReport& r, const std::vector<Figure>& figures, const PromScope& scope,
                     std::ostream& out) {
  const auto all = headlines(r, figures, nullptr);
  const bool busbw_measured = allreduce_ranks(figures) >= 2;
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Headline*>> by_metric;  // one family per metric, samples together
  for (const auto& h : all) {
    if (h.metric == "allreduce_busbw_gbps" && !busbw_measured) continue;
    if (!by_metric.count(h.metric)) order.push_back(h.metric);
    by_metric[h.metric].push_back(&h);
  }
  for (const auto& metric : order) {
    const auto& unit = base_unit(metric);
    const auto name = base_name(metric, unit);
    std::ostringstream samples;
    for (const auto* h : by_metric[metric]) {
      PromLabels extra(h->labels.begin(), h->labels.end());
      // A figure measured beside another process on its GPU is left out (gpuscale_beside_tenant says so).
      if (h->per_rank.empty() && !h->beside_tenant) {
        auto labels = scope.job();
        labels.insert(labels.end(), extra.begin(), extra.end());
        samples << name << label_set(labels) << ' ' << sample_value(h->value * unit.factor) << '\n';
      }
      for (const auto& [rank, value] : h->per_rank) {
        if (h->beside_tenant_ranks.count(rank) || !scope.holds_rank(rank)) continue;
        auto labels = scope.of(rank);
        labels.insert(labels.end(), extra.begin(), extra.end());
        samples << name << label_set(labels) << ' ' << sample_value(value * unit.factor) << '\n';
      }
    }
    if (samples.tellp() == 0) continue;  // every figure of it was left out: no family
    auto help = by_metric[metric].front()->what;
    replace_all(help, unit.unit_in_help, unit.base_in_help);
    family(name, help, out);
    out << samples.str();
  }
}

// Which GPU's figures of which phase were measured while another process computed on it, and so left
// out of the samples above: a sample per GPU and phase (the job's labels for a figure of the job's,
// such as a collective over a group that holds such a GPU).
void write_beside_tenant(const std::vector<Figure>& figures, const PromScope& scope, std::ostream& out) {
  std::set<std::pair<int, std::string>> marked;  // (rank or -1, phase)
  for (const auto& f : figures)
    if (f.beside_tenant) {
      const auto rank = label_or_empty(f, names::kRank);
      if (rank.empty())
        marked.emplace(-1, f.phase);
      else if (scope.holds_rank(std::stoi(rank)))
        marked.emplace(std::stoi(rank), f.phase);
    }
  if (marked.empty()) return;
  family("gpuscale_beside_tenant",
         "1 for each GPU and phase whose figures were measured while another process computed on the GPU: "
         "left out of the figures above (see gpuscale_check{id=\"gpu-in-use\"})",
         out);
  for (const auto& [rank, phase] : marked) {
    auto labels = rank < 0 ? scope.job() : scope.of(rank);
    labels.emplace_back("phase", phase);
    out << "gpuscale_beside_tenant" << label_set(labels) << " 1\n";
  }
}

// The slow-node isolation's figures of each node (flatten()'s, labelled node, in GB/s), a sample per node.
void write_node_figures(const std::vector<Figure>& figures, const PromScope& scope, std::ostream& out) {
  constexpr std::pair<const char*, const char*> kNodeFigures[] = {
      {names::kNodeLocalBusBw,
       "allreduce bus bandwidth over the node's own GPUs, every node at once (bytes per second)"},
      {names::kInterNodeBusBw,
       "median of the node's rounds of pair allreduce bus bandwidth with another node (bytes per second)"}};
  for (const auto& [metric, help] : kNodeFigures) {
    const auto name = "gpuscale_" + std::string(metric) + "_bytes_per_second";
    bool opened = false;
    for (const auto& f : figures) {
      if (f.metric != metric) continue;
      const int node = std::stoi(label_or_empty(f, names::kNode));
      // An allreduce over a node's one GPU moves nothing over any link.
      if (!scope.holds_node(node) || (f.metric == names::kNodeLocalBusBw && scope.ranks_on(node) < 2)) continue;
      if (!opened) family(name, help, out);
      opened = true;
      out << name << label_set({{"Hostname", scope.node_host(node)}}) << ' ' << sample_value(f.value * 1e9) << '\n';
    }
  }
}

// The ways a suspect was found (IsolationRecord.hpp), in the order written.
std::vector<const char*> suspect_methods(const Suspect& s) {
  std::vector<const char*> methods;
  if (s.rounds_failed > 0) methods.push_back("rounds");
  if (s.by_bisection) methods.push_back("bisection");
  if (s.by_node_local) methods.push_back("node-local");
  if (methods.empty()) methods.push_back("rounds");
  return methods;
}

// Each suspect of the slow-node isolation, most suspect first: how it was found, its place, and its
// score and rounds where it played any (a node named by bisection or its node-local allreduce alone
// has none to show).
void write_suspects(const SuspectList& suspects, const PromScope& scope, std::ostream& out) {
  const auto host = [&](const Suspect& s) {
    const auto name = scope.node_host(s.node);
    return name.empty() ? s.host : name;
  };
  std::ostringstream named;
  for (std::size_t place = 0; place < suspects.ranked.size(); ++place) {
    const auto& s = suspects.ranked[place];
    if (!scope.holds_node(s.node)) continue;
    for (const char* method : suspect_methods(s))
      named << "gpuscale_suspect" << label_set({{"Hostname", host(s)}, {"method", method}}) << ' ' << place + 1 << '\n';
  }
  if (named.tellp() == 0) return;
  family("gpuscale_suspect",
         "each node the slow-node isolation named, per way it was found (rounds of pairs, bisection, node-local "
         "allreduce): its place, 1 for the most suspect",
         out);
  out << named.str();
  struct Field {
    const char* name;
    const char* help;
    double (*value)(const Suspect&);
  };
  constexpr Field kFields[] = {
      {"gpuscale_suspect_score", "share of its rounds a suspect node failed (1: every one)",
       [](const Suspect& s) { return s.score; }},
      {"gpuscale_suspect_rounds_failed", "rounds a suspect node ran under the threshold of the round's median",
       [](const Suspect& s) { return static_cast<double>(s.rounds_failed); }},
      {"gpuscale_suspect_rounds_counted", "rounds a suspect node played, less those with a partner named before it",
       [](const Suspect& s) { return static_cast<double>(s.rounds_counted); }}};
  for (const auto& field : kFields) {
    std::ostringstream samples;
    for (const auto& s : suspects.ranked)
      if (scope.holds_node(s.node) && s.rounds_counted > 0)
        samples << field.name << label_set({{"Hostname", host(s)}}) << ' ' << sample_value(field.value(s)) << '\n';
    if (samples.tellp() == 0) continue;
    family(field.name, field.help, out);
    out << samples.str();
  }
}

// One sample per check id, severity and host: checks of one id on several ranks of a host are one.
void write_checks(const RunReport& r, const PromScope& scope, std::ostream& out) {
  std::set<std::tuple<std::string, std::string, std::string, std::string>> raised;  // (host, id, severity, scope)
  const auto node_of = [&](int rank) {
    return rank >= 0 && rank < static_cast<int>(r.ranks.size()) ? r.ranks[rank].node : -1;
  };
  for (const auto& c : r.checks) {
    if (c.severity == Severity::info) continue;
    const std::string severity(to_string(c.severity));
    if (c.ranks.empty() && c.nodes.empty()) raised.emplace(scope.file_host(), c.id, severity, "job");
    for (int rank : c.ranks)
      if (scope.holds_rank(rank)) raised.emplace(scope.node_host(node_of(rank)), c.id, severity, "node");
    for (int node : c.nodes)  // a per-node finding
      if (scope.holds_node(node)) raised.emplace(scope.node_host(node), c.id, severity, "node");
  }
  if (raised.empty()) return;
  family("gpuscale_check",
         "1 for each check raised at warning or error: per node it concerns (scope node), or for the whole job "
         "(scope job, Hostname the file's)",
         out);
  for (const auto& [host, id, severity, where] : raised)
    out << "gpuscale_check" << label_set({{"Hostname", host}, {"id", id}, {"severity", severity}, {"scope", where}})
        << " 1\n";
}

// Whether check c (warning or error) concerns the file's scope: every check for the whole job's file; in
// a node's file, one of its ranks or itself, or the whole job (a check naming no rank or node).
bool concerns(const Check& c, const PromScope& scope) {
  if (c.ranks.empty() && c.nodes.empty()) return true;
  return std::any_of(c.ranks.begin(), c.ranks.end(), [&](int rank) { return scope.holds_rank(rank); }) ||
         std::any_of(c.nodes.begin(), c.nodes.end(), [&](int node) { return scope.holds_node(node); });
}

// One sample per check that ran (ChecksRan.hpp): 0 where it was raised at warning or error for the
// file's scope, else 1. A check absent did not run.
void write_check_results(const RunReport& r, const PromScope& scope, std::ostream& out) {
  const auto ran = checks_that_ran(r);
  if (ran.empty()) return;
  family("gpuscale_check_passed",
         "each check that ran: 0 when raised at warning or error for this file's node (the whole job's file: "
         "anywhere), else 1; a check absent did not run",
         out);
  for (const auto id : ran) {
    const bool failed = std::any_of(r.checks.begin(), r.checks.end(), [&](const Check& c) {
      return c.id == id && c.severity != Severity::info && concerns(c, scope);
    });
    out << "gpuscale_check_passed" << label_set({{"Hostname", scope.file_host()}, {"id", std::string(id)}}) << ' '
        << (failed ? 0 : 1) << '\n';
  }
}

std::string file_safe(const std::string& name) {
  std::string out;
  for (unsigned char c : name) out += std::isalnum(c) || c == '.' || c == '_' || c == '-' ? static_cast<char>(c) : '_';
  return out;
}

}  // namespace

std::string prom_label_value(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::vector<PromNodeFile> prom_node_files(const RunReport& r) {
  std::vector<PromNodeFile> files;
  for (const auto& [node, name] : node_names(r.ranks))
    files.push_back({node, "gpuscale-" + file_safe(name.empty() ? "node" + std::to_string(node) : name) + ".prom"});
  return files;
}

void PromReporter::write(const RunReport& r, std::ostream& out) const {
  const PromScope scope(r, node_);
  write_run(r, scope, out);
  const auto figures = flatten(r);
  write_headlines(r, figures, scope, out);
  write_beside_tenant(figures, scope, out);
  write_node_figures(figures, scope, out);
  if (r.collectives && r.collectives->isolation) write_suspects(r.suspects, scope, out);
  write_checks(r, scope, out);
  write_check_results(r, scope, out);
}

}  // namespace gpuscale::results
