#include "phases/links/LinksTable.hpp"

#include <utility>
#include <vector>

#include "results/base/FigureNames.hpp"
#include "results/base/FigureNoise.hpp"
#include "results/base/Format.hpp"
#include "results/base/Table.hpp"

namespace gpuscale::results {
namespace {

// "55.2/55.1": H2D/D2H at the largest size, or "-".
std::string pair_cell(const LinksRecord& r, const std::string& memory, const std::string& mode) {
  const auto* h2d = largest_copy(r, "h2d", memory, mode);
  const auto* d2h = largest_copy(r, "d2h", memory, mode);
  if (!h2d && !d2h) return "-";
  return (h2d ? fixed(h2d->gbps, 1) : "-") + "/" + (d2h ? fixed(d2h->gbps, 1) : "-");
}

std::string size_cell(const LinksRecord& r, const std::string& memory) {
  const auto* c = largest_copy(r, "h2d", memory, "solo");
  return c ? binary_bytes(static_cast<double>(c->bytes)) : "-";
}

std::string pcie_cell(const PcieUnderLoad& p) {
  if (!p.gen || !p.width) return "-";
  std::string s = "gen" + std::to_string(*p.gen) + " x" + std::to_string(*p.width);
  if (p.gen_max && p.width_max) s += " / gen" + std::to_string(*p.gen_max) + " x" + std::to_string(*p.width_max);
  return s;
}

std::string hbm_cell(const LinksRecord& r, const std::string& kernel) {
  const auto* h = find_hbm(r, kernel);
  return h ? fixed(h->gbps, 0) : "-";
}

std::string floor_cell(const std::optional<double>& floor, int decimals) {
  return floor ? fixed(*floor, decimals) : "-";
}

std::string peak_cell(const LinksRecord& r) {
  const auto* h = find_hbm(r, "copy");
  return h && r.hbm_peak_gbps ? fixed(100 * h->gbps / *r.hbm_peak_gbps, 0) : "-";
}

std::string nvlink_cell(const LinksRecord& r) {
  if (r.nvlinks.empty()) return "-";
  int up = 0;
  std::uint64_t errors = 0;
  for (const auto& l : r.nvlinks) {
    up += l.active_after ? 1 : 0;
    errors += l.errors.replay.value_or(0) + l.errors.recovery.value_or(0) + l.errors.crc_flit.value_or(0) +
              l.errors.crc_data.value_or(0);
  }
  return std::to_string(up) + "/" + std::to_string(r.nvlinks.size()) + " up, " + std::to_string(errors) + " err";
}

std::string flags(const LinksRecord& r, const RecordMarks& marks, std::size_t i) {
  std::string text = marks.has(LinksMark::h2d_slow, i) ? "H2D SLOW" : "";
  if (marks.has(LinksMark::hbm_slow, i)) text += text.empty() ? "HBM SLOW" : " HBM SLOW";
  if (!r.xids.empty()) text += text.empty() ? "XID" : " XID";
  return text;
}

}  // namespace

void write_links_table(const std::vector<LinksRecord>& records, const RecordMarks& marks, std::ostream& out) {
  if (records.empty()) return;
  Table t({"rank", "host", "gpu", "numa", "cpus", "size", "pinned GB/s", "floor", "all at once", "pageable",
           "pcie under load / max", "copy GB/s", "floor", "triad", "% peak", "nvlink", ""});
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    t.add_row({std::to_string(r.rank), r.host, r.gpu, r.numa_node < 0 ? "-" : std::to_string(r.numa_node),
               r.cpu_affinity.empty() ? "-" : r.cpu_affinity, size_cell(r, "pinned"), pair_cell(r, "pinned", "solo"),
               floor_cell(marks.value(LinksMark::h2d_floor, i), 1), pair_cell(r, "pinned", "concurrent"),
               pair_cell(r, "pageable", "solo"), pcie_cell(r.pcie), hbm_cell(r, "copy"),
               floor_cell(marks.value(LinksMark::hbm_floor, i), 0), hbm_cell(r, "triad"), peak_cell(r), nvlink_cell(r),
               flags(r, marks, i)});
  }
  out << "Host links and memory (H2D/D2H at the largest size, median; pinned alone, then every GPU of the node at once; "
         "device memory counts bytes read + written)\n";
  t.write(out);
}

void append_figures(const std::vector<LinksRecord>& records, const RecordMarks& marks, std::vector<Figure>& out) {
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    const std::string rank = std::to_string(r.rank);
    const auto first = out.size();
    const auto timed = [&](Figure f, const std::vector<double>& samples_s) {
      f.spread = band_of_samples(samples_s, f.value);
      f.op_time_s = median_of(samples_s).value_or(0);
      out.push_back(std::move(f));
    };
    for (const auto& c : r.copies) {
      timed({phase::links, names::kHostCopyBw,
             {{names::kRank, rank}, {names::kDirection, c.direction}, {names::kMemory, c.memory},
              {names::kMode, c.mode}, {names::kBytes, std::to_string(c.bytes)}},
             c.gbps, "GB/s", Better::higher},
            c.samples_s);
      // A pageable copy goes through the host's page handling, which moves it between healthy runs
      // by far more than its samples spread within one.
      out.back().varies_between_runs = c.memory == "pageable";
      out.back().under_floor =
          &c == largest_copy(r, c.direction, "pinned", "solo") &&
          marks.has(c.direction == "h2d" ? LinksMark::h2d_under_floor : LinksMark::d2h_under_floor, i);
    }
    for (const auto& h : r.hbm) {
      const Labels labels{{names::kRank, rank}, {names::kKernel, h.kernel}};
      timed({phase::links, names::kHbmBw, labels, h.gbps, "GB/s", Better::higher}, h.samples_s);
      out.back().under_floor = &h == find_hbm(r, "copy") && marks.has(LinksMark::hbm_under_floor, i);
      if (r.hbm_peak_gbps)
        out.push_back({phase::links, names::kHbmPeakFraction, labels, h.gbps / *r.hbm_peak_gbps, "ratio", Better::higher});
    }
    std::uint64_t errors = 0;
    for (const auto& l : r.nvlinks)
      errors += l.errors.replay.value_or(0) + l.errors.recovery.value_or(0) + l.errors.crc_flit.value_or(0) +
                l.errors.crc_data.value_or(0);
    if (!r.nvlinks.empty())
      out.push_back({phase::links, names::kNvlinkErrors, {{names::kRank, rank}}, static_cast<double>(errors), "count",
                     Better::lower});
    out.push_back({phase::links, names::kXidEvents, {{names::kRank, rank}}, static_cast<double>(r.xids.size()), "count",
                   Better::lower});
    mark_beside_tenant(out, first, marks.has(LinksMark::beside_tenant, i));
  }
}

}  // namespace gpuscale::results
