#pragma once
#include "results/render/Reporter.hpp"

namespace gpuscale::results {

// Every check of the run as a tidy table (docs/REPORT.md, "Checks CSV"):
//   run_id,output_set,start_time,id,severity,category,findings,host,node,rank,local_rank,gpu_uuid,message,fix
// One row per rank a check concerns; one per node where it concerns every rank of a node of several
// ranks (rank cells empty) or names nodes and no ranks; one row with empty place cells for a check of
// the whole job, so a check's rows group by host as the figures
// of CsvReporter do. findings is how many findings the check stands for (Check::count); message is the
// check's message, which says what was found and how to fix it (a check with several findings keeps
// each one's own message in the JSON's "details"); category and fix are the check table's for the id
// (results/base/CheckTable.hpp), empty for an id it does not hold. On a check of several rows a message over 240
// bytes is cut there, with a note (the JSON keeps it whole), so the file grows linearly with the job. Fields are quoted
// as RFC 4180 says.
class ChecksCsvReporter final : public Reporter {
 public:
  void write(const RunReport& report, std::ostream& out) const override;
};

}  // namespace gpuscale::results
