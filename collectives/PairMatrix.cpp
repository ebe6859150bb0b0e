#include "collectives/PairMatrix.hpp"

#include <algorithm>
#include <cstring>

#include "collectives/Measure.hpp"

namespace gpuscale::collectives {
namespace {

// Mean exchange time with `peer` over the timed iterations (this rank's clock), after warm-up.
double exchange_s(Bench& b, const SweepOptions& o, int peer, std::size_t elements) {
  const auto deadline = [&] { return harness::Deadline::after(b.timeout_s); };
  const std::string what = "pairwise sendrecv with rank " + std::to_string(peer);
  for (int i = 0; i < std::max(o.warmup, 1); ++i)
    b.comm->send_recv(b.send.data(), peer, b.recv.data(), peer, elements, o.type, b.stream, deadline());
  b.comm->wait(b.stream, deadline(), what);
  // Back to back between two boundaries, as the sweep's headline: an event between the exchanges
  // would add its own microseconds to every latency in the matrix.
  b.timer.start(b.stream);
  for (int i = 0; i < o.iterations; ++i)
    b.comm->send_recv(b.send.data(), peer, b.recv.data(), peer, elements, o.type, b.stream, deadline());
  b.timer.mark(b.stream);
  b.comm->wait(b.stream, deadline(), what);
  return b.timer.read(deadline()).total_s / std::max(o.iterations, 1);
}

}  // namespace

std::vector<std::vector<std::pair<int, int>>> round_robin(int ranks) {
  std::vector<std::vector<std::pair<int, int>>> rounds;
  if (ranks < 2) return rounds;
  const int n = ranks % 2 ? ranks + 1 : ranks;  // n - 1 is a resting slot when ranks is odd
  std::vector<int> seat(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) seat[static_cast<std::size_t>(i)] = i;
  for (int r = 0; r < n - 1; ++r) {
    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < n / 2; ++i) {
      const int a = seat[static_cast<std::size_t>(i)], b = seat[static_cast<std::size_t>(n - 1 - i)];
      if (a < ranks && b < ranks) pairs.emplace_back(std::min(a, b), std::max(a, b));
    }
    rounds.push_back(std::move(pairs));
    std::rotate(seat.begin() + 1, seat.end() - 1, seat.end());  // seat 0 stays, the rest turn
  }
  return rounds;
}

results::PairMatrix run_pair_matrix(BenchResources& resources, harness::Communicator& comm, const SweepOptions& o,
                                    const std::vector<std::string>& labels, const std::vector<int>& node_of) {
  results::PairMatrix m;
  m.large_bytes = o.pair_large_bytes;
  m.small_bytes = o.pair_small_bytes;
  m.threshold = o.pair_threshold;
  const int n = comm.size(), me = comm.rank();
  const auto rounds = round_robin(n);
  m.rounds = static_cast<int>(rounds.size());
  if (!resources.skipped_reason().empty()) return m;
  Bench b = resources.bench(&comm);
  const std::size_t ts = harness::size_of(o.type);
  b.verifier.fill(b.send.data(), o.pair_large_bytes / ts, o.type, make_spec(*all_ops()[0], o, n, me, 0), b.stream);

  // This rank's row: row[peer * 2 + {0: large, 1: small}]. Only rank 0 holds every row, to build the
  // matrix it reports; a pair's time is the slower of its two ends.
  std::vector<double> row(static_cast<std::size_t>(n) * 2, 0.0);
  for (const auto& round : rounds) {
    b.world.barrier(harness::Deadline::after(b.timeout_s));  // one round at a time, on every rank
    for (const auto& [x, y] : round) {
      if (me != x && me != y) continue;
      const int peer = me == x ? y : x;
      const std::size_t slot = static_cast<std::size_t>(peer) * 2;
      row[slot] = exchange_s(b, o, peer, o.pair_large_bytes / ts);
      row[slot + 1] = exchange_s(b, o, peer, o.pair_small_bytes / ts);
    }
  }
  const std::string mine(reinterpret_cast<const char*>(row.data()), row.size() * sizeof(double));
  const auto rows = b.world.gather_to_root(mine, harness::Deadline::after(b.timeout_s));
  if (b.world.rank() != 0) return m;
  auto time_s = [&](int from, int to, int which) {
    double t = 0;
    const auto& r = rows[static_cast<std::size_t>(from)];
    std::memcpy(&t, r.data() + (static_cast<std::size_t>(to) * 2 + static_cast<std::size_t>(which)) * sizeof(double),
                sizeof t);
    return t;
  };
  for (const auto& round : rounds)
    for (const auto& [x, y] : round) {
      const double large_s = std::max(time_s(x, y, 0), time_s(y, x, 0));
      results::PairResult p;
      p.a = x;
      p.b = y;
      p.a_label = x < static_cast<int>(labels.size()) ? labels[static_cast<std::size_t>(x)] : std::to_string(x);
      p.b_label = y < static_cast<int>(labels.size()) ? labels[static_cast<std::size_t>(y)] : std::to_string(y);
      p.same_node = node_of.size() > static_cast<std::size_t>(std::max(x, y)) &&
                    node_of[static_cast<std::size_t>(x)] == node_of[static_cast<std::size_t>(y)];
      p.bandwidth_gbps = large_s > 0 ? static_cast<double>(o.pair_large_bytes) / large_s / 1e9 : 0;
      p.latency_s = std::max(time_s(x, y, 1), time_s(y, x, 1));
      m.pairs.push_back(std::move(p));
    }
  std::sort(m.pairs.begin(), m.pairs.end(), [](const auto& l, const auto& r) { return std::pair(l.a, l.b) < std::pair(r.a, r.b); });
  return m;
}

}  // namespace gpuscale::collectives
