#pragma once
// A span of work on one rank's lane (a CUDA stream, a host thread), for the Chrome trace: in training,
// a layer's pass on the compute lane or a bucket's allreduce on the comm lane. Times are seconds from
// a start that all spans of a rank share (device events), so lanes of one rank line up.
#include <string>

#include <nlohmann/json.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

struct TraceSpan {
  int rank = 0;
  std::string lane;    // "compute", "comm", "host": one trace thread per distinct lane of a rank
  std::string name;    // "layer 7 fwd", "allreduce bucket 0"
  double start_s = 0;
  double duration_s = 0;
  nlohmann::json args = nlohmann::json::object();  // shown when the span is selected
  std::string config;  // which run: "ddp mlp bf16 2 GPUs"
};

constexpr auto json_fields(const TraceSpan*) {
  using T = TraceSpan;
  return fields(field("rank", &T::rank), field("config", &T::config).optional(), field("lane", &T::lane),
                field("name", &T::name), field("start_s", &T::start_s), field("duration_s", &T::duration_s),
                field("args", &T::args).optional());
}

void to_json(nlohmann::json& j, const TraceSpan& s);
void from_json(const nlohmann::json& j, TraceSpan& s);

}  // namespace gpuscale::results
