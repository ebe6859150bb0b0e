#include "probes/NetworkProbe.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace gpuscale::probes {
namespace fs = std::filesystem;

namespace {

std::string first_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
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

}  // namespace

double parse_rate_gbps(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  return end == text.c_str() ? 0.0 : value;
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
    const std::string numa = first_line(dev / "device" / "numa_node");
    if (!numa.empty()) adapter.numa_node = std::atoi(numa.c_str());
    for (const auto& port : entries(dev / "ports")) {
      const fs::path p = dev / "ports" / port;
      results::AdapterPort ap;
      ap.port = std::atoi(port.c_str());
      ap.state = strip_state_number(first_line(p / "state"));
      ap.phys_state = strip_state_number(first_line(p / "phys_state"));
      ap.rate_text = first_line(p / "rate");
      ap.rate_gbps = parse_rate_gbps(ap.rate_text);
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
