#pragma once
// Tenancy for the whole run. gpu-in-use for the processes that appeared on a job's GPU after env
// (results/schema/MidRunTenancy.hpp), and the marks of every record measured while another process
// computed on the GPU it ran on: one listed by env (there from the start) or one that appeared
// mid-run (during the phases it names). A process that only holds memory shares no SMs and marks
// nothing. The speed rules (stragglers, slow GPUs, floors, outliers) leave marked records out: one
// cause, one finding. The tenancy finding names what it cost the burn instead of a separate
// slow-burn finding that would send the engineer to power, clocks and cooling.
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "judge/Rule.hpp"
#include "judge/base/BesideTenant.hpp"
#include "phases/burn/BurnRecord.hpp"
#include "results/base/Check.hpp"
#include "results/schema/MidRunTenancy.hpp"

namespace gpuscale::judge {

SharedGpus shared_gpus(const RunReport& report);

// The phases `t`'s GPU was measured beside it: t.phases, or for a file written before that list
// existed, its phase and each later one of the run's shared_phases.
std::vector<std::string> tenant_phases(const RunReport& report, const results::MidRunTenant& t);

// The *_beside_tenant mark of every record measured on a shared GPU, each phase's as its rules find them
// (PhaseRules::beside_tenant_marks): a per-GPU record of that rank in that phase; a training
// configuration whose GPUs (or whose 1-GPU baseline's) include one; a collective whose group, or a pair
// that, includes one.
// `context`: the report's (rule_context), built once for every phase.
std::vector<RecordMark> beside_tenant_marks(const RunReport& report, const RuleContext& context);

// What the process cost the burn of `ranks` (their records measured beside it): "; beside it the burn
// sustained ... under the model's floor ...: that shortfall is this process's, not the GPU's", or ""
// without a burn record of those ranks. `threshold`: the straggler threshold, for the job's median.
std::string burn_consequence(const std::vector<results::BurnRecord>& burn, const std::vector<int>& ranks,
                             double threshold);

// One finding per tenant: error when it computes (or the GPU was busy), warning when it only holds
// memory. Names the phase, PID, process name and memory, and, where the burn ran beside one that
// computes, what it cost the burn (burn_consequence).
void midrun_tenancy_checks(const RunReport& report, const std::vector<results::MidRunTenant>& tenants,
                           std::vector<results::Check>& out);

}  // namespace gpuscale::judge
