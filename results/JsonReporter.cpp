#include "results/JsonReporter.hpp"

#include <cerrno>
#include <cstring>
#include <cmath>
#include <cstdint>
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
// behaviour when the value does not fit (found by tests/fuzz/report_json: "size": 1e300). Figures
// such as FLOP counts are legitimately large doubles, so instead of bounding every number: integral
// floats within the int64 range become JSON integers (narrowing an integer is defined behaviour),
// and a float that is neither integral nor within (-1, 2^31) (it could reach an unsigned or 32-bit
// field), or integral beyond int64, is refused.
// Returns the offending value's JSON pointer, or "". Iterative, so deep nesting cannot exhaust the stack.
std::string normalise_numbers(nlohmann::json& root) {
  constexpr double kInt64 = 9223372036854775808.0, kInt32 = 2147483648.0;
  std::vector<std::pair<nlohmann::json*, std::string>> pending = {{&root, ""}};
  while (!pending.empty()) {
    const auto [j, where] = pending.back();
    pending.pop_back();
    if (j->is_number_float()) {
      const double x = j->get<double>();
      if (std::isnan(x) || std::isinf(x)) return where.empty() ? "/" : where;
      if (x == std::floor(x) && x > -kInt64 && x < kInt64) {
        *j = static_cast<std::int64_t>(x);
      } else if (!(x > -1.0 && x < kInt32)) {
        return where.empty() ? "/" : where;
      }
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
  if (const auto bad = normalise_numbers(j); !bad.empty())
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
