#pragma once
// The HTML report's section per phase, <section id="phase-NAME">, titled in words: its result tables
// and its charts (results/charts/PhaseCharts.hpp). The tables are the phase's figures pivoted: one table per
// set of label keys, a row per label values, a column per metric. Figures labelled by rank collapse
// to one row over the GPUs (the median, then [min - max]), so a row does not grow with the job; every
// per-rank value stays in the JSON and CSV. A table of more than kOpenRows rows starts folded. A cell
// with a figure measured beside another process on its GPU carries kBesideTenantMark.
#include <ostream>
#include <string>
#include <vector>

#include "results/base/Figure.hpp"
#include "results/charts/PhaseCharts.hpp"

namespace gpuscale::results {

inline constexpr std::size_t kOpenRows = 40;
// Beside a value measured while another process computed on its GPU (Figure::beside_tenant), with a
// note under the phase's title that says how many and why they are left out of its charts.
inline constexpr const char* kBesideTenantMark = "\u2020";  // dagger

// A sentence shown at the top of a phase's section, before its charts and tables (the projection's
// notes: what its figures cannot say).
struct PhaseNote {
  std::string phase;
  std::string text;
};

// The phases in the order a run does them, each with its title in words; a phase without figures or
// charts writes nothing, its notes included.
void write_phase_sections(const std::vector<Figure>& figures, const std::vector<ChartSection>& charts,
                          const std::vector<PhaseNote>& notes, std::ostream& out);

}  // namespace gpuscale::results
