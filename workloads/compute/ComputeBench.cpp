#include "workloads/compute/ComputeBench.hpp"

#include <algorithm>
#include <cmath>

#include "harness/Error.hpp"
#include "results/base/GpuPeak.hpp"
#include "workloads/WarmUp.hpp"
#include "workloads/layers/ReferenceVerification.hpp"

namespace gpuscale::workloads {
namespace {

struct Tensors {
  std::unique_ptr<harness::Buffer> x, w, y, dy, dx, dw;
  std::size_t bytes() const { return x->bytes() + w->bytes() + y->bytes() + dy->bytes() + dx->bytes() + dw->bytes(); }
};

Tensors allocate(ComputeContext& ctx, harness::Stream& stream, const LayerSpec& spec, std::uint64_t seed) {
  auto& b = ctx.backend();
  Tensors t{b.allocate(x_bytes(spec)),  b.allocate(w_bytes(spec)),  b.allocate(y_bytes(spec)),
            b.allocate(dy_bytes(spec)), b.allocate(dx_bytes(spec)), b.allocate(dw_bytes(spec))};
  // Random inputs: timing on zeros flatters the hardware (less switching, lower power).
  ctx.fill_uniform(t.x->data(), input_type(spec), static_cast<std::size_t>(input_elements(spec.shape)), seed, 1.0f,
                   stream);
  ctx.fill_uniform(t.w->data(), input_type(spec), static_cast<std::size_t>(weight_elements(spec.shape)), seed + 1, 1.0f,
                   stream);
  ctx.fill_uniform(t.dy->data(), input_type(spec), static_cast<std::size_t>(output_elements(spec.shape)), seed + 2,
                   1.0f, stream);
  return t;
}

void call(Layer& layer, Pass pass, Tensors& t, harness::Stream& stream) {
  switch (pass) {
    case Pass::forward:
      layer.forward(*t.x, *t.w, *t.y, stream);
      break;
    case Pass::backward_data:
      layer.backward_data(*t.dy, *t.w, *t.dx, stream);
      break;
    case Pass::backward_weight:
      layer.backward_weight(*t.dy, *t.x, *t.dw, Accumulate::overwrite, stream);
      break;
  }
}

// Calls of one pass until `seconds` have run (keep_busy_for), right before that pass is timed: under
// the power limit the settled clock depends on the load, so each pass settles on its own kernels (as
// the torch bench warms up each op it times), not on a mix of all three.
void warm_up_for(double seconds, Layer& layer, Pass pass, Tensors& t, harness::Stream& stream, double timeout_s) {
  if (seconds <= 0) return;
  keep_busy_for(
      seconds, timeout_s, [&] { call(layer, pass, t, stream); },
      [&](double wait_s) { stream.synchronize(harness::Deadline::after(wait_s), "compute warm-up"); });
}

// Under BenchOptions::launch_bound_s (100 us), what the probe times, one call's run, the launch (cuDNN
// or cuBLAS, and two events) may be as long as the run. The acceptance rows' calls take 150 us and more
// and get no hold; the hold gives each call's launch kHoldPerCall_s (Layer.hpp), twice that bound.
// The probe itself runs behind a hold this long, so that its events time the call's run alone: timed
// from an idle stream, a call that takes longer to launch than to run would read as its launch time,
// not launch-bound, and its timed calls would go unheld.
constexpr double kProbeHold_s = 1e-3;

// Every call timed by its own pair of events, recorded back to back, read at the end. Calls that may
// be launch-bound (one probe call says) are enqueued behind a hold long enough for the host to launch
// them all, so that no event pair waits on the host: otherwise short calls read slower on a rank whose
// host does more (the one that prints progress), a false compute straggler. Longer calls keep the host
// ahead unaided and get no idle gap before them.
// The probe's call also sets how many calls fill BenchOptions::min_time_s (timed_calls).
std::vector<double> time_pass(ComputeContext& ctx, Layer& layer, Pass pass, Tensors& t, harness::Stream& stream,
                              const BenchOptions& o, double timeout_s) {
  std::vector<std::unique_ptr<harness::Timer>> timers;
  for (int i = 0; i < o.iterations; ++i) timers.push_back(ctx.backend().create_timer());
  auto& probe = *timers.front();
  ctx.hold(stream, kProbeHold_s);
  probe.start(stream);
  call(layer, pass, t, stream);
  probe.stop(stream);
  const double probe_s = probe.elapsed_s(harness::Deadline::after(timeout_s));
  const bool launch_bound = probe_s < o.launch_bound_s;
  int calls = timed_calls(o.iterations, o.min_time_s, probe_s, launch_bound);
  if (o.min_time_s > 0 && o.agree_calls) calls = o.agree_calls(calls);
  if (launch_bound) ctx.hold(stream, kHoldPerCall_s * (calls + 5));
  // Timers past o.iterations are made as their calls are enqueued: such calls are long enough to keep
  // the host ahead, and the GPU runs the first of them meanwhile instead of idling.
  for (int i = 0; i < calls; ++i) {
    if (static_cast<std::size_t>(i) == timers.size()) timers.push_back(ctx.backend().create_timer());
    auto& timer = timers[static_cast<std::size_t>(i)];
    timer->start(stream);
    call(layer, pass, t, stream);
    timer->stop(stream);
  }
  std::vector<double> samples;
  for (auto& timer : timers) samples.push_back(timer->elapsed_s(harness::Deadline::after(timeout_s)));
  return samples;
}

results::ComputeRecord base_record(const NamedShape& shape, Precision precision, Pass pass, const BenchOptions& o) {
  results::ComputeRecord r;
  r.rank = o.rank;
  r.gpu = o.gpu;
  r.set = shape.set;
  r.name = shape.name;
  r.layer = std::string(layer_kind(shape.shape));
  r.shape = describe(shape.shape);
  r.precision = std::string(to_string(precision));
  r.pass = std::string(to_string(pass));
  r.flops = flops_per_pass(shape.shape);
  r.peak_tflops = results::peak_tflops(o.gpu, r.precision);
  r.timing = o.warmup_s > 0 || o.min_time_s > 0 ? "settled" : "burst";
  return r;
}

// The passes of `set`, in kAllPasses order.
std::vector<Pass> passes_in(PassSet set) {
  std::vector<Pass> out;
  for (Pass pass : kAllPasses)
    if (contains(set, pass)) out.push_back(pass);
  return out;
}

// Check (every pass, on the check's own layer), create the layer for the passes asked, warm them up
// (the barrier after), then settle and time each. records[i] is passes[i]'s. Throws what
// run_compute_item turns into skips.
void measure(ComputeContext& ctx, harness::Stream& stream, const LayerSpec& spec, const BenchOptions& o,
             double timeout_s, const std::vector<Pass>& passes, std::vector<results::ComputeRecord>& records,
             bool& barrier_done) {
  if (o.check) {
    LayerSpec small{verification_shape(spec.shape, o.check_max_flops), spec.precision, spec.output_type,
                    spec.weight_grad_type};
    small.settle_tuning = false;  // checked for its numbers, not timed
    const auto checks =
        verify_against_reference(ctx, stream, small, o.seed + 1000, timeout_s, o.corrupt_check_for_test);
    for (std::size_t i = 0; i < passes.size(); ++i) records[i].verification = checks[static_cast<std::size_t>(passes[i])];
  }
  auto layer = ctx.create_layer(spec);
  Tensors t = allocate(ctx, stream, spec, o.seed);
  const std::size_t memory = t.bytes() + ctx.workspace_bytes();
  for (Pass pass : passes)
    for (int i = 0; i < o.warmup; ++i) call(*layer, pass, t, stream);
  stream.synchronize(harness::Deadline::after(timeout_s), "compute warm-up");
  barrier_done = true;
  if (o.before_timing) o.before_timing();
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const Pass pass = passes[i];
    warm_up_for(o.warmup_s, *layer, pass, t, stream, timeout_s);
    auto& r = records[i];
    r.samples_s = time_pass(ctx, *layer, pass, t, stream, o, timeout_s);
    r.time_s = results::summarize(r.samples_s);
    r.tflops = r.flops / r.time_s.median / 1e12;
    const auto choice = layer->algorithm(pass);
    r.algorithm = choice.name;
    r.workspace_bytes = choice.workspace_bytes;
    r.memory_bytes = memory;
  }
}

}  // namespace

int timed_calls(int iterations, double min_time_s, double call_s, bool launch_bound) {
  if (launch_bound || !(min_time_s > 0) || !(call_s > 0)) return iterations;
  const double filling = std::ceil(min_time_s / call_s);
  return std::max(iterations, static_cast<int>(std::min(filling, static_cast<double>(kMaxTimedCalls))));
}

Layout auto_layout(Precision precision) {
  return precision == Precision::fp16 || precision == Precision::bf16 ? Layout::nhwc : Layout::nchw;
}

std::vector<results::ComputeRecord> run_compute_item(ComputeContext& ctx, harness::Stream& stream,
                                                     const NamedShape& shape, Precision precision,
                                                     const BenchOptions& options, double timeout_s) {
  const std::vector<Pass> passes = passes_in(options.passes);
  std::vector<results::ComputeRecord> records;
  for (Pass pass : passes) records.push_back(base_record(shape, precision, pass, options));
  LayerSpec spec{shape.shape, precision};
  spec.passes = options.passes;
  bool barrier_done = false;
  std::string skipped;
  try {
    measure(ctx, stream, spec, options, timeout_s, passes, records, barrier_done);
  } catch (const harness::OutOfMemoryError& e) {
    skipped = std::string("out of memory: ") + e.what();
  } catch (const harness::UsageError& e) {
    skipped = e.what();
  } catch (const harness::LibraryError& e) {
    // "Cannot run here" (no algorithm for this type and layout) is a finding, not a crash.
    if (e.name().find("NOT_SUPPORTED") == std::string::npos && e.name().find("no algorithm") == std::string::npos)
      throw;
    skipped = std::string("not supported: ") + e.what();
  }
  if (!skipped.empty()) {
    for (auto& r : records) r.skipped_reason = skipped;
    if (!barrier_done && options.before_timing) options.before_timing();  // keep every rank's barriers matched
  }
  return records;
}

}  // namespace gpuscale::workloads
