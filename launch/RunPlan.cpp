#include "launch/RunPlan.hpp"

#include <algorithm>

#include "collectives/Op.hpp"
#include "launch/CollectivesPhase.hpp"
#include "launch/Commands.hpp"
#include "launch/Phases.hpp"
#include "results/render/Format.hpp"

namespace gpuscale::launch {
namespace {

std::string counts(int warmup, int timed, const char* what) {
  return std::to_string(warmup) + "+" + std::to_string(timed) + " " + what;
}

template <class List, class Name>
std::string comma_list(const List& items, Name name) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ",") + std::string(name(item));
  return text;
}

std::string precision_list(const std::vector<workloads::Precision>& precisions) {
  return comma_list(precisions, [](workloads::Precision p) { return workloads::to_string(p); });
}

std::string describe(const ComputePlan& plan) {
  // Shape-major items: every precision of a shape, then the next shape (ComputePlan.hpp).
  std::vector<workloads::Precision> precisions;
  for (const auto& item : plan.items)
    if (std::find(precisions.begin(), precisions.end(), item.precision) == precisions.end())
      precisions.push_back(item.precision);
  const std::size_t shapes = precisions.empty() ? 0 : plan.items.size() / precisions.size();
  return "compute " + std::to_string(shapes) + " shapes in " + precision_list(precisions) + ", " +
         counts(plan.bench.warmup, plan.bench.iterations, "calls");
}

std::string describe(const collectives::SweepOptions& o) {
  const auto sizes = collectives::size_list(o);
  std::string text = "collectives " + std::to_string(o.ops.size()) + (o.ops.size() == 1 ? " op, " : " ops, ") + std::to_string(sizes.size()) +
                     " sizes " + size_text(sizes.front()) + ".." + size_text(sizes.back()) + ", " +
                     counts(o.warmup, o.iterations, "iterations");
  if (o.graph_launches) text += " x " + std::to_string(o.graph_launches) + " graph launches";
  return text;
}

std::string describe(const TrainPlan& plan) {
  return "train " + comma_list(plan.models, [](const std::string& m) { return m; }) + " in " + precision_list(plan.precisions) + ", " +
         counts(plan.timing.warmup, plan.timing.iterations, "steps");
}

std::string describe(const BurnPlan& plan) {
  return "burn " + std::string(workloads::to_string(plan.burn.precision)) + " matmul " + std::to_string(plan.burn.dim) +
         " for " + results::shortest(plan.burn.burn_s) + " s";
}

std::string describe(const LinksPlan& plan) {
  const auto& l = plan.links;
  return "links " + size_list_text(l.pinned_bytes) + " pinned, " + size_text(l.pageable_bytes) + " pageable, " +
         size_text(l.hbm_bytes) + " device memory, 1+" + std::to_string(l.repeats) + " copies";
}

}  // namespace

RunPlan resolve_run_plan(const Invocation& invocation, bool cpu_backend) {
  RunPlan plan;
  plan.profile = make_profile(invocation.common.quick, cpu_backend);
  const PlanInputs inputs{invocation, cpu_backend, command_named(invocation.command).whole_job};
  for (const auto& phase : phases_for(invocation.command))
    if (phase.plan) phase.plan(plan, inputs);
  return plan;
}

std::string describe(const RunPlan& plan) {
  std::string text = plan.profile.name + " (budget " + results::fixed(plan.profile.budget_s, 0) + " s)";
  std::string parts;
  if (plan.links) parts += describe(*plan.links);
  if (plan.compute) parts += (parts.empty() ? "" : "; ") + describe(*plan.compute);
  if (plan.collectives) parts += (parts.empty() ? "" : "; ") + describe(*plan.collectives);
  if (plan.burn) parts += (parts.empty() ? "" : "; ") + describe(*plan.burn);
  if (plan.train) parts += (parts.empty() ? "" : "; ") + describe(*plan.train);
  return parts.empty() ? text : text + ": " + parts;
}

}  // namespace gpuscale::launch
