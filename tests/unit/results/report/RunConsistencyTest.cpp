// A run file whose own fields contradict each other is refused by every reader (RunConsistency.hpp):
// each case edits a consistent report's JSON the way a hand or a script would.
#include "results/report/RunConsistency.hpp"

#include <functional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "SampleRun.hpp"
#include "results/report/JsonReporter.hpp"

namespace gpuscale::results {
namespace {

using nlohmann::json;

// The reader's one line for the sample run edited by `edit`, or "read" when it took it.
std::string read_edited(const std::function<void(json&)>& edit) {
  json j = json::parse(report_text(testing::sample_run()));
  edit(j);
  try {
    parse_report_text(j.dump(), "run.json");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "read";
}

TEST(RunConsistency, TheSampleRunIsConsistent) {
  EXPECT_EQ(contradiction(testing::sample_run()), "");
  EXPECT_EQ(read_edited([](json&) {}), "read");
}

TEST(RunConsistency, RanksThatContradictTheWorldAreRefused) {
  EXPECT_EQ(read_edited([](json& j) { j["ranks"] = json::array(); }),
            "run.json: contradictory run report: phases_completed lists env, but its records are not in the file");
  EXPECT_EQ(read_edited([](json& j) { j["ranks"].erase(1); }),
            "run.json: contradictory run report: ranks[] holds 1 ranks; world.size is 2");
  EXPECT_EQ(read_edited([](json& j) { j["ranks"][1]["rank"] = 0; }),
            "run.json: contradictory run report: ranks[1] is rank 0");
  EXPECT_EQ(read_edited([](json& j) { j["world"]["size"] = 0; }),
            "run.json: contradictory run report: world.size is 0; a run has at least 1 rank");
  EXPECT_EQ(read_edited([](json& j) { j["world"]["nodes"] = 3; }),
            "run.json: contradictory run report: world.nodes is 3; a run of 2 ranks has 1 to 2 nodes");
  // A run that ended before env gathered the ranks has none, and says so by not listing env.
  EXPECT_EQ(read_edited([](json& j) {
              j["ranks"] = json::array();
              j["phases_completed"] = json::array();
              j["complete"] = false;
            }),
            "read");
}

TEST(RunConsistency, RanksNamedOutOfTheWorldAreRefused) {
  EXPECT_EQ(read_edited([](json& j) { j["checks"][0]["ranks"] = {7}; }),
            "run.json: contradictory run report: checks[0] (numa-binding) names rank 7; world.size is 2");
  EXPECT_EQ(read_edited([](json& j) { j["checks"][0]["ranks"] = {-1}; }),
            "run.json: contradictory run report: checks[0] (numa-binding) names rank -1; world.size is 2");
  EXPECT_EQ(read_edited([](json& j) {
              j["failure"] = {{"exit_code", 3}, {"message", "m"}, {"rank", 5}, {"ranks_not_responding", json::array()}};
            }),
            "run.json: contradictory run report: failure names rank 5; world.size is 2");
  EXPECT_EQ(read_edited([](json& j) {
              j["failure"] = {{"exit_code", 3}, {"message", "m"}, {"rank", -1}, {"ranks_not_responding", {1, 2}}};
            }),
            "run.json: contradictory run report: failure.ranks_not_responding names rank 2; world.size is 2");
  auto r = testing::sample_run();
  r.compute.push_back(ComputeRecord{});
  r.compute.back().rank = 9;
  EXPECT_EQ(contradiction(r), "compute[0] names rank 9; world.size is 2");
  r = testing::sample_run();
  r.collectives.emplace();
  r.collectives->pairs.emplace();
  r.collectives->pairs->pairs.push_back(PairResult{0, 2, "a", "b"});
  EXPECT_EQ(contradiction(r), "collectives.pairs.pairs[0] names rank 2; world.size is 2");
}

TEST(RunConsistency, ThresholdsNoRunTakesAreRefused) {
  for (const auto& value : {json(-1), json(0), json(101)})
    EXPECT_NE(read_edited([&](json& j) { j["straggler_threshold"] = value; }).find("straggler_threshold"),
              std::string::npos)
        << value;
  for (const auto& value : {json(-1), json(0), json(101)})
    EXPECT_NE(read_edited([&](json& j) { j["busy_utilization_pct"] = value; }).find("busy_utilization_pct"),
              std::string::npos)
        << value;
  EXPECT_EQ(read_edited([&](json& j) { j["busy_utilization_pct"] = 35; }), "read");
}

TEST(RunConsistency, CompletedPhasesNeedTheirRecords) {
  for (const char* phase : {"compute", "collectives", "train", "burn", "links"})
    EXPECT_EQ(read_edited([&](json& j) { j["phases_completed"].push_back(phase); }),
              std::string("run.json: contradictory run report: phases_completed lists ") + phase +
                  ", but its records are not in the file")
        << phase;
  EXPECT_EQ(read_edited([](json& j) { j["phases_completed"].push_back("warmup"); }),
            "run.json: contradictory run report: phases_completed names 'warmup', which is no phase (env, links, "
            "compute, burn, collectives, train)");
  EXPECT_EQ(read_edited([](json& j) { j["phases_completed"].push_back("env"); }),
            "run.json: contradictory run report: phases_completed names env twice");
  EXPECT_EQ(read_edited([](json& j) { j["phases_skipped"] = {{{"phase", "env"}, {"reason", "r"}}}; }),
            "run.json: contradictory run report: env is both in phases_completed and in phases_skipped");
}

}  // namespace
}  // namespace gpuscale::results
