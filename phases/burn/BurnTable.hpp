#pragma once
// The console table of the burn phase and its figures (phase "burn").
#include <ostream>
#include <vector>

#include "phases/burn/BurnRecord.hpp"
#include "results/base/Figure.hpp"

namespace gpuscale::results {

void write_burn_table(const std::vector<BurnRecord>& records, std::ostream& out);
// sustained_tflops, first_to_sustained, clock_p50 and peak_temperature per rank.
void append_figures(const std::vector<BurnRecord>& records, std::vector<Figure>& out);

}  // namespace gpuscale::results
