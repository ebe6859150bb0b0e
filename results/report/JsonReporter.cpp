#include "results/report/JsonReporter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "results/base/MarkJson.hpp"
#include "results/models/GpuLabels.hpp"
#include "results/report/RunConsistency.hpp"
#include "results/schema/InputFile.hpp"

namespace gpuscale::results {

namespace {

using nlohmann::json;

std::string pretty(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

// TEXT with every line after the first indented by INDENT.
void write_indented(const std::string& text, const char* indent, std::ostream& out) {
  std::size_t from = 0;
  for (auto nl = text.find('\n'); nl != std::string::npos; from = nl + 1, nl = text.find('\n', from))
    out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from)) << indent;
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

// The elements of a top-level array, each with its marks, as dump(2) lays them out inside the whole
// document.
template <typename Record>
void write_elements(const std::vector<Record>& records, const RecordMarks& marks, std::ostream& out) {
  out << '[';
  for (std::size_t i = 0; i < records.size(); ++i) {
    out << (i ? ",\n    " : "\n    ");
    json element = records[i];
    write_record_marks(element, i, mark_keys_of(records), marks);
    write_indented(pretty(element), "    ", out);
  }
  out << (records.empty() ? "]" : "\n  ]");
}

}  // namespace

// The document without its per-rank arrays, then each of those spliced in where its empty array stands,
// written one element at a time: the same text as dumping the whole document at once.
void JsonReporter::write(const RunReport& report, std::ostream& out) const {
  json shell;
  to_json_shell(shell, report);
  const std::string text = pretty(shell);
  std::vector<std::pair<std::size_t, std::function<void()>>> slots;  // (where its "[]" starts, its writer)
  for_each_per_rank_array([&](const char* key, auto member) {
    const auto at = text.find("\n  \"" + std::string(key) + "\": []");
    const auto& records = report.*member;
    if (at != std::string::npos)
      slots.emplace_back(at + std::string(key).size() + 7,
                         [&out, &records, &report] { write_elements(records, report.marks, out); });
  });
  std::sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t from = 0;
  for (const auto& [at, write_array] : slots) {
    out.write(text.data() + from, static_cast<std::streamsize>(at - from));
    write_array();
    from = at + 2;
  }
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from)) << '\n';
}

std::string report_text(const RunReport& report) {
  std::ostringstream out;
  JsonReporter().write(report, out);
  return out.str();
}

namespace {

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

// The per-rank arrays (ranks, compute, burn, links) and the training trace spans are most of a large
// report: each element is turned into its record as soon as the parser has read it and dropped from the
// document, so the document and the records never both hold them. A malformed element is left in the
// document, where from_json reports it.
class RecordCollector {
 public:
  explicit RecordCollector(const std::string& source) : source_(source) {}

  bool operator()(const std::string& path, std::size_t index, json& element) {
    if (path.size() < 2 || path.find('/', 1) != std::string::npos) return false;  // a top-level array only
    bool taken = false;
    const std::string key = path.substr(1);
    for_each_per_rank_array([&](const char* name, auto member) {
      if (key == name) taken = take(key, index, element, taken_.*member);
    });
    return taken;
  }

  // Moves what was taken into REPORT, read from the rest of the document (whose arrays held only what
  // was not taken: nothing, or a malformed element that from_json has refused).
  void fill(RunReport& report) {
    for_each_per_rank_array([&](const char*, auto member) {
      if (!(taken_.*member).empty()) report.*member = std::move(taken_.*member);
    });
    for (const auto& m : taken_.marks.all()) report.marks.add(m);
  }

 private:
  template <typename Record>
  bool take(const std::string& key, std::size_t index, json& element, std::vector<Record>& records) {
    if (!element.is_object()) return false;
    if (const auto bad = normalise_numbers(element); !bad.empty())
      throw std::runtime_error(source_ + ": malformed run report: the number at /" + key + "/" + std::to_string(index) +
                               (bad == "/" ? "" : bad) + " is out of range");
    try {
      RecordMarks marks;
      read_record_marks(element, records.size(), mark_keys_of(records), marks);
      records.push_back(element.get<Record>());
      for (const auto& m : marks.all()) taken_.marks.add(m);
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }

  const std::string& source_;
  RunReport taken_;  // only the per-rank arrays and their marks are used
};

// A pair's labels are names made from its ranks' environments (GpuLabels.hpp): a file written before
// they named local ranks (host:CUDA_INDEX, host:cpuL) is read with today's names, so its pair figures
// match a new run's. The ranks are known (RunConsistency.hpp: pairs name ranks of the world).
void relabel_pairs(RunReport& report) {
  if (!report.collectives || !report.collectives->pairs || report.ranks.empty()) return;
  const auto labels = gpu_labels(report.ranks);
  for (auto& p : report.collectives->pairs->pairs) {
    p.a_label = labels.at(static_cast<std::size_t>(p.a));
    p.b_label = labels.at(static_cast<std::size_t>(p.b));
  }
}

RunReport report_from_json(json& j, RecordCollector& collector, const std::string& source) {
  if (const auto bad = normalise_numbers(j); !bad.empty())
    throw std::runtime_error(source + ": malformed run report: the number at " + bad + " is out of range");
  RunReport report;
  try {
    report = j.get<RunReport>();
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(source + ": " + e.what());
  }
  collector.fill(report);
  if (const auto why = contradiction(report); !why.empty())
    throw std::runtime_error(source + ": contradictory run report: " + why);
  relabel_pairs(report);
  return report;
}

}  // namespace

RunReport parse_report_text(const std::string& text, const std::string& source) {
  RecordCollector collector(source);
  json j = parse_input_json(text, source, std::ref(collector));
  return report_from_json(j, collector, source);
}

RunReport read_report_file(const std::string& path) {
  RecordCollector collector(path);
  // Streamed from the file: its text is never held whole, and the per-rank records are built as they come.
  json j = parse_input_file(path, std::ref(collector));
  return report_from_json(j, collector, path);
}

}  // namespace gpuscale::results
