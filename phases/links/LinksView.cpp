#include "phases/links/LinksView.hpp"

#include <algorithm>
#include <map>

#include "phases/links/LinksTable.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/HeadlineParts.hpp"
#include "results/base/PhaseNames.hpp"

namespace gpuscale::results::views::links {
namespace {

using namespace names;

constexpr FigureSpec kFigures[] = {
    {phase::links, kHostCopyBw, "rank,direction,memory,mode,bytes", "GB/s"},
    {phase::links, kHbmBw, "rank,kernel", "GB/s"},
    {phase::links, kHbmPeakFraction, "rank,kernel", "ratio"},
    {phase::links, kNvlinkErrors, "rank", "count"},
    {phase::links, kXidEvents, "rank", "count"},
};

// Pinned copies alone on the node, at the largest size each direction measured.
Keep largest_pinned_solo(const HeadlineContext& c) {
  std::map<std::string, std::uint64_t> largest;  // direction -> bytes
  for (const auto& f : c.figures)
    if (f.metric == names::kHostCopyBw && label_or_empty(f, names::kMemory) == "pinned")
      largest[label_or_empty(f, names::kDirection)] =
          std::max(largest[label_or_empty(f, names::kDirection)], bytes_of(f));
  return [largest](const Figure& f) {
    return label_or_empty(f, names::kMemory) == "pinned" && label_or_empty(f, names::kMode) == "solo" &&
           bytes_of(f) == largest.at(label_or_empty(f, names::kDirection));
  };
}

void headlines(const Records&, HeadlineContext& c, std::vector<Headline>& out) {
  per_gpu(c, phase::links, kHostCopyBw, kDirection, largest_pinned_solo(c),
          named("host_link_gbps", "Host link: pinned copy bandwidth",
                "pinned host copy bandwidth of a GPU alone on its node, largest size (GB/s)"),
          pcie_peak(c), out);
  per_gpu(
      c, phase::links, kHbmBw, "", [](const Figure& f) { return label_or_empty(f, kKernel) == "copy"; },
      named("hbm_gbps", "Memory: device copy bandwidth (read + written)",
            "device memory copy bandwidth, bytes read plus written (GB/s)"),
      hbm_peak(c), out);
}

void name_ranks(const Records& records, const RankRefs& refs) {
  for (std::size_t i = 0; i < records.size(); ++i) {
    refs.rank(records[i].rank, element_name("links", i));
    refs.node(records[i].node, element_name("links", i));
  }
}

constexpr CheckSection kCheckSections[] = {CheckSection::links, CheckSection::floors};

}  // namespace

extern constinit const PhaseViewOf<Records> kView{
    .name = phase::links,
    .title = "Host links and device memory",
    .has_records = [](const Records& records, int) { return !records.empty(); },
    .name_ranks = name_ranks,
    .append_figures = [](const Records& records, const RecordMarks& marks, std::vector<Figure>& out) {
      append_figures(records, marks, out);
    },
    .vocabulary = kFigures,
    .console = [](const Records& records, const RecordMarks& marks, bool per_rank, std::ostream& out) {
      if (per_rank) write_links_table(records, marks, out);
    },
    .headlines = headlines,
    .check_sections = kCheckSections,
    .charts = nullptr,
};

}  // namespace gpuscale::results::views::links
