#pragma once
// What the two CSV reporters (CsvReporter: figures; ChecksCsvReporter: checks) share: RFC 4180 fields
// and where in the job a row belongs (host, node, rank, its GPU), so both files join on the same cells.
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

// The field as RFC 4180 writes it: quoted, with each quote doubled, where it holds a comma, a quote, a
// carriage return or a newline; as it is otherwise.
std::string csv_field(std::string_view text);

// One line: the fields (already csv_field-quoted or plain numbers) joined by commas, then '\n'.
void write_csv_line(std::ostream& out, const std::vector<std::string>& fields);

// Where a row belongs: every cell empty for the whole job; host and node for a node; all of them for
// one rank (gpu_uuid and gpu_model empty where the rank has no GPU, as on the cpu backend). host is the
// node's name as every output prints it (GpuLabels.hpp: node_names): the host name, or "HOST/nNODE"
// where several nodes report one host name (emulated nodes, cloned images), so a host is one node.
struct CsvPlace {
  std::string host, node, rank, local_rank, gpu_uuid, gpu_model;
};

// The places of a run's ranks and nodes. A rank or node the report has no record of keeps its number
// and leaves the other cells empty.
class CsvPlaces {
 public:
  explicit CsvPlaces(const std::vector<RankEnv>& ranks);
  CsvPlace of_rank(int rank) const;
  CsvPlace of_node(int node) const;

 private:
  const std::vector<RankEnv>& ranks_;  // outlives this
  std::map<int, std::string> node_names_;
};

}  // namespace gpuscale::results
