#include "results/JsonReporter.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpuscale::results {

void JsonReporter::write(const RunReport& report, std::ostream& out) const { out << report_text(report); }

std::string report_text(const RunReport& report) {
  return nlohmann::json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
}

RunReport parse_report_text(const std::string& text, const std::string& source) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(source + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  try {
    return j.get<RunReport>();
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(source + ": " + e.what());
  }
}

RunReport read_report_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read " + path);
  return parse_report_text(text.str(), path);
}

}  // namespace gpuscale::results
