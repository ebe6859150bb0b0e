#pragma once
// What NCCL's own cost model (phases/collectives/NcclModel.hpp) predicts for one call: the fastest enabled
// algorithm and protocol, and its time.
#include <optional>
#include <string>
#include <string_view>

#include "phases/collectives/NcclModel.hpp"

namespace gpuscale::results {

struct NcclPrediction {
  double time_s = 0;
  std::string choice;  // "Ring/Simple"
};

// The fastest enabled pair of the model for `bytes` (nccl-tests' size) of op; nullopt if none.
std::optional<NcclPrediction> nccl_predict(const NcclModel& model, std::string_view op, double bytes);

}  // namespace gpuscale::results
