#include "launch/phases/env/EnvPhase.hpp"

#include "harness/GatherRecords.hpp"
#include "harness/SmokeAllreduce.hpp"
#include "judge/Judge.hpp"
#include "probes/CudaProbe.hpp"
#include "probes/HostProbe.hpp"
#include "probes/NcclLibraries.hpp"
#include "probes/NetworkProbe.hpp"
#include "probes/TenancyProbe.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch {
void run_env_phase(Job& job) {
  auto& world = job.world();
  job.progress("env: probing " + std::to_string(world.size()) + " ranks");
  results::RankEnv env;
  probes::probe_host(world, env);
  job.backend().probe(env);
  probes::probe_cuda_device(env);
  env.backend_fallback = job.fell_back();
  env.cuda_unusable = job.cuda_unusable();
  // Before the gather, so no rank has started GPU work while another samples its GPU's load.
  job.progress("env: GPU tenancy, NCCL plugins, RDMA adapters");
  probes::probe_tenancy(env);
  job.watch_tenancy(env);
  env.nccl_libraries = probes::probe_nccl_libraries(env.variables, env.versions.nccl_library);
  env.network = probes::probe_network(probes::sysfs_root(env.node));

  auto& report = job.report();
  if (world.rank() == 0) {
    report.ranks = harness::gather_records(world, env, job.deadline());
  } else {
    harness::gather_records(world, env, job.deadline());
  }

  // A check that makes GPU work impossible (NCCL refuses two ranks on one GPU) or meaningless (another
  // process computes on it) stops the GPU work here: no communicator, the later phases skipped (burn
  // still runs beside another process: its figure is what the sharing costs).
  // The report's checks come from the judge when it is written; the GPU policy is needed now.
  const auto env_checks = world.rank() == 0 ? judge::judge_family("env", report).checks : std::vector<results::Check>{};
  const auto reason = [&](results::GpuBlock at_least) {
    std::string text;
    if (world.rank() == 0)
      if (const auto* c = results::gpu_work_blocker(env_checks, at_least))
        text = "env check " + c->id + " on ranks " + results::join_ints(c->ranks) + " (see checks)";
    return world.broadcast_from_root(text, job.deadline());
  };
  const std::string skip = reason(results::GpuBlock::shared_gpu);
  job.block_gpu_work(skip, reason(results::GpuBlock::all_gpu_work));
  results::SmokeAllreduce smoke;
  if (skip.empty()) {
    job.progress("env: smoke allreduce");
    smoke = harness::run_smoke_allreduce(world, job.backend(), job.timeout_s());
  } else {
    smoke.skipped_reason = skip;
  }
  const auto smokes = harness::gather_records(world, smoke, job.deadline());
  if (world.rank() == 0) {
    for (std::size_t r = 0; r < smokes.size(); ++r) report.ranks[r].smoke = smokes[r];
  }
  job.phase_done("env");
}

}  // namespace gpuscale::launch
