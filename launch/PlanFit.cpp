#include "launch/PlanFit.hpp"

#include <algorithm>

#include "harness/CudaBackend.hpp"

namespace gpuscale::launch {
namespace {

std::string plural(int n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

}  // namespace

int dp_device_limit(bool cpu_backend, int local_size) {
  return cpu_backend ? std::max(2, local_size) : harness::cuda_visible_device_count();
}

std::string plan_misfit(const RunPlan& plan, const JobShape& shape) {
  const std::string ranks = "the job has " + plural(shape.ranks, "rank");
  if (const auto& c = plan.collectives) {
    if (c->root >= shape.ranks)
      return "-r " + std::to_string(c->root) + ": the root must be a rank, and " + ranks + " (0.." +
             std::to_string(shape.ranks - 1) + ")";
    if (c->isolation == collectives::IsolationMode::only && shape.nodes < collectives::kIsolationAutoNodes)
      return "--isolate compares nodes with each other and needs at least " +
             std::to_string(collectives::kIsolationAutoNodes) + " nodes; the job spans " + plural(shape.nodes, "node");
  }
  if (const auto& t = plan.train) {
    for (const int k : t->ddp_sizes)
      if (k > shape.ranks) return "--gpus " + std::to_string(k) + ": DDP over more ranks than the job's; " + ranks;
    if (t->dp && t->dp_devices && *t->dp_devices > shape.dp_devices)
      return "--dp-devices " + std::to_string(*t->dp_devices) + ": rank 0 can drive " +
             plural(shape.dp_devices, "device") + " here";
  }
  return "";
}

}  // namespace gpuscale::launch
