#pragma once
// The console table of the links phase and its figures (phase "links").
#include <ostream>
#include <vector>

#include "phases/links/LinksRecord.hpp"
#include "results/base/Figure.hpp"

namespace gpuscale::results {

// With the judge's marks on the records (the floors and the flags).
void write_links_table(const std::vector<LinksRecord>& records, const RecordMarks& marks, std::ostream& out);
// host_copy_bw per rank, direction, memory, mode and size; hbm_bw per kernel and hbm_peak_fraction;
// nvlink_errors and xid_events per rank; marked as `marks` says (beside a tenant, under the floor).
void append_figures(const std::vector<LinksRecord>& records, const RecordMarks& marks, std::vector<Figure>& out);

}  // namespace gpuscale::results
