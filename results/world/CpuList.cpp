#include "results/world/CpuList.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace gpuscale::results {
namespace {
int parse_id(const std::string& text, const std::string& whole) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 7) {
    throw std::invalid_argument("malformed cpulist '" + whole + "'");
  }
  return std::stoi(text);
}
}  // namespace

std::vector<int> parse_cpulist(const std::string& text) {
  std::vector<int> cpus;
  std::string trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ')) trimmed.pop_back();
  if (trimmed.empty()) return cpus;
  std::stringstream in(trimmed);
  std::string part;
  while (std::getline(in, part, ',')) {
    const auto dash = part.find('-');
    if (dash == std::string::npos) {
      cpus.push_back(parse_id(part, text));
      continue;
    }
    const int first = parse_id(part.substr(0, dash), text), last = parse_id(part.substr(dash + 1), text);
    if (last < first) throw std::invalid_argument("malformed cpulist '" + text + "'");
    for (int c = first; c <= last; ++c) cpus.push_back(c);
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::string format_cpulist(std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace gpuscale::results
