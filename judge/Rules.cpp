// The tables of the judge, built from the registries: each phase's rules (results/base/PhaseRegistry.def,
// phases::NAME::kRules in phases/NAME/<Name>Checks.cpp), then the cross-phase families (RuleRegistry.def).
#include <stdexcept>
#include <string>
#include <vector>

#include "judge/PhaseRules.hpp"
#include "judge/Rule.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/base/SpeedJudged.hpp"
#include "results/schema/PhasesCompleted.hpp"

namespace gpuscale::judge {

#define GPUSCALE_RULE_FAMILY(Name) extern const RuleFamily k##Name;
#include "judge/RuleRegistry.def"
#undef GPUSCALE_RULE_FAMILY

namespace {

// `rules`, the phase `name`'s, over a whole report, reading the phase's records from `member`.
template <const char* name, auto member, const auto& rules>
PhaseRules over_report() {
  PhaseRules p{};
  p.family = {name, name, rules.reads, rules.severities, rules.stops_gpu_work,
              [](const RunReport& r, const RuleContext& c) { return rules.judge(r.*member, c); }, nullptr};
  if (rules.beside_tenant_marks)
    p.beside_tenant_marks = [](const RunReport& r, const SharedGpus& shared, const RuleContext& c,
                               std::vector<RecordMark>& out) { rules.beside_tenant_marks(r.*member, shared, c, out); };
  if (rules.measured)
    p.measured = [](const RunReport& r, const results::PlannedItem& item) {
      return rules.measured(r.*member, item, results::phase_completed(r, name));
    };
  if (rules.count_skips)
    p.count_skips = [](const RunReport& r, RecordSkips& out) { rules.count_skips(r.*member, out); };
  p.item_traits = rules.item_traits;
  return p;
}

std::span<const PhaseRules> phase_rules() {
  static const PhaseRules kPhaseRules[] = {
#define GPUSCALE_PHASE(name, member, records, json) \
  over_report<results::phase::name, &RunReport::member, phases::name::kRules>(),
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
  };
  return kPhaseRules;
}

template <class T>
std::vector<const T*> addresses(std::span<const T> items) {
  std::vector<const T*> out;
  for (const auto& i : items) out.push_back(&i);
  return out;
}

}  // namespace

std::span<const PhaseRules* const> all_phase_rules() {
  static const auto kAll = addresses(phase_rules());
  return kAll;
}

const PhaseRules* find_phase_rules(std::string_view phase) {
  for (const auto* p : all_phase_rules())
    if (p->family.phase == phase) return p;
  return nullptr;
}

// The judge's order: the phases' families as the phases go, then the cross-phase ones.
std::span<const RuleFamily* const> all_rule_families() {
  static const auto kFamilies = [] {
    std::vector<const RuleFamily*> out;
    for (const auto* p : all_phase_rules()) out.push_back(&p->family);
#define GPUSCALE_RULE_FAMILY(Name) out.push_back(&k##Name);
#include "judge/RuleRegistry.def"
#undef GPUSCALE_RULE_FAMILY
    return out;
  }();
  return kFamilies;
}

const RuleFamily& find_rule_family(std::string_view name) {
  for (const auto* f : all_rule_families())
    if (f->name == name) return *f;
  throw std::out_of_range("no rule family " + std::string(name));
}

RuleContext rule_context(const RunReport& report, std::string_view phase, const std::vector<results::Figure>* figures) {
  RuleContext c;
  c.straggler_threshold = report.straggler_threshold;
  c.busy_utilization_pct = report.busy_utilization_pct;
  for (const auto& e : report.ranks) c.ranks.push_back({e.node, e.local_rank, results::speed_judged(e.backend)});
  c.phase = phase;
  c.figures = figures;
  c.marks = &report.marks;
  c.suspects = &report.suspects;
  return c;
}

}  // namespace gpuscale::judge
