#pragma once
// A fleet outlier: one figure of one GPU or node that lies out from the job's robust centre for the
// same figure and GPU model (median, and MAD x 1.4826 as sigma). The judge finds them
// (judge/FleetOutliers.hpp) and stores them in the report (RunReport::outliers); renderers list them.
// A job of hundreds of nodes names its bad node here, not in per-rank tables.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

// The distance, in robust sigmas, that a figure must also lie out before it counts: a spread that
// wide is not the measurement's own noise (Iglewicz and Hoaglin's 3.5 on the modified z-score).
inline constexpr double kOutlierSigmas = 3.5;
// Below this many GPUs (or nodes) of a model there is no centre to judge against.
inline constexpr std::size_t kOutlierMinGroup = 3;

// One figure of one GPU or node, and how far it lies from the centre of its figure and model.
struct Outlier {
  int node = 0;
  std::string host;
  int rank = -1;        // the GPU's rank; -1: a per-node figure
  std::string gpu;      // gpu_labels' name of the GPU ("host#3"); "" for a per-node figure
  std::string model;    // the GPU model the centre was taken over ("cpu" on the cpu backend)
  std::string phase;    // the figure's phase: "compute", "links", ...
  std::string figure;   // "phase metric labels", the labels without rank or node
  std::string unit;
  double value = 0, median = 0;
  double worse = 0;     // how much worse than the median, as a fraction of it (0.25: 25% worse; < 0: better)
  double sigmas = 0;    // robust distance from the median on the worse side (inf: no spread at all)
};

// Each node's furthest outlier of `outliers` (furthest first, as the judge orders them): the per-node
// table the console and HTML show.
std::vector<Outlier> worst_per_node(const std::vector<Outlier>& outliers);

// JSON has no infinity: a sigmas that is not finite is written as null, and null reads back as infinity.
struct InfinityAsNull {
  static void write(nlohmann::json& out, double value);
  static void read(const nlohmann::json& in, double& value);
};

constexpr auto json_fields(const Outlier*) {
  using T = Outlier;
  return fields(field("node", &T::node), field("host", &T::host), field("rank", &T::rank), field("gpu", &T::gpu),
                field("model", &T::model), field("phase", &T::phase), field("figure", &T::figure),
                field("unit", &T::unit), field("value", &T::value), field("median", &T::median),
                field("worse", &T::worse), field("sigmas", &T::sigmas).as<InfinityAsNull>());
}

void to_json(nlohmann::json& j, const Outlier& v);
void from_json(const nlohmann::json& j, Outlier& v);

}  // namespace gpuscale::results
