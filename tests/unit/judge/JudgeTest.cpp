// The judge: the registry, rules that leave records alone, marks applied in one place, and a judged
// run judged again unchanged.
#include "judge/Judge.hpp"

#include <iterator>
#include <set>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "judge/PhaseRules.hpp"
#include "phases/burn/BurnChecks.hpp"
#include "phases/links/LinksChecks.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/CheckTable.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/report/JsonReporter.hpp"

namespace gpuscale::judge {
namespace {

results::BurnRecord burn(int rank, double tflops) {
  results::BurnRecord b;
  b.rank = rank;
  b.host = "node0";
  b.gpu = "NVIDIA H200";
  b.precision = "bf16";
  b.sustained_tflops = tflops;
  return b;
}

TEST(Judge, RegistryNamesEachFamilyOnceAndEveryFamilyRuns) {
  std::set<std::string> names;
  for (const auto* f : all_rule_families()) {
    EXPECT_TRUE(names.insert(std::string(f->name)).second) << f->name;
    EXPECT_NE(f->judge, nullptr) << f->name;
    EXPECT_FALSE(f->reads.empty()) << f->name;
  }
  EXPECT_EQ(&find_rule_family("env"), all_rule_families().front());
  EXPECT_EQ(find_rule_family("env").stops_gpu_work, GpuBlock::all_gpu_work);
  EXPECT_THROW(find_rule_family("no-such-family"), std::out_of_range);
}

// The phases' rules are the registry's phases, in its order, and their families lead the judge's order.
TEST(Judge, EachRegisteredPhaseHasItsRulesInTheRegistrysOrder) {
  const auto phases = all_phase_rules();
  const auto families = all_rule_families();
  ASSERT_EQ(phases.size(), std::size(results::kPhaseNames));
  ASSERT_GT(families.size(), phases.size());
  for (std::size_t i = 0; i < phases.size(); ++i) {
    EXPECT_EQ(phases[i]->family.name, results::kPhaseNames[i]);
    EXPECT_EQ(phases[i]->family.phase, results::kPhaseNames[i]);
    EXPECT_EQ(families[i], &phases[i]->family);
    EXPECT_EQ(find_phase_rules(results::kPhaseNames[i]), phases[i]);
  }
  for (std::size_t i = phases.size(); i < families.size(); ++i)
    EXPECT_FALSE(results::is_phase(families[i]->phase)) << families[i]->name << " runs as a phase's own family";
  EXPECT_EQ(find_phase_rules("no-such-phase"), nullptr);
  EXPECT_EQ(find_phase_rules("*"), nullptr);
}

TEST(Judge, RulesMarkNothingThemselvesAndMarksAreAppliedInOnePlace) {
  RunReport run;
  run.burn = {burn(0, 674), burn(1, 674), burn(2, 400)};
  const auto judged = burn_checks(run.burn, 0.10);  // const records: a rule cannot write into them
  EXPECT_TRUE(run.marks.empty());
  ASSERT_EQ(judged.marks.size(), 1u);
  EXPECT_TRUE(judged.marks[0].is(BurnMark::slow));
  EXPECT_EQ(judged.marks[0].index, 2u);
  run.marks.add(record_mark(BurnMark::slow, 0));  // a stale mark, as an older file may hold
  apply_marks(run, judged.marks);
  EXPECT_FALSE(run.marks.has(BurnMark::slow, 0));
  EXPECT_TRUE(run.marks.has(BurnMark::slow, 2));
}

// Each phase's rules are typed on its own records: the table reads them from RunReport's member, and
// the job beyond them comes in the context (each rank's node and backend, from env's records).
TEST(Judge, EachPhasesRulesReadTheirOwnRecordsAndTheJobFromTheContext) {
  RunReport run;
  run.ranks.resize(3);
  for (int i = 0; i < 3; ++i) {
    run.ranks[i].rank = i;
    run.ranks[i].node = i / 2;
    run.ranks[i].local_rank = i % 2;
    run.ranks[i].backend = "cuda";
  }
  run.ranks[2].backend = "cpu";
  run.busy_utilization_pct = 35;
  const auto context = rule_context(run, "burn");
  ASSERT_EQ(context.ranks.size(), 3u);
  EXPECT_EQ(context.ranks[2].node, 1);
  EXPECT_EQ(context.ranks[1].local_rank, 1);
  EXPECT_TRUE(context.ranks[0].speed_judged);
  EXPECT_FALSE(context.ranks[2].speed_judged);
  EXPECT_EQ(context.busy_utilization_pct, 35);
  EXPECT_EQ(context.phase, "burn");

  run.burn = {burn(0, 674), burn(1, 674), burn(2, 400)};
  const auto judged = phases::burn::kRules.judge(run.burn, context);
  EXPECT_EQ(judged.marks.size(), 1u);
  const auto* over_report = find_phase_rules("burn");
  ASSERT_NE(over_report, nullptr);
  EXPECT_EQ(over_report->family.judge(run, context).marks.size(), 1u) << "the table reads RunReport's burn";
  EXPECT_TRUE(find_phase_rules("compute")->family.judge(run, context).marks.empty());
}

// A finding one phase raises and another's records complete: env's gpu-in-use names what the process
// cost the burn beside it, the tenancy family's amend, whichever way the env family is run.
TEST(Judge, ACrossPhaseFamilyCompletesAPhasesFindingsWhereverThePhaseIsJudged) {
  RunReport run;
  run.ranks.resize(1);
  run.ranks[0].backend = "cuda";
  run.ranks[0].host = "node0";
  run.ranks[0].pid = 1000;
  results::GpuInfo g;
  g.name = "NVIDIA H200";
  g.uuid = "GPU-0";
  run.ranks[0].gpu = g;
  run.ranks[0].tenancy.probed = true;
  run.ranks[0].tenancy.processes = {results::GpuProcess{4242, "gpu_burn", true, 2048ull << 20}};
  const auto in_use = [](const Judged& judged) {
    for (const auto& c : judged.checks)
      if (c.id == results::check_ids::kGpuInUse) return c.message;
    return std::string("no gpu-in-use");
  };
  EXPECT_EQ(in_use(judge_family("env", run)).find("beside it the burn"), std::string::npos);  // no burn yet
  run.burn = {burn(0, 316)};
  EXPECT_NE(in_use(judge_family("env", run)).find("beside it the burn sustained 316.0 TFLOP/s bf16 on rank 0"),
            std::string::npos)
      << in_use(judge_family("env", run));
  EXPECT_NE(in_use(judge_records(run)).find("beside it the burn sustained 316.0"), std::string::npos);
  EXPECT_EQ(in_use(phases::env::kRules.judge(run.ranks, rule_context(run, "env"))).find("beside it the burn"),
            std::string::npos)
      << "env's own family reads env's records alone";
}

// Each mark is written where its phase's MarkKey says: a kind that no phase declares a key for would be
// written nowhere, which fails loudly rather than leaving the record unmarked in every output.
TEST(Judge, AMarkNoPhaseDeclaresIsAnError) {
  RunReport run;
  run.burn = {burn(0, 674)};
  EXPECT_THROW(apply_marks(run, {record_mark(static_cast<BurnMark>(-1), 0)}), std::logic_error);
  EXPECT_THROW(apply_marks(run, {RecordMark{"no-such-phase", 0, 0, 0, 0}}), std::logic_error);
  apply_marks(run, {record_mark(BurnMark::floor, 0, 0, 500), record_mark(BurnMark::slow, 7)});
  const auto written = [&] { return nlohmann::json::parse(results::report_text(run)).at("burn").at(0); };
  EXPECT_EQ(written().at("floor_tflops"), 500) << "a floor is a cross-phase family's mark on burn's records";
  EXPECT_EQ(written().at("slow"), false) << "a key past the end of the list marks no record";
  apply_marks(run, {record_mark(LinksMark::h2d_slow, 0)});  // the same number as BurnMark::slow
  EXPECT_EQ(written().at("slow"), false) << "a mark is its own phase's";
  EXPECT_TRUE(written().at("floor_tflops").is_null()) << "the marks are replaced, not added to";
}

// What the rules raise on judged runs is in the check table, at a severity its entry lists.
TEST(Judge, EveryCheckRaisedIsInTheCheckTableAtASeverityItLists) {
  for (auto run : {results::testing::sample_run(), results::testing::sample_fleet_run()}) {
    run.burn = {burn(0, 674), burn(1, 300), burn(2, 674), burn(3, 674)};  // rank 1 under the floor
    judge(run, {});
    ASSERT_FALSE(run.checks.empty());
    for (const auto& c : run.checks) {
      const auto* entry = results::find_check(c.id);
      ASSERT_NE(entry, nullptr) << c.id << " is not in results/base/CheckTable.def";
      EXPECT_NE(entry->severities.find(results::to_string(c.severity)), std::string_view::npos)
          << c.id << " raised at " << results::to_string(c.severity) << ", the table lists " << entry->severities;
    }
  }
}

TEST(Judge, JudgesFromTheRecordsAndKeepsChecksNoRuleRaises) {
  auto run = results::testing::sample_run();
  run.burn = {burn(0, 674), burn(1, 300)};  // rank 1 under the H200's floor
  run.checks.push_back({"from-a-newer-version", results::Severity::warning, {0}, "kept"});
  run.checks.push_back({"gpu-slow-sustained", results::Severity::error, {0}, "a stale finding: dropped"});
  judge(run, {});
  const auto first = results::report_text(run);
  bool newer = false, floor = false;
  for (const auto& c : run.checks) {
    newer = newer || c.id == "from-a-newer-version";
    if (c.id == "gpu-slow-sustained" && c.severity == results::Severity::error) {
      floor = true;
      EXPECT_EQ(c.ranks, std::vector<int>{1});
    }
  }
  EXPECT_TRUE(newer);
  EXPECT_TRUE(floor);
  EXPECT_TRUE(run.marks.has(BurnMark::slow, 1));
  EXPECT_FALSE(run.verdict.passed);
  judge(run, {});
  EXPECT_EQ(results::report_text(run), first);  // judging a judged run changes nothing
}

}  // namespace
}  // namespace gpuscale::judge
