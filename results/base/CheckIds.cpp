#include "results/base/CheckIds.hpp"

#include "results/base/CheckTable.hpp"

namespace gpuscale::results::check_ids {

bool is_known(std::string_view id) { return find_check(id) != nullptr; }

std::string known_text() {
  std::string out;
  for (const auto& c : check_table()) out += (out.empty() ? "" : ", ") + std::string(c.id);
  return out;
}

std::vector<std::string> all() {
  std::vector<std::string> ids;
  for (const auto& c : check_table()) ids.emplace_back(c.id);
  return ids;
}

bool is_baseline(std::string_view id) {
  const auto* c = find_check(id);
  return c && c->baseline;
}

bool judges_speed(std::string_view id) {
  const auto* c = find_check(id);
  return c && c->judges_speed;
}

}  // namespace gpuscale::results::check_ids
