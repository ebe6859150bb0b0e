#include "results/BudgetRecord.hpp"

#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"

namespace gpuscale::results {

void to_json(nlohmann::json& j, const PhaseBudget& p) {
  j = {{"phase", p.phase},     {"deadline_s", p.deadline_s}, {"ended_s", p.ended_s},
       {"longest", p.longest}, {"longest_s", p.longest_s},   {"dropped", p.dropped}};
}

void from_json(const nlohmann::json& j, PhaseBudget& p) {
  j.at("phase").get_to(p.phase);
  j.at("deadline_s").get_to(p.deadline_s);
  j.at("ended_s").get_to(p.ended_s);
  get_if_present(j, "longest", p.longest);
  get_if_present(j, "longest_s", p.longest_s);
  get_if_present(j, "dropped", p.dropped);
}

void to_json(nlohmann::json& j, const BudgetRecord& b) { j = {{"budget_s", b.budget_s}, {"phases", b.phases}}; }

void from_json(const nlohmann::json& j, BudgetRecord& b) {
  j.at("budget_s").get_to(b.budget_s);
  j.at("phases").get_to(b.phases);
}

}  // namespace gpuscale::results
