#include "phases/collectives/CollectivesReporter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "results/base/Format.hpp"
#include "results/base/Table.hpp"

namespace gpuscale::results {

std::string microseconds(double seconds) {
  const double us = seconds * 1e6;
  return fixed(us, us < 100 ? 2 : us < 10000 ? 1 : 0);
}

std::string size_label(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + " " + kUnits[unit];
}

namespace {

std::string gbps(double value) { return fixed(value, 2); }

std::string wrong_cell(const CollectiveTiming& t) {
  if (!t.measured) return "-";
  return t.wrong ? std::to_string(*t.wrong) : "N/A";
}

void add_timing(std::vector<std::string>& row, const CollectiveTiming& t) {
  if (!t.measured) {
    row.insert(row.end(), {"-", "-", "-", "-", "-"});
    return;
  }
  row.insert(row.end(), {microseconds(t.time_s),
                         microseconds(t.iterations.median) + " [" + microseconds(t.iterations.p10) + "," +
                             microseconds(t.iterations.p90) + "]",
                         gbps(t.algbw_gbps), gbps(t.busbw_gbps), wrong_cell(t)});
}

void write_headline(const CollectiveSweep& s, std::ostream& out) {
  const auto& h = s.headline;
  out << "    peak busbw " << gbps(h.peak_busbw_gbps) << " GB/s at " << size_label(h.peak_size_bytes);
  if (h.busbw_256m_gbps)
    out << " | busbw " << gbps(*h.busbw_256m_gbps) << " GB/s at " << size_label(h.busbw_256m_size_bytes);
  if (h.busbw_1g_gbps && h.busbw_1g_size_bytes != h.busbw_256m_size_bytes)
    out << " | " << gbps(*h.busbw_1g_gbps) << " GB/s at " << size_label(h.busbw_1g_size_bytes);
  if (h.latency_stream_s || h.latency_graph_s) out << " | latency at " << size_label(h.latency_size_bytes);
  if (h.latency_stream_s) out << " " << microseconds(*h.latency_stream_s) << " us";
  if (h.latency_graph_s) out << " " << microseconds(*h.latency_graph_s) << " us (CUDA graph)";
  if (h.link_gbps) {
    out << " | link " << h.link << " " << gbps(*h.link_gbps) << " GB/s";
    if (h.peak_percent_of_link) out << ", peak = " << fixed(*h.peak_percent_of_link, 1) << "% of link";
  }
  out << '\n';
}

void write_sweep(const CollectiveSweep& s, bool detailed, std::ostream& out) {
  if (s.ranks == 1 && s.skipped_reason.empty()) {  // nothing crossed a link: one line, the sizes are in the JSON
    out << "  " << s.op << " | 1 rank (" << s.group << "): a local copy, no link measured\n";
    return;
  }
  out << "  " << s.op << " | " << plural(s.ranks, "rank") << " (" << s.group << ") | busbw factor " << fixed(s.busbw_factor, 3)
      << (s.graph ? " | CUDA graphs" : "") << '\n';
  if (!s.skipped_reason.empty()) {
    out << "    skipped: " << s.skipped_reason << '\n';
    return;
  }
  if (!detailed) {
    write_headline(s, out);
    return;
  }
  bool any_algo = false;
  for (const auto& r : s.rows) any_algo = any_algo || !r.nccl_algorithm.empty();
  std::vector<std::string> header = {"size(B)", "count(elts)", "type", "redop", "root",
                                     "oop time(us)", "iter med [p10,p90]", "algbw(GB/s)", "busbw(GB/s)", "#wrong",
                                     "ip time(us)", "iter med [p10,p90]", "algbw(GB/s)", "busbw(GB/s)", "#wrong"};
  if (any_algo) header.push_back("nccl algo/proto");
  Table t(header);
  for (const auto& r : s.rows) {
    std::vector<std::string> row = {std::to_string(r.size_bytes), std::to_string(r.count), s.type,
                                    s.redop.empty() ? "none" : s.redop, s.root < 0 ? "-1" : std::to_string(s.root)};
    add_timing(row, r.out_of_place);
    add_timing(row, r.in_place);
    if (any_algo) row.push_back(r.nccl_algorithm.empty() ? "-" : r.nccl_algorithm);
    t.add_row(std::move(row));
  }
  t.write(out, "    ");
  write_headline(s, out);
}

void write_scaling(const std::vector<ScalingPoint>& points, std::ostream& out) {
  if (points.empty()) return;
  out << section_header("Collectives: scaling",
                        "busbw against ranks; concurrent communicators are timed by their slowest rank");
  Table t({"op", "size", "group", "ranks", "comms", "time(us)", "busbw(GB/s)", "#wrong"});
  for (const auto& p : points)
    t.add_row({p.op, size_label(p.size_bytes), p.group, std::to_string(p.ranks), std::to_string(p.communicators),
               microseconds(p.time_s), gbps(p.busbw_gbps), p.wrong ? std::to_string(*p.wrong) : "N/A"});
  t.write(out);
}

// The bandwidth matrix itself (GB/s per direction), for jobs small enough to read it.
void write_pair_grid(const PairMatrix& m, std::ostream& out) {
  int ranks = 0;
  for (const auto& p : m.pairs) ranks = std::max(ranks, p.b + 1);
  if (ranks < 3 || ranks > 16) return;
  std::vector<std::string> header = {"GB/s"};
  for (int r = 0; r < ranks; ++r) header.push_back(std::to_string(r));
  std::vector<std::vector<std::string>> cells(static_cast<std::size_t>(ranks),
                                              std::vector<std::string>(static_cast<std::size_t>(ranks), "-"));
  for (const auto& p : m.pairs) {
    cells[static_cast<std::size_t>(p.a)][static_cast<std::size_t>(p.b)] = fixed(p.bandwidth_gbps, 1);
    cells[static_cast<std::size_t>(p.b)][static_cast<std::size_t>(p.a)] = fixed(p.bandwidth_gbps, 1);
  }
  Table t(header);
  for (int r = 0; r < ranks; ++r) {
    std::vector<std::string> row = {std::to_string(r)};
    row.insert(row.end(), cells[static_cast<std::size_t>(r)].begin(), cells[static_cast<std::size_t>(r)].end());
    t.add_row(std::move(row));
  }
  t.write(out);
}

void write_pairs(const PairMatrix& m, const RecordMarks& marks, bool detailed, std::ostream& out) {
  out << section_header("Collectives: pairwise send/recv",
                        plural(static_cast<long long>(m.pairs.size()), "pair") + " in " + plural(m.rounds, "round") +
                            "; bandwidth per direction at " + size_label(m.large_bytes) + ", latency at " +
                            size_label(m.small_bytes) + "; slowest first");
  const std::size_t listed = detailed ? 12 : 5;  // every pair stays in the JSON
  std::vector<std::size_t> sorted(m.pairs.size());  // indexes into m.pairs, slowest first
  std::iota(sorted.begin(), sorted.end(), std::size_t{0});
  std::sort(sorted.begin(), sorted.end(),
            [&](std::size_t x, std::size_t y) { return m.pairs[x].bandwidth_gbps < m.pairs[y].bandwidth_gbps; });
  if (sorted.size() > listed) sorted.resize(listed);
  Table t({"pair", "a", "b", "class", "bw(GB/s)", "latency(us)", "flag"});
  for (const auto i : sorted) {
    const auto& p = m.pairs[i];
    t.add_row(
        {std::to_string(p.a) + "-" + std::to_string(p.b), p.a_label, p.b_label,
         p.same_node ? "intra-node" : "inter-node", gbps(p.bandwidth_gbps), microseconds(p.latency_s),
         marks.has(CollectivesMark::pair_slow, i) ? "SLOW (< " + percent(m.threshold, 0) + " of class median)" : ""});
  }
  t.write(out);
  write_pair_grid(m, out);
}

}  // namespace

void write_isolation(const IsolationRecord& r, const SuspectList& suspects, std::ostream& out) {
  out << "Slow-node isolation (" << plural(static_cast<long long>(r.node_hosts.size()), "node") << ", "
      << plural(r.rounds, "round") << " of random node pairs at " << size_label(r.bytes) << ", "
      << plural(static_cast<long long>(r.bisection.size()), "bisection step");
  if (!r.bisection_note.empty()) out << ": " << r.bisection_note;
  out << ")\n";
  if (!r.skipped_reason.empty())
    out << "  not run: " << r.skipped_reason << '\n';
  else if (suspects.ranked.empty())
    out << "  no node named: every node passed most of its rounds\n";
  for (const auto& s : suspects.ranked)
    out << "  SUSPECT node " << s.node << (s.host.empty() ? "" : " (" + s.host + ")") << ": " << s.evidence << '\n';
}

void write_collectives(const CollectivesRecord& record, const RecordMarks& marks, bool detailed, std::ostream& out) {
  std::string note = record.transport + "; " + plural(record.iterations, "iteration") + " after " +
                     std::to_string(record.warmup) + " warm-up, " + plural(record.aggregated, "op") + " per iteration, " +
                     plural(record.check_passes, "check pass", "check passes");
  if (record.graph_launches > 0) note += ", " + plural(record.graph_launches, "CUDA graph launch", "CUDA graph launches");
  if (!detailed) note += "; the headline of each op (every size is in the JSON and CSV)";
  out << section_header("Collectives: sweeps (per op)", note + "; time = median over iterations of the slowest rank");
  for (const auto& s : record.sweeps) write_sweep(s, detailed, out);
  if (!record.nccl_algorithm_note.empty()) out << "  NCCL algorithm: " << record.nccl_algorithm_note << '\n';
  write_scaling(record.scaling, out);
  if (record.pairs) write_pairs(*record.pairs, marks, detailed, out);
}

}  // namespace gpuscale::results
