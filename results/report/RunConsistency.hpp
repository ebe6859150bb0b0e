#pragma once
// A run report whose own fields contradict each other: gpuscale never writes one, so a file that holds
// one was edited or made by hand, and judging it would judge something that never ran. Every reader
// of run files (results/report/JsonReporter.hpp: read_report_file) refuses it, one line, exit 2.
//
// The contradictions, each against the file's own fields:
//   - world.size below 1, world.nodes outside 1..world.size;
//   - ranks[] neither empty (a run that ended before env gathered it: env not completed) nor one entry
//     per rank of world.size, in rank order;
//   - a rank named anywhere (checks, pairs, compute/burn/links/trace records, DDP ranks, collectives'
//     slowest and wrong ranks, tenants, outliers, failure) outside 0..world.size-1 (-1 where the field
//     allows "unknown"), or a node outside 0..world.nodes-1;
//   - straggler_threshold not a finite fraction in (0, 100], which --straggler-threshold refuses;
//     busy_utilization_pct not a percent in (0, 100], which --expect refuses;
//   - phases_completed naming a phase that does not exist, twice, or also in phases_skipped, or naming
//     a phase whose records are absent (env without one environment per rank, compute, burn, links,
//     train without records, collectives without its object).
#include <string>

#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

// The first contradiction in REPORT, as one line ("checks[2] (slow-node) names rank 9; world.size is
// 4"), or "" for a report whose fields agree.
std::string contradiction(const RunReport& report);

}  // namespace gpuscale::results
