#pragma once
// The GPUs another process computed on, and the beside_tenant marks of the records measured there:
// what a phase's rules mark of their own records (PhaseRulesOf::beside_tenant_marks) when the tenancy
// family (judge/TenancyChecks.hpp) finds them.
#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "judge/base/Judged.hpp"

namespace gpuscale::judge {

// Which ranks' GPUs had another process computing on them, and in which phases.
struct SharedGpus {
  std::set<int> always;                            // env listed one: every phase
  std::map<std::string, std::set<int>, std::less<>> by_phase;  // mid-run: phase -> ranks
  bool shared(std::string_view phase, int rank) const;
  std::set<int> ranks_in(std::string_view phase) const;  // always + by_phase[phase]
  bool empty() const { return always.empty() && by_phase.empty(); }
};

// `mark` (a phase's own, Judged.hpp) on each of `records` that `beside(record)` says was measured beside
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

}  // namespace gpuscale::judge
