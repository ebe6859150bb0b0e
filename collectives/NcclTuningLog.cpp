#include "collectives/NcclTuningLog.hpp"

#include <cstdlib>
#include <map>
#include <regex>

#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

std::string log_dir() {
  const char* dir = std::getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

}  // namespace

std::vector<TuningChoice> parse_nccl_tuning_log(std::istream& in) {
  static const std::regex kLine(R"(NCCL INFO (\w+): (\d+) Bytes -> Algo (\w+) proto (\w+))");
  std::vector<TuningChoice> out;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (!std::regex_search(line, m, kLine)) continue;
    out.push_back({m[1].str(), std::stoull(m[2].str()), m[3].str(), m[4].str()});
  }
  return out;
}

std::string nccl_func_name(std::string_view op) {
  for (const auto* spec : all_ops())
    if (spec->name == op) return std::string(spec->nccl_log_name);
  return "";
}

void annotate(results::CollectiveSweep& sweep, const std::vector<TuningChoice>& choices, std::size_t type_bytes) {
  const std::string func = nccl_func_name(sweep.op);
  if (func.empty()) return;
  for (auto& row : sweep.rows) {
    std::map<std::string, int> seen;
    for (const auto& c : choices)
      if (c.func == func && c.bytes == row.count * type_bytes) ++seen[c.algorithm + "/" + c.protocol];
    int best = 0;
    for (const auto& [choice, times] : seen)
      if (times > best) {
        best = times;
        row.nccl_algorithm = choice;
      }
  }
}

std::string nccl_tuning_log_path(const std::string& host, int pid) {
  return log_dir() + "/gpuscale-nccl-tuning." + host.substr(0, host.find('.')) + "." + std::to_string(pid) + ".log";
}

void enable_nccl_tuning_log() {
  setenv("NCCL_DEBUG", "INFO", 1);
  setenv("NCCL_DEBUG_SUBSYS", "TUNING", 1);
  setenv("NCCL_DEBUG_FILE", (log_dir() + "/gpuscale-nccl-tuning.%h.%p.log").c_str(), 1);
}

}  // namespace gpuscale::collectives
