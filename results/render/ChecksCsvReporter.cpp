#include "results/render/ChecksCsvReporter.hpp"

#include "results/render/CsvText.hpp"

namespace gpuscale::results {

void ChecksCsvReporter::write(const RunReport& report, std::ostream& out) const {
  out << "run_id,output_set,start_time,id,severity,findings,host,node,rank,local_rank,gpu_uuid,message\n";
  const std::string run = csv_field(run_id(report)), set = csv_field(report.output_set),
                    start = csv_field(report.start_time);
  const CsvPlaces places(report.ranks);
  for (const auto& c : report.checks) {
    std::vector<CsvPlace> where;
    for (int r : c.ranks) where.push_back(places.of_rank(r));
    if (c.ranks.empty())
      for (int n : c.nodes) where.push_back(places.of_node(n));
    if (where.empty()) where.emplace_back();
    for (const auto& p : where)
      write_csv_line(out, {run, set, start, csv_field(c.id), std::string(to_string(c.severity)),
                           std::to_string(c.count), csv_field(p.host), p.node, p.rank, p.local_rank,
                           csv_field(p.gpu_uuid), csv_field(c.message)});
  }
}

}  // namespace gpuscale::results
