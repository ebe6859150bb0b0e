#include "workloads/train/TrainRun.hpp"

#include <cstdlib>
#include <map>
#include <memory>
#include <span>

#include "harness/Activity.hpp"
#include "harness/CpuBackend.hpp"
#include "harness/CudaBackend.hpp"
#include "harness/GatherRecords.hpp"
#include "harness/GpuBinding.hpp"
#include "results/base/Format.hpp"
#include "workloads/compute/ComputeBench.hpp"
#include "workloads/layers/ContextFactory.hpp"
#include "workloads/train/TrainVerification.hpp"

namespace gpuscale::workloads {
namespace {

using CommsBySize = std::map<int, std::unique_ptr<harness::Communicator>>;

// What every configuration of one model and precision shares on this rank.
struct TrainEnv {
  TrainRunSetup& setup;
  double timeout_s;  // any single wait
  const TrainPlan& plan;
  ComputeContext& ctx;
  TrainOps& ops;
  const Model& model;
  Precision precision;
  CommsBySize& ddp_comms;                     // by size; null where this rank is not a member
  CommsBySize& tuned_comms;                   // by size: twins of ddp_comms with kTunedCommCtas; may lack one
  std::vector<harness::Backend*> dp_devices;  // rank 0: DP's devices; empty elsewhere
  int* configs_run = nullptr;                 // the run's configurations so far

  harness::World& world() const { return setup.world; }
  harness::Deadline deadline() const { return harness::Deadline::after(timeout_s); }
  TrainBenchOptions bench() const {
    TrainBenchOptions o;
    o.timing = plan.timing;
    o.seed = setup.seed;
    o.rank = setup.world.rank();
    return o;
  }
};

struct DdpConfig {
  std::string strategy;  // "single" (every rank alone) or "ddp" (the first `gpus` ranks)
  std::string scaling;
  int gpus = 1;
  std::int64_t batch_per_gpu = 0;
  DdpOptions options;
  bool traced = false;
};

// One single or DDP configuration, run by every rank (those that take no part only join the
// barrier and the gather); rank 0 returns the assembled record, the other ranks its configuration.
results::TrainRecord run_ddp_config(TrainEnv& env, const DdpConfig& c) {
  auto& world = env.world();
  const bool single = c.strategy == "single";
  DdpRun run{c.batch_per_gpu, c.options, nullptr, nullptr, c.traced, ""};
  if (!single) {
    run.comm = env.ddp_comms.at(c.gpus).get();
    const auto twin = env.tuned_comms.find(c.gpus);
    if (twin != env.tuned_comms.end()) run.tuned_twin = twin->second.get();
  }
  const bool member = single || run.comm != nullptr;
  auto r = train_record(env.model, env.precision, c.strategy, c.scaling, c.gpus, c.batch_per_gpu, c.options);
  if (!single) r.comm_ctas = env.plan.comm_ctas;
  run.label = c.strategy + " " + r.model + " " + r.precision + " x" + std::to_string(c.gpus);
  const harness::OpScope scope(c.strategy);  // names the strategy in errors; test seam "train/ddp"
  env.setup.hooks.progress("train: " + run.label + " " + c.scaling + ", batch " + std::to_string(c.batch_per_gpu) +
                           "/GPU");
  // Every rank meets here first, so that a rank that stalled or died is found within the timeout of
  // this point, not after the members' whole run.
  world.barrier(env.deadline());
  std::optional<TrainRankResult> mine;
  if (member) mine = run_ddp_rank(env.ctx, env.ops, env.model, env.precision, run, env.bench(), env.timeout_s);
  const auto parts = harness::gather_records(
      world, mine, env.deadline(),
      [](const std::optional<TrainRankResult>& part) { return part ? nlohmann::json(*part) : nlohmann::json(); },
      [](const nlohmann::json& j) { return j.is_null() ? std::nullopt : std::optional(j.get<TrainRankResult>()); });
  if (world.rank() == 0) assemble_record(r, parts, !single, env.setup.trace);
  return r;
}

// DP over rank 0's first `devices` devices, global_batch split evenly; the other ranks wait for it
// (World::wait_for_root), each stretch of rank 0's silence bounded by the timeout.
results::TrainRecord run_dp_config(TrainEnv& env, const std::string& scaling, int devices, std::int64_t global_batch) {
  DdpOptions none;
  none.h2d = env.plan.ddp_options.h2d;
  auto r = train_record(env.model, env.precision, "dp", scaling, devices, global_batch / devices, none);
  r.overlap = false;
  const harness::OpScope scope("dp");  // names the strategy in errors
  env.setup.hooks.progress("train: dp " + r.model + " " + r.precision + " x" + std::to_string(devices) + " " + scaling);
  const double timeout_s = env.timeout_s;
  if (env.world().rank() == 0) {
    const harness::HeartbeatScope alive(env.world(), timeout_s / 4);
    DpOptions options;
    options.h2d = none.h2d;
    options.lr = env.plan.ddp_options.lr;
    const std::span<harness::Backend* const> used(env.dp_devices.data(), static_cast<std::size_t>(devices));
    run_dp(r, used, env.plan.tuning, env.model, env.precision, global_batch, options, env.bench(), timeout_s);
    env.ctx.backend().make_current();
  }
  env.world().wait_for_root(0, timeout_s, "the wait for rank 0's DP run");
  return r;
}

// Rank 0's devices for DP, or why DP cannot run here; the decision is broadcast so every rank
// runs the same configurations.
struct DpDevices {
  std::vector<std::unique_ptr<harness::Backend>> owned;
  std::vector<harness::Backend*> devices;
  std::string skipped_reason;
};

DpDevices make_dp_devices(TrainRunSetup& setup, const TrainPlan& plan, double timeout_s) {
  DpDevices out;
  if (!plan.dp) return out;
  auto& world = setup.world;
  const auto deadline = [timeout_s] { return harness::Deadline::after(timeout_s); };
  const bool cpu = setup.backend.kind() == harness::BackendKind::cpu;
  int count = 0;
  if (world.rank() == 0) {
    const int visible = setup.dp_visible;
    count = plan.dp_devices.value_or(visible);  // the caller's check: never more than visible
    if (const auto leader = harness::leader_drives_node_gpus(visible, world.local_size()); !cpu && !leader.possible) {
      count = 0;
      out.skipped_reason = leader.reason;
    }
  }
  out.skipped_reason = world.broadcast_from_root(out.skipped_reason, deadline());
  count = std::stoi(world.broadcast_from_root(std::to_string(count), deadline()));
  if (world.rank() != 0) {
    out.devices.assign(static_cast<std::size_t>(count), nullptr);
    return out;
  }
  for (int d = 0; d < count; ++d) {
    out.owned.push_back(cpu ? harness::make_cpu_backend() : harness::make_cuda_backend(d));
    out.devices.push_back(out.owned.back().get());
  }
  setup.backend.make_current();
  return out;
}

// One communicator per DDP size (null where this rank is not a member) with the CTAs asked for; with
// --comm-ctas auto, `tuned` gets a twin of each NCCL one over 2+ ranks with kTunedCommCtas.
CommsBySize make_ddp_comms(TrainRunSetup& setup, const TrainPlan& plan, harness::Communicator& world_comm,
                           CommsBySize& tuned, double timeout_s) {
  CommsBySize out;
  const int rank = setup.world.rank();
  const auto deadline = [timeout_s] { return harness::Deadline::after(timeout_s); };
  const harness::CommConfig fixed{plan.comm_ctas_auto ? 0 : plan.comm_ctas};
  for (int k : plan.ddp_sizes) {  // the caller's check: k <= size
    const int color = rank < k ? 0 : -1;
    out[k] = world_comm.split(color, rank, deadline(), fixed);
    if (plan.ddp && plan.comm_ctas_auto && k > 1 && world_comm.transport() == "nccl")
      tuned[k] = world_comm.split(color, rank, deadline(), harness::CommConfig{kTunedCommCtas});
  }
  return out;
}

void run_checks(TrainEnv& env, harness::Communicator& world_comm, results::TrainResults& results) {
  auto& world = env.world();
  VerificationSetup setup;
  setup.ctx = &env.ctx;
  setup.ops = &env.ops;
  setup.comm = &world_comm;
  setup.model = &env.model;
  setup.precision = env.precision;
  setup.batch_per_rank = env.plan.check_batch;
  setup.accum = env.plan.ddp_options.accum;
  if (env.plan.ddp_options.grad_type) setup.compressed = *env.plan.ddp_options.grad_type;
  setup.seed = env.setup.seed;
  setup.essential_only = env.plan.essential_checks_only;
  setup.config = env.model.name + " " + std::string(to_string(env.precision));
  setup.max_over_ranks = [&env](double v) { return env.world().max_over_ranks(v, env.deadline()); };
  if (env.plan.dp && world.rank() == 0) setup.dp_devices = env.dp_devices;
  setup.tuning = env.plan.tuning;
  setup.comm_window = env.plan.ddp_options.comm_window;
  // Test seam (tests/mpi/train_cpu.sh): this rank's DDP gradients are perturbed before the checks.
  const char* corrupt = std::getenv("GPUSCALE_TEST_CORRUPT_GRADS_RANK");
  setup.corrupt_for_test = corrupt && std::to_string(world.rank()) == corrupt;
  env.setup.hooks.progress("train: checking gradients of " + setup.config);
  const harness::OpScope scope("gradient-check");  // names the step in errors
  auto checks = run_train_verification(setup, env.timeout_s);
  if (world.rank() == 0)
    for (auto& c : checks) results.verifications.push_back(std::move(c));
}

void run_model(TrainEnv& env, const DpDevices& dp, results::TrainResults& results) {
  const auto& plan = env.plan;
  auto& setup = env.setup;
  const bool root = env.world().rank() == 0;
  const std::int64_t batch = plan.batch.value_or(env.model.default_batch);
  int dropped = 0;
  // Each configuration while the budget lasts (every rank asks alike); the run's first always runs,
  // so that the phase has a figure.
  auto add = [&](const std::string& label, auto&& run) {
    if (*env.configs_run > 0 && setup.hooks.budget.spent()) {
      ++dropped;
      return;
    }
    const double start_s = setup.hooks.elapsed_s();
    results::TrainRecord r = run();
    ++*env.configs_run;
    setup.hooks.budget_item("train " + label + " " + env.model.name, setup.hooks.elapsed_s() - start_s);
    if (root) results.records.push_back(std::move(r));
  };
  if (plan.single)
    add("single", [&] { return run_ddp_config(env, {"single", "weak", 1, batch, plan.ddp_options, false}); });
  if (plan.ddp && !env.ddp_comms.empty()) {
    const int largest = env.ddp_comms.rbegin()->first;
    for (const auto& entry : env.ddp_comms) {
      const int k = entry.first;  // a plain local: clang before 16 cannot capture a structured binding
      const std::string x = "ddp x" + std::to_string(k);
      if (plan.weak)
        add(x, [&] {
          return run_ddp_config(env,
                                {"ddp", "weak", k, batch, plan.ddp_options, k == largest && setup.trace != nullptr});
        });
      if (plan.strong && batch % k == 0)
        add(x, [&] { return run_ddp_config(env, {"ddp", "strong", k, batch / k, plan.ddp_options, false}); });
    }
    for (std::size_t p = 1; p < plan.comm_priorities.size(); ++p) {
      auto options = plan.ddp_options;
      options.comm_priority = plan.comm_priorities[p];
      add("ddp x" + std::to_string(largest), [&] {
        return run_ddp_config(env, {"ddp", "weak", largest, batch, options, false});
      });
    }
  }
  if (plan.dp && !dp.skipped_reason.empty()) {
    results::TrainRecord r;
    r.strategy = "dp";
    r.model = env.model.name;
    r.precision = std::string(to_string(env.precision));
    r.scaling = "weak";
    r.skipped_reason = dp.skipped_reason;
    if (root) results.records.push_back(std::move(r));
  } else if (plan.dp) {
    const int g_max = static_cast<int>(dp.devices.size());
    for (int g = 1; g <= g_max; ++g) {
      const std::string x = "dp x" + std::to_string(g);
      if (plan.weak) add(x, [&] { return run_dp_config(env, "weak", g, g * batch); });
      if (plan.strong && batch % g == 0) add(x, [&] { return run_dp_config(env, "strong", g, batch); });
    }
  }
  if (dropped)
    setup.hooks.budget_dropped(env.model.name + " " + std::string(to_string(env.precision)) + ": " +
                               results::plural(dropped, "training configuration"));
}

}  // namespace

results::TrainResults run_training(const TrainPlan& plan, TrainRunSetup& setup, double timeout_s) {
  auto& backend = setup.backend;
  auto world_comm = backend.create_communicator(setup.world, harness::Deadline::after(timeout_s));
  CommsBySize tuned_comms;
  auto ddp_comms = make_ddp_comms(setup, plan, *world_comm, tuned_comms, timeout_s);
  DpDevices dp = make_dp_devices(setup, plan, timeout_s);
  results::TrainResults results;
  auto stream = backend.create_stream(harness::StreamPriority::normal);
  auto ctx = make_compute_context(backend, *stream, plan.tuning, timeout_s);
  auto ops = make_train_ops(backend);
  std::string dropped;
  int configs_run = 0;
  for (const auto& name : plan.models) {
    for (const auto precision : plan.precisions) {
      if (configs_run > 0 && setup.hooks.budget.spent()) {
        dropped += (dropped.empty() ? "" : ", ") + name + " " + std::string(to_string(precision));
        continue;
      }
      const auto model = make_model(name, {plan.depth, plan.width, auto_layout(precision)});
      TrainEnv env{setup, timeout_s, plan, *ctx, *ops, model, precision, ddp_comms, tuned_comms, dp.devices,
                   &configs_run};
      if (plan.check) run_checks(env, *world_comm, results);
      run_model(env, dp, results);
    }
  }
  if (!dropped.empty()) setup.hooks.budget_dropped(dropped + " (every configuration and check)");
  return results;
}

}  // namespace gpuscale::workloads

