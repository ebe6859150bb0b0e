#include "results/render/ChecksCsvReporter.hpp"

#include <map>
#include <vector>

#include "results/base/CheckTable.hpp"
#include "results/base/Utf8.hpp"
#include "results/render/CsvText.hpp"

namespace gpuscale::results {
namespace {

// A message repeated on every row of its check is cut here: a message that lists every node (such as
// no-rdma-adapter's), repeated on every rank's row, would grow the file with the square of the job.
constexpr std::size_t kMaxRepeatedMessageBytes = 240;
constexpr char kCutNote[] = " [cut: the JSON's checks[] has the whole message]";

std::string repeated_message(const std::string& message) {
  if (message.size() <= kMaxRepeatedMessageBytes) return message;
  return message.substr(0, utf8_cut(message, kMaxRepeatedMessageBytes)) + kCutNote;
}

// The check's ranks by node, in node order (ranks the report has no record of: node -1, one row each).
std::map<int, std::vector<int>> concerned_nodes(const Check& c, const std::vector<RankEnv>& ranks) {
  std::map<int, std::vector<int>> out;
  for (int r : c.ranks) {
    const bool known = r >= 0 && static_cast<std::size_t>(r) < ranks.size();
    out[known ? ranks[static_cast<std::size_t>(r)].node : -1].push_back(r);
  }
  return out;
}

}  // namespace

void ChecksCsvReporter::write(const RunReport& report, std::ostream& out) const {
  out << "run_id,output_set,start_time,id,severity,category,findings,host,node,rank,local_rank,gpu_uuid,message,fix\n";
  const std::string run = csv_field(run_id(report)), set = csv_field(report.output_set),
                    start = csv_field(report.start_time);
  const CsvPlaces places(report.ranks);
  std::map<int, int> ranks_of_node;
  for (const auto& e : report.ranks) ++ranks_of_node[e.node];
  for (const auto& c : report.checks) {
    std::vector<CsvPlace> where;
    for (const auto& [node, ranks] : concerned_nodes(c, report.ranks)) {
      if (ranks.size() > 1 && static_cast<int>(ranks.size()) == ranks_of_node[node]) {
        where.push_back(places.of_node(node));  // every rank of the node: one row for the node
        continue;
      }
      for (int r : ranks) where.push_back(places.of_rank(r));
    }
    if (c.ranks.empty())
      for (int n : c.nodes) where.push_back(places.of_node(n));
    if (where.empty()) where.emplace_back();
    const std::string message = csv_field(where.size() > 1 ? repeated_message(c.message) : c.message);
    // From the check table: an id it does not hold (a run written by a later version) leaves them empty.
    const auto* info = find_check(c.id);
    const std::string category(info ? to_string(info->category) : ""),
        fix = info ? csv_field(std::string(info->fix)) : "";
    for (const auto& p : where)
      write_csv_line(
          out, {run, set, start, csv_field(c.id), std::string(to_string(c.severity)), category, std::to_string(c.count),
                csv_field(p.host), p.node, p.rank, p.local_rank, csv_field(p.gpu_uuid), message, fix});
  }
}

}  // namespace gpuscale::results
