#include "results/NcclModel.hpp"

#include <array>
#include <utility>

namespace gpuscale::results {

std::string_view nccl_func_of(std::string_view op) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kNames{{
      {"allreduce", "AllReduce"},
      {"allgather", "AllGather"},
      {"reducescatter", "ReduceScatter"},
      {"broadcast", "Broadcast"},
      {"reduce", "Reduce"},
  }};
  for (const auto& [ours, nccl] : kNames)
    if (ours == op) return nccl;
  return {};
}

std::optional<NcclPrediction> nccl_predict(const NcclModel& model, std::string_view func, double bytes) {
  std::optional<NcclPrediction> best;
  for (const auto& e : model.entries) {
    if (e.func != func || e.bandwidth_gbps <= 0) continue;
    const double us = e.latency_us + bytes / (1e3 * e.bandwidth_gbps);  // GB/s = 1e3 bytes per us
    if (!best || us * 1e-6 < best->time_s) best = NcclPrediction{us * 1e-6, e.algorithm + "/" + e.protocol};
  }
  return best;
}

}  // namespace gpuscale::results
