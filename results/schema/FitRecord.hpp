#pragma once
// The latency-bandwidth line t(n) = alpha + n * beta of one collective on one communicator, as the
// report keeps it (results/schema/Projection.hpp); fitted by results/models/AlphaBetaFit.hpp.
#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

struct AlphaBetaFit {
  double alpha_s = 0;
  double beta_s_per_byte = 0;
  int points_fitted = 0;
  int points_held_out = 0;
  // |predicted / measured - 1| over the held-out sizes; absent when none were held out.
  std::optional<double> held_out_median_error, held_out_max_error;
};

// The held-out errors are null when none were held out.
constexpr auto json_fields(const AlphaBetaFit*) {
  using T = AlphaBetaFit;
  return fields(field("alpha_s", &T::alpha_s), field("beta_s_per_byte", &T::beta_s_per_byte),
                field("points_fitted", &T::points_fitted), field("points_held_out", &T::points_held_out),
                field("held_out_median_error", &T::held_out_median_error),
                field("held_out_max_error", &T::held_out_max_error));
}

void to_json(nlohmann::json& j, const AlphaBetaFit& f);
void from_json(const nlohmann::json& j, AlphaBetaFit& f);

}  // namespace gpuscale::results
