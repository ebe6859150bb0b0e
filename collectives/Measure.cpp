#include "collectives/Measure.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "harness/Error.hpp"

namespace gpuscale::collectives {
namespace {

using harness::DataType;

pattern::Reduce to_pattern(harness::RedOp op) {
  switch (op) {
    case harness::RedOp::sum: return pattern::Reduce::sum;
    case harness::RedOp::prod: return pattern::Reduce::prod;
    case harness::RedOp::min: return pattern::Reduce::min;
    case harness::RedOp::max: return pattern::Reduce::max;
    case harness::RedOp::avg: return pattern::Reduce::avg;
  }
  return pattern::Reduce::sum;
}

// The largest integer up to which every integer is exact in the type (and within range).
std::int64_t exact_limit(DataType t) {
  switch (t) {
    case DataType::int8: return 127;
    case DataType::uint8: return 255;
    case DataType::float16: return 2048;
    case DataType::bfloat16: return 256;
    case DataType::float32: return 1 << 24;
    default: return 1 << 30;
  }
}

// Unit roundoff of the floating types: NCCL's avg scales each input by 1/ranks before summing.
double roundoff(DataType t) {
  switch (t) {
    case DataType::float16: return 1.0 / 1024;
    case DataType::bfloat16: return 1.0 / 128;
    case DataType::float32: return 1.0 / (1 << 23);
    case DataType::float64: return 1.0 / (1ull << 52);
    default: return 0;
  }
}

struct Pointers {
  const void* send;
  void* recv;
  void* region;               // in place: the one buffer, cleared before a check
  std::size_t region_bytes;
};

Pointers pointers(Bench& b, const Layout& l, Placement p, DataType type) {
  const std::size_t ts = harness::size_of(type);
  if (!p.in_place) return {b.send.data(), b.recv.data(), b.recv.data(), l.recv_count * ts};
  auto* base = static_cast<char*>(b.recv.data());
  const std::size_t end = std::max(l.in_place_send_offset + l.send_count, l.in_place_recv_offset + l.recv_count);
  return {base + l.in_place_send_offset * ts, base + l.in_place_recv_offset * ts, base, end * ts};
}

void enqueue_iteration(Bench& b, const OpSpec& op, const Call& call, int aggregated) {
  const auto deadline = harness::Deadline::after(b.timeout_s);
  if (aggregated > 1) b.comm->group_start();
  for (int j = 0; j < aggregated; ++j) op.run(*b.comm, call, b.stream, deadline);
  if (aggregated > 1) b.comm->group_end(deadline);
}

std::string what(const OpSpec& op, std::size_t elements, Placement p) {
  return std::string(op.name) + " of " + std::to_string(elements) + " elements" + (p.in_place ? " (in place)" : "");
}

// This rank's time per op for each sample (an iteration each, or one graph launch of all
// iterations), and per op over the samples run back to back: nccl-tests' batch figure.
struct RankTimes {
  std::vector<double> samples_s;
  double batch_s = 0;
};

RankTimes time_samples(Bench& b, const SweepOptions& o, const OpSpec& op, const Call& call, const std::string& label) {
  auto wait = [&] { b.comm->wait(b.stream, harness::Deadline::after(b.timeout_s), label); };
  for (int i = 0; i < o.warmup; ++i) enqueue_iteration(b, op, call, o.aggregated);
  wait();
  std::unique_ptr<harness::Graph> graph;
  int samples = o.iterations;
  double ops_per_sample = o.aggregated;
  if (o.graph_launches > 0) {
    graph = b.backend.capture(b.stream, [&] {
      for (int i = 0; i < o.iterations; ++i) enqueue_iteration(b, op, call, o.aggregated);
    });
    graph->launch(b.stream);  // the graph's own warm-up: first launch uploads it
    wait();
    samples = o.graph_launches;
    ops_per_sample *= o.iterations;
  }
  auto run_sample = [&] {
    if (graph)
      graph->launch(b.stream);
    else
      enqueue_iteration(b, op, call, o.aggregated);
  };
  // nccl-tests' figure first: every sample back to back, nothing recorded between them. An event
  // between two NCCL kernels costs each op ~3.5 us (2.5% of a 32 MiB allreduce on 2 H200s), so the
  // per-sample times come from a second pass: they give the distribution, not the headline.
  b.world.barrier(harness::Deadline::after(b.timeout_s));
  b.timer.start(b.stream);
  for (int i = 0; i < samples; ++i) run_sample();
  b.timer.mark(b.stream);
  wait();
  const double batch_s = b.timer.read(harness::Deadline::after(b.timeout_s)).total_s / (samples * ops_per_sample);
  b.world.barrier(harness::Deadline::after(b.timeout_s));
  b.timer.start(b.stream);
  for (int i = 0; i < samples; ++i) {
    run_sample();
    b.timer.mark(b.stream);
  }
  wait();
  BoundaryTimes t = b.timer.read(harness::Deadline::after(b.timeout_s));
  for (double& s : t.samples_s) s /= ops_per_sample;
  return {std::move(t.samples_s), batch_s};
}

// Wrong elements on this rank over every check pass. Fresh inputs and a cleared output each pass.
std::uint64_t run_checks(Bench& b, const SweepOptions& o, const OpSpec& op, const Layout& l, Placement p,
                         pattern::Spec spec, const std::string& label) {
  const Pointers ptr = pointers(b, l, p, o.type);
  const Call call{ptr.send, ptr.recv, l.count, o.type, o.redop, o.root};
  const std::size_t ts = harness::size_of(o.type);
  std::uint64_t wrong = 0;
  for (int pass = 0; pass < o.check_passes; ++pass) {
    b.verifier.clear(ptr.region, ptr.region_bytes, b.stream);
    b.verifier.fill(const_cast<void*>(ptr.send), l.send_count, o.type, spec, b.stream);
    op.run(*b.comm, call, b.stream, harness::Deadline::after(b.timeout_s));
    b.comm->wait(b.stream, harness::Deadline::after(b.timeout_s), label + " (check)");
    if (!pattern::checked(spec)) continue;
    if (b.corrupt && pass == o.check_passes - 1 && l.recv_count > 0)
      b.verifier.clear(ptr.recv, ts, b.stream);
    wrong += b.verifier.count_wrong(ptr.recv, l.recv_count, o.type, spec, b.stream,
                                 harness::Deadline::after(b.timeout_s));
  }
  return wrong;
}

// Collective: the world ranks for which `mine` holds, in order; O(world size) per rank, so only
// called when something is already known to be wrong.
std::vector<int> ranks_with(const harness::World& world, bool mine, const harness::Deadline& deadline) {
  std::vector<double> flags(static_cast<std::size_t>(world.size()), 0.0);
  if (mine) flags[static_cast<std::size_t>(world.rank())] = 1;
  flags = world.max_over_ranks(flags, deadline);
  std::vector<int> ranks;
  for (std::size_t r = 0; r < flags.size(); ++r)
    if (flags[r] > 0) ranks.push_back(static_cast<int>(r));
  return ranks;
}

}  // namespace

pattern::Spec make_spec(const OpSpec& op, const SweepOptions& o, int ranks, int rank, std::size_t count) {
  pattern::Spec s;
  s.expect = op.expect;
  s.reduce = op.reduces ? to_pattern(o.redop) : pattern::Reduce::sum;
  s.ranks = ranks;
  s.rank = rank;
  s.root = o.root;
  s.count = count;
  s.span = static_cast<int>(std::clamp<std::int64_t>(exact_limit(o.type) / std::max(ranks, 1), 1, 13));
  if (op.reduces && o.redop == harness::RedOp::avg) s.tolerance = 2 * ranks * roundoff(o.type);
  return s;
}

results::CollectiveTiming measure(Bench& b, const SweepOptions& o, const OpSpec& op, Placement p) {
  const bool member = b.comm != nullptr;
  const int ranks = member ? b.comm->size() : 1, rank = member ? b.comm->rank() : 0;
  const Layout l = op.layout(p.elements, ranks, rank);
  const pattern::Spec spec = make_spec(op, o, ranks, rank, l.count);
  const std::string label = what(op, p.elements, p);
  const std::size_t samples = static_cast<std::size_t>(o.graph_launches > 0 ? o.graph_launches : o.iterations);

  std::vector<double> mine(samples, 0.0);
  double my_batch = 0;
  std::uint64_t wrong = 0;
  if (member) {
    const Pointers ptr = pointers(b, l, p, o.type);
    b.verifier.fill(const_cast<void*>(ptr.send), l.send_count, o.type, spec, b.stream);  // never time on zeros
    RankTimes times = time_samples(b, o, op, {ptr.send, ptr.recv, l.count, o.type, o.redop, o.root}, label);
    mine = std::move(times.samples_s);
    my_batch = times.batch_s;
    if (!p.in_place || op.in_place_defined) wrong = run_checks(b, o, op, l, p, spec, label);
  } else {
    for (int pass = 0; pass < 2; ++pass)  // the members' barriers before their two timed passes
      b.world.barrier(harness::Deadline::after(b.timeout_s));
  }

  const auto deadline = harness::Deadline::after(b.timeout_s);
  constexpr double kLow = -std::numeric_limits<double>::infinity();
  std::vector<double> packed = mine;
  packed.push_back(member ? my_batch : kLow);
  packed.push_back(member ? -my_batch : kLow);
  const auto slowest = b.world.max_over_ranks(packed, deadline);
  const double members = b.world.sum_over_ranks(member ? 1 : 0, deadline);
  const double batch_sum = b.world.sum_over_ranks(my_batch, deadline);
  const double wrong_total = b.world.sum_over_ranks(static_cast<double>(wrong), deadline);

  results::CollectiveTiming t;
  t.measured = true;
  t.samples_s.assign(slowest.begin(), slowest.begin() + static_cast<std::ptrdiff_t>(samples));
  t.iterations = results::summarize(t.samples_s);
  t.batch_time_s = slowest[samples];
  t.time_s = t.batch_time_s;
  t.rank_max_s = slowest[samples];
  t.rank_min_s = -slowest[samples + 1];
  t.rank_avg_s = batch_sum / std::max(members, 1.0);
  const double bytes = static_cast<double>(size_bytes(l, o.type));
  t.algbw_gbps = t.time_s > 0 ? bytes / t.time_s / 1e9 : 0;
  t.busbw_gbps = t.algbw_gbps * op.busbw_factor(ranks);
  if (o.check_passes > 0 && (!p.in_place || op.in_place_defined)) t.wrong = static_cast<std::uint64_t>(wrong_total);
  const int me = b.world.rank();
  t.slowest_rank = static_cast<int>(b.world.max_over_ranks(member && my_batch == t.rank_max_s ? me : -1.0, deadline));
  if (wrong_total > 0) t.wrong_ranks = ranks_with(b.world, wrong > 0, deadline);
  return t;
}

}  // namespace gpuscale::collectives
