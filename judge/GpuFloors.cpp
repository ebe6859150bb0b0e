#include "judge/GpuFloors.hpp"

namespace gpuscale::judge {

bool below_floor(double value, const results::Floor& floor) { return !(value >= floor.value); }

double best_gbps(std::uint64_t bytes, const std::vector<double>& samples_s, double median_gbps) {
  double fastest = 0;
  for (const double s : samples_s)
    if (s > 0 && (fastest == 0 || s < fastest)) fastest = s;
  return fastest > 0 ? static_cast<double>(bytes) / fastest / 1e9 : median_gbps;
}

}  // namespace gpuscale::judge
