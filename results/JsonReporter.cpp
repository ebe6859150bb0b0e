#include "results/JsonReporter.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpuscale::results {

void JsonReporter::write(const RunReport& report, std::ostream& out) const {
  out << nlohmann::json(report).dump(2) << '\n';
}

RunReport read_report_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  try {
    return j.get<RunReport>();
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

}  // namespace gpuscale::results
