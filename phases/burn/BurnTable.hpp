#pragma once
// The console table of the burn phase and its figures (phase "burn").
#include <ostream>
#include <vector>

#include "phases/burn/BurnRecord.hpp"
#include "results/base/Figure.hpp"

namespace gpuscale::results {

// With the judge's marks on the records (the floor and the flags).
void write_burn_table(const std::vector<BurnRecord>& records, const RecordMarks& marks, std::ostream& out);
// sustained_tflops, first_to_sustained, clock_p50 and peak_temperature per rank, marked as `marks` says
// (beside a tenant, under the floor).
void append_figures(const std::vector<BurnRecord>& records, const RecordMarks& marks, std::vector<Figure>& out);

}  // namespace gpuscale::results
