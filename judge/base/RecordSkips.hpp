#pragma once
// What one phase's records measured, for the verdict's "PHASE measured something" (VerdictRules.hpp):
// each phase's rules count their own records (PhaseRules::count_skips).
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace gpuscale::judge {

// How many records, how many of them skipped, and the distinct reasons ("allreduce: out of memory").
struct RecordSkips {
  std::size_t records = 0, skipped = 0;
  std::vector<std::string> reasons;

  // One record, named `what`; `skipped_reason` "" when it was measured.
  void add(const std::string& what, const std::string& skipped_reason) {
    ++records;
    if (skipped_reason.empty()) return;
    ++skipped;
    const std::string reason = what + ": " + skipped_reason;
    if (std::find(reasons.begin(), reasons.end(), reason) == reasons.end()) reasons.push_back(reason);
  }
};

}  // namespace gpuscale::judge
