#include "launch/EnvPhase.hpp"

#include "harness/EnvChecks.hpp"
#include "harness/GatherRecords.hpp"
#include "harness/HostProbe.hpp"
#include "harness/SmokeTest.hpp"

namespace gpuscale::launch {
void run_env_phase(Job& job) {
  auto& world = job.world();
  job.progress("env: probing " + std::to_string(world.size()) + " ranks");
  results::RankEnv env;
  harness::probe_host(world, env);
  job.backend().probe(env);
  env.backend_fallback = job.fell_back();

  auto& report = job.report();
  if (world.rank() == 0) {
    report.ranks = harness::gather_records(world, env, job.deadline());
    report.checks = harness::run_env_checks(report.ranks);
  } else {
    harness::gather_records(world, env, job.deadline());
  }

  // NCCL refuses two ranks on one GPU; say why the smoke test did not run instead of failing in NCCL.
  const std::string skip = world.broadcast_from_root(
      world.rank() == 0 && harness::gpus_shared(report.checks) ? "ranks share a GPU (see checks)" : "",
      job.deadline());
  results::SmokeTest smoke;
  if (skip.empty()) {
    job.progress("env: smoke allreduce");
    smoke = harness::run_smoke_allreduce(world, job.backend(), job.timeout_s());
  } else {
    smoke.skipped_reason = skip;
  }
  const auto smokes = harness::gather_records(world, smoke, job.deadline());
  if (world.rank() == 0) {
    for (std::size_t r = 0; r < smokes.size(); ++r) report.ranks[r].smoke = smokes[r];
    report.checks = harness::run_env_checks(report.ranks);
  }
  job.phase_done("env");
}

}  // namespace gpuscale::launch
