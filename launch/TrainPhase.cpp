#include "launch/TrainPhase.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "harness/CpuBackend.hpp"
#include "harness/CudaBackend.hpp"
#include "launch/TrainPlan.hpp"
#include "launch/TrainRuns.hpp"
#include "workloads/ComputeBench.hpp"
#include "workloads/TrainChecks.hpp"

namespace gpuscale::launch {
namespace {

// Rank 0's devices for DP, or why DP cannot run here; the decision is broadcast so every rank
// runs the same configurations.
struct DpDevices {
  std::vector<std::unique_ptr<harness::Backend>> owned;
  std::vector<harness::Backend*> devices;
  std::string skipped_reason;
};

DpDevices make_dp_devices(Job& job, const TrainPlan& plan) {
  DpDevices out;
  if (!plan.dp) return out;
  auto& world = job.world();
  const bool cpu = job.backend().kind() == harness::BackendKind::cpu;
  int count = 0;
  if (world.rank() == 0) {
    const int visible = cpu ? std::max(2, world.local_size()) : harness::cuda_visible_device_count();
    count = std::min(plan.dp_devices.value_or(visible), visible);
    if (!cpu && visible < 2 && world.local_size() > 1) {
      count = 0;
      out.skipped_reason = "each rank sees one GPU: DP needs one process that sees every GPU of the node";
    }
  }
  out.skipped_reason = world.broadcast_from_root(out.skipped_reason, job.deadline());
  count = std::stoi(world.broadcast_from_root(std::to_string(count), job.deadline()));
  if (world.rank() != 0) {
    out.devices.assign(static_cast<std::size_t>(count), nullptr);
    return out;
  }
  for (int d = 0; d < count; ++d) {
    out.owned.push_back(cpu ? harness::make_cpu_backend(job.timeout_s())
                            : harness::make_cuda_backend(d, job.timeout_s()));
    out.devices.push_back(out.owned.back().get());
  }
  job.backend().make_current();
  return out;
}

// One communicator per DDP size (null where this rank is not a member) with the CTAs asked for; with
// --comm-ctas auto, `tuned` gets a twin of each NCCL one over 2+ ranks with kTunedCommCtas.
std::map<int, std::unique_ptr<harness::Communicator>> make_ddp_comms(
    Job& job, const TrainPlan& plan, harness::Communicator& world_comm,
    std::map<int, std::unique_ptr<harness::Communicator>>& tuned) {
  std::map<int, std::unique_ptr<harness::Communicator>> out;
  const int rank = job.world().rank(), size = job.world().size();
  const harness::CommConfig fixed{plan.comm_ctas_auto ? 0 : plan.comm_ctas};
  for (int k : plan.ddp_sizes.empty() ? default_ddp_sizes(size) : plan.ddp_sizes) {
    if (k > size) {
      job.progress("train: skipping DDP over " + std::to_string(k) + " ranks: the job has " + std::to_string(size));
      continue;
    }
    const int color = rank < k ? 0 : -1;
    out[k] = world_comm.split(color, rank, job.deadline(), fixed);
    if (plan.ddp && plan.comm_ctas_auto && k > 1 && world_comm.transport() == "nccl")
      tuned[k] = world_comm.split(color, rank, job.deadline(), harness::CommConfig{kTunedCommCtas});
  }
  return out;
}

void run_checks(TrainEnv& env, harness::Communicator& world_comm, results::TrainResults& results) {
  auto& job = env.job;
  workloads::CheckSetup setup;
  setup.ctx = &env.ctx;
  setup.ops = &env.ops;
  setup.comm = &world_comm;
  setup.model = &env.model;
  setup.precision = env.precision;
  setup.batch_per_rank = env.plan.check_batch;
  setup.accum = env.plan.ddp_options.accum;
  if (env.plan.ddp_options.grad_type) setup.compressed = *env.plan.ddp_options.grad_type;
  setup.seed = job.options().seed;
  setup.essential_only = job.options().quick;  // the preflight's 15 s leave room for the two checks that matter most
  setup.timeout_s = job.timeout_s();
  setup.config = env.model.name + " " + std::string(workloads::to_string(env.precision));
  setup.max_over_ranks = [&job](double v) { return job.world().max_over_ranks(v, job.deadline()); };
  if (env.plan.dp && job.world().rank() == 0) setup.dp_devices = env.dp_devices;
  setup.tuning = env.plan.tuning;
  setup.comm_window = env.plan.ddp_options.comm_window;
  // Test seam (tests/mpi/train_cpu.sh): this rank's DDP gradients are perturbed before the checks.
  const char* corrupt = std::getenv("GPUSCALE_TEST_CORRUPT_GRADS_RANK");
  setup.corrupt_for_test = corrupt && std::to_string(job.world().rank()) == corrupt;
  job.progress("train: checking gradients of " + setup.config);
  auto checks = workloads::run_train_checks(setup);
  if (job.world().rank() == 0)
    for (auto& c : checks) results.checks.push_back(std::move(c));
}

void run_model(TrainEnv& env, const DpDevices& dp, results::TrainResults& results) {
  const auto& plan = env.plan;
  const bool root = env.job.world().rank() == 0;
  const std::int64_t batch = plan.batch.value_or(env.model.default_batch);
  auto add = [&](results::TrainRecord r) {
    if (root) results.records.push_back(std::move(r));
  };
  if (plan.single) add(run_ddp_config(env, {"single", "weak", 1, batch, plan.ddp_options, false}));
  if (plan.ddp && !env.ddp_comms.empty()) {
    const int largest = env.ddp_comms.rbegin()->first;
    for (const auto& [k, comm] : env.ddp_comms) {
      if (plan.weak) add(run_ddp_config(env, {"ddp", "weak", k, batch, plan.ddp_options, k == largest && env.trace != nullptr}));
      if (plan.strong && batch % k == 0) add(run_ddp_config(env, {"ddp", "strong", k, batch / k, plan.ddp_options, false}));
    }
    for (std::size_t p = 1; p < plan.comm_priorities.size(); ++p) {
      auto options = plan.ddp_options;
      options.comm_priority = plan.comm_priorities[p];
      add(run_ddp_config(env, {"ddp", "weak", largest, batch, options, false}));
    }
  }
  if (!plan.dp) return;
  if (!dp.skipped_reason.empty()) {
    results::TrainRecord r;
    r.strategy = "dp";
    r.model = env.model.name;
    r.precision = std::string(workloads::to_string(env.precision));
    r.scaling = "weak";
    r.skipped_reason = dp.skipped_reason;
    add(std::move(r));
    return;
  }
  const int g_max = static_cast<int>(dp.devices.size());
  for (int g = 1; g <= g_max; ++g) {
    if (plan.weak) add(run_dp_config(env, "weak", g, g * batch));
    if (plan.strong && batch % g == 0) add(run_dp_config(env, "strong", g, batch));
  }
}

}  // namespace

void run_train_phase(Job& job) {
  auto& backend = job.backend();
  const bool cpu = backend.kind() == harness::BackendKind::cpu, whole_job = job.invocation().command == "run";
  const TrainPlan plan = parse_train_plan(job.invocation().options, job.options().quick, cpu, whole_job);
  auto world_comm = backend.create_communicator(job.world(), job.deadline());
  std::map<int, std::unique_ptr<harness::Communicator>> tuned_comms;
  auto ddp_comms = make_ddp_comms(job, plan, *world_comm, tuned_comms);
  DpDevices dp = make_dp_devices(job, plan);
  results::TrainResults results;
  auto stream = backend.create_stream(harness::StreamPriority::normal);
  {
    auto ctx = workloads::make_compute_context(backend, *stream, plan.tuning);
    auto ops = workloads::make_train_ops(backend);
    for (const auto& name : plan.models) {
      for (const auto precision : plan.precisions) {
        const auto model =
            workloads::make_model(name, {plan.depth, plan.width, workloads::auto_layout(precision)});
        TrainEnv env{job, plan, *ctx, *ops, model, precision, ddp_comms, dp.devices, nullptr, &tuned_comms};
        if (!job.options().trace_path.empty()) env.trace = &job.report().trace_spans;
        if (plan.check) run_checks(env, *world_comm, results);
        run_model(env, dp, results);
      }
    }
  }
  if (job.world().rank() == 0) {
    auto& report = job.report();
    // Host ranks share cores (CI runs 4 on 2): their spread is scheduling, not a slow GPU, so the cpu
    // backend marks no stragglers, like the compute phase.
    const double straggler_threshold = backend.kind() == harness::BackendKind::cpu
                                           ? std::numeric_limits<double>::infinity()
                                           : plan.straggler_threshold;
    for (auto& c : results::finish_train_results(results, straggler_threshold)) report.checks.push_back(std::move(c));
    report.train = std::move(results);
  }
  job.phase_done("train");
}

}  // namespace gpuscale::launch
