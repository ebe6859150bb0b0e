#include "collectives/CollectivesRun.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "collectives/BenchResources.hpp"
#include "collectives/Isolation.hpp"
#include "collectives/NcclTuningLog.hpp"
#include "collectives/PairMatrix.hpp"
#include "collectives/Scaling.hpp"
#include "collectives/Sweep.hpp"
#include "harness/Activity.hpp"
#include "harness/FaultInjection.hpp"
#include "results/base/Format.hpp"
#include "results/models/GpuLabels.hpp"

namespace gpuscale::collectives {
namespace {

bool isolation_runs(const SweepOptions& o, const harness::World& world) {
  return isolation_runs(o, world.size(), world.node_count());
}

std::uint64_t largest_buffer(const SweepOptions& o, const std::vector<std::uint64_t>& sizes,
                             const harness::World& world) {
  std::uint64_t bytes = harness::size_of(o.type);
  if (pair_matrix_runs(o, world.size())) bytes = std::max(bytes, o.pair_large_bytes);
  if (isolation_runs(o, world)) bytes = std::max(bytes, o.isolation_bytes);
  if (o.isolation == IsolationMode::only) return bytes;
  for (const auto s : sizes) bytes = std::max(bytes, s);
  for (const auto s : o.scaling_sizes) bytes = std::max(bytes, s);
  return bytes;
}

// Rank 0: NCCL's tuning log of this process, read back into the sweeps.
void read_nccl_choices(const CollectivesRunSetup& setup, results::CollectivesRecord& record, std::size_t type_bytes) {
  if (!setup.nccl_algorithm) return;
  if (record.transport != "nccl") {
    record.nccl_algorithm_note = "not applicable: the cpu backend runs collectives through MPI";
    return;
  }
  const std::string path = nccl_tuning_log_path(setup.world.host(), static_cast<int>(getpid()));
  std::ifstream in(path);
  if (!in) {
    record.nccl_algorithm_note = "NCCL wrote no tuning log to " + path;
    return;
  }
  std::stringstream log;
  log << in.rdbuf();
  const auto choices = parse_nccl_tuning_log(log);
  if (choices.empty() && setup.world.size() == 1) {
    record.nccl_algorithm_note = "not applicable: with one rank NCCL runs each collective as a local copy";
    return;
  }
  for (auto& s : record.sweeps) annotate(s, choices, type_bytes);
  log.clear();
  log.seekg(0);
  record.nccl_models = parse_nccl_models(log);
  record.nccl_algorithm_note = "from NCCL's tuning log (NCCL_DEBUG_SUBSYS=INIT,TUNING, " +
                               std::to_string(choices.size()) + " calls, the cost models of " +
                               std::to_string(record.nccl_models.size()) +
                               " communicator shapes); alltoall and sendrecv are point-to-point and have no algorithm";
}

double seconds_since(double start_s, const CollectivesRunSetup& setup) { return setup.hooks.elapsed_s() - start_s; }

// Each op over its sizes while the phase's share of the budget lasts: an op past it finishes the size
// it is on; the ops after it are dropped whole. Every rank asks the gate at the same points. The first
// op measures its first size whatever the budget, so that the phase has a figure, unless `measured`
// (the localisation ran first and is the phase's figure).
void run_sweeps(CollectivesRunSetup& setup, BenchResources& res, harness::Communicator& comm, const SweepOptions& o,
                harness::BudgetGate& budget, bool measured, results::CollectivesRecord& record) {
  const auto sizes = size_list(o);
  std::string dropped_ops;
  for (const auto* op : o.ops) {
    if ((measured || op != o.ops.front()) && budget.spent()) {
      dropped_ops += (dropped_ops.empty() ? "" : ",") + std::string(op->name);
      continue;
    }
    const harness::OpScope scope(op->name);  // names the op in errors; test seam "collectives/OP"
    setup.hooks.progress("collectives: " + std::string(op->name) + " over " + std::to_string(sizes.size()) + " sizes");
    const double start_s = setup.hooks.elapsed_s();
    record.sweeps.push_back(sweep_op(res, &comm, o, *op, sizes, comm.size(), "world", &budget));
    setup.hooks.budget_item(std::string(op->name), seconds_since(start_s, setup));
    const std::size_t rows = record.sweeps.back().rows.size();
    if (budget.was_spent() && record.sweeps.back().skipped_reason.empty() && rows < sizes.size())
      setup.hooks.budget_dropped(std::string(op->name) + " " + results::binary_bytes(static_cast<double>(sizes[rows])) +
                                 ".." + results::binary_bytes(static_cast<double>(sizes.back())) + " (" +
                                 std::to_string(sizes.size() - rows) + " of " + std::to_string(sizes.size()) +
                                 " sizes)");
  }
  if (!dropped_ops.empty()) setup.hooks.budget_dropped(dropped_ops + " (every size)");
}

void localise_slow_nodes(CollectivesRunSetup& setup, BenchResources& res, harness::Communicator& comm,
                         const SweepOptions& o, harness::BudgetGate& budget, results::CollectivesRecord& record) {
  auto& world = setup.world;
  setup.hooks.progress("collectives: localising slow nodes (" + std::to_string(o.isolation_rounds) +
                       " rounds of node pairs)");
  std::vector<std::string> node_hosts(static_cast<std::size_t>(world.node_count()));
  for (const auto& e : setup.ranks)
    if (e.node >= 0 && e.node < world.node_count() && node_hosts[static_cast<std::size_t>(e.node)].empty())
      node_hosts[static_cast<std::size_t>(e.node)] = e.host;
  const double start_s = setup.hooks.elapsed_s();
  record.isolation = run_isolation(res, comm, o, node_hosts, &budget);
  setup.hooks.budget_item("slow-node localisation", seconds_since(start_s, setup));
  int played = 0;
  for (const auto& m : record.isolation->matches) played = std::max(played, m.round + 1);
  if (budget.was_spent() && played < o.isolation_rounds)
    setup.hooks.budget_dropped("slow-node localisation: " + std::to_string(o.isolation_rounds - played) + " of " +
                               std::to_string(o.isolation_rounds) + " rounds of node pairs");
}

// `isolation_done`: the localisation ran first (a budgeted run), so it does not run again here.
void run_extras(CollectivesRunSetup& setup, BenchResources& res, harness::Communicator& comm, const SweepOptions& o,
                harness::BudgetGate& budget, bool isolation_done, results::CollectivesRecord& record) {
  auto& world = setup.world;
  if (!o.scaling_sizes.empty() && world.size() >= 2 && o.isolation != IsolationMode::only) {
    if (budget.spent()) {
      setup.hooks.budget_dropped("the scaling table");
    } else {
      setup.hooks.progress("collectives: scaling over sub-communicators");
      const auto groups = scaling_groups(world.rank(), world.size(), world.node(), world.local_rank(),
                                         world.local_size(), world.node_count());
      record.scaling = run_scaling(res, comm, o, groups);
    }
  }
  if (pair_matrix_runs(o, world.size())) {
    if (budget.spent()) {
      setup.hooks.budget_dropped("the pairwise send/recv matrix");
    } else {
      setup.hooks.progress("collectives: pairwise send/recv matrix");
      const auto& ranks = setup.ranks;
      std::vector<int> node_of;
      for (const auto& e : ranks) node_of.push_back(e.node);
      record.pairs = run_pair_matrix(res, comm, o, results::gpu_labels(ranks), node_of);
      for (auto& p : record.pairs->pairs) {
        if (static_cast<std::size_t>(std::max(p.a, p.b)) >= ranks.size()) continue;  // ranks are known on rank 0 only
        p.a_gpu = results::gpu_identity(ranks[static_cast<std::size_t>(p.a)]);
        p.b_gpu = results::gpu_identity(ranks[static_cast<std::size_t>(p.b)]);
      }
    }
  }
  if (isolation_runs(o, world) && !isolation_done) localise_slow_nodes(setup, res, comm, o, budget, record);
}

}  // namespace

bool pair_matrix_runs(const SweepOptions& o, int ranks) {
  if (o.pair_large_bytes == 0 || ranks < 2 || o.isolation == IsolationMode::only) return false;
  return o.pair_mode == PairMatrixMode::all ||
         (o.pair_mode == PairMatrixMode::automatic && ranks <= kPairMatrixAutoRanks);
}

bool isolation_runs(const SweepOptions& o, int ranks, int nodes) {
  if (ranks < 2) return false;
  return o.isolation == IsolationMode::only ||
         (o.isolation == IsolationMode::automatic && nodes >= kIsolationAutoNodes);
}

results::CollectivesRecord run_collectives(const SweepOptions& o, CollectivesRunSetup& setup, double timeout_s) {
  auto& world = setup.world;
  setup.hooks.progress("collectives: creating the communicator");
  auto comm = setup.backend.create_communicator(world, harness::Deadline::after(timeout_s));

  results::CollectivesRecord record;
  record.transport = std::string(comm->transport());
  record.iterations = o.iterations;
  record.warmup = o.warmup;
  record.graph_launches = o.graph_launches;
  record.aggregated = o.aggregated;
  record.check_passes = o.check_passes;
  record.link_threshold = o.link_threshold;
  BenchResources res(world, setup.backend, largest_buffer(o, size_list(o), world),
                     std::max(o.iterations, o.graph_launches), timeout_s,
                     harness::corruption_requested(kCorruptBuffer));
  // Under a budget the localisation runs first: the sweeps are what a spent budget drops, and a
  // slow node that spends it is what the localisation names.
  auto& budget = setup.hooks.budget;
  const bool isolation_first = budget.bounded() && isolation_runs(o, world);
  if (isolation_first) localise_slow_nodes(setup, res, *comm, o, budget, record);
  if (o.isolation != IsolationMode::only) run_sweeps(setup, res, *comm, o, budget, isolation_first, record);
  if (world.rank() == 0) read_nccl_choices(setup, record, harness::size_of(o.type));
  run_extras(setup, res, *comm, o, budget, isolation_first, record);
  return record;
}

}  // namespace gpuscale::collectives
