#include "results/models/CollectiveFigures.hpp"

#include <map>
#include <string>

#include "results/models/FigureNames.hpp"
#include "results/models/Statistics.hpp"

namespace gpuscale::results {
namespace {

Figure figure(const char* metric, Labels labels, double value, const char* unit, Better better) {
  return Figure{names::kCollectives, metric, std::move(labels), value, unit, better};
}

void append_timing(const CollectiveSweep& s, const CollectiveRow& row, const CollectiveTiming& t,
                   const char* placement, std::vector<Figure>& out) {
  if (!t.measured) return;
  const Labels labels{{names::kOp, s.op},
                      {names::kBytes, std::to_string(row.size_bytes)},
                      {names::kRanks, std::to_string(s.ranks)},
                      {names::kScope, s.group},
                      {"placement", placement},
                      {"dtype", s.type}};
  out.push_back(figure(names::kBusBw, labels, t.busbw_gbps, "GB/s", Better::higher));
  out.push_back(figure(names::kAlgBw, labels, t.algbw_gbps, "GB/s", Better::higher));
  out.push_back(figure(names::kTime, labels, t.time_s, "s", Better::lower));
  if (t.wrong) out.push_back(figure(names::kWrongElements, labels, static_cast<double>(*t.wrong), "count", Better::lower));
}

void append_sweep(const CollectiveSweep& s, std::vector<Figure>& out) {
  const auto first = out.size();
  for (const auto& row : s.rows) {
    append_timing(s, row, row.out_of_place, "out", out);
    append_timing(s, row, row.in_place, "in", out);
  }
  const auto& h = s.headline;
  const Labels op{{names::kOp, s.op}, {names::kScope, s.group}, {"dtype", s.type}};
  if (h.peak_busbw_gbps > 0) out.push_back(figure(names::kPeakBusBw, op, h.peak_busbw_gbps, "GB/s", Better::higher));
  if (h.latency_stream_s) out.push_back(figure(names::kLatency, op, *h.latency_stream_s, "s", Better::lower));
  if (h.latency_graph_s) out.push_back(figure(names::kLatencyGraph, op, *h.latency_graph_s, "s", Better::lower));
  if (h.peak_percent_of_link)
    out.push_back(figure(names::kLinkUse, op, *h.peak_percent_of_link / 100.0, "ratio", Better::higher));
  mark_beside_tenant(out, first, s.beside_tenant);
}

void append_pairs(const PairMatrix& m, std::vector<Figure>& out) {
  for (const auto& p : m.pairs) {
    const auto first = out.size();
    // Both directions ran at once: the matrix is symmetric, so the heat map gets both cells.
    for (const auto& [src, dst] : {std::pair{p.a_label, p.b_label}, std::pair{p.b_label, p.a_label}}) {
      const Labels labels{{names::kSrc, src}, {names::kDst, dst}};
      out.push_back(figure(names::kPairBusBw, labels, p.bandwidth_gbps, "GB/s", Better::higher));
    }
    out.push_back(figure(names::kPairLatency, {{names::kSrc, p.a_label}, {names::kDst, p.b_label}}, p.latency_s, "s",
                         Better::lower));
    mark_beside_tenant(out, first, p.beside_tenant);
  }
}

// Per node, for the fleet outliers: its own links (node-local allreduce) and its links to other nodes
// (the median of its rounds' pair allreduce, so that one bad partner does not count against it).
void append_isolation(const IsolationRecord& iso, std::vector<Figure>& out) {
  for (const auto& n : iso.node_local)
    if (n.busbw_gbps > 0)
      out.push_back(figure(names::kNodeLocalBusBw, {{names::kNode, std::to_string(n.node)}}, n.busbw_gbps, "GB/s",
                           Better::higher));
  std::map<int, std::vector<double>> rounds;  // node -> its rounds' busbw
  for (const auto& m : iso.matches)
    if (m.allreduce_busbw_gbps > 0) rounds[m.node].push_back(m.allreduce_busbw_gbps);
  for (const auto& [node, busbw] : rounds)
    out.push_back(figure(names::kInterNodeBusBw, {{names::kNode, std::to_string(node)}}, median(busbw), "GB/s",
                         Better::higher));
}

}  // namespace

void append_figures(const std::optional<CollectivesRecord>& record, std::vector<Figure>& out) {
  if (!record) return;
  for (const auto& s : record->sweeps) append_sweep(s, out);
  for (const auto& p : record->scaling) {
    const auto first = out.size();
    const Labels labels{{names::kOp, p.op},
                        {names::kBytes, std::to_string(p.size_bytes)},
                        {names::kRanks, std::to_string(p.ranks)},
                        {names::kScope, p.group}};
    out.push_back(figure(names::kBusBw, labels, p.busbw_gbps, "GB/s", Better::higher));
    if (p.wrong) out.push_back(figure(names::kWrongElements, labels, static_cast<double>(*p.wrong), "count", Better::lower));
    mark_beside_tenant(out, first, p.beside_tenant);
  }
  if (record->pairs) append_pairs(*record->pairs, out);
  if (record->isolation) append_isolation(*record->isolation, out);
}

}  // namespace gpuscale::results
