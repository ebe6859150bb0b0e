#include "harness/NcclLog.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>

#include "results/base/Utf8.hpp"

namespace gpuscale::harness {
namespace {

// The integer after `key` in `line`, or -1.
int number_after(const std::string& line, const std::string& key) {
  const auto at = line.find(key);
  if (at == std::string::npos) return -1;
  return std::atoi(line.c_str() + at + key.size());
}

// "P2P/CUMEM/read" -> "P2P/CUMEM"; "NET/Socket/0" -> "NET/Socket"; "SHM/direct/direct" -> "SHM/direct".
std::string transport_of(const std::string& line) {
  const auto via = line.find(" via ");
  if (via == std::string::npos) return "";
  std::string path = line.substr(via + 5);
  path = path.substr(0, path.find_first_of(" \t\r"));
  const auto first = path.find('/');
  if (first == std::string::npos) return path;
  return path.substr(0, path.find('/', first + 1));
}

}  // namespace

results::NcclPaths parse_nccl_log(std::istream& log) {
  results::NcclPaths p;
  p.captured = true;
  std::set<std::string> transports;
  for (std::string line; std::getline(log, line);) {
    if (p.nodes == 0 && line.find(" nNodes ") != std::string::npos) {
      p.nodes = std::max(0, number_after(line, " nNodes "));
      p.local_ranks = std::max(0, number_after(line, " localRanks "));
    }
    const auto network = line.find("Using network ");
    if (p.network.empty() && network != std::string::npos) {
      p.network = line.substr(network + 14);
      p.network = results::valid_utf8(p.network.substr(0, p.network.find_first_of(" \t\r")));
    }
    if (line.find("Channel ") != std::string::npos) {
      const std::string t = transport_of(line);
      if (!t.empty()) transports.insert(results::valid_utf8(t));
    }
  }
  p.transports.assign(transports.begin(), transports.end());
  return p;
}

NcclLogCapture::NcclLogCapture() {
  if (std::getenv("NCCL_DEBUG") || std::getenv("NCCL_DEBUG_FILE")) {
    unavailable_reason_ = "NCCL_DEBUG or NCCL_DEBUG_FILE set by the user: NCCL's log is theirs";
    return;
  }
  char name[] = "/tmp/gpuscale-nccl-XXXXXX";
  const int fd = ::mkstemp(name);
  if (fd < 0) {
    unavailable_reason_ = "cannot create a temp file for NCCL's log";
    return;
  }
  ::close(fd);
  path_ = name;
  ::setenv("NCCL_DEBUG_FILE", path_.c_str(), 1);
  ::setenv("NCCL_DEBUG", "INFO", 1);
}

NcclLogCapture::~NcclLogCapture() {
  if (!path_.empty()) std::remove(path_.c_str());
}

results::NcclPaths NcclLogCapture::paths() const {
  if (path_.empty()) {
    results::NcclPaths p;
    p.unavailable_reason = unavailable_reason_;
    return p;
  }
  std::ifstream in(path_);
  auto p = parse_nccl_log(in);
  if (p.nodes == 0 && p.transports.empty()) {
    p.captured = false;
    p.unavailable_reason = "NCCL logged no communicator (NCCL_DEBUG_SUBSYS without INIT?)";
  }
  return p;
}

}  // namespace gpuscale::harness
