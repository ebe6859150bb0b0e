#include "results/Format.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace gpuscale::results {

std::string fixed(double value, int decimals) {
  if (std::isnan(value)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string gib(std::uint64_t bytes, int decimals) {
  return fixed(static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0), decimals);
}

std::string normalize_pci_bus_id(const std::string& id) {
  std::string lower;
  for (char c : id) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto colon = lower.find(':');
  if (colon == std::string::npos) return lower;
  std::string domain = lower.substr(0, colon);
  // Keep the last four digits of the domain: NVML pads it to eight.
  if (domain.size() > 4) domain = domain.substr(domain.size() - 4);
  while (domain.size() < 4) domain = "0" + domain;
  return domain + lower.substr(colon);
}

std::string join_ints(const std::vector<int>& values) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(values[i]);
  }
  return s;
}

}  // namespace gpuscale::results
