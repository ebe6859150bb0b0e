#pragma once
#include "results/render/Reporter.hpp"

namespace gpuscale::results {

// Every figure as one tidy table, one row per figure (docs/REPORT.md, "CSV"):
//   run_id,output_set,start_time,host,node,rank,local_rank,gpu_uuid,gpu_model,phase,metric,labels,value,
//   unit,judgement
// run_id is results::run_id (the same in every rewrite of the run), output_set the write's id. A figure
// of one rank fills host..gpu_model from that rank's record and one of a node host and node; the
// figures of the whole job leave them empty. labels are the figure's other labels, "key=value;key=value".
// judgement is the per-figure judgement the run has: "outlier" (a fleet outlier, RunReport::outliers),
// "within_fleet" (compared with its model's fleet and not an outlier), "beside_tenant" (measured while
// another process computed on its GPU: not judged for speed) or "not_judged". Where the report has an
// output set, a first row (phase run, metric verdict, labels result=PASS|FAIL|INCOMPLETE, value 1 for a
// pass, else 0) says that write's verdict. Fields are quoted as RFC 4180 says; values are the shortest
// decimal text that reads back to the same double.
class CsvReporter final : public Reporter {
 public:
  void write(const RunReport& report, std::ostream& out) const override;
};

}  // namespace gpuscale::results
