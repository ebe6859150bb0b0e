#include "results/render/Headlines.hpp"

#include "results/views/PhaseView.hpp"

namespace gpuscale::results {

std::vector<Headline> headlines(const RunReport& run, const std::vector<Figure>& figures, const Baseline* baseline) {
  auto c = headline_context(run, figures, baseline);
  std::vector<Headline> out;
  for (const auto& view : phase_views())
    if (view.headlines) view.headlines(c, out);
  return out;
}

}  // namespace gpuscale::results
