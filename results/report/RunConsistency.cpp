#include "results/report/RunConsistency.hpp"

#include <cmath>
#include <set>

#include "results/base/PhaseNames.hpp"
#include "results/base/RuleInputRanges.hpp"
#include "results/views/PhaseView.hpp"

namespace gpuscale::results {
namespace {

// Thrown inside, caught by contradiction(): the first contradiction found ends the search.
struct Found {
  std::string what;
};

class Ranges : public RankRefs {
 public:
  explicit Ranges(const RunReport& r) : ranks_(r.world_size), nodes_(r.node_count) {}

  void rank(int value, const std::string& where, bool unknown_allowed = false) const override {
    if (unknown_allowed && value == -1) return;
    if (value < 0 || value >= ranks_)
      throw Found{where + " names rank " + std::to_string(value) + "; world.size is " + std::to_string(ranks_)};
  }
  void node(int value, const std::string& where) const override {
    if (value < 0 || value >= nodes_)
      throw Found{where + " names node " + std::to_string(value) + "; world.nodes is " + std::to_string(nodes_)};
  }
 private:
  int ranks_, nodes_;
};

void check_world(const RunReport& r) {
  if (r.world_size < 1) throw Found{"world.size is " + std::to_string(r.world_size) + "; a run has at least 1 rank"};
  if (r.node_count < 1 || r.node_count > r.world_size)
    throw Found{"world.nodes is " + std::to_string(r.node_count) + "; a run of " + std::to_string(r.world_size) +
                " ranks has 1 to " + std::to_string(r.world_size) + " nodes"};
  if (!r.ranks.empty() && r.ranks.size() != static_cast<std::size_t>(r.world_size))
    throw Found{"ranks[] holds " + std::to_string(r.ranks.size()) + " ranks; world.size is " +
                std::to_string(r.world_size)};
  const Ranges in(r);
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    const auto& e = r.ranks[i];
    if (e.rank != static_cast<int>(i)) throw Found{element_name("ranks", i) + " is rank " + std::to_string(e.rank)};
    if (e.world_size != r.world_size)
      throw Found{element_name("ranks", i) + " has world_size " + std::to_string(e.world_size) + "; world.size is " +
                  std::to_string(r.world_size)};
    in.node(e.node, element_name("ranks", i));
  }
  if (!(std::isfinite(r.straggler_threshold) && r.straggler_threshold > 0 && r.straggler_threshold <= 100))
    throw Found{"straggler_threshold " + std::to_string(r.straggler_threshold) +
                " is not a fraction in (0, 100], which --straggler-threshold takes"};
  if (!is_busy_utilization_pct(r.busy_utilization_pct))
    throw Found{"busy_utilization_pct " + std::to_string(r.busy_utilization_pct) + " is not a percent in (0, 100]"};
}


void check_named_ranks(const RunReport& r) {
  const Ranges in(r);
  for (std::size_t i = 0; i < r.checks.size(); ++i) {
    const std::string where = element_name("checks", i) + " (" + r.checks[i].id + ")";
    in.ranks(r.checks[i].ranks, where);
    in.nodes(r.checks[i].nodes, where);
    for (const auto& [a, b] : r.checks[i].pairs) {
      in.rank(a, where);
      in.rank(b, where);
    }
  }
  for (std::size_t i = 0; i < r.trace_spans.size(); ++i) in.rank(r.trace_spans[i].rank, element_name("trace_spans", i));
  for (const auto& view : phase_views())
    if (view.name_ranks) view.name_ranks(r, in);
  for (std::size_t i = 0; i < r.tenancy_looks.size(); ++i)
    in.rank(r.tenancy_looks[i].rank, element_name("tenancy_looks", i), true);
  for (std::size_t i = 0; i < r.tenants.size(); ++i) in.rank(r.tenants[i].rank, element_name("tenants", i), true);
  for (const auto& s : r.suspects.ranked) in.node(s.node, "collectives.isolation.suspects");
  for (std::size_t i = 0; i < r.outliers.size(); ++i) {
    in.rank(r.outliers[i].rank, element_name("outliers", i), true);
    in.node(r.outliers[i].node, element_name("outliers", i));
  }
  if (r.failure) {
    in.rank(r.failure->rank, "failure", true);
    in.ranks(r.failure->ranks_not_responding, "failure.ranks_not_responding");
  }
}

std::string phase_list() {
  std::string text;
  for (const auto name : kPhaseNames) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

void check_phases(const RunReport& r) {
  std::set<std::string> completed;
  for (const auto& name : r.phases_completed) {
    const auto* known = find_phase_view(name);
    if (!known) throw Found{"phases_completed names '" + name + "', which is no phase (" + phase_list() + ")"};
    if (!completed.insert(name).second) throw Found{"phases_completed names " + name + " twice"};
    if (!known->has_records(r, r.world_size))
      throw Found{"phases_completed lists " + name + ", but its records are not in the file"};
  }
  for (const auto& s : r.phases_skipped)
    if (completed.count(s.phase)) throw Found{s.phase + " is both in phases_completed and in phases_skipped"};
}

}  // namespace

std::string contradiction(const RunReport& report) {
  try {
    check_world(report);
    check_named_ranks(report);
    check_phases(report);
  } catch (const Found& found) {
    return found.what;
  }
  return "";
}

}  // namespace gpuscale::results
