#include "results/render/CoverageTable.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "results/base/Format.hpp"
#include "results/base/Table.hpp"

namespace gpuscale::results {
namespace {

constexpr std::size_t kPhaseWidth = 14;  // "collectives" and two spaces

// Items of one phase with the same result and reason, in the plan's order.
struct CoverageLine {
  std::string phase;
  RuleResult result;
  std::string reason;
  std::vector<std::string> items;
};

std::vector<CoverageLine> grouped(const std::vector<CoverageItem>& coverage) {
  std::vector<CoverageLine> lines;
  for (const auto& c : coverage) {
    auto it = std::find_if(lines.begin(), lines.end(), [&](const CoverageLine& l) {
      return l.phase == c.phase && l.result == c.result && l.reason == c.reason;
    });
    if (it == lines.end()) {
      // A phase's lines stay together: a new line goes after the phase's last one.
      auto after =
          std::find_if(lines.rbegin(), lines.rend(), [&](const CoverageLine& l) { return l.phase == c.phase; });
      it = lines.insert(after == lines.rend() ? lines.end() : after.base(),
                        CoverageLine{c.phase, c.result, c.reason, {}});
    }
    it->items.push_back(c.item);
  }
  return lines;
}

// The items as many as fit in `width`, then "and N more"; at least the first.
std::string items_text(const std::vector<std::string>& items, std::size_t width) {
  std::string text = items.front();
  std::size_t shown = 1;
  for (; shown < items.size(); ++shown) {
    const std::string more = " and " + std::to_string(items.size() - shown - 1) + " more";
    const std::size_t tail = shown + 1 < items.size() ? more.size() : 0;
    if (text.size() + 2 + items[shown].size() + tail > width) break;
    text += ", " + items[shown];
  }
  if (shown < items.size()) text += " and " + std::to_string(items.size() - shown) + " more";
  return text;
}

std::string clipped(std::string text, std::size_t width) {
  if (text.size() <= width) return text;
  text.resize(width > 3 ? width - 3 : 0);
  return text + "...";
}

std::string counts_text(const std::vector<CoverageItem>& coverage) {
  std::size_t counts[4] = {};
  for (const auto& c : coverage) ++counts[static_cast<int>(c.result)];
  std::string text = std::to_string(coverage.size()) + " planned";
  const char* words[4] = {"measured", "in part", "failed", "skipped"};
  for (const auto result : {RuleResult::pass, RuleResult::warn, RuleResult::skip, RuleResult::fail})
    if (counts[static_cast<int>(result)])
      text += " | " + std::to_string(counts[static_cast<int>(result)]) + " " + words[static_cast<int>(result)];
  return text;
}

}  // namespace

void write_coverage(const Verdict& verdict, std::ostream& out) {
  if (verdict.coverage.empty()) return;
  out << section_header("Coverage: " + counts_text(verdict.coverage),
                        "every item the command planned; work the job needed and did not measure warns "
                        "(--require-complete: fails)");
  for (const auto& line : grouped(verdict.coverage)) {
    std::string head = "  " + line.phase;
    head += std::string(std::max<std::size_t>(2, 2 + kPhaseWidth - head.size()), ' ');
    head += std::string(to_string(line.result)) + "  ";
    const std::string reason = line.reason.empty() ? "" : ": " + line.reason;
    const std::size_t room =
        kCoverageLineWidth > head.size() + reason.size() + 20 ? kCoverageLineWidth - head.size() - reason.size() : 20;
    out << clipped(head + items_text(line.items, room) + reason, kCoverageLineWidth) << '\n';
  }
}

void write_coverage_html(const Verdict& verdict, std::ostream& out) {
  if (verdict.coverage.empty()) return;
  Table t({"phase", "planned", "result", "why"});
  for (const auto& c : verdict.coverage) {
    const std::string result(to_string(c.result));
    t.add_row({c.phase, c.item, result, c.reason.empty() ? "-" : c.reason}, result);
  }
  out << "<section id=\"coverage\"><h2>Coverage: " << counts_text(verdict.coverage) << "</h2>";
  t.write_html(out, "", "coverage-items");
  out << "<p class=\"meta\">every item the command planned; work the job needed and did not measure warns "
         "(--require-complete: fails)</p></section>\n";
}

}  // namespace gpuscale::results
