#include "collectives/Isolation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "collectives/Bisection.hpp"
#include "collectives/Matching.hpp"
#include "collectives/Measure.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::collectives {
namespace {

// Where every rank sits: rank_of[node * rails + local rank] = world rank, -1 where a node has fewer.
struct Seats {
  int nodes = 0, rails = 0;
  std::vector<int> rank_of;
  int at(int node, int local) const {
    return node >= 0 && local < rails ? rank_of[static_cast<std::size_t>(node * rails + local)] : -1;
  }
  int ranks_on(int node) const {
    int k = 0;
    for (int l = 0; l < rails; ++l) k += at(node, l) >= 0;
    return k;
  }
};

Seats seats(const harness::World& w, const harness::Deadline& deadline) {
  Seats s;
  s.nodes = w.node_count();
  s.rails = static_cast<int>(w.max_over_ranks(static_cast<double>(w.local_size()), deadline));
  std::vector<double> table(static_cast<std::size_t>(s.nodes * s.rails), -1.0);
  table[static_cast<std::size_t>(w.node() * s.rails + w.local_rank())] = w.rank();
  table = w.max_over_ranks(table, deadline);
  s.rank_of.assign(table.begin(), table.end());
  return s;
}

// `ops` operations back to back on this rank's clock (seconds for all of them).
template <class Enqueue>
double timed_s(Bench& b, int ops, const std::string& what, Enqueue& enqueue) {
  const auto deadline = [&] { return harness::Deadline::after(b.timeout_s); };
  b.timer.start(b.stream);
  for (int i = 0; i < ops; ++i) enqueue();
  b.timer.mark(b.stream);
  b.comm->wait(b.stream, deadline(), what);
  return b.timer.read(deadline()).total_s;
}

// One step's measurement, which every rank calls (the passes are agreed over the world); `b` is null on
// a rank that takes no part. The mean time of one op over every pass, after warm-up, on this rank's
// clock; 0 where it took no part.
template <class Enqueue>
double step_mean_s(const harness::World& w, double timeout_s, Bench* b, const SweepOptions& o, const std::string& what,
                   Enqueue&& enqueue) {
  double first_s = std::numeric_limits<double>::quiet_NaN();
  if (b) {
    for (int i = 0; i < o.warmup; ++i) enqueue();
    b->comm->wait(b->stream, harness::Deadline::after(b->timeout_s), what);
    first_s = timed_s(*b, o.iterations, what, enqueue);
  }
  // Every rank's first pass (0: took no part), so that every rank picks the same number of passes.
  std::vector<double> firsts(static_cast<std::size_t>(w.size()), 0.0);
  if (b) firsts[static_cast<std::size_t>(w.rank())] = first_s;
  firsts = w.max_over_ranks(firsts, harness::Deadline::after(timeout_s));
  std::erase_if(firsts, [](double s) { return !(s > 0); });
  const int more = firsts.empty()
                       ? 0
                       : isolation_passes(results::median(firsts), *std::max_element(firsts.begin(), firsts.end())) - 1;
  if (!b) return 0;
  const double more_s = more > 0 ? timed_s(*b, more * o.iterations, what, enqueue) : 0.0;
  return (first_s + more_s) / (static_cast<double>(more + 1) * o.iterations);
}

// An allreduce of isolation_bytes over `comm` (null: this rank takes no part), as one step.
double allreduce_s(BenchResources& res, harness::Communicator* comm, const SweepOptions& o, const std::string& what) {
  Bench b = res.bench(comm);
  const std::size_t elements = o.isolation_bytes / harness::size_of(o.type);
  return step_mean_s(res.world(), res.timeout_s(), comm ? &b : nullptr, o, what, [&] {
    b.comm->all_reduce(b.send.data(), b.recv.data(), elements, o.type, harness::RedOp::sum, b.stream,
                       harness::Deadline::after(b.timeout_s));
  });
}

double busbw_gbps(const SweepOptions& o, double time_s, int ranks) {
  if (time_s <= 0 || ranks < 2) return 0;
  return static_cast<double>(o.isolation_bytes) / time_s / 1e9 * 2.0 * (ranks - 1) / ranks;
}

std::vector<results::NodeLocalResult> node_local(BenchResources& res, harness::Communicator& world_comm,
                                                 const SweepOptions& o, const Seats& s) {
  const auto& w = res.world();
  auto comm = world_comm.split(w.node(), w.rank(), harness::Deadline::after(res.timeout_s()));
  std::vector<double> t(static_cast<std::size_t>(s.nodes), 0.0);
  t[static_cast<std::size_t>(w.node())] =
      allreduce_s(res, comm->size() > 1 ? comm.get() : nullptr, o, "node-local allreduce");
  t = w.max_over_ranks(t, harness::Deadline::after(res.timeout_s()));
  std::vector<results::NodeLocalResult> out;
  for (int n = 0; n < s.nodes; ++n)
    out.push_back({n, busbw_gbps(o, t[static_cast<std::size_t>(n)], s.ranks_on(n))});
  return out;
}

// One round: every rail's sendrecv with the partner node, then each pair's allreduce.
std::vector<results::NodeRound> play_round(BenchResources& res, harness::Communicator& world_comm,
                                           const SweepOptions& o, const Seats& s, int round, const Matching& m) {
  const auto& w = res.world();
  const auto partner = partners(m, s.nodes);
  const int partner_node = partner[static_cast<std::size_t>(w.node())];
  const int peer = s.at(partner_node, w.local_rank());
  std::vector<double> t(static_cast<std::size_t>(2 * s.nodes), 0.0);
  const std::size_t slot = static_cast<std::size_t>(2 * w.node());
  {
    Bench b = res.bench(peer >= 0 ? &world_comm : nullptr);
    const std::size_t elements = o.isolation_bytes / harness::size_of(o.type);
    t[slot] = step_mean_s(w, res.timeout_s(), b.comm ? &b : nullptr, o,
                          "isolation sendrecv with rank " + std::to_string(peer), [&] {
                            b.comm->send_recv(b.send.data(), peer, b.recv.data(), peer, elements, o.type, b.stream,
                                              harness::Deadline::after(b.timeout_s));
                          });
  }
  const int color = peer >= 0 ? std::min(w.node(), partner_node) * s.rails + w.local_rank() : -1;
  auto pair = world_comm.split(color, w.rank(), harness::Deadline::after(res.timeout_s()));
  t[slot + 1] = allreduce_s(res, pair.get(), o, "isolation allreduce with rank " + std::to_string(peer));
  t = w.max_over_ranks(t, harness::Deadline::after(res.timeout_s()));
  std::vector<results::NodeRound> out;
  for (int n = 0; n < s.nodes; ++n) {
    const double sr = t[static_cast<std::size_t>(2 * n)], ar = t[static_cast<std::size_t>(2 * n + 1)];
    out.push_back({round, n, partner[static_cast<std::size_t>(n)],
                   sr > 0 ? static_cast<double>(o.isolation_bytes) / sr / 1e9 : 0, busbw_gbps(o, ar, 2)});
  }
  return out;
}

// One bisection step: local rank 0 of each node in a half joins that half's communicator.
std::pair<double, double> measure_halves(BenchResources& res, harness::Communicator& world_comm,
                                         const SweepOptions& o, const std::vector<int>& a, const std::vector<int>& b) {
  const auto& w = res.world();
  auto in = [&](const std::vector<int>& half) { return std::find(half.begin(), half.end(), w.node()) != half.end(); };
  const int color = w.local_rank() != 0 ? -1 : in(a) ? 0 : in(b) ? 1 : -1;
  auto half = world_comm.split(color, w.rank(), harness::Deadline::after(res.timeout_s()));
  std::vector<double> t(2, 0.0);
  const double mean_s = allreduce_s(res, half.get(), o, "bisection allreduce");
  if (half) t[static_cast<std::size_t>(color)] = mean_s;
  t = w.max_over_ranks(t, harness::Deadline::after(res.timeout_s()));
  return {busbw_gbps(o, t[0], static_cast<int>(a.size())), busbw_gbps(o, t[1], static_cast<int>(b.size()))};
}

void bisect_into(BenchResources& res, harness::Communicator& world_comm, const SweepOptions& o, const Seats& s,
                 results::IsolationRecord& r) {
  const auto outcome = bisect(s.nodes, o.isolation_threshold, [&](const std::vector<int>& a, const std::vector<int>& b) {
    return measure_halves(res, world_comm, o, a, b);
  });
  r.bisection = outcome.steps;
  r.bisection_node = outcome.node;
  r.bisection_note = outcome.note;
}

}  // namespace

int isolation_passes(double typical_s, double slowest_s) {
  if (!(typical_s > 0) || !std::isfinite(typical_s)) return 1;
  double passes = std::ceil(kIsolationSpanS / typical_s);
  if (slowest_s > 0 && std::isfinite(slowest_s)) passes = std::min(passes, std::floor(kIsolationMaxSpanS / slowest_s));
  return static_cast<int>(std::clamp(passes, 1.0, static_cast<double>(kIsolationMaxPasses)));
}

results::IsolationRecord run_isolation(BenchResources& res, harness::Communicator& world_comm, const SweepOptions& o,
                                       const std::vector<std::string>& node_hosts, harness::BudgetGate* budget) {
  results::IsolationRecord r;
  r.bytes = o.isolation_bytes;
  r.rounds = o.isolation_rounds;
  r.seed = o.isolation_seed;
  r.threshold = o.isolation_threshold;
  r.node_hosts = node_hosts;
  if (!res.skipped_reason().empty()) {
    r.skipped_reason = res.skipped_reason();  // the same on every rank; the slow-node checks fail on it
    return r;
  }
  const auto& w = res.world();
  const Seats s = seats(w, harness::Deadline::after(res.timeout_s()));
  r.rails = s.rails;
  {
    Bench b = res.bench(&world_comm);  // never time on zeros
    const std::size_t elements = o.isolation_bytes / harness::size_of(o.type);
    b.verifier.fill(b.send.data(), elements, o.type, make_spec(*all_ops()[0], o, w.size(), w.rank(), elements), b.stream);
  }
  r.node_local = node_local(res, world_comm, o, s);
  const bool budgeted = budget && budget->bounded();
  if (budgeted) bisect_into(res, world_comm, o, s, r);
  const auto matchings = random_matchings(s.nodes, o.isolation_rounds, o.isolation_seed);
  for (std::size_t i = 0; i < matchings.size(); ++i) {
    if (budgeted && budget->spent()) break;
    auto played = play_round(res, world_comm, o, s, static_cast<int>(i), matchings[i]);
    r.matches.insert(r.matches.end(), played.begin(), played.end());
  }
  if (!budgeted) bisect_into(res, world_comm, o, s, r);
  return r;
}

}  // namespace gpuscale::collectives
