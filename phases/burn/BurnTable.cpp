#include "phases/burn/BurnTable.hpp"

#include <utility>
#include <vector>

#include "results/base/FigureNames.hpp"
#include "results/base/FigureNoise.hpp"
#include "results/base/Format.hpp"
#include "results/base/Table.hpp"

namespace gpuscale::results {
namespace {

std::string optional_cell(const std::optional<double>& value, int decimals) {
  return value ? fixed(*value, decimals) : "-";
}

// "sw_power_cap 100%, hw_thermal 4%": the reasons that were active, or "none".
std::string throttle_cell(const BurnRecord& r) {
  if (r.throttle_share.empty()) return "-";
  std::string text;
  for (const auto& [reason, share] : r.throttle_share)
    if (share > 0) text += (text.empty() ? "" : ", ") + reason + " " + percent(share, 0);
  return text.empty() ? "none" : text;
}

std::string flags(const RecordMarks& marks, std::size_t i) {
  std::string text = marks.has(BurnMark::slow, i) ? "SLOW" : "";
  if (marks.has(BurnMark::wrong_result, i)) text += text.empty() ? "WRONG RESULT" : " WRONG RESULT";
  if (marks.has(BurnMark::beside_tenant, i)) text += text.empty() ? "BESIDE TENANT" : " BESIDE TENANT";
  return text;
}

}  // namespace

void write_burn_table(const std::vector<BurnRecord>& records, const RecordMarks& marks, std::ostream& out) {
  if (records.empty()) return;
  Table t({"rank", "gpu", "prec", "shape", "s", "sustained TFLOP/s", "floor", "% peak", "first/sust", "clock p10", "p50 MHz",
           "power W", "peak C", "throttle reasons (share of samples)", "output", ""});
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    const std::string peak = r.peak_tflops ? fixed(100 * r.sustained_tflops / *r.peak_tflops, 0) : "-";
    const std::string hash = r.output_hashes.empty() ? "-" : r.output_hashes.back().substr(0, 8);
    t.add_row({std::to_string(r.rank), r.gpu, r.precision, r.shape, fixed(r.elapsed_s, 1),
               tflops_cell(r.sustained_tflops), optional_cell(marks.value(BurnMark::floor, i), 0), peak,
               fixed(r.first_to_sustained, 3), optional_cell(r.clock_p10_mhz, 0), optional_cell(r.clock_p50_mhz, 0),
               optional_cell(r.power_p50_w, 0), optional_cell(r.peak_temperature_c, 0), throttle_cell(r), hash,
               flags(marks, i)});
  }
  out << section_header("Burn: sustained load (every GPU at once)",
                        "sustained = work over wall time after the first " + fixed(records.front().settle_s, 2) +
                            " s, in " + fixed(records.front().window_s * 1e3, 0) +
                            " ms windows; first/sust = the first stretch's rate over it");
  t.write(out);
}

void append_figures(const std::vector<BurnRecord>& records, const RecordMarks& marks, std::vector<Figure>& out) {
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    const Labels labels{{names::kRank, std::to_string(r.rank)}, {names::kPrecision, r.precision}};
    const auto first = out.size();
    // The band of the windows after the settling stretch: how steadily the sustained rate held.
    std::vector<double> sustained_windows;
    for (const auto& w : r.windows)
      if (w.start_s >= r.settle_s) sustained_windows.push_back(w.tflops);
    Figure sustained{phase::burn, names::kSustainedTflops, labels, r.sustained_tflops, "TFLOP/s", Better::higher};
    sustained.spread = band_of_samples(sustained_windows, r.sustained_tflops);
    sustained.under_floor = marks.has(BurnMark::under_floor, i);
    out.push_back(std::move(sustained));
    out.push_back({phase::burn, "first_to_sustained", labels, r.first_to_sustained, "ratio", Better::none});
    if (r.clock_p50_mhz) out.push_back({phase::burn, "clock_p50", labels, *r.clock_p50_mhz, "MHz", Better::higher});
    if (r.peak_temperature_c)
      out.push_back({phase::burn, "peak_temperature", labels, *r.peak_temperature_c, "C", Better::lower});
    mark_beside_tenant(out, first, marks.has(BurnMark::beside_tenant, i));
  }
}

}  // namespace gpuscale::results
