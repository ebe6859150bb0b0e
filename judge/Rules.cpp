// The tables of the judge, built from the registries: each phase's rules (results/base/PhaseRegistry.def,
// phases::NAME::kRules in judge/<Name>Checks.cpp), then the cross-phase families (RuleRegistry.def).
#include <stdexcept>
#include <string>

#include "judge/PhaseRules.hpp"
#include "judge/Rule.hpp"

namespace gpuscale::judge {

#define GPUSCALE_PHASE(name, ...)      \
  namespace phases::name {        \
  extern const PhaseRules kRules; \
  }
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE

#define GPUSCALE_RULE_FAMILY(Name) extern const RuleFamily k##Name;
#include "judge/RuleRegistry.def"
#undef GPUSCALE_RULE_FAMILY

namespace {

constexpr const PhaseRules* kPhaseRules[] = {
#define GPUSCALE_PHASE(name, ...) &phases::name::kRules,
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
};

// The judge's order: the phases' families as the phases go, then the cross-phase ones.
constexpr const RuleFamily* kFamilies[] = {
#define GPUSCALE_PHASE(name, ...) &phases::name::kRules.family,
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
#define GPUSCALE_RULE_FAMILY(Name) &k##Name,
#include "judge/RuleRegistry.def"
#undef GPUSCALE_RULE_FAMILY
};

}  // namespace

std::span<const PhaseRules* const> all_phase_rules() { return kPhaseRules; }

const PhaseRules* find_phase_rules(std::string_view phase) {
  for (const auto* p : kPhaseRules)
    if (p->family.phase == phase) return p;
  return nullptr;
}

std::span<const RuleFamily* const> all_rule_families() { return kFamilies; }

const RuleFamily& find_rule_family(std::string_view name) {
  for (const auto* f : kFamilies)
    if (f->name == name) return *f;
  throw std::out_of_range("no rule family " + std::string(name));
}

void append(std::vector<Check>& out, std::vector<Check>&& checks) {
  for (auto& c : checks) out.push_back(std::move(c));
}

void append(Judged& out, Judged&& more) {
  append(out.checks, std::move(more.checks));
  for (auto& m : more.marks) out.marks.push_back(m);
  for (auto& o : more.outliers) out.outliers.push_back(std::move(o));
  if (more.suspects) out.suspects = std::move(more.suspects);
}

}  // namespace gpuscale::judge
