#include "results/JsonReporter.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "results/InputFile.hpp"

namespace gpuscale::results {

void JsonReporter::write(const RunReport& report, std::ostream& out) const { out << report_text(report); }

std::string report_text(const RunReport& report) {
  return nlohmann::json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
}

namespace {

using nlohmann::json;

// nlohmann converts a floating-point number to an integer field with static_cast, which is undefined
// behaviour when the value does not fit (found by tests/fuzz/report_json: "size": 1e300). Figures
// such as FLOP counts are legitimately large doubles, so instead of bounding every number: integral
// floats within the int64 range become JSON integers (narrowing an integer is defined behaviour),
// and a float that is neither integral nor within (-1, 2^31) (it could reach an unsigned or 32-bit
// field), or integral beyond int64, is refused. Returns false for a refused number.
bool normalise_number(json& j) {
  constexpr double kInt64 = 9223372036854775808.0, kInt32 = 2147483648.0;
  if (!j.is_number_float()) return true;
  const double x = j.get<double>();
  if (std::isnan(x) || std::isinf(x)) return false;
  if (x == std::floor(x) && x > -kInt64 && x < kInt64) {
    j = static_cast<std::int64_t>(x);
    return true;
  }
  return x > -1.0 && x < kInt32;
}

// One container being walked: its current child is *it, the index-th.
struct Frame {
  json* node;
  json::iterator it;
  std::size_t index;
};

std::string escaped(const std::string& key) {
  std::string out;
  for (const char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

// The JSON pointer of the current child of the innermost frame, built only when one is reported, so
// that a walk costs time linear in the document whatever its depth.
std::string pointer_of(const std::vector<Frame>& frames) {
  std::string out;
  for (const auto& f : frames) out += "/" + (f.node->is_object() ? escaped(f.it.key()) : std::to_string(f.index));
  return out;
}

// Applies normalise_number to every number under ROOT. Returns the first refused number's JSON
// pointer, or "". Iterative, so nesting cannot exhaust the stack.
std::string normalise_numbers(json& root) {
  if (!normalise_number(root)) return "/";
  std::vector<Frame> frames;
  if (root.is_structured()) frames.push_back({&root, root.begin(), 0});
  while (!frames.empty()) {
    Frame& top = frames.back();
    if (top.it == top.node->end()) {
      frames.pop_back();
      if (!frames.empty()) ++frames.back().it, ++frames.back().index;
      continue;
    }
    json& child = *top.it;
    if (child.is_structured()) {
      frames.push_back({&child, child.begin(), 0});
      continue;
    }
    if (!normalise_number(child)) return pointer_of(frames);
    ++top.it, ++top.index;
  }
  return "";
}

// Training trace spans are most of a large report: each is turned into a TraceSpan as soon as the
// parser has read it and dropped from the document, so the document and the records never both
// hold them. A malformed span is left in the document, where from_json reports it.
class SpanCollector {
 public:
  explicit SpanCollector(const std::string& source) : source_(source) {}

  bool operator()(const std::string& key, std::size_t index, json& element) {
    if (key != "trace_spans") return false;
    if (index == 0) spans_.clear();  // a repeated key replaces the earlier array, as in the document
    if (!element.is_object()) return false;
    if (const auto bad = normalise_numbers(element); !bad.empty())
      throw std::runtime_error(source_ + ": malformed run report: the number at /trace_spans/" +
                               std::to_string(index) + (bad == "/" ? "" : bad) + " is out of range");
    try {
      spans_.push_back(element.get<TraceSpan>());
      return true;
    } catch (const json::exception&) {
      return false;
    }
  }

  std::vector<TraceSpan>& spans() { return spans_; }

 private:
  const std::string& source_;
  std::vector<TraceSpan> spans_;
};

RunReport report_from_json(json& j, SpanCollector& collector, const std::string& source) {
  if (const auto bad = normalise_numbers(j); !bad.empty())
    throw std::runtime_error(source + ": malformed run report: the number at " + bad + " is out of range");
  RunReport report;
  try {
    report = j.get<RunReport>();
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(source + ": " + e.what());
  }
  if (!collector.spans().empty()) report.trace_spans = std::move(collector.spans());
  return report;
}

}  // namespace

RunReport parse_report_text(const std::string& text, const std::string& source) {
  SpanCollector collector(source);
  json j = parse_input_json(text, source, std::ref(collector));
  return report_from_json(j, collector, source);
}

RunReport read_report_file(const std::string& path) {
  SpanCollector collector(path);
  // The text is gone before the records are built: at most the text and the document coexist.
  json j = parse_input_json(read_input_file(path), path, std::ref(collector));
  return report_from_json(j, collector, path);
}

}  // namespace gpuscale::results
