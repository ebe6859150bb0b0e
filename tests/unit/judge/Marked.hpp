#pragma once
// For tests that look at a rule's checks and at the marks it leaves on records: runs the rule, then
// keeps its marks with the judge's apply_marks (which refuses a kind no phase declares a key for), as a
// write of the report does.
#include <vector>

#include "judge/FloorChecks.hpp"
#include "judge/Judge.hpp"
#include "phases/burn/BurnChecks.hpp"
#include "phases/compute/ComputeChecks.hpp"
#include "phases/links/LinksChecks.hpp"
#include "phases/train/TrainChecks.hpp"

namespace gpuscale::judge {

// The rule's checks; `marks`, where given, receives its marks as the report would keep them.
template <class Rule>
std::vector<Check> marked(Rule&& rule, RecordMarks* marks) {
  RunReport run;
  auto judged = rule();
  apply_marks(run, judged.marks);
  if (marks) *marks = run.marks;
  return judged.checks;
}

inline std::vector<Check> burn_checks_marked(const std::vector<results::BurnRecord>& records, double threshold,
                                             RecordMarks* marks = nullptr) {
  return marked([&] { return burn_checks(records, threshold); }, marks);
}
inline std::vector<Check> links_checks_marked(const std::vector<results::LinksRecord>& records, double threshold,
                                              RecordMarks* marks = nullptr) {
  return marked([&] { return links_checks(records, threshold); }, marks);
}
inline std::vector<Check> compute_checks_marked(const std::vector<results::ComputeRecord>& records, double threshold,
                                                RecordMarks* marks = nullptr) {
  return marked([&] { return compute_checks(records, threshold); }, marks);
}
inline std::vector<Check> train_checks_marked(const results::TrainResults& results, double threshold,
                                              RecordMarks* marks = nullptr) {
  return marked([&] { return train_checks(results, threshold); }, marks);
}
// The floor rule's checks; its marks replace `run`'s.
inline std::vector<Check> floor_checks_marked(RunReport& run) {
  auto judged = floor_checks(run);
  apply_marks(run, judged.marks);
  return judged.checks;
}

}  // namespace gpuscale::judge
