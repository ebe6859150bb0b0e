#include "launch/Progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <utility>

#include "results/base/Format.hpp"

namespace gpuscale::launch {

Progress::Progress(std::ostream& out, bool enabled, bool terminal, double budget_s, Clock clock)
    : out_(out), enabled_(enabled), terminal_(terminal), budget_s_(budget_s), clock_(std::move(clock)),
      start_s_(clock_()), phase_start_s_(start_s_) {}

Progress::~Progress() { finish(); }

void Progress::phase(const std::string& name, std::size_t index, std::size_t count) {
  phase_ = name;
  index_ = index;
  count_ = count;
  phase_start_s_ = clock_();
  step("start");
}

void Progress::step(const std::string& what, std::size_t done, std::size_t total) {
  if (!enabled_) return;
  const double now = clock_();
  const double elapsed = now - start_s_;
  std::string text = "[gpuscale] ";
  if (count_) text += std::to_string(index_) + "/" + std::to_string(count_) + " ";
  if (!phase_.empty()) text += phase_ + " | ";
  text += what;
  if (total) text += " (" + std::to_string(done) + "/" + std::to_string(total) + ")";
  text += " | " + results::fixed(elapsed, 1) + " s";
  if (total && done) {
    const double phase_elapsed = now - phase_start_s_;
    const double eta = phase_elapsed / static_cast<double>(done) * static_cast<double>(total - std::min(done, total));
    text += " | phase ETA " + results::fixed(eta, 0) + " s";
  } else {
    text += " | budget left " + results::fixed(std::max(0.0, budget_s_ - elapsed), 0) + " s";
  }
  show(text);
}

void Progress::show(const std::string& text) {
  if (terminal_) {
    out_ << '\r' << text << "\033[K" << std::flush;
    line_open_ = true;
  } else {
    out_ << text << '\n' << std::flush;
  }
}

void Progress::finish() {
  if (line_open_) out_ << '\n' << std::flush;
  line_open_ = false;
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

}  // namespace gpuscale::launch
