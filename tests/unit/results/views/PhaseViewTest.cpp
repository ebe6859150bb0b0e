// The phases' views, linked alone with the layers below them: a view that reached into the whole-run
// report (results/report/) would fail to link here.
#include "results/views/PhaseView.hpp"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "results/base/PhaseNames.hpp"

namespace gpuscale::results {
namespace {

TEST(PhaseView, OneViewPerRegisteredPhaseInTheRegistrysOrder) {
  const auto views = phase_views();
  ASSERT_EQ(views.size(), std::size(kPhaseNames));
  for (std::size_t i = 0; i < views.size(); ++i) {
    EXPECT_EQ(views[i].name, kPhaseNames[i]);
    EXPECT_FALSE(views[i].title.empty()) << views[i].name;
    EXPECT_EQ(find_phase_view(kPhaseNames[i]), &views[i]);
  }
  EXPECT_EQ(find_phase_view("no-such-phase"), nullptr);
}

// A phase that did not run has no records and no figures: a view that emitted rows for it would show
// a measurement nobody made.
TEST(PhaseView, AnEmptyRunHasNoRecordsAndNoFigures) {
  const RunReport empty;
  for (const auto& view : phase_views()) {
    ASSERT_NE(view.has_records, nullptr) << view.name;
    ASSERT_NE(view.append_figures, nullptr) << view.name;
    EXPECT_FALSE(view.has_records(empty, empty.world_size)) << view.name;
    std::vector<Figure> figures;
    view.append_figures(empty, empty.marks, figures);
    EXPECT_TRUE(figures.empty()) << view.name << " emitted " << figures.size() << " figures";
  }
}

// Each view reads its own phase's records: the registry's member, through the table's adapter. A report
// with burn's records alone has records and figures in burn's view and in no other.
TEST(PhaseView, EachViewReadsItsOwnPhasesRecords) {
  RunReport run;
  run.world_size = 1;
  BurnRecord b;
  b.gpu = "NVIDIA H200";
  b.precision = "bf16";
  b.sustained_tflops = 600;
  run.burn = {b};
  for (const auto& view : phase_views()) {
    std::vector<Figure> figures;
    view.append_figures(run, run.marks, figures);
    EXPECT_EQ(view.has_records(run, run.world_size), view.name == phase::burn) << view.name;
    EXPECT_EQ(figures.empty(), view.name != phase::burn) << view.name;
    for (const auto& f : figures) EXPECT_EQ(f.phase, view.name) << f.metric;
  }
  run.burn.clear();
  run.collectives.emplace();
  for (const auto& view : phase_views())
    EXPECT_EQ(view.has_records(run, run.world_size), view.name == phase::collectives) << view.name;
}

// What --expect may name: each view's figures are its own phase's, and no metric with the same labels
// is listed twice.
TEST(PhaseView, EachVocabularyNamesItsOwnPhaseOnce) {
  for (const auto& view : phase_views()) {
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& spec : view.vocabulary) {
      EXPECT_EQ(spec.phase, view.name) << spec.metric;
      EXPECT_FALSE(spec.metric.empty()) << view.name;
      EXPECT_TRUE(seen.emplace(std::string(spec.metric), std::string(spec.labels)).second)
          << view.name << " lists " << spec.metric << " {" << spec.labels << "} twice";
    }
  }
}

}  // namespace
}  // namespace gpuscale::results
