#include "judge/SharedGpuLayout.hpp"

#include "results/base/CheckIds.hpp"

namespace gpuscale::judge {

void set_aside_speed_checks(std::vector<results::Check>& checks) {
  for (auto& c : checks) {
    if (c.severity == results::Severity::info || !results::check_ids::judges_speed(c.id)) continue;
    c.severity = results::Severity::info;
    c.message = "not judged (the ranks share GPUs in a test layout): " + c.message;
  }
}

}  // namespace gpuscale::judge
