#include "results/models/NcclPrediction.hpp"

namespace gpuscale::results {

std::optional<NcclPrediction> nccl_predict(const NcclModel& model, std::string_view op, double bytes) {
  std::optional<NcclPrediction> best;
  for (const auto& e : model.entries) {
    if (e.op != op || e.bandwidth_gbps <= 0) continue;
    const double us = e.latency_us + bytes / (1e3 * e.bandwidth_gbps);  // GB/s = 1e3 bytes per us
    if (!best || us * 1e-6 < best->time_s) best = NcclPrediction{us * 1e-6, e.algorithm + "/" + e.protocol};
  }
  return best;
}

}  // namespace gpuscale::results
