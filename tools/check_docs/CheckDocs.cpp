#include "tools/check_docs/CheckDocs.hpp"

#include <optional>
#include <set>

namespace gpuscale::check_docs {
namespace {

using results::CheckInfo;
using results::CheckSection;

constexpr char kBeginPrefix[] = "<!-- check-table: ";
constexpr char kBeginSuffix[] = " -->";

// A table cell: a '|' in the text would end it.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string_view block_name(results::GpuBlock b) {
  return b == results::GpuBlock::all_gpu_work ? "all" : b == results::GpuBlock::shared_gpu ? "shared-gpu" : "";
}

std::string fires_when(const CheckInfo& c) {
  return (c.retired ? std::string("(raised by no rule) ") : std::string()) + cell(c.fires_when);
}

std::optional<CheckSection> section_named(std::string_view name) {
  for (const auto s : results::kAllCheckSections)
    if (to_string(s) == name) return s;
  return std::nullopt;
}

}  // namespace

std::string begin_marker(CheckSection section) { return kBeginPrefix + std::string(to_string(section)) + kBeginSuffix; }

std::string section_table(CheckSection section) {
  std::vector<const CheckInfo*> rows;
  bool blocks = false;
  for (const auto& c : results::check_table())
    if (c.section == section) {
      rows.push_back(&c);
      blocks = blocks || c.gpu_block != results::GpuBlock::none;
    }
  std::string out;
  if (section == CheckSection::training_proofs) {
    out = "| check | category | passes when | fix |\n|---|---|---|---|\n";
    for (const auto* c : rows)
      out += "| " + std::string(c->id) + " | " + std::string(to_string(c->category)) + " | " + fires_when(*c) + " | " +
             cell(c->fix) + " |\n";
    return out;
  }
  out = blocks ? "| id | severity | category | stops GPU work | fires when | fix |\n|---|---|---|---|---|---|\n"
               : "| id | severity | category | fires when | fix |\n|---|---|---|---|---|\n";
  for (const auto* c : rows)
    out += "| " + std::string(c->id) + " | " + std::string(c->severities) + " | " +
           std::string(to_string(c->category)) + " | " +
           (blocks ? std::string(block_name(c->gpu_block)) + " | " : std::string()) + fires_when(*c) + " | " +
           cell(c->fix) + " |\n";
  return out;
}

Regenerated regenerate(const std::string& checks_md) {
  Regenerated result;
  std::set<std::string> placed;
  std::size_t at = 0;
  for (std::size_t begin = checks_md.find(kBeginPrefix); begin != std::string::npos;
       begin = checks_md.find(kBeginPrefix, at)) {
    const auto line_end = checks_md.find('\n', begin);
    const auto name_at = begin + std::string_view(kBeginPrefix).size();
    const auto name_end = checks_md.find(kBeginSuffix, name_at);
    const auto end = checks_md.find(kEndMarker, begin);
    if (line_end == std::string::npos || name_end == std::string::npos || name_end > line_end ||
        end == std::string::npos) {
      result.changes.push_back("a check-table marker at byte " + std::to_string(begin) + " is not closed by " +
                               kEndMarker + " on a later line");
      break;
    }
    const auto name = checks_md.substr(name_at, name_end - name_at);
    const auto section = section_named(name);
    result.text += checks_md.substr(at, line_end + 1 - at);
    const auto old_table = checks_md.substr(line_end + 1, end - line_end - 1);
    if (!section) {
      result.changes.push_back("no section '" + name + "' in results::CheckSection: its table is left as it is");
      result.text += old_table;
    } else {
      if (!placed.insert(name).second) result.changes.push_back("section '" + name + "' is marked twice");
      const auto table = section_table(*section);
      if (table != old_table)
        result.changes.push_back("section '" + name + "': the table differs from the check table");
      result.text += table;
    }
    at = end;
  }
  result.text += checks_md.substr(at);
  for (const auto s : results::kAllCheckSections)
    if (!placed.count(std::string(to_string(s))))
      result.changes.push_back("no " + begin_marker(s) + " ... " + kEndMarker + " in the document: put them where " +
                               "its table belongs");
  return result;
}

}  // namespace gpuscale::check_docs
