#include "results/render/CsvText.hpp"

#include "results/models/GpuLabels.hpp"

namespace gpuscale::results {
std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

void write_csv_line(std::ostream& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << fields[i];
  out << '\n';
}

CsvPlaces::CsvPlaces(const std::vector<RankEnv>& ranks) : ranks_(ranks), node_names_(node_names(ranks)) {}

CsvPlace CsvPlaces::of_rank(int rank) const {
  CsvPlace p;
  p.rank = std::to_string(rank);
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size()) return p;
  const auto& e = ranks_[static_cast<std::size_t>(rank)];
  p.host = node_name(node_names_, e.node);
  p.node = std::to_string(e.node);
  p.local_rank = std::to_string(e.local_rank);
  if (e.gpu) {
    p.gpu_uuid = e.gpu->uuid;
    p.gpu_model = e.gpu->name;
  }
  return p;
}

CsvPlace CsvPlaces::of_node(int node) const {
  CsvPlace p;
  p.node = std::to_string(node);
  p.host = node_name(node_names_, node);
  return p;
}

}  // namespace gpuscale::results
