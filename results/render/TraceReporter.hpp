#pragma once
// Chrome Trace Event JSON (chrome://tracing, Perfetto): {"traceEvents": [...], "displayTimeUnit": "ms"}.
// Each span becomes a complete event (ph "X", ts and dur in microseconds, pid = rank, tid = the lane's
// index within its rank); metadata events name every process "rank R" and every thread its lane.
#include <vector>

#include "phases/train/TraceSpan.hpp"
#include "results/render/Reporter.hpp"

namespace gpuscale::results {

// Writes the report's trace_spans, one event at a time.
class TraceReporter final : public Reporter {
 public:
  void write(const RunReport& report, std::ostream& out) const override;
};

}  // namespace gpuscale::results
