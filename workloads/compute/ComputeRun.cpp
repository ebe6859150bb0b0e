#include "workloads/compute/ComputeRun.hpp"

#include <algorithm>
#include <cstdlib>

#include "harness/Activity.hpp"
#include "harness/GatherRecords.hpp"
#include "results/world/RankEnv.hpp"
#include "workloads/layers/ContextFactory.hpp"

namespace gpuscale::workloads {
namespace {

// Rank 0 receives every rank's records, interleaved so that one measurement's ranks are adjacent
// (every rank measures the same items in the same order). Collective.
std::vector<results::ComputeRecord> gather_compute_records(ComputeRunSetup& setup,
                                                           const std::vector<results::ComputeRecord>& mine,
                                                           double timeout_s) {
  const auto by_rank = harness::gather_records(setup.world, mine, harness::Deadline::after(timeout_s));
  std::size_t longest = 0;
  for (const auto& records : by_rank) longest = std::max(longest, records.size());
  std::vector<results::ComputeRecord> all;
  for (std::size_t i = 0; i < longest; ++i)
    for (const auto& records : by_rank)
      if (i < records.size()) all.push_back(records[i]);
  return all;
}

std::string device_name(harness::Backend& backend) {
  results::RankEnv env;
  backend.probe(env);
  return env.gpu ? env.gpu->name : "cpu";
}

}  // namespace

std::vector<results::ComputeRecord> run_compute(ComputePlan plan, ComputeRunSetup& setup, double timeout_s) {
  auto& world = setup.world;
  const auto deadline = [timeout_s] { return harness::Deadline::after(timeout_s); };
  plan.bench.rank = world.rank();
  plan.bench.gpu = device_name(setup.backend);
  plan.bench.before_timing = [&] { world.barrier(deadline()); };
  plan.bench.agree_calls = [&](int calls) {
    return static_cast<int>(world.max_over_ranks(static_cast<double>(calls), deadline()));
  };
  // Test seam (tests/mpi/compute_cpu.sh): this rank's reference checks see corrupted outputs.
  const char* corrupt = std::getenv("GPUSCALE_TEST_CORRUPT_CHECK_RANK");
  plan.bench.corrupt_check_for_test = corrupt && std::to_string(world.rank()) == corrupt;

  auto stream = setup.backend.create_stream(harness::StreamPriority::normal);
  std::vector<results::ComputeRecord> mine;
  {
    auto ctx = make_compute_context(setup.backend, *stream, plan.tuning, timeout_s);
    std::size_t done = 0;
    for (const auto& item : plan.items) {
      if (done > 0 && setup.hooks.budget.spent())
        break;  // every rank alike; the first always runs, so the phase has a figure
      const harness::OpScope scope(layer_kind(item.shape.shape));  // test seam "compute/linear"
      const std::string what = std::string(layer_kind(item.shape.shape)) + " " + describe(item.shape.shape) + " " +
                               std::string(to_string(item.precision));
      setup.hooks.progress("compute: " + what);
      const double start_s = setup.hooks.elapsed_s();
      for (auto& r : run_compute_item(*ctx, *stream, item.shape, item.precision, plan.bench, timeout_s))
        mine.push_back(std::move(r));
      setup.hooks.budget_item(what, setup.hooks.elapsed_s() - start_s);
      ++done;
    }
    if (done < plan.items.size()) {
      const auto& first = plan.items[done].shape.shape;
      setup.hooks.budget_dropped(std::to_string(plan.items.size() - done) + " of " + std::to_string(plan.items.size()) +
                                 " shape-precision items, from " + std::string(layer_kind(first)) + " " +
                                 describe(first));
    }
  }
  return gather_compute_records(setup, mine, timeout_s);
}

}  // namespace gpuscale::workloads
