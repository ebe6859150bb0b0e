#include "probes/NetworkProbe.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

namespace gpuscale::probes {
namespace fs = std::filesystem;

namespace {

// At most a page, as sysfs attributes are: a test tree's file is not read whole.
std::string first_line(const fs::path& path) {
  std::ifstream in(path);
  char text[4096] = {};
  in.getline(text, sizeof text);
  std::string line(text);
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ' || line.back() == '\r')) line.pop_back();
  return line;
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// A whole decimal number in [lo, hi] (a NUMA node, a port's directory name); nullopt otherwise.
std::optional<int> bounded_int(const std::string& text, int lo, int hi) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < lo || value > hi) return std::nullopt;
  return value;
}

double raw_rate(const std::string& text, bool& found) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  found = end != text.c_str();
  return value;
}

}  // namespace

std::string rate_problem(const std::string& text) {
  bool found = false;
  const double value = raw_rate(text, found);
  if (!found) return text.empty() ? "sysfs wrote no rate" : "'" + text + "' holds no rate";
  if (!std::isfinite(value)) return "'" + text + "' is not a finite rate";
  if (value <= 0) return "'" + text + "' is no positive rate";
  if (value > kMaxPortRateGbps)
    return "'" + text + "' is past " + std::to_string(static_cast<long>(kMaxPortRateGbps)) + " Gb/s, no adapter's rate";
  return "";
}

double parse_rate_gbps(const std::string& text) {
  bool found = false;
  const double value = raw_rate(text, found);
  return found && rate_problem(text).empty() ? value : 0.0;
}

std::string strip_state_number(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) return text;
  auto start = text.find_first_not_of(' ', colon + 1);
  return start == std::string::npos ? "" : text.substr(start);
}

results::NetworkAdapters probe_network(const std::string& root) {
  results::NetworkAdapters out;
  out.probed = true;
  const fs::path sys = fs::path(root) / "sys";
  for (const auto& name : entries(sys / "class" / "infiniband")) {
    const fs::path dev = sys / "class" / "infiniband" / name;
    results::RdmaAdapter adapter;
    adapter.name = name;
    // -1 (no node) and the nodes a kernel can have; anything else is unknown (-1).
    adapter.numa_node = bounded_int(first_line(dev / "device" / "numa_node"), -1, 1 << 16).value_or(-1);
    for (const auto& port : entries(dev / "ports")) {
      const fs::path p = dev / "ports" / port;
      const auto number = bounded_int(port, 0, 1 << 16);
      if (!number) continue;  // not a port's directory
      results::AdapterPort ap;
      ap.port = *number;
      ap.state = strip_state_number(first_line(p / "state"));
      ap.phys_state = strip_state_number(first_line(p / "phys_state"));
      ap.rate_text = first_line(p / "rate");
      ap.rate_gbps = parse_rate_gbps(ap.rate_text);
      if (ap.state == "ACTIVE") ap.rate_unknown = rate_problem(ap.rate_text);
      ap.link_layer = first_line(p / "link_layer");
      adapter.ports.push_back(ap);
    }
    std::sort(adapter.ports.begin(), adapter.ports.end(),
              [](const auto& a, const auto& b) { return a.port < b.port; });
    out.adapters.push_back(adapter);
  }
  out.interfaces = entries(sys / "class" / "net");
  std::error_code ec;
  out.peermem_loaded = fs::exists(sys / "module" / "nvidia_peermem", ec);
  out.dmabuf_possible = fs::exists(sys / "kernel" / "dmabuf", ec) || fs::exists(sys / "module" / "dmabuf", ec);
  return out;
}

std::string sysfs_root(int node) {
  const char* root = std::getenv("GPUSCALE_TEST_SYSFS_ROOT");
  if (!root || !*root) return "/";
  const char* emulated = std::getenv("GPUSCALE_TEST_RANKS_PER_NODE");
  if (!emulated || !*emulated) return root;
  return (fs::path(root) / ("node" + std::to_string(node))).string();
}

}  // namespace gpuscale::probes
