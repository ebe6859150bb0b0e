#pragma once
// Whether a run's phases_completed lists `phase`: what a check, a coverage item or a threshold asks
// before it counts on that phase's records.
#include <algorithm>
#include <string_view>

#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

inline bool phase_completed(const RunReport& r, std::string_view phase) {
  return std::find(r.phases_completed.begin(), r.phases_completed.end(), phase) != r.phases_completed.end();
}

}  // namespace gpuscale::results
