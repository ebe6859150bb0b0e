#include "results/world/SlurmInfo.hpp"

#include <cstdlib>
#include <sstream>

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(SlurmInfo)

std::vector<int> expand_tasks_per_node(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    char* end = nullptr;
    const long tasks = std::strtol(item.c_str(), &end, 10);
    if (end == item.c_str() || tasks < 0) return {};
    long repeat = 1;
    if (*end == '(') {
      if (end[1] != 'x') return {};
      char* close = nullptr;
      repeat = std::strtol(end + 2, &close, 10);
      if (*close != ')' || close[1] != '\0' || repeat < 1 || repeat > 1 << 20) return {};
    } else if (*end != '\0') {
      return {};
    }
    out.insert(out.end(), static_cast<std::size_t>(repeat), static_cast<int>(tasks));
  }
  return out;
}

}  // namespace gpuscale::results
