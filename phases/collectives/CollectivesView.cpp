#include "phases/collectives/CollectivesView.hpp"

#include <tuple>

#include "phases/collectives/CollectiveFigures.hpp"
#include "phases/collectives/CollectivesReporter.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/HeadlineParts.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/charts/PhaseCharts.hpp"

namespace gpuscale::results::views::collectives {
namespace {

using namespace names;

constexpr std::string_view kSweepLabels = "op,bytes,ranks,scope,placement,dtype";
constexpr std::string_view kScalingLabels = "op,bytes,ranks,scope";
constexpr std::string_view kHeadlineLabels = "op,scope,dtype";

constexpr FigureSpec kFigures[] = {
    {phase::collectives, kBusBw, kSweepLabels, "GB/s"},
    {phase::collectives, kBusBw, kScalingLabels, "GB/s"},
    {phase::collectives, kAlgBw, kSweepLabels, "GB/s"},
    {phase::collectives, kTime, kSweepLabels, "s"},
    {phase::collectives, kWrongElements, kSweepLabels, "count"},
    {phase::collectives, kWrongElements, kScalingLabels, "count"},
    {phase::collectives, kPeakBusBw, kHeadlineLabels, "GB/s"},
    {phase::collectives, kLatency, kHeadlineLabels, "s"},
    {phase::collectives, kLatencyGraph, kHeadlineLabels, "s"},
    {phase::collectives, kLinkUse, kHeadlineLabels, "ratio"},
    {phase::collectives, kPairBusBw, "src,dst", "GB/s"},
    {phase::collectives, kPairLatency, "src,dst", "s"},
    {phase::collectives, kNodeLocalBusBw, "node", "GB/s"},
    {phase::collectives, kInterNodeBusBw, "node", "GB/s"},
};

// The sweep's allreduce at the most ranks and then the largest size, out of place where both were run.
void allreduce_busbw(const Records& records, HeadlineContext& c, std::vector<Headline>& out) {
  const Figure* pick = nullptr;
  const auto key = [](const Figure& f) {
    return std::make_tuple(!f.beside_tenant, std::stoi(label_or_empty(f, names::kRanks)), bytes_of(f),
                           label_or_empty(f, "placement") == "out");
  };
  for (const auto& f : c.figures)
    if (f.phase == phase::collectives && f.metric == names::kBusBw && label_or_empty(f, names::kOp) == "allreduce" &&
        !label_or_empty(f, "placement").empty() && (!pick || key(f) > key(*pick)))
      pick = &f;
  if (!pick) return;
  auto h = of_job("allreduce_busbw_gbps",
                  "Collectives: allreduce busbw at " + size_label(bytes_of(*pick)) + " over " +
                      count_of(*pick, names::kRanks, "rank"),
                  "allreduce bus bandwidth at the largest size over the most ranks (GB/s)", {}, *pick);
  h.beside_tenant = pick->beside_tenant;
  if (records)
    for (const auto& s : records->sweeps)
      if (s.op == "allreduce" && std::to_string(s.ranks) == label_or_empty(*pick, names::kRanks) &&
          s.headline.link_gbps)
        h.peak = s.headline.link_gbps, h.peak_source = s.headline.link;
  set_baseline(c, *pick, h);
  out.push_back(std::move(h));
}

void name_ranks(const Records& records, const RankRefs& in) {
  if (!records) return;
  const auto& c = *records;
  for (std::size_t s = 0; s < c.sweeps.size(); ++s)
    for (const auto& row : c.sweeps[s].rows)
      for (const auto* t : {&row.out_of_place, &row.in_place}) {
        const std::string where = "collectives.sweeps[" + std::to_string(s) + "] (" + c.sweeps[s].op + ")";
        in.rank(t->slowest_rank, where, true);
        in.ranks(t->wrong_ranks, where);
      }
  for (std::size_t i = 0; i < c.scaling.size(); ++i) in.ranks(c.scaling[i].wrong_ranks, element_name("collectives.scaling", i));
  if (c.pairs)
    for (std::size_t i = 0; i < c.pairs->pairs.size(); ++i) {
      in.rank(c.pairs->pairs[i].a, element_name("collectives.pairs.pairs", i));
      in.rank(c.pairs->pairs[i].b, element_name("collectives.pairs.pairs", i));
    }
  if (!c.isolation) return;
  const auto& iso = *c.isolation;
  for (const auto& n : iso.node_local) in.node(n.node, "collectives.isolation.node_local");
  for (const auto& m : iso.matches) in.node(m.node, "collectives.isolation.matches");
  for (const auto& b : iso.bisection) {
    in.nodes(b.a, "collectives.isolation.bisection");
    in.nodes(b.b, "collectives.isolation.bisection");
  }
}

constexpr CheckSection kCheckSections[] = {CheckSection::collectives};

}  // namespace

extern constinit const PhaseViewOf<Records> kView{
    .name = phase::collectives,
    .title = "Collectives: bus bandwidth and latency",
    .has_records = [](const Records& records, int) { return records.has_value(); },
    .name_ranks = name_ranks,
    .append_figures = [](const Records& records, const RecordMarks& marks, std::vector<Figure>& out) {
      append_figures(records, marks, out);
    },
    .vocabulary = kFigures,
    .console = [](const Records& records, const RecordMarks& marks, bool per_rank, std::ostream& out) {
      if (records) write_collectives(*records, marks, per_rank, out);
    },
    .headlines = allreduce_busbw,
    .check_sections = kCheckSections,
    .charts = collective_charts,
};

}  // namespace gpuscale::results::views::collectives
