#pragma once
// The judge: records in, judgement out. It runs every rule family (Rule.hpp: each phase's own,
// PhaseRules.hpp, then those of RuleRegistry.def) over a RunReport's records, then the families over
// its figures, aggregates the findings, adds the --baseline's and folds the verdict (VerdictRules.hpp).
// Pure (no MPI, no CUDA, no files); rank 0 calls it before each write of the report, and `gpuscale
// report` on a saved run, so a saved run is judged by today's rules.
#include <functional>
#include <string_view>
#include <vector>

#include "judge/Rule.hpp"
#include "results/base/Figure.hpp"
#include "results/report/Expectations.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::judge {

// Every family over the records (not those over the figures), in the registry's order: each phase's
// families in the order of the phases, each followed by the per-phase families for that phase, then
// the whole-run families.
Judged judge_records(const RunReport& report);

// One family by name (Rule.hpp), for a phase that needs its findings before the report is written:
// env's decide whether the GPU phases run.
Judged judge_family(std::string_view name, const RunReport& report);

// The one place where marks reach the report: `marks` (stragglers, slow, wrong results, floors, beside a
// tenant) replace the report's (RunReport::marks). Throws std::logic_error for a mark whose phase declares
// no key for its kind (results/base/RecordMarks.hpp: MarkKey), which no output would show.
void apply_marks(RunReport& report, const std::vector<RecordMark>& marks);

// A change to the figures before the figure families and the verdict see them (a test seam's).
using FigureAdjust = std::function<void(std::vector<results::Figure>&)>;

// Judges `report` afresh: its checks, marks, outliers and verdict are replaced by what the rules find
// in its records and figures. A check whose id no rule raises (results/base/CheckIds.hpp: a newer
// version's) is kept as it was.
void judge(RunReport& report, const results::Expectations& expectations, const FigureAdjust& adjust = {});

}  // namespace gpuscale::judge
