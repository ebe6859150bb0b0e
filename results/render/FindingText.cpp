#include "results/render/FindingText.hpp"

#include "results/world/CpuList.hpp"

namespace gpuscale::results {

std::string finding_name(const Check& c) {
  return c.count > 1 ? c.id + " x" + std::to_string(c.count) : c.id;
}

std::string finding_scope(const Check& c) {
  std::string scope;
  auto add = [&scope](const std::string& part) { scope += (scope.empty() ? "" : " | ") + part; };
  if (!c.ranks.empty()) add("ranks " + format_cpulist(c.ranks));
  if (!c.nodes.empty()) add((c.nodes.size() == 1 ? "node " : "nodes ") + format_cpulist(c.nodes));
  if (!c.pairs.empty()) add(std::to_string(c.pairs.size()) + (c.pairs.size() == 1 ? " pair" : " pairs"));
  return scope;
}

}  // namespace gpuscale::results
