// Writes the HTML report of the sample run plus synthetic figures of every phase to argv[1], so the
// Chromium test can check that every chart renders (the phases that produce them may not be built),
// with one compute chart where a GPU is faster than the median; then to argv[2] the same run whose
// training ran at one GPU count only (its charts against GPUs have one x value).
#include <fstream>
#include <iostream>

#include "../unit/results/SampleRun.hpp"
#include "judge/VerdictRules.hpp"
#include "results/base/FigureNames.hpp"
#include "results/report/HtmlReporter.hpp"
#include "results/report/RunFigures.hpp"

int main(int argc, char** argv) {
  using namespace gpuscale::results;
  if (argc != 3) {
    std::cerr << "usage: html_fixture OUT.html ONE_GPU_COUNT.html\n";
    return 2;
  }
  const auto write = [](const char* path, const std::vector<Figure>& extra) {
    auto run = testing::sample_run();
    auto figures = flatten(run);
    figures.insert(figures.end(), extra.begin(), extra.end());
    run.verdict = gpuscale::judge::evaluate_verdict(run, figures, {});
    std::ofstream out(path);
    write_html(run, figures, out);
    return static_cast<bool>(out);
  };
  auto phases = testing::synthetic_phase_figures();
  for (int rank = 0; rank < 4; ++rank)
    phases.push_back({phase::compute, names::kTflops,
                      {{names::kRank, std::to_string(rank)}, {names::kLayer, "matmul-4096"}, {names::kPrecision, "bf16"}},
                      rank == 0 ? 800.0 : 700.0, "TFLOP/s", Better::higher});
  auto one_count = testing::synthetic_phase_figures();
  std::erase_if(one_count, [](const Figure& f) { return f.phase == phase::train && label_or_empty(f, names::kGpus) != "4"; });
  return write(argv[1], phases) && write(argv[2], one_count) ? 0 : 1;
}
