#include "results/TraceReporter.hpp"

#include <map>
#include <utility>

namespace gpuscale::results {
namespace {

constexpr double kMicrosecondsPerSecond = 1e6;

nlohmann::json metadata(const char* what, int pid, int tid, const std::string& name) {
  return {{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

}  // namespace

nlohmann::json trace_events(const std::vector<TraceSpan>& spans) {
  auto events = nlohmann::json::array();
  std::map<std::pair<int, std::string>, int> lane_ids;  // (rank, lane) -> tid
  std::map<int, int> lanes_per_rank;
  for (const auto& s : spans) {
    const auto key = std::make_pair(s.rank, s.lane);
    if (!lane_ids.count(key)) {
      if (!lanes_per_rank.count(s.rank)) events.push_back(metadata("process_name", s.rank, 0, "rank " + std::to_string(s.rank)));
      const int tid = lanes_per_rank[s.rank]++;
      lane_ids[key] = tid;
      events.push_back(metadata("thread_name", s.rank, tid, s.lane));
    }
    events.push_back({{"name", s.name},
                      {"cat", s.lane},
                      {"ph", "X"},
                      {"ts", s.start_s * kMicrosecondsPerSecond},
                      {"dur", s.duration_s * kMicrosecondsPerSecond},
                      {"pid", s.rank},
                      {"tid", lane_ids[key]},
                      {"args", s.args}});
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
}

void TraceReporter::write(const RunReport& report, std::ostream& out) const {
  auto trace = trace_events(report.trace_spans);
  // The trace format's place for data about the whole trace: which write it belongs to, and its verdict.
  if (!report.output_set.empty())
    trace["otherData"] = {{"gpuscale_output_set", report.output_set}, {"verdict", verdict_result(report.verdict)}};
  out << trace.dump() << '\n';
}

}  // namespace gpuscale::results
