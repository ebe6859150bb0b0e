#include "results/render/TraceReporter.hpp"

#include <map>
#include <utility>

namespace gpuscale::results {
namespace {

constexpr double kMicrosecondsPerSecond = 1e6;

nlohmann::json metadata(const char* what, int pid, int tid, const std::string& name) {
  return {{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

}  // namespace

void TraceReporter::write(const RunReport& report, std::ostream& out) const {
  // The keys in the order nlohmann's objects keep (sorted), so the text is what dumping one document
  // gave; the events are written one at a time, never held as one document (a fleet's trace is large).
  nlohmann::json head = {{"displayTimeUnit", "ms"}};
  // The trace format's place for data about the whole trace: which write it belongs to, and its verdict.
  if (!report.output_set.empty())
    head["otherData"] = {{"gpuscale_output_set", report.output_set}, {"verdict", verdict_result(report.verdict)}};
  std::string text = head.dump();
  text.pop_back();  // the closing brace: traceEvents follows
  out << text << ",\"traceEvents\":[";
  bool first = true;
  auto emit = [&](const nlohmann::json& event) {
    out << (first ? "" : ",") << event.dump();
    first = false;
  };
  std::map<std::pair<int, std::string>, int> lane_ids;  // (rank, lane) -> tid
  std::map<int, int> lanes_per_rank;
  for (const auto& s : report.trace_spans) {
    const auto key = std::make_pair(s.rank, s.lane);
    auto lane = lane_ids.find(key);
    if (lane == lane_ids.end()) {
      if (!lanes_per_rank.count(s.rank)) emit(metadata("process_name", s.rank, 0, "rank " + std::to_string(s.rank)));
      lane = lane_ids.emplace(key, lanes_per_rank[s.rank]++).first;
      emit(metadata("thread_name", s.rank, lane->second, s.lane));
    }
    emit({{"name", s.name},
          {"cat", s.lane},
          {"ph", "X"},
          {"ts", s.start_s * kMicrosecondsPerSecond},
          {"dur", s.duration_s * kMicrosecondsPerSecond},
          {"pid", s.rank},
          {"tid", lane->second},
          {"args", s.args}});
  }
  out << "]}\n";
}

}  // namespace gpuscale::results
