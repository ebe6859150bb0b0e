#include "results/base/FigureNoise.hpp"

#include <cmath>

#include "results/base/Format.hpp"

namespace gpuscale::results {
namespace {

double judged_time_s(const Figure& f) { return f.op_time_s > 0 ? f.op_time_s : f.unit == "s" ? f.value : 0; }

}  // namespace

double band_of(const Summary& s, double value) {
  if (s.count < 2 || !std::isfinite(s.p10) || !std::isfinite(s.p90) || !(s.median != 0)) return 0;
  return (s.p90 - s.p10) / (2 * std::fabs(s.median)) * std::fabs(value);
}

double band_of_samples(const std::vector<double>& samples, double value) { return band_of(summarize(samples), value); }

double band_in_unit(const std::vector<double>& samples) {
  if (samples.size() < 2) return 0;
  const auto s = summarize(samples);
  return (s.p90 - s.p10) / 2;
}

std::string not_judged_reason(const Figure& f) {
  if (f.local_copy) return "one rank: a local copy";
  const double t = judged_time_s(f);
  if (t > 0 && t < kShortestJudgedTime_s)
    return "timed under " + shortest(kShortestJudgedTime_s * 1e6) + " us (" + fixed(t * 1e6, 1) + " us)";
  return "";
}

std::string not_judged_reason(const Figure& base, const Figure& latest) {
  if (auto why = not_judged_reason(base); !why.empty()) return why;
  if (auto why = not_judged_reason(latest); !why.empty()) return why;
  if (base.varies_between_runs || latest.varies_between_runs)
    return "varies between healthy runs more than within one (a baseline of several runs judges it)";
  return "";
}

bool beyond_noise(const Figure& base, const Figure& latest) {
  const double moved = std::fabs(latest.value - base.value);
  if (std::isnan(moved)) return true;
  // Two times closer than the shortest judged time differ by launch latency and timer resolution,
  // whatever their ratio: a difference of two times (exposed communication) sits near 0 and moves
  // "up from 0" by a fraction of a microsecond.
  if (base.unit == "s" && moved < kShortestJudgedTime_s) return false;
  return moved > base.spread + latest.spread;
}

}  // namespace gpuscale::results
