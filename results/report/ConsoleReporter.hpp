#pragma once
#include "results/render/Reporter.hpp"

namespace gpuscale::results {

// full: every phase's tables (one line per rank, versions, GPU topology per node, per-size tables);
// summary: one screen (results/report/ConsoleSummary.hpp), what the preflight prints.
enum class ConsoleView { full, summary };

// The human-readable report, then its checks and verdict.
class ConsoleReporter final : public Reporter {
 public:
  explicit ConsoleReporter(ConsoleView view = ConsoleView::full) : view_(view) {}
  void write(const RunReport& report, std::ostream& out) const override;

 private:
  ConsoleView view_;
};

}  // namespace gpuscale::results
