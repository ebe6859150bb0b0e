#include "phases/burn/run/BurnPhase.hpp"

#include "harness/Activity.hpp"
#include "harness/GatherRecords.hpp"
#include "harness/LoadSampler.hpp"
#include "phases/burn/BurnSummary.hpp"
#include "phases/burn/run/BurnPlan.hpp"
#include "results/base/Format.hpp"
#include "results/base/GpuPeak.hpp"
#include "results/world/RankEnv.hpp"
#include "workloads/layers/ContextFactory.hpp"

namespace gpuscale::launch {
namespace {

// Telemetry every 100 ms; throughput in 250 ms windows.
constexpr double kSamplePeriodS = 0.1;
constexpr double kWindowS = 0.25;

results::BurnRecord make_record(const workloads::BurnRun& run, const BurnPlan& plan, const results::RankEnv& env,
                                int rank) {
  results::BurnRecord r;
  r.rank = rank;
  r.gpu = env.gpu ? env.gpu->name : "cpu";
  r.precision = std::string(workloads::to_string(plan.burn.precision));
  r.shape = run.shape;
  r.algorithm = run.algorithm;
  r.requested_s = plan.burn.burn_s;
  r.flops_per_call = run.flops_per_call;
  r.calls = run.calls;
  r.window_s = kWindowS;
  r.progress = run.progress;
  r.output_hashes = run.output_hashes;
  r.peak_tflops = results::peak_tflops(r.gpu, r.precision);
  return r;
}

}  // namespace

std::vector<results::BurnRecord> run_burn_phase(PhaseContext& ctx) {
  auto& world = ctx.world;
  BurnPlan plan = ctx.plan<BurnPlan>();
  plan.burn.before_start = [&] { world.barrier(ctx.deadline()); };
  results::RankEnv env;
  ctx.backend.probe(env);
  harness::LoadSampler sampler(env.gpu ? env.gpu->pci_bus_id : "", kSamplePeriodS);
  plan.burn.on_start = [&](auto t0) { sampler.start(t0); };
  ctx.progress("burn: " + std::string(workloads::to_string(plan.burn.precision)) + " matmul " +
               std::to_string(plan.burn.dim) + " for " + results::fixed(plan.burn.burn_s, 1) + " s");

  const auto before = sampler.counters();
  auto stream = ctx.backend.create_stream(harness::StreamPriority::normal);
  workloads::BurnRun run;
  {
    const harness::OpScope scope("gemm");  // test seam "burn/gemm"
    auto compute = workloads::make_compute_context(ctx.backend, *stream, workloads::burn_tuning(), ctx.timeout_s);
    run = workloads::run_burn(*compute, *stream, plan.burn, ctx.timeout_s);
  }
  auto mine = make_record(run, plan, env, world.rank());
  mine.samples = sampler.stop();
  ctx.tenancy_seen(sampler.processes_seen());  // judged at the phase's boundary (TenancyWatch)
  mine.counters = harness::counter_delta(before, sampler.counters());
  mine.telemetry_unavailable = sampler.unavailable();
  results::summarize_burn(mine);

  auto all = harness::gather_records(world, mine, ctx.deadline());
  for (auto& r : all)  // rank 0 only: the others hold none
    if (static_cast<std::size_t>(r.rank) < ctx.ranks.size()) r.host = ctx.ranks[r.rank].host;
  return all;
}

}  // namespace gpuscale::launch
