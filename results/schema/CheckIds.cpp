#include "results/schema/CheckIds.hpp"

#include <array>

namespace gpuscale::results::check_ids {
namespace {

#define GPUSCALE_LIST_CHECK_ID(constant, id) std::string_view(constant),
constexpr std::array kIds = {GPUSCALE_CHECK_IDS(GPUSCALE_LIST_CHECK_ID)};
constexpr std::array kTrainNames = {GPUSCALE_TRAIN_CHECK_NAMES(GPUSCALE_LIST_CHECK_ID)};
#undef GPUSCALE_LIST_CHECK_ID

}  // namespace

bool is_known(std::string_view id) {
  for (const auto known : kIds)
    if (id == known) return true;
  const std::string_view prefix = kTrainCheckPrefix;
  if (id.substr(0, prefix.size()) != prefix) return false;
  for (const auto name : kTrainNames)
    if (id.substr(prefix.size()) == name) return true;
  return false;
}

std::string known_text() {
  std::string out;
  for (const auto id : kIds) out += (out.empty() ? "" : ", ") + std::string(id);
  for (const auto name : kTrainNames) out += ", " + std::string(kTrainCheckPrefix) + std::string(name);
  return out;
}

std::vector<std::string> all() {
  std::vector<std::string> ids(kIds.begin(), kIds.end());
  for (const auto name : kTrainNames) ids.push_back(std::string(kTrainCheckPrefix) + std::string(name));
  return ids;
}

bool is_baseline(std::string_view id) {
  return id == kBaselineDrop || id == kBaselineMissing || id == kBaselineNewFailure;
}

bool judges_speed(std::string_view id) {
  static constexpr std::array kSpeed = {
      std::string_view(kNcclSocketTransport), std::string_view(kCollectiveBelowLink), std::string_view(kSlowPair),
      std::string_view(kSlowNode),            std::string_view(kNodeOutlier),         std::string_view(kComputeStraggler),
      std::string_view(kTrainStraggler),      std::string_view(kH2dSlow),             std::string_view(kHbmSlow),
      std::string_view(kGpuSlowSustained),    std::string_view(kBaselineDrop),        std::string_view(kNoRdmaAdapter),
      std::string_view(kGdrUnavailable),      std::string_view(kBudgetExceeded)};
  for (const auto speed : kSpeed)
    if (id == speed) return true;
  return false;
}

}  // namespace gpuscale::results::check_ids
