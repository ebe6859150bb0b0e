#include "results/report/Headlines.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "results/views/PhaseView.hpp"

namespace gpuscale::results {
namespace {

HeadlineContext headline_context(const RunReport& run, const std::vector<Figure>& figures, const Baseline* baseline) {
  HeadlineContext c{figures, {}, std::nullopt};
  for (const auto& e : run.ranks)
    if (e.gpu && !c.gpu) c.gpu = GpuModel{e.gpu->name, e.gpu->pcie_gen_max, e.gpu->pcie_width_max};
  if (const auto* group = baseline ? find_group(*baseline, machine_shape(run)) : nullptr) {
    std::map<std::string, double> medians;  // baseline_key -> median
    for (const auto& f : group->figures) medians[baseline_key(f)] = f.median;
    c.baseline_median = [medians = std::move(medians)](const Figure& f) -> std::optional<double> {
      const auto it = medians.find(baseline_key(f));
      if (it == medians.end()) return std::nullopt;
      return it->second;
    };
  }
  return c;
}

}  // namespace

std::vector<Headline> headlines(const RunReport& run, const std::vector<Figure>& figures, const Baseline* baseline) {
  auto c = headline_context(run, figures, baseline);
  std::vector<Headline> out;
  for (const auto& view : phase_views())
    if (view.headlines) view.headlines(run, c, out);
  return out;
}

}  // namespace gpuscale::results
