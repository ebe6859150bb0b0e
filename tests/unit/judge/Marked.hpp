#pragma once
// For tests that look at a rule's checks and at the marks it leaves on records: runs the rule, then
// applies its marks with the judge's apply_marks, as a write of the report does.
#include <vector>

#include "judge/FloorChecks.hpp"
#include "judge/Judge.hpp"
#include "phases/burn/BurnChecks.hpp"
#include "phases/compute/ComputeChecks.hpp"
#include "phases/links/LinksChecks.hpp"
#include "phases/train/TrainChecks.hpp"

namespace gpuscale::judge {

template <class Records, class Rule>
std::vector<Check> marked(Records& records, Records RunReport::*member, Rule&& rule) {
  RunReport run;
  run.*member = records;
  auto judged = rule(run.*member);
  apply_marks(run, judged.marks);
  records = run.*member;
  return judged.checks;
}

inline std::vector<Check> burn_checks_marked(std::vector<results::BurnRecord>& records, double threshold) {
  return marked(records, &RunReport::burn, [&](const auto& r) { return burn_checks(r, threshold); });
}
inline std::vector<Check> links_checks_marked(std::vector<results::LinksRecord>& records, double threshold) {
  return marked(records, &RunReport::links, [&](const auto& r) { return links_checks(r, threshold); });
}
inline std::vector<Check> compute_checks_marked(std::vector<results::ComputeRecord>& records, double threshold) {
  return marked(records, &RunReport::compute, [&](const auto& r) { return compute_checks(r, threshold); });
}
inline std::vector<Check> train_checks_marked(results::TrainResults& results, double threshold) {
  return marked(results, &RunReport::train, [&](const auto& r) { return train_checks(r, threshold); });
}
inline std::vector<Check> floor_checks_marked(RunReport& run) {
  auto judged = floor_checks(run);
  apply_marks(run, judged.marks);
  return judged.checks;
}

}  // namespace gpuscale::judge
