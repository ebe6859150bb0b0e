#include "workloads/burn/Burn.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>

#include "harness/FaultInjection.hpp"

namespace gpuscale::workloads {
namespace {

using Clock = std::chrono::steady_clock;

// A batch spans about this much device time: the event per batch stays cheap, and a 250 ms window
// holds tens of completions. The queue holds about kQueuedS of work, so the GPU never waits for the
// host while it hashes a snapshot or reads an event.
constexpr double kBatchS = 0.005;
constexpr double kQueuedS = 0.2;

struct BurnTensors {
  std::unique_ptr<harness::Buffer> x, w, y, host_y;
};

BurnTensors make_tensors(ComputeContext& ctx, harness::Stream& stream, const LayerSpec& spec, std::uint64_t seed) {
  auto& b = ctx.backend();
  BurnTensors t{b.allocate(x_bytes(spec)), b.allocate(w_bytes(spec)), b.allocate(y_bytes(spec)),
                b.allocate_pinned_host(y_bytes(spec))};
  // Random inputs, seeded alike on every rank: zeros would flatter power and clocks, and the output
  // comparison needs the same inputs everywhere.
  ctx.fill_uniform(t.x->data(), input_type(spec), static_cast<std::size_t>(input_elements(spec.shape)), seed, 1.0f,
                   stream);
  ctx.fill_uniform(t.w->data(), input_type(spec), static_cast<std::size_t>(weight_elements(spec.shape)), seed + 1,
                   1.0f, stream);
  return t;
}

// The hash of the output copied to host memory; the test seam GPUSCALE_TEST_CORRUPT=RANK:burn-output
// flips one bit of this rank's copy first, as a faulty GPU would.
std::string snapshot_hash(harness::Buffer& host_y) {
  if (harness::corruption_requested("burn-output")) static_cast<unsigned char*>(host_y.data())[0] ^= 0x01;
  return hash_bytes(host_y.data(), host_y.bytes());
}

struct Pending {
  std::unique_ptr<harness::Event> done;
  std::uint64_t calls = 0;
  bool snapshot = false;
};

}  // namespace

TuningOptions burn_tuning() {
  TuningOptions t;
  t.matmul_path = MatmulPath::gemmex;
  return t;
}

std::string hash_bytes(const void* data, std::size_t bytes) {
  std::uint64_t h = 1469598103934665603ull;
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {  // a word at a time: a 128 MiB output hashes in tens of ms
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    h = (h ^ word) * 1099511628211ull;
  }
  for (; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

BurnRun run_burn(ComputeContext& ctx, harness::Stream& stream, const BurnOptions& o, double timeout_s) {
  auto& b = ctx.backend();
  LayerSpec spec{LinearShape{o.dim, o.dim, o.dim}, o.precision};
  spec.passes = pass_bit(Pass::forward);
  spec.settle_tuning = false;
  auto layer = ctx.create_layer(spec);
  BurnTensors t = make_tensors(ctx, stream, spec, o.seed);
  const auto deadline = [&] { return harness::Deadline::after(timeout_s); };

  BurnRun run;
  run.shape = describe(spec.shape);
  run.algorithm = layer->algorithm(Pass::forward).name;
  run.flops_per_call = 2.0 * static_cast<double>(o.dim) * static_cast<double>(o.dim) * static_cast<double>(o.dim);
  const auto probe = Clock::now();  // one call, timed on the host: sizes the batches
  layer->forward(*t.x, *t.w, *t.y, stream);
  stream.synchronize(deadline(), "burn warm-up");
  const double call_s = std::max(1e-7, std::chrono::duration<double>(Clock::now() - probe).count());
  const auto batch = static_cast<std::uint64_t>(std::clamp(std::round(kBatchS / call_s), 1.0, 1000.0));
  const auto depth = static_cast<std::size_t>(std::max(2.0, std::ceil(kQueuedS / (call_s * batch))));

  if (o.before_start) o.before_start();
  auto start = b.create_event();
  if (o.on_start) o.on_start(Clock::now());
  start->record(stream);
  std::deque<Pending> queue;
  std::uint64_t enqueued = 0;
  double last_s = 0;
  bool finishing = false, snapshot_pending = false;
  const int during = std::max(0, o.snapshots - 1);
  while (!finishing || !queue.empty()) {
    while (!finishing && queue.size() < depth) {
      for (std::uint64_t i = 0; i < batch; ++i) layer->forward(*t.x, *t.w, *t.y, stream);
      enqueued += batch;
      const int taken = static_cast<int>(run.output_hashes.size());
      const bool snapshot = !snapshot_pending && taken < during && last_s >= o.burn_s * (taken + 1) / o.snapshots;
      if (snapshot) b.copy_async(t.host_y->data(), t.y->data(), t.y->bytes(), stream);
      snapshot_pending = snapshot_pending || snapshot;
      queue.push_back({b.create_event(), enqueued, snapshot});
      queue.back().done->record(stream);
    }
    Pending p = std::move(queue.front());
    queue.pop_front();
    last_s = p.done->seconds_since(*start, deadline());
    run.progress.push_back({last_s, static_cast<double>(p.calls) * run.flops_per_call});
    if (p.snapshot) {
      run.output_hashes.push_back(snapshot_hash(*t.host_y));
      snapshot_pending = false;
    }
    finishing = finishing || last_s >= o.burn_s;
  }
  run.calls = enqueued;
  if (o.snapshots > 0) {  // the last: the output as the burn left it
    b.copy_async(t.host_y->data(), t.y->data(), t.y->bytes(), stream);
    stream.synchronize(deadline(), "burn output copy");
    run.output_hashes.push_back(snapshot_hash(*t.host_y));
  }
  return run;
}

}  // namespace gpuscale::workloads
