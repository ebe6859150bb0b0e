#include "results/JsonReporter.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace gpuscale::results {

void JsonReporter::write(const RunReport& report, std::ostream& out) const { out << report_text(report); }

std::string report_text(const RunReport& report) {
  return nlohmann::json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
}

namespace {

// nlohmann converts a floating-point number to an integer field with static_cast, which is undefined
// behaviour when the value does not fit (found by tests/fuzz/report_json: "size": 1e300). Reports
// write integer fields as integers and keep floating-point figures within (-1, 2^31), so anything
// else is refused before any field is read. Returns the offending value's JSON pointer, or "".
// Iterative, so that deeply nested input cannot exhaust the stack.
std::string out_of_range_float(const nlohmann::json& root) {
  std::vector<std::pair<const nlohmann::json*, std::string>> pending = {{&root, ""}};
  while (!pending.empty()) {
    const auto [j, where] = pending.back();
    pending.pop_back();
    if (j->is_number_float()) {
      const double x = j->get<double>();
      if (!(x > -1.0 && x < 2147483648.0)) return where.empty() ? "/" : where;
    } else if (j->is_object()) {
      for (auto it = j->begin(); it != j->end(); ++it) pending.emplace_back(&*it, where + "/" + it.key());
    } else if (j->is_array()) {
      for (std::size_t i = 0; i < j->size(); ++i) pending.emplace_back(&(*j)[i], where + "/" + std::to_string(i));
    }
  }
  return "";
}

}  // namespace

RunReport parse_report_text(const std::string& text, const std::string& source) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(source + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  if (const auto bad = out_of_range_float(j); !bad.empty())
    throw std::runtime_error(source + ": malformed run report: the number at " + bad + " is out of range");
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
