#include "launch/TrainRuns.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "harness/Activity.hpp"
#include "harness/Communicator.hpp"
#include "harness/Error.hpp"
#include "workloads/DpTrainer.hpp"

namespace gpuscale::launch {
namespace {

using nlohmann::json;

// Steps timed per candidate by --comm-ctas auto (fewer when --iters asks for fewer).
constexpr int kCtaTuneSteps = 10;

std::optional<double> median_of(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  return results::median(v);
}

results::TrainRecord base_record(const TrainEnv& env, const std::string& strategy, const std::string& scaling,
                                 int gpus, std::int64_t batch, const workloads::DdpOptions& o) {
  results::TrainRecord r;
  r.strategy = strategy;
  r.model = env.model.name;
  r.precision = std::string(workloads::to_string(env.precision));
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
  r.parameter_bytes = static_cast<std::uint64_t>(workloads::parameter_count(env.model)) * 4;
  r.step_flops = workloads::step_flops(env.model, batch) * o.accum;
  return r;
}

// Rank 0: the slowest rank per step, and the derived figures.
void assemble(results::TrainRecord& r, std::vector<results::TrainRankFigures> ranks, bool slowest) {
  if (ranks.empty()) return;
  const std::size_t steps = ranks.front().step_samples_s.size();
  for (std::size_t i = 0; i < steps; ++i) {
    double worst = 0;
    for (const auto& k : ranks) worst = std::max(worst, k.step_samples_s.at(i));
    r.step_samples_s.push_back(slowest ? worst : ranks.front().step_samples_s[i]);
  }
  r.step_s = results::summarize(r.step_samples_s);
  r.samples_per_s = static_cast<double>(r.global_batch * r.accum) / r.step_s.median;
  std::vector<double> computes, comms;
  for (const auto& k : ranks) {
    if (k.compute_s) computes.push_back(*k.compute_s);
    if (k.comm_s) comms.push_back(*k.comm_s);
    r.peak_memory_bytes = std::max(r.peak_memory_bytes, k.peak_memory_bytes);
  }
  r.compute_s = median_of(computes);
  r.comm_s = median_of(comms);
  if (r.compute_s) r.exposed_comm_s = std::max(0.0, r.step_s.median - *r.compute_s);
  if (r.comm_s && r.exposed_comm_s && *r.comm_s > 0)
    r.overlap_pct = std::clamp(100.0 * (1.0 - *r.exposed_comm_s / *r.comm_s), 0.0, 100.0);
  r.ranks = std::move(ranks);
}

// Each value's largest over the communicator's ranks (every rank calls it), ordered on `stream`.
std::vector<float> max_over_ranks(TrainEnv& env, harness::Communicator& comm, harness::Stream& stream,
                                  std::vector<float> values, const char* what) {
  auto& backend = env.ctx.backend();
  const std::size_t bytes = values.size() * sizeof(float);
  auto device = backend.allocate(bytes);
  backend.upload(*device, values.data(), bytes);
  comm.all_reduce(device->data(), device->data(), values.size(), harness::DataType::float32, harness::RedOp::max,
                  stream);
  comm.wait(stream, env.job.deadline(), what);
  backend.download(values.data(), *device, bytes);
  return values;
}

// --comm-ctas auto, where a twin communicator exists for this size: kCtaTuneSteps steps timed on each
// (NCCL's choice of CTAs, then kTunedCommCtas) after the usual warm-up; every rank keeps the one
// whose slowest rank's median step was lower (prefer_tuned_ctas), as cudnn.benchmark keeps the
// fastest algorithm.
// Returns [[ctas, median step s], ...] over the slowest rank, the kept one first; [] if none.
json tune_comm_ctas(TrainEnv& env, const DdpConfig& c, workloads::DdpTrainer& trainer, harness::Communicator* comm,
                    workloads::TimingOptions timing) {
  if (!comm || !env.tuned_comms || trainer.buckets_in_window() || !env.tuned_comms->count(c.gpus)) return json::array();
  harness::Communicator* twin = env.tuned_comms->at(c.gpus).get();
  if (!twin) return json::array();
  auto& backend = env.ctx.backend();
  timing.parts = false;
  timing.iterations = std::min(timing.iterations, kCtaTuneSteps);
  const std::vector<std::pair<int, harness::Communicator*>> candidates{{0, comm}, {kTunedCommCtas, twin}};
  std::vector<float> medians;
  for (const auto& candidate : candidates) {
    trainer.use_communicator(candidate.second);
    medians.push_back(static_cast<float>(results::median(workloads::time_ddp(trainer, backend, timing).step_s)));
    timing.warmup_s = 0;  // settled by the first trial's warm-up; the trials keep the GPU busy
  }
  medians = max_over_ranks(env, *comm, trainer.compute_stream(), medians, "the choice of NCCL CTAs");
  const std::size_t kept = prefer_tuned_ctas(medians[0], medians[1]) ? 1 : 0;
  trainer.use_communicator(candidates[kept].second);
  json out = json::array({json::array({candidates[kept].first, medians[kept]})});
  out.push_back(json::array({candidates[1 - kept].first, medians[1 - kept]}));
  return out;
}

// This rank's part of a DDP or single configuration: its figures, or the reason it could not run.
json time_here(TrainEnv& env, const DdpConfig& c, harness::Communicator* comm, const std::string& label) {
  auto& backend = env.ctx.backend();
  const int rank = env.job.world().rank();
  const std::int64_t first = comm ? comm->rank() * c.batch_per_gpu : 0;
  const std::int64_t stride = comm ? comm->size() * c.batch_per_gpu : c.batch_per_gpu;
  backend.reset_peak_memory();
  try {
    workloads::DdpTrainer trainer(env.ctx, env.ops, env.model, c.batch_per_gpu, env.precision, comm, c.options,
                                  env.job.options().seed, first, stride);
    auto timing = env.plan.timing;
    timing.timeout_s = env.job.timeout_s();
    // The timing ranks' barrier: a one-element allreduce that completes only when all have reached it.
    auto token = backend.allocate(sizeof(float));
    env.ops.fill(token->data(), harness::DataType::float32, 1, 0.0f, trainer.compute_stream());
    if (comm) {
      timing.before_timing = [&] {
        comm->all_reduce(token->data(), token->data(), 1, harness::DataType::float32, harness::RedOp::sum,
                         trainer.compute_stream());
        comm->wait(trainer.compute_stream(), env.job.deadline(), "the barrier before timing");
      };
      timing.agree_steps = [&](int steps) {
        const auto most = max_over_ranks(env, *comm, trainer.compute_stream(), {static_cast<float>(steps)},
                                         "the warm-up's step count");
        return static_cast<int>(most.front());
      };
    }
    const json ctas = tune_comm_ctas(env, c, trainer, comm, timing);
    if (!ctas.empty()) timing.warmup_s = 0;  // the CTA trials ran on a settled GPU just now
    const auto t = workloads::time_ddp(trainer, backend, timing);
    results::TrainRankFigures f;
    f.rank = rank;
    f.step_samples_s = t.step_s;
    f.step_s = results::summarize(t.step_s);
    f.compute_s = median_of(t.compute_s);
    f.comm_s = median_of(t.comm_s);
    f.peak_memory_bytes = backend.memory_usage().peak_bytes;
    json out = {{"figures", f},
                {"buckets", trainer.buckets().buckets.size()},
                {"window", trainer.buckets_in_window()},
                {"ctas", ctas}};
    if (c.traced) out["trace"] = workloads::trace_ddp_step(trainer, rank, label, timing.timeout_s);
    return out;
  } catch (const harness::OutOfMemoryError& e) {
    return {{"skipped", std::string("out of memory: ") + e.what()}};
  }
}

}  // namespace

results::TrainRecord run_ddp_config(TrainEnv& env, const DdpConfig& c) {
  auto& world = env.job.world();
  const bool single = c.strategy == "single";
  harness::Communicator* comm = nullptr;
  bool member = single;
  if (!single) {
    comm = env.ddp_comms.at(c.gpus).get();
    member = comm != nullptr;
  }
  results::TrainRecord r = base_record(env, c.strategy, c.scaling, c.gpus, c.batch_per_gpu, c.options);
  if (!single) r.comm_ctas = env.plan.comm_ctas;
  const std::string label = c.strategy + " " + r.model + " " + r.precision + " x" + std::to_string(c.gpus);
  const harness::OpScope scope(c.strategy);  // names the strategy in errors; test seam "train/ddp"
  env.job.progress("train: " + label + " " + c.scaling + ", batch " + std::to_string(c.batch_per_gpu) + "/GPU");
  // Every rank meets here first, so a rank that stalled or died is found within the timeout of this
  // point, not after the members' whole run (rank 0 ran DDP x1 for 2 s while rank 1 sat stalled).
  world.barrier(env.job.deadline());
  json mine = member ? time_here(env, c, comm, label) : json(nullptr);
  const auto texts = world.gather_to_root(mine.dump(), env.job.deadline());
  if (world.rank() != 0) return r;
  std::vector<results::TrainRankFigures> ranks;
  for (const auto& text : texts) {
    const json j = json::parse(text);
    if (j.is_null()) continue;
    if (j.contains("skipped")) {
      r.skipped_reason = j["skipped"].get<std::string>();
      return r;
    }
    ranks.push_back(j["figures"].get<results::TrainRankFigures>());
    r.buckets = j["buckets"].get<int>();
    if (j["window"].get<bool>()) r.comm_buffers = "window";
    if (!j["ctas"].empty()) {
      r.comm_ctas = j["ctas"][0][0].get<int>();
      r.comm_ctas_trials = j["ctas"].get<std::vector<std::pair<int, double>>>();
    }
    if (env.trace && j.contains("trace"))
      for (const auto& s : j["trace"]) env.trace->push_back(s.get<results::TraceSpan>());
  }
  assemble(r, std::move(ranks), !single);
  return r;
}

results::TrainRecord run_dp_config(TrainEnv& env, const std::string& scaling, int devices, std::int64_t global_batch) {
  auto& world = env.job.world();
  workloads::DdpOptions none;
  none.h2d = env.plan.ddp_options.h2d;
  results::TrainRecord r = base_record(env, "dp", scaling, devices, global_batch / devices, none);
  r.overlap = false;
  env.job.progress("train: dp " + r.model + " " + r.precision + " x" + std::to_string(devices) + " " + scaling);
  if (world.rank() == 0) {
    std::vector<harness::Backend*> used(env.dp_devices.begin(), env.dp_devices.begin() + devices);
    for (auto* b : used) b->reset_peak_memory();
    try {
      workloads::DpOptions options;
      options.h2d = none.h2d;
      options.lr = env.plan.ddp_options.lr;
      workloads::DpTrainer trainer(used, env.plan.tuning, env.model, global_batch, env.precision, options,
                                   env.job.options().seed);
      auto timing = env.plan.timing;
      timing.timeout_s = env.job.timeout_s();
      const auto t = workloads::time_dp(trainer, timing);
      std::vector<results::TrainRankFigures> ranks;
      for (std::size_t d = 0; d < used.size(); ++d) {
        results::TrainRankFigures f;
        f.rank = static_cast<int>(d);
        f.step_samples_s = t.step_s;
        f.step_s = results::summarize(t.step_s);
        f.peak_memory_bytes = used[d]->memory_usage().peak_bytes;
        ranks.push_back(std::move(f));
      }
      assemble(r, std::move(ranks), false);
      r.ranks.resize(std::min<std::size_t>(r.ranks.size(), used.size()));
      r.dp = t.phases;
    } catch (const harness::OutOfMemoryError& e) {
      r.skipped_reason = std::string("out of memory: ") + e.what();
    }
    env.ctx.backend().make_current();
  }
  world.barrier(harness::Deadline::after(env.job.timeout_s() * 20));
  return r;
}

}  // namespace gpuscale::launch
