#pragma once
// What one rank measured of one training configuration, and how rank 0 turns every rank's part into
// the configuration's record. The type travels from every rank to rank 0 as JSON (to_json/from_json,
// for the gather); the assembly is plain arithmetic on records, unit-tested without MPI or a device.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "phases/train/TraceSpan.hpp"
#include "phases/train/TrainRecord.hpp"

namespace gpuscale::workloads {

// One rank's part of a single or DDP configuration: its figures, or the reason it could not run.
struct TrainRankResult {
  results::TrainRankFigures figures;
  int buckets = 0;
  bool window = false;  // the buckets were the communicator's window memory
  // --comm-ctas auto: (CTAs, the slowest rank's median step s) per candidate, the kept one first;
  // empty where nothing was tuned.
  std::vector<std::pair<int, double>> cta_trials;
  std::vector<results::TraceSpan> trace;  // one traced step, where asked for
  std::string skipped_reason;             // non-empty: not run (the rest is unset)
};

void to_json(nlohmann::json& j, const TrainRankResult& r);
void from_json(const nlohmann::json& j, TrainRankResult& r);

// The figures derived from the ranks' own (rank 0): per timed step the slowest rank's time (or, with
// slowest = false, the first rank's: single runs and DP time each rank alone), its summary,
// samples/s, the medians over ranks of compute-only and communication time, the exposed
// communication (step minus compute-only, at least 0), the overlap (100 (1 - exposed / comm),
// clamped to 0..100) and the largest peak memory. Every rank timed as many steps. No ranks: unchanged.
void derive_figures(results::TrainRecord& record, std::vector<results::TrainRankFigures> ranks, bool slowest);

// Rank 0: `record` (its configuration filled in) completed from every rank's result, index = rank;
// nullopt for a rank that took no part. The first skipped rank's reason skips the record. Trace
// spans are appended to `trace` when it is not null.
void assemble_record(results::TrainRecord& record, const std::vector<std::optional<TrainRankResult>>& ranks,
                     bool slowest, std::vector<results::TraceSpan>* trace);

}  // namespace gpuscale::workloads
