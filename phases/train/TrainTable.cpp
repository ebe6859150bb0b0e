#include "phases/train/TrainTable.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "results/base/Format.hpp"
#include "results/base/Table.hpp"

namespace gpuscale::results {
namespace {

std::string ms(double s) { return fixed(s * 1e3, 3); }
std::string ms(const std::optional<double>& s) { return s ? ms(*s) : "-"; }
std::string pct(const std::optional<double>& f, double scale) { return f ? fixed(*f * scale, 0) : "-"; }

void scaling_table(const TrainResults& results, const RecordMarks& marks, std::ostream& out) {
  Table t({"config", "batch/GPU", "global", "step ms", "p10", "p90", "samples/s", "eff %", "compute ms", "comm ms",
           "exposed ms", "overlap %", "peak MiB", ""});
  for (std::size_t i = 0; i < results.records.size(); ++i) {
    const auto& r = results.records[i];
    std::vector<std::string> row = {train_config(r), std::to_string(r.batch_per_gpu), std::to_string(r.global_batch)};
    if (!r.skipped_reason.empty()) {
      row.push_back("skipped: " + r.skipped_reason);
    } else {
      row.insert(row.end(),
                 {ms(r.step_s.median), ms(r.step_s.p10), ms(r.step_s.p90), fixed(r.samples_per_s, 0),
                  pct(r.efficiency, 100), ms(r.compute_s), ms(r.comm_s), ms(r.exposed_comm_s), pct(r.overlap_pct, 1),
                  mib(r.peak_memory_bytes, 0), marks.has(TrainMark::beside_tenant, i) ? "BESIDE TENANT" : ""});
    }
    t.add_row(std::move(row));
  }
  out << section_header("Training: scaling",
                        "step = slowest rank per step; eff = samples/s over GPUs x 1-GPU samples/s; exposed = step - "
                        "compute-only; overlap = 1 - exposed / comm");
  t.write(out);
}

void rank_table(const TrainResults& results, const RecordMarks& marks, std::ostream& out) {
  Table t({"config", "rank", "step ms", "p90", "compute ms", "comm ms", "peak MiB", ""});
  for (std::size_t i = 0; i < results.records.size(); ++i) {
    const auto& r = results.records[i];
    for (std::size_t e = 0; e < r.ranks.size(); ++e) {
      const auto& k = r.ranks[e];
      t.add_row({train_config(r), std::to_string(k.rank), ms(k.step_s.median), ms(k.step_s.p90), ms(k.compute_s),
                 ms(k.comm_s), mib(k.peak_memory_bytes, 0), marks.has(TrainMark::straggler, i, e) ? "STRAGGLER" : ""});
    }
  }
  if (t.empty()) return;
  out << section_header("Training: per rank", "for dp: per device of rank 0");
  t.write(out);
}

void dp_table(const TrainResults& results, std::ostream& out) {
  std::vector<std::string> header = {"config"};
  for (const auto& [name, field] : kDpPhaseFields) {
    header.emplace_back(name);
    std::replace(header.back().begin(), header.back().end(), '_', ' ');  // "grad scatter"
  }
  Table t(header);
  for (const auto& r : results.records) {
    if (!r.dp) continue;
    std::vector<std::string> row = {train_config(r)};
    for (const auto& [name, field] : kDpPhaseFields) row.push_back(ms((*r.dp).*field));
    t.add_row(std::move(row));
  }
  if (t.empty()) return;
  out << section_header("Training: DP-style phases on device 0",
                        "ms, medians; gather and reduce include waiting for the replicas");
  t.write(out);
}

void check_table(const TrainResults& results, std::ostream& out) {
  Table t({"check", "config", "result", "error", "tolerance", "detail"});
  for (const auto& c : results.verifications) {
    char err[32], tol[32];
    std::snprintf(err, sizeof err, "%.2e", c.error);
    std::snprintf(tol, sizeof tol, "%.2e", c.tolerance);
    t.add_row({c.name, c.config, c.passed ? "ok" : "FAIL", err, tol, c.detail});
  }
  if (t.empty()) return;
  out << section_header("Training: correctness", "relative L2 error of the gradients after one step");
  t.write(out);
}

}  // namespace

void write_train_tables(const TrainResults& results, const RecordMarks& marks, bool per_rank, std::ostream& out) {
  check_table(results, out);
  if (results.records.empty()) return;
  scaling_table(results, marks, out);
  dp_table(results, out);
  if (per_rank) rank_table(results, marks, out);
}

}  // namespace gpuscale::results
