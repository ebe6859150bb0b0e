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
#include "results/base/Check.hpp"
#include "results/schema/BurnRecord.hpp"
#include "results/schema/MidRunTenancy.hpp"

namespace gpuscale::judge {

// Which ranks' GPUs had another process computing on them, and in which phases.
struct SharedGpus {
  std::set<int> always;                            // env listed one: every phase
  std::map<std::string, std::set<int>, std::less<>> by_phase;  // mid-run: phase -> ranks
  bool shared(std::string_view phase, int rank) const;
  std::set<int> ranks_in(std::string_view phase) const;  // always + by_phase[phase]
  bool empty() const { return always.empty() && by_phase.empty(); }
};
SharedGpus shared_gpus(const RunReport& report);

// The phases `t`'s GPU was measured beside it: t.phases, or for a file written before that list
// existed, its phase and each later one of the run's shared_phases.
std::vector<std::string> tenant_phases(const RunReport& report, const results::MidRunTenant& t);

// The *_beside_tenant mark of every record measured on a shared GPU, each phase's as its rules find them
// (PhaseRules::beside_tenant_marks): a per-GPU record of that rank in that phase; a training
// configuration whose GPUs (or whose 1-GPU baseline's) include one; a collective whose group, or a pair
// that, includes one.
std::vector<RecordMark> beside_tenant_marks(const RunReport& report);

// `mark` (a phase's own, Rule.hpp) on each of `records` that `beside(record)` says was measured beside
// another process.
template <class T, class Kind, class Beside>
void mark_each(const std::vector<T>& records, Kind mark, std::vector<RecordMark>& out, Beside&& beside) {
  for (std::size_t i = 0; i < records.size(); ++i)
    if (beside(records[i])) out.push_back(record_mark(mark, i));
}

// `mark` on each per-GPU record (its `rank`'s GPU) of the mark's phase measured on a GPU shared during it.
template <class T, class Kind>
void mark_per_gpu(const std::vector<T>& records, const SharedGpus& shared, Kind mark, std::vector<RecordMark>& out) {
  mark_each(records, mark, out, [&](const T& r) { return shared.shared(phase_of(mark), r.rank); });
}

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
