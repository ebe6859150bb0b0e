#pragma once
// One interval of device work in a traced training step, for the Chrome trace reporter: a layer's
// pass on a rank's compute lane, or a bucket's allreduce on its comm lane. Times are seconds from
// the start of that rank's traced step (device events), so lanes of one rank line up.
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace gpuscale::results {

struct TraceSpan {
  int rank = 0;
  std::string config;  // which run: "ddp mlp bf16 2 GPUs"
  std::string lane;    // "compute" | "comm"
  std::string name;    // "layer 7 fwd", "allreduce bucket 0"
  double start_s = 0;
  double duration_s = 0;
};

void to_json(nlohmann::json& j, const TraceSpan& s);
void from_json(const nlohmann::json& j, TraceSpan& s);

}  // namespace gpuscale::results
