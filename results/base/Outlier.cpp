#include "results/base/Outlier.hpp"

#include <cmath>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

std::vector<Outlier> worst_per_node(const std::vector<Outlier>& outliers) {
  std::vector<Outlier> out;
  std::set<int> seen;
  for (const auto& o : outliers)  // already furthest first
    if (seen.insert(o.node).second) out.push_back(o);
  return out;
}

void InfinityAsNull::write(nlohmann::json& out, double value) {
  out = std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}
void InfinityAsNull::read(const nlohmann::json& in, double& value) {
  value = in.is_null() ? std::numeric_limits<double>::infinity() : in.get<double>();
}

GPUSCALE_JSON_FROM_FIELDS(Outlier)

}  // namespace gpuscale::results
