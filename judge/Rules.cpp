// The table of rule families, built from the registry RuleRegistry.def.
#include <stdexcept>
#include <string>

#include "judge/Rule.hpp"

namespace gpuscale::judge {

#define GPUSCALE_RULE_FAMILY(Name) extern const RuleFamily k##Name;
#include "judge/RuleRegistry.def"
#undef GPUSCALE_RULE_FAMILY

namespace {
constexpr const RuleFamily* kFamilies[] = {
#define GPUSCALE_RULE_FAMILY(Name) &k##Name,
#include "judge/RuleRegistry.def"
#undef GPUSCALE_RULE_FAMILY
};
}  // namespace

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
