// The vocabulary of figures (FigureVocabulary.hpp) against what flatten() makes, and the names it refuses.
#include "results/report/FigureVocabulary.hpp"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "results/base/FigureNames.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::results {
namespace {

std::vector<std::string> keys(const Figure& f) {
  std::vector<std::string> out;
  for (const auto& [key, value] : f.labels) out.push_back(key);
  return out;
}

// Whether the figure's label keys are exactly one entry's (its optional keys aside).
bool listed_exactly(const Figure& f) {
  const auto mine = keys(f);
  for (const auto& e : figure_vocabulary()) {
    if (e.phase != f.phase || e.metric != f.metric || e.unit != f.unit) continue;
    std::set<std::string> required, optional;
    for (std::string_view rest = e.labels; !rest.empty();) {
      const auto comma = rest.find(',');
      std::string key(rest.substr(0, comma));
      if (key.back() == '?') optional.insert(key.substr(0, key.size() - 1));
      else required.insert(key);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
    std::set<std::string> have(mine.begin(), mine.end());
    bool fits = true;
    for (const auto& k : required) fits = fits && have.count(k);
    for (const auto& k : have) fits = fits && (required.count(k) || optional.count(k));
    if (fits) return true;
  }
  return false;
}

TEST(FigureVocabulary, EveryFigureOfTheSampleRunsIsListed) {
  std::vector<Figure> figures = flatten(testing::sample_run());
  const auto fleet = flatten(testing::sample_fleet_run());
  figures.insert(figures.end(), fleet.begin(), fleet.end());
  std::set<std::string> metrics;
  for (const auto& f : figures) {
    metrics.insert(f.phase + "/" + f.metric);
    EXPECT_EQ(names_nothing(f.phase, f.metric, keys(f), f.unit), "") << figure_key(f);
    if (f.phase != names::kChecks) {
      EXPECT_TRUE(listed_exactly(f)) << figure_key(f) << " " << f.unit;
    }
  }
  // The runs cover the env, burn and isolation figures at least.
  for (const char* m : {"env/smoke_allreduce_time", "env/gpu_memory_total", "burn/sustained_tflops",
                        "collectives/node_local_busbw", "collectives/inter_node_busbw"})
    EXPECT_TRUE(metrics.count(m)) << m;
}

TEST(FigureVocabulary, EveryNamedMetricIsAFigure) {  // every metric of FigureNames.hpp has an entry
  std::set<std::string> listed;
  for (const auto& e : figure_vocabulary()) listed.emplace(e.metric);
#define GPUSCALE_EXPECT_IN(constant, name, what) EXPECT_TRUE(listed.count(name)) << name;
  GPUSCALE_METRICS(GPUSCALE_EXPECT_IN)
#undef GPUSCALE_EXPECT_IN
}

TEST(FigureVocabulary, NamesThatNameNothingSayWhy) {
  EXPECT_EQ(names_nothing("warmup", "busbw", {}), "unknown phase 'warmup' (env, links, compute, burn, collectives, train, "
                                                  "projection, checks)");
  EXPECT_EQ(names_nothing("compute", "busbw", {}), "busbw is a figure of collectives, not of compute");
  EXPECT_EQ(names_nothing("", "bussbw", {}), "unknown metric 'bussbw' (did you mean busbw?)");
  EXPECT_EQ(names_nothing("collectives", "step_tme", {}), "unknown metric 'step_tme' (the figures are listed in docs/REPORT.md)");
  EXPECT_EQ(names_nothing("train", "step_tme", {}), "unknown metric 'step_tme' (did you mean step_time?)");
  EXPECT_EQ(names_nothing("colectives", "busbw", {}).rfind("unknown phase 'colectives' (did you mean collectives?) (", 0), 0u);
  EXPECT_EQ(names_nothing("collectives", "busbw", {"size"}),
            "label 'size' is not one of collectives busbw's (bytes, dtype, op, placement, ranks, scope)");
  EXPECT_EQ(names_nothing("", "time", {"layer", "op"}), "");  // compute's or collectives' time: either's keys
  EXPECT_EQ(names_nothing("collectives", "busbw", {}, "MB/s"), "unit 'MB/s' is not collectives busbw's (GB/s)");
  EXPECT_EQ(names_nothing("checks", "duplicate-gpu", {"severity"}), "");
  EXPECT_EQ(names_nothing("", "duplicate-gpu", {"rank"}),
            "label 'rank' is not one of duplicate-gpu's (on_ranks, severity)");
  EXPECT_EQ(names_nothing("checks", "no-such-check", {}),
            "unknown check id 'no-such-check' (phase checks holds one figure per check id)");
  EXPECT_EQ(names_nothing("env", "foreign_gpu_processes", {"rank"}, "count"), "");
}

}  // namespace
}  // namespace gpuscale::results
