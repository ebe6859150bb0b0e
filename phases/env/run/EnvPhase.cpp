#include "phases/env/run/EnvPhase.hpp"

#include <string>
#include <vector>

#include "harness/GatherRecords.hpp"
#include "harness/SmokeAllreduce.hpp"
#include "probes/CudaProbe.hpp"
#include "probes/HostProbe.hpp"
#include "probes/NcclLibraries.hpp"
#include "probes/NetworkProbe.hpp"
#include "probes/TenancyProbe.hpp"
#include "results/base/Check.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch {

EnvOutcome run_env_phase(PhaseContext& ctx) {
  auto& world = ctx.world;
  ctx.progress("env: probing " + std::to_string(world.size()) + " ranks");
  EnvOutcome out;
  auto& env = out.own;
  probes::probe_host(world, env);
  ctx.backend.probe(env);
  probes::probe_cuda_device(env);
  env.backend_fallback = ctx.backend_fell_back;
  env.cuda_unusable = ctx.cuda_unusable;
  // Before the gather, so no rank has started GPU work while another samples its GPU's load.
  ctx.progress("env: GPU tenancy, NCCL plugins, RDMA adapters");
  probes::probe_tenancy(env);
  env.nccl_libraries = probes::probe_nccl_libraries(env.variables, env.versions.nccl_library);
  env.network = probes::probe_network(probes::sysfs_root(env.node));

  out.ranks = harness::gather_records(world, env, ctx.deadline());

  // A check that makes GPU work impossible (NCCL refuses two ranks on one GPU) or meaningless (another
  // process computes on it) stops the GPU work here: no communicator, the later phases skipped (burn
  // still runs beside another process: its figure is what the sharing costs).
  // The report's checks come from the judge when it is written; the GPU policy is needed now.
  const auto env_checks = world.rank() == 0 ? ctx.env_gathered(out.ranks) : std::vector<results::Check>{};
  const auto reason = [&](results::GpuBlock at_least) {
    std::string text;
    if (world.rank() == 0)
      if (const auto* c = results::gpu_work_blocker(env_checks, at_least))
        text = "env check " + c->id + " on ranks " + results::join_ints(c->ranks) + " (see checks)";
    return world.broadcast_from_root(text, ctx.deadline());
  };
  out.gpu_work_blocked = reason(results::GpuBlock::shared_gpu);
  out.gpu_work_impossible = reason(results::GpuBlock::all_gpu_work);
  results::SmokeAllreduce smoke;
  if (out.gpu_work_blocked.empty()) {
    ctx.progress("env: smoke allreduce");
    smoke = harness::run_smoke_allreduce(world, ctx.backend, ctx.timeout_s);
  } else {
    smoke.skipped_reason = out.gpu_work_blocked;
  }
  const auto smokes = harness::gather_records(world, smoke, ctx.deadline());
  for (std::size_t r = 0; r < smokes.size(); ++r) out.ranks[r].smoke = smokes[r];  // rank 0 only
  return out;
}

}  // namespace gpuscale::launch
