// Writes the HTML report of the sample run plus synthetic figures of every phase to argv[1], so the
// Chromium test can check that every chart renders (the phases that produce them may not be built).
#include <fstream>
#include <iostream>

#include "../unit/results/SampleRun.hpp"
#include "judge/VerdictRules.hpp"
#include "results/render/HtmlReporter.hpp"

int main(int argc, char** argv) {
  using namespace gpuscale::results;
  if (argc != 2) {
    std::cerr << "usage: html_fixture OUT.html\n";
    return 2;
  }
  auto run = testing::sample_run();
  auto figures = flatten(run);
  const auto phases = testing::synthetic_phase_figures();
  figures.insert(figures.end(), phases.begin(), phases.end());
  run.verdict = gpuscale::judge::evaluate_verdict(run, figures, {});
  std::ofstream out(argv[1]);
  write_html(run, figures, out);
  return out ? 0 : 1;
}
