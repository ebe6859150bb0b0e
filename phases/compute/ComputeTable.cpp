#include "phases/compute/ComputeTable.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "results/base/Format.hpp"
#include "results/base/Table.hpp"

namespace gpuscale::results {
namespace {

std::string verification_cell(const ComputeVerification& c) {
  if (!c.ran) return "-";
  const std::string error = std::isnan(c.relative_error) ? "NaN" : [&] {
    char text[32];
    std::snprintf(text, sizeof text, "%.1e", c.relative_error);
    return std::string(text);
  }();
  return (c.passed ? "ok " : "FAIL ") + error;
}

std::string where(const ComputeRecord& r) { return r.name.empty() ? r.set : r.set + ":" + r.name; }

}  // namespace

void write_compute_table(const std::vector<ComputeRecord>& records, const RecordMarks& marks, std::ostream& out) {
  if (records.empty()) return;
  Table t({"rank", "set", "layer", "shape", "prec", "pass", "median ms", "p10 ms", "p90 ms", "TFLOP/s", "% peak",
           "algorithm", "ws MiB", "mem MiB", "check", ""});
  bool over_peak = false;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    std::vector<std::string> row = {std::to_string(r.rank), where(r), r.layer, r.shape, r.precision, r.pass};
    if (!r.skipped_reason.empty()) {
      row.insert(row.end(), {"skipped: " + r.skipped_reason});
      t.add_row(std::move(row));
      continue;
    }
    const double percent = r.peak_tflops ? 100.0 * r.tflops / *r.peak_tflops : 0.0;
    const bool over = percent > 100.0;
    over_peak = over_peak || over;
    const std::string peak = r.peak_tflops ? fixed(percent, 0) + (over ? "*" : "") : "-";
    row.insert(row.end(), {fixed(r.time_s.median * 1e3, 3), fixed(r.time_s.p10 * 1e3, 3), fixed(r.time_s.p90 * 1e3, 3),
                           tflops_cell(r.tflops), peak, r.algorithm, mib(r.workspace_bytes, 1), mib(r.memory_bytes, 1),
                           verification_cell(r.verification),
                           marks.has(ComputeMark::beside_tenant, i) ? "BESIDE TENANT"
                           : marks.has(ComputeMark::straggler, i)   ? "STRAGGLER"
                                                                    : ""});
    t.add_row(std::move(row));
  }
  out << section_header("Compute: matmul and conv (per rank)",
                        "TFLOP/s = 2 x multiply-adds / median time; % of the GPU's dense peak for the precision");
  const bool burst = std::any_of(records.begin(), records.end(), [](const ComputeRecord& r) { return r.timing == "burst"; });
  if (burst)
    out << "  burst figures: a few calls at the clock of a GPU just back from idle; `gpuscale burn` gives the sustained "
           "rate, --warmup-ms / --min-time-ms settled figures\n";
  t.write(out);
  if (over_peak)
    out << "  * over the dense peak: the algorithm (Winograd, FFT) does fewer multiply-adds than the direct "
           "convolution TFLOP/s counts\n";
}

}  // namespace gpuscale::results
