#pragma once
// What a command runs, resolved once from its command line and the profile (--quick, the backend) by
// the driver (launch/RunPlanning.hpp): every phase runs the plan held here, and the start-up line
// prints it, so the line says what runs. Pure (no MPI, no device).
#include <any>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "launch/base/Invocation.hpp"
#include "launch/base/Profile.hpp"
#include "results/base/PlanRecord.hpp"

namespace gpuscale::launch {

struct RunPlan {
  Profile profile;
  // The report's projection's targets after the phases that feed it (ProjectionUpdate.hpp):
  // --project-ranks (ProjectionOptions.hpp), the defaults where the command has no such option.
  std::vector<int> project_ranks;

  // Each planned phase's part, by the phase's name: set by its PhaseSpec::plan for the commands that
  // run it, read by the phase's own files with the type it set.
  template <class Plan>
  void set(std::string_view phase, Plan part) {
    parts_.insert_or_assign(std::string(phase), std::any(std::move(part)));
  }
  bool has(std::string_view phase) const { return parts_.find(phase) != parts_.end(); }
  // The phase's part; nullptr where the command does not run it. A part of another type is a bug.
  template <class Plan>
  const Plan* find(std::string_view phase) const {
    const auto it = parts_.find(phase);
    if (it == parts_.end()) return nullptr;
    const auto* part = std::any_cast<Plan>(&it->second);
    if (!part) throw std::logic_error("the plan of phase '" + std::string(phase) + "' is of another type");
    return part;
  }
  // The phase's part, which must be planned (a phase reads its own while it runs).
  template <class Plan>
  const Plan& get(std::string_view phase) const {
    if (const auto* part = find<Plan>(phase)) return *part;
    throw std::logic_error("phase '" + std::string(phase) + "' has no plan");
  }

 private:
  std::map<std::string, std::any, std::less<>> parts_;
};

// Helpers of the phases' PhaseSpec::planned: one item; the values of one figure label.
void add_planned(results::RunPlanRecord& out, std::string phase, std::string kind, std::string name,
                 std::map<std::string, std::string> labels, int count, int gpus);
void add_planned_labels(results::RunPlanRecord& out, const std::string& phase, const std::string& label,
                        const std::vector<std::string>& values);

}  // namespace gpuscale::launch
