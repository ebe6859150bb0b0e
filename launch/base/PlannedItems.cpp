// The planned items and label values a phase's spec lists for the coverage (RunPlan.hpp): in the launch
// base, which a phase's running half links, apart from the plan's resolution over the phase table.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "launch/base/RunPlan.hpp"

namespace gpuscale::launch {

void add_planned(results::RunPlanRecord& out, std::string phase, std::string kind, std::string name,
                 std::map<std::string, std::string> labels, int count, int gpus) {
  out.items.push_back({std::move(phase), std::move(kind), std::move(name), std::move(labels), count, gpus});
}

void add_planned_labels(results::RunPlanRecord& out, const std::string& phase, const std::string& label,
                        const std::vector<std::string>& values) {
  auto& known = out.labels[phase][label];
  for (const auto& v : values)
    if (std::find(known.begin(), known.end(), v) == known.end()) known.push_back(v);
}

}  // namespace gpuscale::launch
