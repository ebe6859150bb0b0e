// --expect refuses what no run can meet or name: unknown check ids and metrics, min above max,
// a negative straggler spread, non-finite bounds. Every figure a run emits can be named.
#include "results/report/Expectations.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "SampleRun.hpp"
#include "phases/links/LinksTable.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/FigureNames.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::results {
namespace {

using nlohmann::json;

std::string message(const json& j) {
  try {
    parse_expectations(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

bool refused_with(const json& j, const std::string& part) {
  const auto text = message(j);
  const bool found = text.find(part) != std::string::npos;
  if (!found) ADD_FAILURE() << "'" << j.dump() << "' gave: " << text;
  return found;
}

TEST(ExpectationsValidation, UnknownCheckIdIsRefused) {
  EXPECT_TRUE(refused_with({{"checks_must_pass", {"no-such-check"}}}, "unknown check id 'no-such-check'"));
  EXPECT_EQ(message({{"checks_must_pass", {"numa-binding", "train-ddp-matches-single"}}}), "accepted");
  EXPECT_TRUE(refused_with({{"checks_must_pass", {"train-no-such"}}}, "unknown check id 'train-no-such'"));
}

// The thresholds of the record rules (slow pairs, suspects, busy GPUs): in the ranges their options take.
TEST(ExpectationsValidation, RuleInputsTakeTheirRanges) {
  const auto e =
      parse_expectations(json{{"pair_threshold", 0.9}, {"isolate_threshold", 0.3}, {"busy_utilization_pct", 40}});
  EXPECT_EQ(e.rule_inputs.pair_threshold, 0.9);
  EXPECT_EQ(e.rule_inputs.isolate_threshold, 0.3);
  EXPECT_EQ(e.rule_inputs.busy_utilization_pct, 40);
  EXPECT_FALSE(parse_expectations(json::object()).rule_inputs.pair_threshold);
  EXPECT_EQ(message({{"pair_threshold", 0}}), "accepted");  // names no pair, as --pair-threshold 0
  EXPECT_TRUE(refused_with({{"pair_threshold", 1.5}}, "pair_threshold must lie in [0, 1]"));
  EXPECT_TRUE(refused_with({{"isolate_threshold", 0}}, "isolate_threshold must lie in (0, 1)"));
  EXPECT_TRUE(refused_with({{"busy_utilization_pct", 0}}, "busy_utilization_pct must lie in (0, 100]"));
  EXPECT_TRUE(refused_with({{"busy_utilization_pct", "high"}}, "busy_utilization_pct must be a number"));
}

TEST(ExpectationsValidation, MinAboveMaxIsRefused) {
  EXPECT_TRUE(refused_with({{"thresholds", {{{"metric", "busbw"}, {"min", 10}, {"max", 5}}}}},
                           "thresholds[0]: min 10 is above max 5"));
  EXPECT_EQ(message({{"thresholds", {{{"metric", "busbw"}, {"min", 5}, {"max", 5}}}}}), "accepted");
}

TEST(ExpectationsValidation, NegativeSpreadIsRefused) {
  EXPECT_TRUE(refused_with({{"max_straggler_spread", -0.1}}, "straggler_spread is never negative"));
  EXPECT_TRUE(refused_with({{"thresholds", {{{"metric", "straggler_spread"}, {"max", -1}}}}},
                           "thresholds[0]: straggler_spread is never negative"));
  EXPECT_EQ(message({{"max_straggler_spread", 0}}), "accepted");
}

TEST(ExpectationsValidation, NonFiniteBoundIsRefused) {
  EXPECT_TRUE(refused_with({{"min_scaling_efficiency", std::numeric_limits<double>::quiet_NaN()}},
                           "must be a finite number"));
  EXPECT_TRUE(refused_with({{"thresholds", {{{"metric", "busbw"}, {"min", std::numeric_limits<double>::infinity()}}}}},
                           "thresholds[0].min must be a finite number"));
}

TEST(ExpectationsValidation, UnknownMetricOrPhaseIsRefused) {
  EXPECT_TRUE(refused_with({{"thresholds", {{{"metric", "bussbw"}, {"min", 1}}}}}, "unknown metric 'bussbw'"));
  EXPECT_TRUE(refused_with({{"thresholds", {{{"phase", "warmup"}, {"metric", "busbw"}, {"min", 1}}}}},
                           "unknown phase 'warmup'"));
  EXPECT_EQ(message({{"thresholds", {{{"phase", "checks"}, {"metric", "numa-binding"}, {"max", 0}}}}}), "accepted");
}

// A ceiling below zero on a figure that is never negative cannot be met: refused, not failed at the end.
TEST(ExpectationsValidation, NegativeCeilingOnANeverNegativeFigureIsRefused) {
  EXPECT_TRUE(refused_with({{"thresholds", {{{"metric", "busbw"}, {"max", -1}}}}},
                           "thresholds[0]: busbw is never negative, so a max of -1 cannot be met"));
  EXPECT_TRUE(refused_with({{"thresholds", {{{"phase", "checks"}, {"metric", "numa-binding"}, {"max", -1}}}}},
                           "is never negative"));
  EXPECT_EQ(message({{"thresholds", {{{"metric", "exposed_comm_time"}, {"max", -0.001}}}}}), "accepted");
}

// A label value outside what the run can produce (an op or precision that does not exist) names nothing.
TEST(ExpectationsValidation, UnknownOpOrPrecisionIsRefused) {
  const LabelValues values = {{"op", {"allreduce", "allgather"}}, {"precision", {"fp32", "bf16"}}};
  auto refused = [&](const json& j, const std::string& part) {
    try {
      parse_expectations(j, values);
    } catch (const std::invalid_argument& e) {
      const bool found = std::string(e.what()).find(part) != std::string::npos;
      if (!found) ADD_FAILURE() << e.what();
      return found;
    }
    ADD_FAILURE() << "accepted " << j.dump();
    return false;
  };
  EXPECT_TRUE(refused({{"min_busbw", {{{"op", "allreduc"}, {"gbps", 1}}}}},
                      "min_busbw[0]: unknown op 'allreduc' (did you mean allreduce?) (allreduce, allgather)"));
  EXPECT_TRUE(refused({{"min_tflops", {{"bf61", 1}}}}, "min_tflops.bf61: unknown precision 'bf61' (did you mean bf16?) (fp32, bf16)"));
  EXPECT_TRUE(refused({{"thresholds", {{{"metric", "busbw"}, {"labels", {{"op", "allreduc"}}}, {"min", 1}}}}},
                      "thresholds[0]: unknown op 'allreduc'"));
  EXPECT_NO_THROW(parse_expectations({{"min_busbw", {{{"op", "allgather"}, {"gbps", 1}}}}, {"min_tflops", {{"bf16", 1}}}},
                                     values));
}

// The links phase's figures (and the burn's headline figure) can be held to floors and ceilings.
TEST(ExpectationsValidation, LinksAndBurnFiguresTakeThresholds) {
  for (const char* metric : {"host_copy_bw", "hbm_bw", "hbm_peak_fraction"})
    EXPECT_EQ(message({{"thresholds", {{{"phase", "links"}, {"metric", metric}, {"min", 1}}}}}), "accepted") << metric;
  for (const char* metric : {"nvlink_errors", "xid_events"}) {
    EXPECT_EQ(message({{"thresholds", {{{"phase", "links"}, {"metric", metric}, {"max", 0}}}}}), "accepted") << metric;
    EXPECT_TRUE(refused_with({{"thresholds", {{{"phase", "links"}, {"metric", metric}, {"max", -1}}}}},
                             "is never negative"));
  }
  EXPECT_EQ(message({{"thresholds", {{{"phase", "burn"}, {"metric", "sustained_tflops"}, {"min", 1}}}}}), "accepted");
  EXPECT_EQ(message({{"checks_must_pass", {"h2d-slow", "hbm-slow", "pcie-downtrained", "nvlink-down", "nvlink-errors",
                                           "gpu-xid"}}}),
            "accepted");

  LinksRecord r;
  r.copies = {{"h2d", "pinned", "solo", 1 << 20, {0.001}, 1}};
  r.hbm = {{"copy", 2 << 20, {0.001}, 2}};
  r.hbm_peak_gbps = 4800;
  r.nvlinks = {{0, true, true, {}}};
  std::vector<Figure> figures;
  append_figures(std::vector<LinksRecord>{r}, {}, figures);
  ASSERT_EQ(figures.size(), 5u);
  for (const auto& f : figures) EXPECT_TRUE(f.phase == phase::links && names::is_known_metric(f.metric)) << f.metric;
}

// The list --expect checks against is the list the producers use: every figure of a sample run,
// whatever its phase, can be named in a threshold.
TEST(ExpectationsValidation, EveryEmittedFigureIsKnown) {
  auto figures = flatten(testing::sample_run());
  for (auto& f : testing::synthetic_phase_figures()) figures.push_back(f);
  ASSERT_FALSE(figures.empty());
  for (const auto& f : figures) {
    const bool known = f.phase == names::kChecks ? check_ids::is_known(f.metric) : names::is_known_metric(f.metric);
    EXPECT_TRUE(known) << f.phase << " " << f.metric;
  }
}

}  // namespace
}  // namespace gpuscale::results
