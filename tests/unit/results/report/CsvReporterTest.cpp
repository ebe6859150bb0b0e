// The two CSV files against golden strings and the cells a spreadsheet or pandas groups on: where each
// figure and check belongs (host, node, rank, GPU), the run id that keeps concatenated runs apart, the
// per-figure judgement, and RFC 4180 quoting of what comes from outside (host names, messages).
#include "results/report/CsvReporter.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "judge/FleetOutliers.hpp"
#include "judge/VerdictRules.hpp"
#include "results/base/CheckTable.hpp"
#include "results/render/ChecksCsvReporter.hpp"
#include "results/render/CsvText.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::results {
namespace {

RunReport csv_sample() {
  auto r = testing::sample_run();
  r.ranks.front().pid = 42;
  r.verdict = judge::evaluate_verdict(r, flatten(r), {});
  r.output_set = "20261130T000000Z-42-1";
  return r;
}

// The fleet sample with its outliers found, as the judge stores them: rank 5's burn and node 2.
RunReport csv_fleet() {
  auto r = testing::sample_fleet_run();
  r.outliers = judge::find_outliers(flatten(r), r.ranks, r.straggler_threshold);
  return r;
}

std::string csv_of(const RunReport& r) {
  std::ostringstream out;
  CsvReporter().write(r, out);
  return out.str();
}

std::string checks_csv_of(const RunReport& r) {
  std::ostringstream out;
  ChecksCsvReporter().write(r, out);
  return out.str();
}

constexpr const char* kCsvGolden = R"(run_id,output_set,start_time,host,node,rank,local_rank,gpu_uuid,gpu_model,phase,metric,labels,value,unit,judgement
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,,,,,,,run,verdict,result=PASS,1,,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,0,0,,NVIDIA H200,env,smoke_allreduce_time,,0.0005,s,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,0,0,,NVIDIA H200,env,smoke_init_time,,0.25,s,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,0,0,,NVIDIA H200,env,wrong_elements,test=smoke_allreduce,0,count,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,0,0,,NVIDIA H200,env,gpu_memory_total,,150000000000,B,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,0,0,,NVIDIA H200,env,gpu_memory_free,,149000000000,B,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,0,0,,NVIDIA H200,env,sm_clock,,1980,MHz,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,0,0,,NVIDIA H200,env,temperature,,31,C,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,0,0,,NVIDIA H200,env,power_draw,,120.5,W,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,0,0,,NVIDIA H200,env,power_limit,,700,W,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,1,1,,,env,smoke_allreduce_time,,0.00075,s,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,1,1,,,env,smoke_init_time,,0.25,s,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,node1,0,1,1,,,env,wrong_elements,test=smoke_allreduce,0,count,not_judged
20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,,,,,,,checks,numa-binding,on_ranks=1;severity=warning,1,count,not_judged
)";

// The category and fix come from the check table (results/base/CheckTable.def).
const std::string kChecksCsvGolden =
    "run_id,output_set,start_time,id,severity,category,findings,host,node,rank,local_rank,gpu_uuid,message,fix\n"
    "20261130T000000Z-42,20261130T000000Z-42-1,2026-11-30T00:00:00Z,numa-binding,warning,config,1,node1,0,1,1,,"
    "\"bind rank 1, to NUMA node 0\"," +
    csv_field(fix_text("numa-binding")) + "\n";

TEST(CsvReporter, Golden) { EXPECT_EQ(csv_of(csv_sample()), kCsvGolden); }

TEST(ChecksCsvReporter, Golden) { EXPECT_EQ(checks_csv_of(csv_sample()), kChecksCsvGolden); }

// The run id is the start time and rank 0's PID: the same however often the run is rewritten.
TEST(CsvReporter, RunIdIsTheStartTimeAndRankZerosPid) {
  auto r = csv_sample();
  EXPECT_EQ(run_id(r), "20261130T000000Z-42");
  r.output_set = "20261130T000000Z-9999-3";  // a later write by `gpuscale report`
  EXPECT_EQ(run_id(r), "20261130T000000Z-42");
  r.ranks.front().pid = 0;
  EXPECT_EQ(run_id(r), "20261130T000000Z");
  r.start_time.clear();
  EXPECT_EQ(run_id(r), "unknown");
}

// A figure of one rank carries that rank's host, node, local rank and GPU; one of a node its host and
// node; one of the whole job none; the fleet-outlier rule's judgement is on each figure it compared.
TEST(CsvReporter, EachFigureSaysWhereItWasMeasuredAndHowItWasJudged) {
  const auto csv = csv_of(csv_fleet());
  for (const char* line : {
           ",n2,2,5,1,GPU-5,NVIDIA H200,burn,sustained_tflops,precision=bf16,600,TFLOP/s,outlier\n",
           ",n0,0,0,0,GPU-0,NVIDIA H200,burn,sustained_tflops,precision=bf16,800,TFLOP/s,within_fleet\n",
           ",n2,2,,,,,collectives,node_local_busbw,,40,GB/s,outlier\n",
           ",n1,1,,,,,collectives,node_local_busbw,,90,GB/s,within_fleet\n",
           // 10 against 55, 100 and 55: within the rule's 3.5 robust sigmas, so not an outlier.
           ",n2,2,,,,,collectives,inter_node_busbw,,10,GB/s,within_fleet\n",
           ",,,,,,,checks,slow-node,\"on_ranks=4,5;severity=error\",1,count,not_judged\n",
       })
    EXPECT_NE(csv.find(line), std::string::npos) << line << "\n" << csv;
  EXPECT_EQ(csv.find("rank="), std::string::npos) << "rank is a column, not a label\n" << csv;
}

// Emulated nodes (and cloned images) report one host name: the host cell names the node, as every
// other output does, so that grouping by host groups by node.
TEST(CsvReporter, NodesSharingAHostNameAreToldApart) {
  auto r = csv_fleet();
  for (auto& e : r.ranks) e.host = "box";
  const auto csv = csv_of(r);
  EXPECT_NE(csv.find(",box/n2,2,5,1,GPU-5,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",box/n2,2,,,,,collectives,node_local_busbw,"), std::string::npos) << csv;
}

TEST(CsvReporter, FiguresBesideATenantSaySo) {
  auto r = csv_fleet();
  for (std::size_t i = 0; i < r.burn.size(); ++i)
    if (r.burn[i].rank == 3) r.marks.add(record_mark(BurnMark::beside_tenant, i));
  const auto csv = csv_of(r);
  EXPECT_NE(csv.find(",n1,1,3,1,GPU-3,NVIDIA H200,burn,sustained_tflops,precision=bf16,800,TFLOP/s,beside_tenant\n"),
            std::string::npos)
      << csv;
}

// What comes from outside (a host name, a check's message) is quoted as RFC 4180 says: commas, quotes,
// carriage returns and newlines stay inside their cell.
TEST(CsvReporter, QuotesCellsWithCommasQuotesAndNewlines) {
  auto r = csv_sample();
  for (auto& e : r.ranks) e.host = "a,\"b\"\nc";
  r.checks = {Check{"odd \"id\"", Severity::error, {0, 1}, "first line\r\nsecond, line"}};
  const auto csv = csv_of(r);
  EXPECT_NE(csv.find(",\"a,\"\"b\"\"\nc\",0,1,1,,,env,smoke_allreduce_time,,0.00075,s,not_judged\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",checks,\"odd \"\"id\"\"\",\"on_ranks=0,1;severity=error\",1,count,not_judged\n"),
            std::string::npos)
      << csv;
  // An id the check table does not hold has no category or fix.
  EXPECT_NE(checks_csv_of(r).find(",\"odd \"\"id\"\"\",error,,1,\"a,\"\"b\"\"\nc\",0,,,,\"first line\r\nsecond, "
                                  "line\",\n"),
            std::string::npos)
      << checks_csv_of(r);
}

// One row per rank a check concerns, one per node where it concerns every rank of the node or names
// nodes alone, one for the whole job.
TEST(ChecksCsvReporter, OneRowPerRankOrNodeOrTheWholeJob) {
  auto r = csv_fleet();
  r.checks.push_back(Check{"gpu-throttling", Severity::warning, {2, 6, 7}, "slow clocks"});
  r.checks.push_back(Check{"budget-exceeded", Severity::warning, {}, "the run took 2 min over its budget"});
  Check by_node{"node-outlier", Severity::warning, {}, "n3 is slow"};
  by_node.nodes = {3};
  by_node.count = 2;
  r.checks.push_back(by_node);
  const auto csv = checks_csv_of(r);
  const std::string head = "20261130T000000Z,,2026-11-30T00:00:00Z,";
  const auto fix = [](const char* id) { return "," + csv_field(fix_text(id)) + "\n"; };
  EXPECT_EQ(csv,
            "run_id,output_set,start_time,id,severity,category,findings,host,node,rank,local_rank,gpu_uuid,message,"
            "fix\n" +
                head + "slow-node,error,speed,1,n2,2,,,,n2 failed 6 of 6 rounds; drain it" + fix("slow-node") + head +
                "gpu-throttling,warning,health,1,n1,1,2,0,GPU-2,slow clocks" + fix("gpu-throttling") + head +
                "gpu-throttling,warning,health,1,n3,3,,,,slow clocks" + fix("gpu-throttling") + head +
                "budget-exceeded,warning,speed,1,,,,,,the run took 2 min over its budget" + fix("budget-exceeded") +
                head + "node-outlier,warning,speed,2,n3,3,,,,n3 is slow" + fix("node-outlier"));
}

// A message repeated on many rows is cut, on a whole UTF-8 character, so the file stays linear in the
// job's size; a check of one row keeps its message whole.
TEST(ChecksCsvReporter, AMessageRepeatedOnManyRowsIsCut) {
  auto r = csv_fleet();
  // 19 + 220 bytes, then two characters of 2 bytes each: byte 240 is the second byte of the first one.
  const std::string nodes_listed = "no RDMA adapter on " + std::string(220, 'n') + "\u00e9\u00e9";
  r.checks = {Check{"no-rdma-adapter", Severity::info, {0, 1, 2, 3, 4, 5, 6, 7}, nodes_listed},
              Check{"budget-exceeded", Severity::warning, {}, nodes_listed}};
  const auto csv = checks_csv_of(r);
  const std::string cut = nodes_listed.substr(0, 239) + " [cut: the JSON's checks[] has the whole message]," +
                          csv_field(fix_text("no-rdma-adapter")) + "\n";
  EXPECT_EQ(nodes_listed.size(), 243u);
  std::size_t rows = 0;
  for (auto at = csv.find(cut); at != std::string::npos; at = csv.find(cut, at + 1)) ++rows;
  EXPECT_EQ(rows, 4u) << csv;  // one per node: the check concerns every rank of each
  EXPECT_NE(csv.find(",budget-exceeded,warning,speed,1,,,,,," + nodes_listed + ","), std::string::npos) << csv;
}

}  // namespace
}  // namespace gpuscale::results
