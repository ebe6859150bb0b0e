#include "results/render/TraceReporter.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpuscale::results {
namespace {

using nlohmann::json;

RunReport run_with_spans() {
  RunReport r;
  r.trace_spans = {{0, "compute", "layer 0 backward", 0.001, 0.0005, {{"step", 1}}, "ddp mlp fp32 2 GPUs"},
                   {0, "comm", "bucket 0 allreduce", 0.0012, 0.0004, json::object(), "ddp mlp fp32 2 GPUs"},
                   {1, "compute", "layer 0 backward", 0.001, 0.0006, json::object(), "ddp mlp fp32 2 GPUs"}};
  return r;
}

// What the reporter writes for `spans`, parsed.
json trace_events(const std::vector<TraceSpan>& spans) {
  RunReport r;
  r.trace_spans = spans;
  std::ostringstream out;
  TraceReporter().write(r, out);
  return json::parse(out.str());
}

TEST(TraceReporter, WritesValidTraceEventJson) {
  std::ostringstream out;
  TraceReporter().write(run_with_spans(), out);
  const json j = json::parse(out.str());  // throws (fails the test) when not JSON
  ASSERT_TRUE(j.at("traceEvents").is_array());
  std::size_t complete = 0;
  std::set<std::pair<int, int>> threads_named;
  for (const auto& e : j.at("traceEvents")) {
    ASSERT_TRUE(e.at("ph").is_string());
    ASSERT_TRUE(e.at("pid").is_number_integer());
    ASSERT_TRUE(e.at("tid").is_number_integer());
    ASSERT_TRUE(e.at("name").is_string());
    if (e["ph"] == "M") {
      if (e["name"] == "thread_name") threads_named.insert({e["pid"].get<int>(), e["tid"].get<int>()});
      continue;
    }
    ASSERT_EQ(e["ph"], "X");
    ASSERT_TRUE(e.at("ts").is_number());
    ASSERT_TRUE(e.at("dur").is_number());
    EXPECT_GE(e["dur"].get<double>(), 0);
    EXPECT_TRUE(threads_named.count({e["pid"].get<int>(), e["tid"].get<int>()})) << "thread named before use";
    ++complete;
  }
  EXPECT_EQ(complete, 3u);
  EXPECT_EQ(threads_named.size(), 3u);  // rank 0: compute, comm; rank 1: compute
}

TEST(TraceReporter, TimesAreMicrosecondsAndLanesAreThreads) {
  const json j = trace_events(run_with_spans().trace_spans);
  const auto& events = j.at("traceEvents");
  const auto first = std::find_if(events.begin(), events.end(), [](const json& e) { return e["ph"] == "X"; });
  ASSERT_NE(first, events.end());
  EXPECT_DOUBLE_EQ((*first)["ts"].get<double>(), 1000.0);
  EXPECT_DOUBLE_EQ((*first)["dur"].get<double>(), 500.0);
  EXPECT_EQ((*first)["args"]["step"], 1);
  int comm_tid = -1;
  for (const auto& e : events)
    if (e["ph"] == "X" && e["name"] == "bucket 0 allreduce") comm_tid = e["tid"];
  EXPECT_EQ(comm_tid, 1);
}

// Written event by event, the text is still what one document dumps: keys sorted, nothing between.
TEST(TraceReporter, StreamedTextIsTheDocumentsDump) {
  auto r = run_with_spans();
  r.output_set = "20261130T000000Z-42-1";
  std::ostringstream out;
  TraceReporter().write(r, out);
  EXPECT_EQ(out.str(), json::parse(out.str()).dump() + "\n");
  EXPECT_EQ(json::parse(out.str()).at("displayTimeUnit"), "ms");
}

TEST(TraceReporter, NoSpansStillMakeAValidTrace) {
  const json j = trace_events({});
  EXPECT_TRUE(j.at("traceEvents").is_array());
  EXPECT_TRUE(j.at("traceEvents").empty());
}

}  // namespace
}  // namespace gpuscale::results
