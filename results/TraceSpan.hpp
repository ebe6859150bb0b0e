#pragma once
// A span of work on one rank's lane (a CUDA stream, a host thread), for the Chrome trace. Times are
// seconds from a start that all spans of a rank share (the trace shows each rank as one process).
#include <string>

#include <nlohmann/json.hpp>

namespace gpuscale::results {

struct TraceSpan {
  int rank = 0;
  std::string lane;  // "compute", "comm", "host": one trace thread per distinct lane of a rank
  std::string name;  // "layer 3 backward", "bucket 2 allreduce"
  double start_s = 0;
  double duration_s = 0;
  nlohmann::json args = nlohmann::json::object();  // shown when the span is selected
};

void to_json(nlohmann::json& j, const TraceSpan& s);
void from_json(const nlohmann::json& j, TraceSpan& s);

}  // namespace gpuscale::results
