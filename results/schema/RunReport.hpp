#pragma once
// Everything one run produced, gathered on rank 0. Every reporter is handed this one type
// (like google/benchmark's Run), so each output format shows the same facts.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "phases/burn/BurnRecord.hpp"
#include "phases/collectives/CollectiveRecords.hpp"
#include "phases/compute/ComputeRecord.hpp"
#include "phases/links/LinksRecord.hpp"
#include "phases/train/TraceSpan.hpp"
#include "phases/train/TrainRecord.hpp"
#include "results/base/Check.hpp"
#include "results/base/Outlier.hpp"
#include "results/base/PlanRecord.hpp"
#include "results/base/RecordMarks.hpp"
#include "results/base/RuleInputRanges.hpp"
#include "results/base/RuleOutcome.hpp"
#include "results/base/Suspect.hpp"
#include "results/schema/BudgetRecord.hpp"
#include "results/schema/MidRunTenancy.hpp"
#include "results/schema/Projection.hpp"
#include "results/world/Emulation.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::results {

// Bumped on any change a reader must know about; readers refuse versions outside
// [kOldestSchemaVersion, kSchemaVersion]. 2: `complete` (a file without it is read as complete).
inline constexpr int kSchemaVersion = 2;
inline constexpr int kOldestSchemaVersion = 1;

struct Verdict {
  bool passed = true;
  bool incomplete = false;  // the run has not finished (still running, or ended without a word): never a pass
  std::vector<std::string> reasons;  // why it failed (or notable warnings), one line each
  std::vector<RuleOutcome> rules;    // every rule and threshold evaluated, in order (PASS/WARN/FAIL/SKIP)
  std::vector<CoverageItem> coverage;  // every item of the run's plan, measured or not and why (judge/Coverage.hpp)
};

// Why a run ended early: a runtime error (exit 3) or a signal (exit 4). Only rank 0 writes it.
struct RunFailure {
  int exit_code = 0;
  std::string message;                    // the first failing rank's one line, with phase, op, size
  int rank = -1;                          // the rank that failed first (-1: unknown)
  std::vector<int> ranks_not_responding;  // stalled or dead: they did not answer the roll call
};

// A phase that did not run because an env check made GPU work impossible (Check::blocks_gpu_work).
struct SkippedPhase {
  std::string phase;
  std::string reason;
};

struct RunReport {
  int schema_version = kSchemaVersion;
  std::string tool_version;
  std::string command_line;
  std::string start_time;  // ISO 8601, UTC
  double elapsed_s = 0;
  int world_size = 0;
  int node_count = 0;
  std::optional<Emulation> emulation;  // a test layout (Emulation.hpp); absent on a real launch
  std::vector<std::string> phases_completed;
  std::vector<SkippedPhase> phases_skipped;
  std::vector<Check> checks;
  Verdict verdict;
  // The user's --straggler-threshold (fraction over the median): the one threshold of the straggler
  // checks and of the verdict's "no stragglers" rule, kept so that `report` judges as the run did.
  double straggler_threshold = kDefaultStragglerThreshold;
  // The mean utilization (percent) at which a GPU the job left idle reads busy with someone else's
  // work (gpu-in-use; results/world/GpuTenants.hpp): the default (RuleInputRanges.hpp), or --expect's,
  // kept so that `report` judges tenancy as the run did.
  double busy_utilization_pct = kDefaultBusyUtilizationPct;
  bool interrupted = false;
  // False in every write before the job's last one, so a file left behind by a job that died (even
  // kill -9) reads as not finished, and its verdict never passes.
  bool complete = true;
  // Which write produced this file (ReportFiles.hpp: output_set_id): every file written at one moment
  // (JSON, CSV, HTML, trace) carries the same id, so files from different moments can be told apart.
  std::string output_set;
  std::vector<TraceSpan> trace_spans;  // a few training steps per rank, for --trace
  // Each phase's records, one member per line of the registry (results/base/PhaseRegistry.def says what
  // each holds): ranks (env's, index = rank), links, compute, ...
#define GPUSCALE_PHASE(name, member, records, json) records member;
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
  // The judge's marks on those records (results/base/RecordMarks.hpp): set afresh at each judgement,
  // written into the records' objects in the JSON (MarkJson.hpp) and taken back out when it is read.
  RecordMarks marks;
  // The judge's suspects from collectives' slow-node isolation (Suspect.hpp), most suspect first: ranked
  // afresh at each judgement from the isolation's measurements, written in the JSON into the isolation's
  // object (collectives.isolation.suspects) and taken back out when it is read.
  SuspectList suspects;
  std::optional<Projection> projection;  // --project-ranks: fitted from collectives (and train) above
  std::optional<BudgetRecord> budget;
  // What the command planned to measure (PlanRecord.hpp): the judge's coverage list reads it. Absent in
  // runs written before it was recorded, which then have no coverage.
  std::optional<RunPlanRecord> plan;
  // Each rank's look at its GPU after every phase (MidRunTenancy.hpp): the measurements. Only looks
  // that listed a process or sampled utilization are kept.
  std::vector<TenancyLook> tenancy_looks;
  // The judge's output from those looks, written at each judgement: processes that appeared on a
  // job's GPU after env, and the phases whose figures were measured beside one (a phase named here
  // was not measured on GPUs of its own). Read back, they are judged again from tenancy_looks; a file
  // without looks (an older one) keeps its own, marked tenants_not_rejudged.
  std::vector<MidRunTenant> tenants;
  std::vector<std::string> shared_phases;
  bool tenants_not_rejudged = false;
  // Figures of GPUs and nodes that lie out from the job's centre (judge/FleetOutliers.hpp), furthest out
  // first; recomputed with the verdict from the figures above.
  std::vector<Outlier> outliers;
  std::optional<RunFailure> failure;  // set when the run ended early; absent from the JSON otherwise
};

// "PASS", "FAIL" or "INCOMPLETE": the one word every output shows for the verdict.
const char* verdict_result(const Verdict& v);

// The start time in compact form, "20261130T000000Z" (ISO 8601 without '-' and ':'), or "unknown".
std::string compact_start_time(const std::string& start_time);

// The run's id, e.g. "20261130T000000Z-4242": its compact start time and rank 0's PID (the start time
// alone where no rank recorded one). The same in every write of the run and in every rewrite of it by
// `gpuscale report`, so rows of runs concatenated stay apart; the output sets of the run's own writes
// (launch/ReportFiles.hpp: output_set_id) begin with it.
std::string run_id(const RunReport& report);

// Why `report` is not a finished run ("failed", "interrupted", "complete: false"), or "" for one that
// finished. The one test that compare and baseline apply to the runs they read.
std::string unfinished_reason(const RunReport& report);

constexpr auto json_fields(const Verdict*) {
  return fields(field("passed", &Verdict::passed),
                computed("result", [](const Verdict& v) { return verdict_result(v); },
                         [](const auto& in, Verdict& v) { v.incomplete = in == "INCOMPLETE"; })
                    .optional(),
                field("reasons", &Verdict::reasons), field("rules", &Verdict::rules).optional(),
                field("coverage", &Verdict::coverage).omitted_when_default());
}

constexpr auto json_fields(const RunFailure*) {
  using T = RunFailure;
  return fields(field("exit_code", &T::exit_code), field("message", &T::message), field("rank", &T::rank),
                field("ranks_not_responding", &T::ranks_not_responding));
}

constexpr auto json_fields(const SkippedPhase*) {
  return fields(field("phase", &SkippedPhase::phase), field("reason", &SkippedPhase::reason));
}

// "world": {"size", "nodes", "emulated" (absent on a real launch)}.
nlohmann::json world_json(const RunReport& r);
void read_world(const nlohmann::json& world, RunReport& r);

// The report without its per-rank arrays (for_each_per_rank_array, below: JsonReporter streams them).
// schema_version is written as this build's whatever was read; from_json checks it before the list.
constexpr auto json_fields(const RunReport*) {
  using T = RunReport;
  return fields(
      computed(
          "schema_version", [](const T&) { return kSchemaVersion; },
          [](const auto& in, T& r) { in.get_to(r.schema_version); }),
      computed("tool", [](const T&) { return "gpuscale"; }), field("tool_version", &T::tool_version),
      field("command_line", &T::command_line), field("start_time", &T::start_time), field("elapsed_s", &T::elapsed_s),
      computed("world", world_json, read_world), field("phases_completed", &T::phases_completed),
      field("phases_skipped", &T::phases_skipped).optional(), field("checks", &T::checks).optional(),
      field("verdict", &T::verdict).optional(), field("interrupted", &T::interrupted),
      field("straggler_threshold", &T::straggler_threshold).optional(),
      field("busy_utilization_pct", &T::busy_utilization_pct).optional(),
      field("complete", &T::complete).optional(),  // required from version 2 on: from_json checks it
      field("output_set", &T::output_set).optional(),
  // The phases whose records are one field (those per_rank are streamed: for_each_per_rank_array).
#define GPUSCALE_PHASE_JSON_per_rank(member)
#define GPUSCALE_PHASE_JSON_whole(member) field(#member, &T::member).optional(),
#define GPUSCALE_PHASE(name, member, records, json) GPUSCALE_PHASE_JSON_##json(member)
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
#undef GPUSCALE_PHASE_JSON_whole
#undef GPUSCALE_PHASE_JSON_per_rank
      field("projection", &T::projection).omitted_when_default(),
      field("budget", &T::budget).omitted_when_default(), field("plan", &T::plan).omitted_when_default(),
      field("tenancy_looks", &T::tenancy_looks).omitted_when_default(),
      field("tenants", &T::tenants).omitted_when_default(),
      field("shared_phases", &T::shared_phases).omitted_when_default(),
      field("tenants_not_rejudged", &T::tenants_not_rejudged).omitted_when_default(),
      field("outliers", &T::outliers).omitted_when_default(), field("failure", &T::failure).omitted_when_default());
}

void to_json(nlohmann::json& j, const Verdict& v);
void from_json(const nlohmann::json& j, Verdict& v);
void to_json(nlohmann::json& j, const SkippedPhase& s);
void from_json(const nlohmann::json& j, SkippedPhase& s);
void to_json(nlohmann::json& j, const RunFailure& f);
void from_json(const nlohmann::json& j, RunFailure& f);
void to_json(nlohmann::json& j, const RunReport& r);
// The per-rank arrays, most of a fleet's report, which the JSON reader and writer take element by element
// (JsonReporter.cpp), so that a report is never held whole as one document: F(key, &RunReport::member)
// for each: the trace's spans and each phase's records that the registry lays out per_rank.
template <typename F>
void for_each_per_rank_array(F&& f) {
  f("trace_spans", &RunReport::trace_spans);
#define GPUSCALE_PHASE_JSON_per_rank(member) f(#member, &RunReport::member);
#define GPUSCALE_PHASE_JSON_whole(member)
#define GPUSCALE_PHASE(name, member, records, json) GPUSCALE_PHASE_JSON_##json(member)
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
#undef GPUSCALE_PHASE_JSON_whole
#undef GPUSCALE_PHASE_JSON_per_rank
}
// to_json's document with each per-rank array empty.
void to_json_shell(nlohmann::json& j, const RunReport& r);

// Where the JSON writes the marks on `records`, one of RunReport's phase members (its phase's MarkKeys,
// declared beside its records; none for records without marks).
template <class Records>
constexpr std::span<const MarkKey> mark_keys_of(const Records&) {
  return mark_keys(static_cast<const Records*>(nullptr));
}
// The MarkKey of `mark`: nullptr where no phase declares its kind, a mark no output would show.
const MarkKey* find_mark_key(const RecordMark& mark);
// Throws std::runtime_error naming the problem for another schema version or a malformed document.
void from_json(const nlohmann::json& j, RunReport& r);

}  // namespace gpuscale::results
