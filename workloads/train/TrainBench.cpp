#include "workloads/train/TrainBench.hpp"

#include <algorithm>
#include <optional>

#include "harness/Communicator.hpp"
#include "harness/Error.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::workloads {
namespace {

// Each value's largest over the communicator's ranks (every rank calls it), ordered on `stream`.
std::vector<float> max_over_ranks(harness::Backend& backend, harness::Communicator& comm, harness::Stream& stream,
                                  std::vector<float> values, double timeout_s, const char* what) {
  const std::size_t bytes = values.size() * sizeof(float);
  auto device = backend.allocate(bytes);
  backend.upload(*device, values.data(), bytes, harness::Deadline::after(timeout_s));
  comm.all_reduce(device->data(), device->data(), values.size(), harness::DataType::float32, harness::RedOp::max,
                  stream, harness::Deadline::after(timeout_s));
  comm.wait(stream, harness::Deadline::after(timeout_s), what);
  backend.download(values.data(), *device, bytes, harness::Deadline::after(timeout_s));
  return values;
}

}  // namespace

bool prefer_tuned_ctas(double nccl_choice_step_s, double tuned_step_s) {
  return tuned_step_s < 0.99 * nccl_choice_step_s;
}

std::vector<std::pair<int, double>> tune_comm_ctas(DdpTrainer& trainer, harness::Backend& backend,
                                                   harness::Communicator& comm, harness::Communicator& twin,
                                                   TimingOptions timing, double timeout_s) {
  timing.parts = false;
  timing.iterations = std::min(timing.iterations, kCtaTuneSteps);
  const std::pair<int, harness::Communicator*> candidates[] = {{0, &comm}, {kTunedCommCtas, &twin}};
  std::vector<float> medians;
  for (const auto& candidate : candidates) {
    trainer.use_communicator(candidate.second);
    medians.push_back(static_cast<float>(results::median(time_ddp(trainer, backend, timing, timeout_s).step_s)));
    timing.warmup_s = 0;  // settled by the first trial's warm-up; the trials keep the GPU busy
  }
  medians = max_over_ranks(backend, comm, trainer.compute_stream(), medians, timeout_s, "the choice of NCCL CTAs");
  const std::size_t kept = prefer_tuned_ctas(medians[0], medians[1]) ? 1 : 0;
  trainer.use_communicator(candidates[kept].second);
  return {{candidates[kept].first, medians[kept]}, {candidates[1 - kept].first, medians[1 - kept]}};
}

TrainRankResult run_ddp_rank(ComputeContext& ctx, TrainOps& ops, const Model& model, Precision precision,
                             const DdpRun& run, const TrainBenchOptions& o, double timeout_s) {
  auto& backend = ctx.backend();
  harness::Communicator* comm = run.comm;
  const std::int64_t first = comm ? comm->rank() * run.batch_per_gpu : 0;
  const std::int64_t stride = comm ? comm->size() * run.batch_per_gpu : run.batch_per_gpu;
  backend.reset_peak_memory();
  TrainRankResult out;
  try {
    DdpTrainer trainer(ctx, ops, model, run.batch_per_gpu, precision, comm, run.options, o.seed, first, stride,
                       timeout_s);
    auto timing = o.timing;
    // The timing ranks' barrier: a one-element allreduce that completes only when all have reached it.
    auto token = backend.allocate(sizeof(float));
    ops.fill(token->data(), harness::DataType::float32, 1, 0.0f, trainer.compute_stream());
    if (comm) {
      timing.before_timing = [&] {
        comm->all_reduce(token->data(), token->data(), 1, harness::DataType::float32, harness::RedOp::sum,
                         trainer.compute_stream(), harness::Deadline::after(timeout_s));
        comm->wait(trainer.compute_stream(), harness::Deadline::after(timeout_s), "the barrier before timing");
      };
      timing.agree_steps = [&](int steps) {
        const auto most = max_over_ranks(backend, *comm, trainer.compute_stream(), {static_cast<float>(steps)},
                                         timeout_s, "the warm-up's step count");
        return static_cast<int>(most.front());
      };
    }
    if (comm && run.tuned_twin && !trainer.buckets_in_window()) {
      out.cta_trials = tune_comm_ctas(trainer, backend, *comm, *run.tuned_twin, timing, timeout_s);
      timing.warmup_s = 0;  // the CTA trials ran on a settled GPU just now
    }
    const auto t = time_ddp(trainer, backend, timing, timeout_s);
    auto& f = out.figures;
    f.rank = o.rank;
    f.step_samples_s = t.step_s;
    f.step_s = results::summarize(t.step_s);
    f.compute_s = results::median_of(t.compute_s);
    f.comm_s = results::median_of(t.comm_s);
    f.peak_memory_bytes = backend.memory_usage().peak_bytes;
    out.buckets = static_cast<int>(trainer.buckets().buckets.size());
    out.window = trainer.buckets_in_window();
    if (run.traced) out.trace = trace_ddp_step(trainer, o.rank, run.label, timeout_s);
  } catch (const harness::OutOfMemoryError& e) {
    out = TrainRankResult{};
    out.skipped_reason = std::string("out of memory: ") + e.what();
  }
  return out;
}

void run_dp(results::TrainRecord& r, std::span<harness::Backend* const> devices, const TuningOptions& tuning,
            const Model& model, Precision precision, std::int64_t global_batch, const DpOptions& dp,
            const TrainBenchOptions& o, double timeout_s) {
  for (auto* b : devices) b->reset_peak_memory();
  try {
    DpTrainer trainer({devices.begin(), devices.end()}, tuning, model, global_batch, precision, dp, o.seed, timeout_s);
    const auto t = time_dp(trainer, o.timing, timeout_s);
    std::vector<results::TrainRankFigures> ranks;
    for (std::size_t d = 0; d < devices.size(); ++d) {
      results::TrainRankFigures f;
      f.rank = static_cast<int>(d);
      f.step_samples_s = t.step_s;
      f.step_s = results::summarize(t.step_s);
      f.peak_memory_bytes = devices[d]->memory_usage().peak_bytes;
      ranks.push_back(std::move(f));
    }
    derive_figures(r, std::move(ranks), false);
    r.dp = t.phases;
  } catch (const harness::OutOfMemoryError& e) {
    r.skipped_reason = std::string("out of memory: ") + e.what();
  }
}

results::TrainRecord train_record(const Model& model, Precision precision, const std::string& strategy,
                                  const std::string& scaling, int gpus, std::int64_t batch, const DdpOptions& o) {
  results::TrainRecord r;
  r.strategy = strategy;
  r.model = model.name;
  r.precision = std::string(to_string(precision));
  r.scaling = scaling;
  r.gpus = gpus;
  r.batch_per_gpu = batch;
  r.global_batch = batch * gpus;
  r.grad_dtype = o.grad_type ? (*o.grad_type == harness::DataType::bfloat16 ? "bf16" : "fp16") : "fp32";
  r.accum = o.accum;
  r.overlap = o.overlap;
  r.optimizer_overlap = strategy == "ddp" && o.overlap && o.overlap_optimizer;
  r.bucket_mb = o.bucket_mb;
  r.comm_priority = o.comm_priority == harness::StreamPriority::high ? "high" : "normal";
  r.comm_sm_margin = strategy == "ddp" && o.overlap ? o.sm_margin : 0;  // where DdpTrainer applies it
  r.h2d = o.h2d;
  r.parameter_bytes = static_cast<std::uint64_t>(parameter_count(model)) * 4;
  r.step_flops = step_flops(model, batch) * o.accum;
  return r;
}

}  // namespace gpuscale::workloads
