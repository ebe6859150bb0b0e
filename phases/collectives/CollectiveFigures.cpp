#include "phases/collectives/CollectiveFigures.hpp"

#include <map>
#include <string>
#include <utility>

#include "results/base/FigureNames.hpp"
#include "results/base/FigureNoise.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::results {
namespace {

Figure figure(const char* metric, Labels labels, double value, const char* unit, Better better) {
  return Figure{phase::collectives, metric, std::move(labels), value, unit, better};
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
  // Speed figures carry the iterations' band and the time behind them; over one rank they are a local
  // copy (FigureNoise.hpp). Wrong elements are correctness, judged on any number of ranks.
  const auto speed = [&](const char* metric, double value, const char* unit, Better better) {
    Figure f = figure(metric, labels, value, unit, better);
    f.spread = band_of(t.iterations, value);
    f.op_time_s = t.time_s;
    f.local_copy = s.ranks == 1;
    out.push_back(std::move(f));
  };
  speed(names::kBusBw, t.busbw_gbps, "GB/s", Better::higher);
  speed(names::kAlgBw, t.algbw_gbps, "GB/s", Better::higher);
  speed(names::kTime, t.time_s, "s", Better::lower);
  if (t.wrong) out.push_back(figure(names::kWrongElements, labels, static_cast<double>(*t.wrong), "count", Better::lower));
}

// The measured timing of the row of `bytes`: the placement whose busbw is `busbw` (the out-of-place one
// when none is, or busbw is 0); nullptr when the sweep has no such row.
const CollectiveTiming* timing_at(const CollectiveSweep& s, std::uint64_t bytes, double busbw) {
  for (const auto& row : s.rows) {
    if (row.size_bytes != bytes) continue;
    if (row.in_place.measured && busbw > 0 && row.in_place.busbw_gbps == busbw) return &row.in_place;
    return row.out_of_place.measured ? &row.out_of_place : row.in_place.measured ? &row.in_place : nullptr;
  }
  return nullptr;
}

void append_sweep(const CollectiveSweep& s, bool beside_tenant, std::vector<Figure>& out) {
  const auto first = out.size();
  for (const auto& row : s.rows) {
    append_timing(s, row, row.out_of_place, "out", out);
    append_timing(s, row, row.in_place, "in", out);
  }
  const auto& h = s.headline;
  const Labels op{{names::kOp, s.op}, {names::kScope, s.group}, {"dtype", s.type}};
  // A headline is the figure of one row (the peak's, the latency's): it carries that row's noise.
  const auto headline = [&](const char* metric, double value, const char* unit, Better better,
                            const CollectiveTiming* from) {
    Figure f = figure(metric, op, value, unit, better);
    f.local_copy = s.ranks == 1;
    if (from) {
      f.spread = band_of(from->iterations, value);
      f.op_time_s = from->time_s;
    }
    out.push_back(std::move(f));
  };
  const CollectiveTiming* peak = timing_at(s, h.peak_size_bytes, h.peak_busbw_gbps);
  if (h.peak_busbw_gbps > 0) headline(names::kPeakBusBw, h.peak_busbw_gbps, "GB/s", Better::higher, peak);
  if (h.latency_stream_s)
    headline(names::kLatency, *h.latency_stream_s, "s", Better::lower, timing_at(s, h.latency_size_bytes, 0));
  if (h.latency_graph_s) headline(names::kLatencyGraph, *h.latency_graph_s, "s", Better::lower, nullptr);
  if (h.peak_percent_of_link)
    headline(names::kLinkUse, *h.peak_percent_of_link / 100.0, "ratio", Better::higher, peak);
  mark_beside_tenant(out, first, beside_tenant);
}

void append_pairs(const PairMatrix& m, const RecordMarks& marks, std::vector<Figure>& out) {
  for (std::size_t i = 0; i < m.pairs.size(); ++i) {
    const auto& p = m.pairs[i];
    const auto first = out.size();
    // Both directions ran at once: the matrix is symmetric, so the heat map gets both cells.
    for (const auto& [src, dst] : {std::pair{p.a_label, p.b_label}, std::pair{p.b_label, p.a_label}}) {
      Figure f = figure(names::kPairBusBw, {{names::kSrc, src}, {names::kDst, dst}}, p.bandwidth_gbps, "GB/s",
                        Better::higher);
      if (p.bandwidth_gbps > 0) f.op_time_s = static_cast<double>(m.large_bytes) / (p.bandwidth_gbps * 1e9);
      out.push_back(std::move(f));
    }
    out.push_back(figure(names::kPairLatency, {{names::kSrc, p.a_label}, {names::kDst, p.b_label}}, p.latency_s, "s",
                         Better::lower));
    mark_beside_tenant(out, first, marks.has(CollectivesMark::pair_beside_tenant, i));
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

void append_figures(const std::optional<CollectivesRecord>& record, const RecordMarks& marks,
                    std::vector<Figure>& out) {
  if (!record) return;
  for (std::size_t i = 0; i < record->sweeps.size(); ++i)
    append_sweep(record->sweeps[i], marks.has(CollectivesMark::sweep_beside_tenant, i), out);
  for (std::size_t i = 0; i < record->scaling.size(); ++i) {
    const auto& p = record->scaling[i];
    const auto first = out.size();
    const Labels labels{{names::kOp, p.op},
                        {names::kBytes, std::to_string(p.size_bytes)},
                        {names::kRanks, std::to_string(p.ranks)},
                        {names::kScope, p.group}};
    Figure busbw = figure(names::kBusBw, labels, p.busbw_gbps, "GB/s", Better::higher);
    busbw.op_time_s = p.time_s;
    busbw.local_copy = p.ranks == 1;
    out.push_back(std::move(busbw));
    if (p.wrong) out.push_back(figure(names::kWrongElements, labels, static_cast<double>(*p.wrong), "count", Better::lower));
    mark_beside_tenant(out, first, marks.has(CollectivesMark::scaling_beside_tenant, i));
  }
  if (record->pairs) append_pairs(*record->pairs, marks, out);
  if (record->isolation) append_isolation(*record->isolation, out);
}

}  // namespace gpuscale::results
