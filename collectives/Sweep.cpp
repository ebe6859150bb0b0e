#include "collectives/Sweep.hpp"

#include "harness/Activity.hpp"

namespace gpuscale::collectives {
namespace {

// With -G the sweep is timed as graph launches; the smallest non-empty size is timed once more on
// the stream, so the headline shows what graphs save.
void add_stream_latency(Bench& bench, SweepOptions o, const OpSpec& op, const std::vector<std::uint64_t>& sizes,
                        int ranks, int rank, results::CollectiveSweep& s) {
  o.graph_launches = 0;
  o.check_passes = 0;
  for (const auto size : sizes) {
    const std::size_t elements = size / harness::size_of(o.type);
    if (size_bytes(op.layout(elements, ranks, rank), o.type) == 0) continue;
    s.headline.latency_stream_s = measure(bench, o, op, {false, elements}).time_s;
    return;
  }
}

}  // namespace

results::CollectiveSweep sweep_op(BenchResources& resources, harness::Communicator* comm, const SweepOptions& o,
                                  const OpSpec& op, const std::vector<std::uint64_t>& sizes, int ranks,
                                  const std::string& group, harness::BudgetGate* budget) {
  results::CollectiveSweep s;
  s.op = std::string(op.name);
  s.type = std::string(harness::to_string(o.type));
  s.redop = op.reduces ? std::string(harness::to_string(o.redop)) : "";
  s.root = op.rooted ? o.root : -1;
  s.ranks = ranks;
  s.group = group;
  s.busbw_factor = op.busbw_factor(ranks);
  s.graph = o.graph_launches > 0;
  if (!resources.skipped_reason().empty()) {
    s.skipped_reason = resources.skipped_reason();
    return s;
  }
  if (op.rooted && o.root >= ranks) {
    s.skipped_reason = "root " + std::to_string(o.root) + " is not a rank of " + std::to_string(ranks);
    return s;
  }
  const int rank = comm ? comm->rank() : 0;
  Bench bench = resources.bench(comm);
  for (const auto size : sizes) {
    if (!s.rows.empty() && budget && budget->spent()) break;
    const std::size_t elements = size / harness::size_of(o.type);
    const Layout l = op.layout(elements, ranks, rank);
    results::CollectiveRow row;
    row.size_bytes = size_bytes(l, o.type);
    const harness::OpScope scope(op.name, size);  // a failure at this size names it
    row.count = l.count;
    row.out_of_place = measure(bench, o, op, {false, elements});
    row.in_place = measure(bench, o, op, {true, elements});
    s.rows.push_back(std::move(row));
  }
  fill_headline(s);
  if (s.graph) add_stream_latency(bench, o, op, sizes, ranks, rank, s);
  return s;
}

void fill_headline(results::CollectiveSweep& s) {
  auto& h = s.headline;
  h = {};
  for (const auto& r : s.rows) {
    const auto& t = r.out_of_place;
    if (!t.measured) continue;
    if (t.busbw_gbps > h.peak_busbw_gbps) {
      h.peak_busbw_gbps = t.busbw_gbps;
      h.peak_size_bytes = r.size_bytes;
    }
    // Largest measured size at or below each mark (the size is reported beside the figure).
    if (r.size_bytes <= (256ull << 20) && r.size_bytes >= h.busbw_256m_size_bytes) {
      h.busbw_256m_gbps = t.busbw_gbps;
      h.busbw_256m_size_bytes = r.size_bytes;
    }
    if (r.size_bytes <= (1ull << 30) && r.size_bytes >= h.busbw_1g_size_bytes) {
      h.busbw_1g_gbps = t.busbw_gbps;
      h.busbw_1g_size_bytes = r.size_bytes;
    }
    auto& latency = s.graph ? h.latency_graph_s : h.latency_stream_s;
    if (r.size_bytes > 0 && (!latency || r.size_bytes < h.latency_size_bytes)) {
      latency = t.time_s;
      h.latency_size_bytes = r.size_bytes;
    }
  }
}

}  // namespace gpuscale::collectives
