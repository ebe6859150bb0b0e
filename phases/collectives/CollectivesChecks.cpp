#include "phases/collectives/CollectivesChecks.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <string_view>

#include "judge/base/BesideTenant.hpp"
#include "phases/collectives/CollectivesReporter.hpp"
#include "phases/collectives/SuspectRanking.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/Format.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::judge {

namespace ids = results::check_ids;
namespace {

// Slow pairs named in the finding's text; every pair stays in the JSON.
constexpr std::size_t kPairsNamed = 5;

using results::Check;
using results::Severity;

void check_wrong(const results::CollectivesRecord& record, std::vector<Check>& out) {
  std::uint64_t total = 0;
  std::string where;
  std::vector<int> ranks;
  auto note = [&](std::uint64_t wrong, const std::vector<int>& on, const std::string& what) {
    if (wrong == 0) return;
    total += wrong;
    ranks.insert(ranks.end(), on.begin(), on.end());
    if (where.size() < 200) where += (where.empty() ? "" : "; ") + what + ": " + std::to_string(wrong);
  };
  for (const auto& s : record.sweeps)
    for (const auto& r : s.rows) {
      const std::string at = s.op + " " + results::size_label(r.size_bytes);
      note(r.out_of_place.wrong.value_or(0), r.out_of_place.wrong_ranks, at + " out-of-place");
      note(r.in_place.wrong.value_or(0), r.in_place.wrong_ranks, at + " in-place");
    }
  for (const auto& p : record.scaling)
    note(p.wrong.value_or(0), p.wrong_ranks, p.op + " " + results::size_label(p.size_bytes) + " over " + p.group);
  if (total == 0) return;
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  out.push_back({ids::kCollectiveWrongData, Severity::error, ranks,
                 std::to_string(total) + " wrong elements after collectives (" + where +
                     "); the data path (GPU memory, NVLink/PCIe/network, NCCL) corrupts data: rerun with -c 10, "
                     "then test GPUs and links pairwise"});
}

void check_links(const results::CollectivesRecord& record, const RecordMarks& marks, std::vector<Check>& out) {
  for (std::size_t i = 0; i < record.sweeps.size(); ++i) {
    const auto& s = record.sweeps[i];
    const auto& h = s.headline;
    if (marks.has(CollectivesMark::sweep_beside_tenant, i) || !h.peak_percent_of_link ||
        *h.peak_percent_of_link >= record.link_threshold * 100)
      continue;
    out.push_back({ids::kCollectiveBelowLink, Severity::warning, {},
                   s.op + " peaks at " + results::fixed(h.peak_busbw_gbps, 1) + " GB/s busbw, " +
                       results::fixed(*h.peak_percent_of_link, 0) + "% of " + h.link + " (" +
                       results::fixed(*h.link_gbps, 0) + " GB/s), under the " +
                       results::fixed(record.link_threshold * 100, 0) +
                       "% threshold: check NCCL_P2P/NCCL_SHM settings, the topology and GPU clocks"});
  }
}

// One finding for every slow pair (slow_pairs, those measured beside no tenant): the count, and the
// slowest few by name.
void check_pairs(const results::PairMatrix& matrix, const std::vector<std::size_t>& slow_indexes,
                 const RecordMarks& marks, std::vector<Check>& out) {
  std::vector<const results::PairResult*> slow;
  for (const auto i : slow_indexes)
    if (!marks.has(CollectivesMark::pair_beside_tenant, i)) slow.push_back(&matrix.pairs[i]);
  if (slow.empty()) return;
  std::sort(slow.begin(), slow.end(), [](const auto* x, const auto* y) { return x->bandwidth_gbps < y->bandwidth_gbps; });
  std::vector<int> ranks;
  std::vector<std::pair<int, int>> pairs;
  std::string listed;
  for (std::size_t i = 0; i < slow.size(); ++i) {
    ranks.push_back(slow[i]->a);
    ranks.push_back(slow[i]->b);
    pairs.emplace_back(std::min(slow[i]->a, slow[i]->b), std::max(slow[i]->a, slow[i]->b));
    if (i < kPairsNamed)
      listed += (i ? ", " : "") + slow[i]->a_label + " <-> " + slow[i]->b_label + " " +
                results::fixed(slow[i]->bandwidth_gbps, 1) + " GB/s (" +
                (slow[i]->same_node ? "intra-node" : "inter-node") + ")";
  }
  if (slow.size() > kPairsNamed) listed += " and " + std::to_string(slow.size() - kPairsNamed) + " more";
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::sort(pairs.begin(), pairs.end());
  Check check{ids::kSlowPair, Severity::warning, ranks,
              std::to_string(slow.size()) + " of " + std::to_string(matrix.pairs.size()) + " pairs under " +
                  results::fixed(matrix.threshold * 100, 0) + "% of their class's median send bandwidth: " + listed +
                  "; check these links (nvidia-smi topo -m, nvidia-smi nvlink -s)"};
  check.count = static_cast<int>(slow.size());
  check.pairs = std::move(pairs);
  out.push_back(std::move(check));
}

// One finding naming the suspects, most suspect first, with their nodes and the ranks on them; an
// isolation that measured nothing fails with its reason, since it cleared no node.
void check_isolation(const results::IsolationRecord& iso, const results::SuspectList& judged,
                     const std::vector<int>& node_of_rank, std::vector<Check>& out) {
  if (!measured_anything(iso) && !judged.not_rejudged) {
    out.push_back({ids::kIsolationMeasuredNothing, Severity::error, {},
                   "slow-node isolation measured nothing: " +
                       (iso.skipped_reason.empty() ? std::string("no figure was taken") : iso.skipped_reason) +
                       "; no node was cleared: lower --isolate-bytes or free the devices' memory"});
    return;
  }
  const auto& suspects = judged.ranked;
  if (suspects.empty()) return;
  std::string named;
  Check check{ids::kSlowNode, Severity::error, {}, ""};
  for (const auto& s : suspects) {
    named += (named.empty() ? "" : "; ") + std::string("node ") + std::to_string(s.node) +
             (s.host.empty() ? "" : " (" + s.host + ")") + ": " + s.evidence;
    check.nodes.push_back(s.node);
  }
  for (std::size_t rank = 0; rank < node_of_rank.size(); ++rank)
    if (std::count(check.nodes.begin(), check.nodes.end(), node_of_rank[rank]))
      check.ranks.push_back(static_cast<int>(rank));
  std::sort(check.nodes.begin(), check.nodes.end());
  check.message = "slow traffic localised to " + results::plural(static_cast<long long>(suspects.size()), "node") +
                  ": " + named +
                  (judged.not_rejudged ? " (as the run ranked them: the file holds no rounds to judge again)" : "") +
                  "; drain and test the node's NICs and cables (ibstat, ibdiagnet)";
  out.push_back(std::move(check));
}

}  // namespace

std::vector<std::size_t> slow_pairs(const results::PairMatrix& m) {
  std::vector<std::size_t> slow;
  for (const bool same_node : {true, false}) {
    std::vector<double> bw;
    for (const auto& p : m.pairs)
      if (p.same_node == same_node) bw.push_back(p.bandwidth_gbps);
    if (bw.empty()) continue;
    const double median = results::median(bw);
    for (std::size_t i = 0; i < m.pairs.size(); ++i)
      if (m.pairs[i].same_node == same_node && m.pairs[i].bandwidth_gbps < m.threshold * median) slow.push_back(i);
  }
  std::sort(slow.begin(), slow.end());
  return slow;
}

Judged collective_checks(const results::CollectivesRecord& record, const std::vector<int>& node_of_rank,
                         const RecordMarks& marks, const results::SuspectList& saved) {
  Judged judged;
  auto& out = judged.checks;
  check_wrong(record, out);
  check_links(record, marks, out);
  if (record.pairs) {
    const auto slow = slow_pairs(*record.pairs);
    for (const auto i : slow) judged.marks.push_back(record_mark(CollectivesMark::pair_slow, i));
    check_pairs(*record.pairs, slow, marks, out);
  }
  if (record.isolation) {
    check_isolation(*record.isolation, judge_suspects(*record.isolation, saved), node_of_rank, out);
  }
  for (const auto& s : record.sweeps)
    if (!s.skipped_reason.empty())
      out.push_back({ids::kCollectiveSkipped, Severity::warning, {}, s.op + " was skipped: " + s.skipped_reason});
  return judged;
}

namespace phases::collectives {
namespace {

Judged collectives_family(const Records& c, const RuleContext& context) {
  if (!c) return Judged{};
  std::vector<int> node_of_rank;
  for (const auto& p : context.ranks) node_of_rank.push_back(p.node);
  return collective_checks(*c, node_of_rank, context.record_marks(), context.ranked_suspects());
}

// Whether world rank `rank` takes part in a collectives group (collectives/Scaling.cpp's names).
bool in_group(const std::string& group, int rank, const std::vector<RankPlace>& ranks) {
  constexpr std::string_view kFirst = "first ";
  if (group.rfind(kFirst, 0) == 0) {
    try {
      return rank < std::stoi(group.substr(kFirst.size()));
    } catch (const std::exception&) {
      return true;
    }
  }
  if (group == "inter-node" && rank >= 0 && rank < static_cast<int>(ranks.size()))
    return ranks[static_cast<std::size_t>(rank)].local_rank == 0;
  return true;  // world, intra-node (every node's communicator at once)
}

void collectives_beside_tenant(const Records& record, const SharedGpus& shared, const RuleContext& context,
                               std::vector<RecordMark>& out) {
  if (!record) return;
  const auto ranks = shared.ranks_in("collectives");
  if (ranks.empty()) return;
  const auto& c = *record;
  const auto group_shared = [&](const std::string& group) {
    return std::any_of(ranks.begin(), ranks.end(), [&](int k) { return in_group(group, k, context.ranks); });
  };
  mark_each(c.sweeps, CollectivesMark::sweep_beside_tenant, out, [&](const auto& s) { return group_shared(s.group); });
  mark_each(c.scaling, CollectivesMark::scaling_beside_tenant, out, [&](const auto& p) { return group_shared(p.group); });
  if (c.pairs)
    mark_each(c.pairs->pairs, CollectivesMark::pair_beside_tenant, out,
              [&](const auto& p) { return ranks.count(p.a) > 0 || ranks.count(p.b) > 0; });
}

// An op's item: its sizes measured on every rank.
void count_sweep(const results::CollectivesRecord& c, const results::PlannedItem& item, ItemMeasured& m) {
  for (const auto& s : c.sweeps) {
    if (s.op != item_label(item, "op") || s.group != "world") continue;
    note_item_skip(m, s.skipped_reason);
    for (const auto& row : s.rows) m.done += row.out_of_place.measured || row.in_place.measured ? 1 : 0;
  }
}

// Every item times links between GPUs, which the job needs over two or more; a sweep counts sizes, the
// localisation rounds. A kind it does not know (a newer gpuscale's) has the defaults.
ItemTraits collectives_item_traits(const results::PlannedItem& item) {
  namespace planned = results::planned;
  ItemTraits t;
  const auto& k = item.kind;
  if (k != planned::kSweep && k != planned::kScaling && k != planned::kPairs && k != planned::kIsolation) return t;
  t.measures_links = t.needed_over_gpus = true;
  if (k == planned::kSweep) {
    t.one_rank = "one rank: a local copy, no link measured";
    t.unit = "size";
  }
  if (k == planned::kIsolation) t.unit = "round";
  return t;
}

ItemMeasured collectives_measured(const Records& c, const results::PlannedItem& item, bool) {
  namespace planned = results::planned;
  ItemMeasured m{0, item.count, ""};
  if (item.kind == planned::kSweep) {
    if (c) count_sweep(*c, item, m);
    return m;
  }
  if (item.kind == planned::kScaling) return measured_if(c && !c->scaling.empty());
  if (item.kind == planned::kPairs) return measured_if(c && c->pairs && !c->pairs->pairs.empty());
  if (item.kind == planned::kIsolation) {
    // Its rounds of node pairs: a budget that ran out leaves the record with fewer, or none.
    if (!c || !c->isolation) return m;
    for (const auto& match : c->isolation->matches) m.done = std::max(m.done, match.round + 1);
    note_item_skip(m, c->isolation->skipped_reason);
    return m;
  }
  return measured_if(false);
}

bool any_size_measured(const results::CollectiveSweep& s) {
  return std::any_of(s.rows.begin(), s.rows.end(),
                     [](const results::CollectiveRow& r) { return r.out_of_place.measured || r.in_place.measured; });
}

// A sweep with no reason of its own but no size measured counts as skipped too.
void count_collectives_skips(const Records& c, RecordSkips& out) {
  if (!c) return;
  for (const auto& s : c->sweeps)
    out.add(s.op,
            !s.skipped_reason.empty() || any_size_measured(s) ? s.skipped_reason : std::string("no size measured"));
}

}  // namespace

extern constinit const PhaseRulesOf<Records> kRules{
    .reads = "collectives, ranks[].node",
    .severities = "collective-wrong-data, slow-node, isolation-measured-nothing error; collective-below-link, "
                  "slow-pair, collective-skipped warning",
    .stops_gpu_work = GpuBlock::none,
    .judge = collectives_family,
    .beside_tenant_marks = collectives_beside_tenant,
    .measured = collectives_measured,
    .count_skips = count_collectives_skips,
    .item_traits = collectives_item_traits,
};

}  // namespace phases::collectives

}  // namespace gpuscale::judge
