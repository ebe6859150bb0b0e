// The links phase in the phase table: its plan, its part of the start-up line, its policy.
#include <utility>
#include <vector>

#include "launch/base/Invocation.hpp"
#include "launch/base/JobShape.hpp"
#include "launch/base/PhaseDriver.hpp"
#include "launch/base/PhaseRun.hpp"
#include "launch/base/PhaseSpec.hpp"
#include "launch/base/RunPlan.hpp"
#include "phases/links/run/LinksPhase.hpp"
#include "phases/links/run/LinksPlan.hpp"

namespace gpuscale::launch::phases::links {
namespace {

void make_plan(RunPlan& plan, const PlanInputs& in) {
  plan.set("links", parse_links_plan(in.invocation.options, in.profile));
}

std::string describe_plan(const RunPlan& plan) {
  const auto& l = plan.get<LinksPlan>("links").links;
  return "links " + size_list_text(l.pinned_bytes) + " pinned, " + size_text(l.pageable_bytes) + " pageable, " +
         size_text(l.hbm_bytes) + " device memory, 1+" + std::to_string(l.repeats) + " copies";
}

void planned(const RunPlan& plan, const JobShape&, results::RunPlanRecord& out) {
  const auto& l = plan.get<LinksPlan>("links").links;
  std::vector<std::string> bytes;
  for (const auto b : l.pinned_bytes) bytes.push_back(std::to_string(b));
  if (l.pageable_bytes) bytes.push_back(std::to_string(l.pageable_bytes));
  if (!bytes.empty()) {
    add_planned(out, "links", results::planned::kHostCopies, "host copies (pinned, pageable)", {}, 1, 1);
    add_planned_labels(out, "links", "bytes", bytes);
  }
  if (l.hbm_bytes)
    add_planned(out, "links", results::planned::kDeviceMemory, "device memory (copy, triad)", {}, 1, 1);
}

// Rank 0 holds every rank's record.
void keep(PhaseDriver& driver, std::vector<results::LinksRecord>&& all) {
  if (driver.world().rank() == 0) driver.report().links = std::move(all);
}

}  // namespace

extern constinit const PhaseSpec kPhase{
    .name = "links",
    .summary = "host links and device memory: H2D and D2H copies pinned and pageable, one GPU at a time and every "
               "GPU of a node at once, the PCIe link under load, NVLink state and errors, XID events, HBM copy "
               "and triad",
    .examples = "mpirun -np 8 gpuscale links\n"
                "mpirun -np 8 gpuscale links --sizes 64M,1G,4G --repeats 10 --json links.json\n"
                "mpirun -np 2 gpuscale links --device cpu --sizes 1M --hbm-size 16M",
    .add_options = add_links_options,
    .plan = make_plan,
    .describe = describe_plan,
    .misfit = nullptr,
    .planned = planned,
    .before_mpi = nullptr,
    .run = run_phase<run_links_phase, keep>,
    .needs_gpu_work = true,
    .runs_on_shared_gpu = false,
    .budget_weight = 1,
    // A turn's barrier waits for one GPU's copies (about a second by default; a pageable copy of
    // several GiB at ~1 GB/s on a loaded host is tens of seconds).
    .timeout_s = 120,
};

}  // namespace gpuscale::launch::phases::links
