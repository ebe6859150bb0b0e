#pragma once
// Which figures two runs (compare) or a run and a baseline (--baseline) judge, and how far a figure must
// move to have moved at all. docs/REPORT.md (compare) states the rule; this is its one copy.
//
// Not judged, with the reason printed beside the figure:
//   - the speed of a collective over one rank (Figure::local_copy): a copy in the rank's own memory,
//     whose busbw is 0 by definition and whose time says nothing about any link;
//   - a figure whose timed operation took under kShortestJudgedTime_s in either run: launch
//     latency, timer resolution and the scheduler decide such times, not the hardware;
//   - by compare only, a figure that varies between healthy runs more than within one
//     (Figure::varies_between_runs): two runs cannot tell its change from a regression, while a
//     baseline's spread over several runs (judge/BaselineRules.hpp) can.
// A judged figure regresses when it moved the worse way by more than the tolerance AND by more than
// the noise the runs measured: the sum of both runs' half p10..p90 bands (Figure::spread), so that the
// two bands do not overlap, and a time by kShortestJudgedTime_s at least. A figure whose record kept
// no samples has no band: the tolerance alone.
#include <string>

#include "results/base/Figure.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::results {

inline constexpr double kShortestJudgedTime_s = 10e-6;

// Half the p10..p90 width of `s` relative to its median, times |value|: the band of samples carried
// over to a figure derived from them (a bandwidth from a time). 0 without samples or a median of 0.
double band_of(const Summary& s, double value);
// The same from raw samples.
double band_of_samples(const std::vector<double>& samples, double value);
// Half the p10..p90 width of the samples themselves, in their unit: the band of a figure that is their
// own mean or median where that can be 0 (so that no relative band exists). 0 for fewer than 2.
double band_in_unit(const std::vector<double>& samples);

// Why `f` is not judged ("one rank: a local copy", "timed under 10 us (3.2 us)"), or "" when it is.
// A figure in seconds with no op_time_s is its own time.
std::string not_judged_reason(const Figure& f);
// For two runs' measurements of one figure (compare): the first reason either has, or that it varies
// between runs.
std::string not_judged_reason(const Figure& base, const Figure& latest);

// Whether `latest` lies past the noise of `base` and itself: |latest - base| > base.spread + latest.spread,
// and, for a figure in seconds, |latest - base| >= kShortestJudgedTime_s.
bool beyond_noise(const Figure& base, const Figure& latest);

}  // namespace gpuscale::results
