#include "results/render/PromReporter.hpp"

#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "results/models/FigureNames.hpp"
#include "results/render/Format.hpp"
#include "results/render/GpuLabels.hpp"
#include "results/render/Headlines.hpp"

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

// The labels of one rank's GPU: host (GpuLabels.hpp's node name), local rank and UUID.
class PromGpus {
 public:
  explicit PromGpus(const RunReport& r) : run_(r), node_names_(node_names(r.ranks)) {}

  std::string host(int rank) const {
    return known(rank) ? node_host(run_.ranks[static_cast<std::size_t>(rank)].node) : "";
  }
  std::string node_host(int node) const {
    const auto it = node_names_.find(node);
    return it == node_names_.end() ? "" : it->second;
  }
  PromLabels of(int rank) const {
    if (!known(rank)) return {{"host", ""}, {"gpu", std::to_string(rank)}, {"uuid", ""}};
    const auto& e = run_.ranks[static_cast<std::size_t>(rank)];
    return {{"host", host(rank)}, {"gpu", std::to_string(e.local_rank)}, {"uuid", e.gpu ? e.gpu->uuid : ""}};
  }

 private:
  bool known(int rank) const { return rank >= 0 && rank < static_cast<int>(run_.ranks.size()); }
  const RunReport& run_;
  std::map<int, std::string> node_names_;
};

void write_headlines(const RunReport& r, const std::vector<Figure>& figures, const PromGpus& gpus, std::ostream& out) {
  const auto all = headlines(r, figures, nullptr);
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Headline*>> by_metric;  // one family per metric, samples together
  for (const auto& h : all) {
    if (!by_metric.count(h.metric)) order.push_back(h.metric);
    by_metric[h.metric].push_back(&h);
  }
  for (const auto& metric : order) {
    const auto name = "gpuscale_" + metric;
    std::ostringstream samples;
    for (const auto* h : by_metric[metric]) {
      PromLabels extra(h->labels.begin(), h->labels.end());
      // A figure measured beside another process on its GPU is left out (gpuscale_beside_tenant says so).
      if (h->per_rank.empty() && !h->beside_tenant)
        samples << name << label_set(extra) << ' ' << sample_value(h->value) << '\n';
      for (const auto& [rank, value] : h->per_rank) {
        if (h->beside_tenant_ranks.count(rank)) continue;
        auto labels = gpus.of(rank);
        labels.insert(labels.end(), extra.begin(), extra.end());
        samples << name << label_set(labels) << ' ' << sample_value(value) << '\n';
      }
    }
    if (samples.tellp() == 0) continue;  // every figure of it was left out: no family
    family(name, by_metric[metric].front()->what, out);
    out << samples.str();
  }
}

// Which GPU's figures of which phase were measured while another process computed on it, and so left
// out of the samples above: a sample per GPU and phase ({host="",gpu="",uuid=""} for a figure of the
// job's, such as a collective over a group that holds such a GPU).
void write_beside_tenant(const std::vector<Figure>& figures, const PromGpus& gpus, std::ostream& out) {
  std::set<std::pair<int, std::string>> marked;  // (rank or -1, phase)
  for (const auto& f : figures)
    if (f.beside_tenant) {
      const auto rank = label_or_empty(f, names::kRank);
      marked.emplace(rank.empty() ? -1 : std::stoi(rank), f.phase);
    }
  if (marked.empty()) return;
  family("gpuscale_beside_tenant",
         "1 for each GPU and phase whose figures were measured while another process computed on the GPU: "
         "left out of the figures above (see gpuscale_check{id=\"gpu-in-use\"})",
         out);
  for (const auto& [rank, phase] : marked) {
    auto labels = rank < 0 ? PromLabels{{"host", ""}, {"gpu", ""}, {"uuid", ""}} : gpus.of(rank);
    labels.emplace_back("phase", phase);
    out << "gpuscale_beside_tenant" << label_set(labels) << " 1\n";
  }
}

// The slow-node isolation's figures of each node (flatten()'s, labelled node), a sample per node.
void write_node_figures(const std::vector<Figure>& figures, const PromGpus& gpus, std::ostream& out) {
  constexpr std::pair<const char*, const char*> kNodeFigures[] = {
      {names::kNodeLocalBusBw, "allreduce bus bandwidth over the node's own GPUs, every node at once (GB/s)"},
      {names::kInterNodeBusBw, "median of the node's rounds of pair allreduce bus bandwidth with another node (GB/s)"}};
  for (const auto& [metric, help] : kNodeFigures) {
    const auto name = "gpuscale_" + std::string(metric) + "_gbps";
    bool opened = false;
    for (const auto& f : figures) {
      if (f.metric != metric) continue;
      if (!opened) family(name, help, out);
      opened = true;
      out << name << label_set({{"host", gpus.node_host(std::stoi(label_or_empty(f, names::kNode)))}}) << ' '
          << sample_value(f.value) << '\n';
    }
  }
}

// Each suspect of the slow-node isolation, most suspect first: its score and the rounds behind it.
void write_suspects(const IsolationRecord& iso, const PromGpus& gpus, std::ostream& out) {
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
  if (iso.suspects.empty()) return;
  for (const auto& field : kFields) {
    family(field.name, field.help, out);
    for (const auto& s : iso.suspects) {
      const auto host = gpus.node_host(s.node);
      out << field.name << label_set({{"host", host.empty() ? s.host : host}}) << ' ' << sample_value(field.value(s))
          << '\n';
    }
  }
}

// One sample per check id, severity and host: checks of one id on several ranks of a host are one.
void write_checks(const RunReport& r, const PromGpus& gpus, std::ostream& out) {
  std::set<std::tuple<std::string, std::string, std::string>> raised;  // (id, severity, host)
  for (const auto& c : r.checks) {
    if (c.severity == Severity::info) continue;
    const std::string severity(to_string(c.severity));
    if (c.ranks.empty() && c.nodes.empty()) raised.emplace(c.id, severity, "");
    for (int rank : c.ranks) raised.emplace(c.id, severity, gpus.host(rank));
    for (int node : c.nodes) raised.emplace(c.id, severity, gpus.node_host(node));  // a per-node finding
  }
  if (raised.empty()) return;
  family("gpuscale_check", "1 for each check raised at warning or error, per host it concerns (\"\": the whole job)",
         out);
  for (const auto& [id, severity, host] : raised)
    out << "gpuscale_check" << label_set({{"id", id}, {"severity", severity}, {"host", host}}) << " 1\n";
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

void PromReporter::write(const RunReport& r, std::ostream& out) const {
  family("gpuscale_verdict_passed", "1 when the run's verdict passed, 0 when it failed or is incomplete", out);
  out << "gpuscale_verdict_passed " << (std::string(verdict_result(r.verdict)) == "PASS" ? 1 : 0) << '\n';
  const PromGpus gpus(r);
  const auto figures = flatten(r);
  write_headlines(r, figures, gpus, out);
  write_beside_tenant(figures, gpus, out);
  write_node_figures(figures, gpus, out);
  if (r.collectives && r.collectives->isolation) write_suspects(*r.collectives->isolation, gpus, out);
  write_checks(r, gpus, out);
}

}  // namespace gpuscale::results
