#include "collectives/NcclTuningLog.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <utility>

#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

std::string log_dir() {
  const char* dir = std::getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

// The gpuscale op NCCL's tuning log calls `func` ("AllReduce" -> "allreduce"); empty if none.
std::string_view op_of_nccl_func(std::string_view func) {
  for (const auto* spec : all_ops())
    if (!spec->nccl_log_name.empty() && spec->nccl_log_name == func) return spec->name;
  return {};
}

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(' ');
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

// The cells of a table row "a | b | c |", trimmed; the empty cell after the last '|' is dropped.
std::vector<std::string> cells(std::string_view row) {
  std::vector<std::string> out;
  for (std::size_t start = 0; start <= row.size();) {
    const auto bar = std::min(row.find('|', start), row.size());
    out.emplace_back(trim(row.substr(start, bar - start)));
    start = bar + 1;
  }
  if (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

// "25.2/ 0.0" -> {25.2, 0.0}.
std::optional<std::pair<double, double>> latency_bandwidth(const std::string& cell) {
  const char* text = cell.c_str();
  char* end = nullptr;
  const double latency = std::strtod(text, &end);
  if (end == text || *end != '/') return std::nullopt;
  const char* rest = end + 1;
  const double bandwidth = std::strtod(rest, &end);
  if (end == rest) return std::nullopt;
  while (*end == ' ') ++end;
  if (*end != '\0') return std::nullopt;
  return std::pair{latency, bandwidth};
}

// Reads the model tables of one log. Lines of NCCL's threads interleave, so each thread (the
// "host:pid:tid" before the line's "[dev]") keeps its own communicator size and table columns.
class ModelReader {
 public:
  void line(const std::string& line) {
    static const std::string kInfo = "NCCL INFO ";
    const auto at = line.find(kInfo);
    if (at == std::string::npos) return;
    Thread& t = threads_[line.substr(0, line.rfind(" [", at))];
    const std::string text = line.substr(at + kInfo.size());
    static const std::regex kComm(R"(^comm 0x[0-9a-fA-F]+ rank (\d+) nRanks (\d+) nNodes (\d+))");
    std::smatch m;
    if (std::regex_search(text, m, kComm)) {
      t = Thread{};
      t.ranks = std::stoi(m[2].str());
      t.nodes = std::stoi(m[3].str());
      return;
    }
    if (text.find('|') == std::string::npos) return;
    auto row = cells(text);
    const std::string head = row.front();
    row.erase(row.begin());
    if (head == "Algorithm") {
      start_block(t, row);
      t.algorithms = std::move(row);
      t.columns.clear();  // until its Protocol line names them
    } else if (head == "Protocol" && !t.algorithms.empty() && row.size() % t.algorithms.size() == 0) {
      t.columns.clear();
      const std::size_t per = row.size() / t.algorithms.size();
      for (std::size_t i = 0; i < row.size(); ++i) t.columns.emplace_back(t.algorithms[i / per], row[i]);
    } else if (head == "Latency/AlgBw") {  // before NCCL 2.19: "Tree/    LL" per column
      std::vector<std::string> algorithms;
      t.columns.clear();
      for (const auto& c : row) {
        const auto slash = c.find('/');
        t.columns.emplace_back(std::string(trim(c.substr(0, slash))),
                               slash == std::string::npos ? "" : std::string(trim(c.substr(slash + 1))));
        algorithms.push_back(t.columns.back().first);
      }
      start_block(t, algorithms);
    } else if (const auto op = op_of_nccl_func(head); !op.empty() && t.model >= 0 && row.size() == t.columns.size()) {
      for (std::size_t i = 0; i < row.size(); ++i)
        if (const auto lb = latency_bandwidth(row[i]))
          models_[static_cast<std::size_t>(t.model)].entries.push_back(
              {std::string(op), t.columns[i].first, t.columns[i].second, lb->first, lb->second});
    }
  }

  // The first model of each communicator shape.
  std::vector<results::NcclModel> models() && {
    std::vector<results::NcclModel> out;
    for (auto& m : models_) {
      const bool seen = std::any_of(out.begin(), out.end(),
                                    [&](const auto& o) { return o.ranks == m.ranks && o.nodes == m.nodes; });
      if (!seen && !m.entries.empty()) out.push_back(std::move(m));
    }
    return out;
  }

 private:
  struct Thread {
    int ranks = 0, nodes = 0;  // of the communicator this thread last started
    int model = -1;            // index of its table in models_; -1: none yet
    std::vector<std::string> algorithms;
    std::vector<std::pair<std::string, std::string>> columns;  // algorithm, protocol
  };

  // A block whose algorithms the current table already has begins the next communicator's table.
  void start_block(Thread& t, const std::vector<std::string>& algorithms) {
    const auto has = [&](const std::string& a) {
      for (const auto& e : models_[static_cast<std::size_t>(t.model)].entries)
        if (e.algorithm == a) return true;
      return false;
    };
    if (t.model < 0 || std::any_of(algorithms.begin(), algorithms.end(), has)) {
      models_.push_back({t.ranks, t.nodes, {}});
      t.model = static_cast<int>(models_.size()) - 1;
    }
  }

  std::map<std::string, Thread> threads_;
  std::vector<results::NcclModel> models_;
};

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

std::vector<results::NcclModel> parse_nccl_models(std::istream& in) {
  ModelReader reader;
  for (std::string line; std::getline(in, line);) reader.line(line);
  return std::move(reader).models();
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
  setenv("NCCL_DEBUG_SUBSYS", "INIT,TUNING", 1);  // INIT: the size of each communicator
  setenv("NCCL_DEBUG_FILE", (log_dir() + "/gpuscale-nccl-tuning.%h.%p.log").c_str(), 1);
}

}  // namespace gpuscale::collectives
