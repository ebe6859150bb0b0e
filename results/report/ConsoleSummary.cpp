#include "results/report/ConsoleSummary.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "results/base/Format.hpp"
#include "results/base/ReadableNumber.hpp"
#include "results/base/Statistics.hpp"
#include "results/report/Headlines.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::results {
namespace {

std::string value_text(double value, const std::string& unit) {
  const auto shown = readable_unit(unit);
  return readable(value, unit) + (shown.empty() ? "" : " " + shown);
}

// "(floor 554, 68% of peak 989 NVIDIA H200 data sheet)": what the figure is judged against, as far as
// it is known (findings against a --baseline are listed with the checks).
std::string against(const Headline& h) {
  std::vector<std::string> parts;
  if (h.floor) parts.push_back("floor " + readable(*h.floor, h.unit));
  if (h.peak && *h.peak > 0)
    parts.push_back(readable(h.value / *h.peak, "ratio") + " of peak " + readable(*h.peak, h.unit) +
                    (h.peak_source.empty() ? "" : " " + h.peak_source));
  // The note's first clause ("above the data sheet's peak"); its reason is in the HTML.
  if (!h.note.empty()) parts.push_back(h.note.substr(0, h.note.find(": ")));
  if (parts.empty()) return "";
  std::string text;
  for (const auto& p : parts) text += (text.empty() ? "" : ", ") + p;
  return " (" + text + ")";
}

// "rank 0 674 | rank 1 372 UNDER FLOOR | ...": each GPU, or past kSummaryValuesPerLine GPUs each
// node's median, worst first once they do not all fit (a node with a GPU under its floor before
// those without). A GPU is marked where the judge found it under its floor (Headline's
// under_floor_ranks, from the records' marks), a node with how many of its GPUs it found so.
std::string values_line(const RunReport& run, const Headline& h) {
  struct Shown {
    std::string who;
    double value = 0;
    std::size_t under_floor = 0;  // GPUs under their floor
  };
  std::vector<Shown> values;
  const bool per_node = h.per_rank.size() > kSummaryValuesPerLine;
  if (!per_node) {
    for (const auto& [rank, v] : h.per_rank)
      values.push_back({"rank " + std::to_string(rank), v, h.under_floor_ranks.count(rank)});
  } else {
    std::map<int, std::pair<std::vector<double>, std::size_t>> by_node;  // node -> (values, under floor)
    for (const auto& [rank, v] : h.per_rank) {
      auto& node =
          by_node[rank < static_cast<int>(run.ranks.size()) ? run.ranks[static_cast<std::size_t>(rank)].node : 0];
      node.first.push_back(v);
      node.second += h.under_floor_ranks.count(rank);
    }
    for (const auto& [node, v] : by_node) values.push_back({"node " + std::to_string(node), median(v.first), v.second});
  }
  const auto shown = std::min(values.size(), kSummaryValuesPerLine);
  if (values.size() > shown)
    std::partial_sort(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(shown), values.end(),
                      [&h](const Shown& a, const Shown& b) {
                        if (a.under_floor != b.under_floor) return a.under_floor > b.under_floor;
                        return h.better == Better::lower ? a.value > b.value : a.value < b.value;
                      });
  std::string text;
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& v = values[i];
    text += (i ? " | " : "") + v.who + " " + readable(v.value, h.unit);
    if (v.under_floor)
      text += per_node ? " (" + plural(static_cast<long long>(v.under_floor), "GPU") + " UNDER FLOOR)" : " UNDER FLOOR";
  }
  if (values.size() > shown) text += " | and " + std::to_string(values.size() - shown) + " more (the worst shown)";
  return (per_node ? "per node (median of its GPUs): " : "per GPU: ") + text;
}

}  // namespace

void write_phase_summary(const RunReport& run, std::ostream& out) {
  const auto lines = headlines(run, flatten(run), nullptr);
  if (lines.empty()) return;
  out << section_header("Summary per phase",
                        "the job's figure (median over GPUs) against the GPU model's floor and the peak; "
                        "every size and rank is in the JSON, CSV and HTML");
  for (const auto& h : lines) {
    out << "  " << h.title << ": " << value_text(h.value, h.unit) << against(h) << '\n';
    if (h.per_rank.size() > 1 || !h.under_floor_ranks.empty())
      out << "    " << values_line(run, h) << '\n';
  }
}

}  // namespace gpuscale::results
