#include "results/render/ProjectionReporter.hpp"

#include <string>

#include "phases/collectives/CollectivesReporter.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/Table.hpp"

namespace gpuscale::results {
namespace {

std::string percent_or_dash(const std::optional<double>& ratio) { return ratio ? fixed(*ratio * 100, 1) : "-"; }

std::string join(const std::vector<int>& values) {
  std::string text;
  for (const int v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

void write_fits(const Projection& p, std::ostream& out) {
  Table t({"op", "tier", "source", "ranks", "alpha(us)", "beta(ps/B)", "fitted", "held out", "held-out err med/max(%)",
           "link step(us)", "link busbw(GB/s)"});
  for (const auto& f : p.fits)
    t.add_row({f.op, f.tier, f.source, std::to_string(f.ranks), microseconds(f.fit.alpha_s),
               fixed(f.fit.beta_s_per_byte * 1e12, 3), std::to_string(f.fit.points_fitted),
               std::to_string(f.fit.points_held_out),
               percent_or_dash(f.fit.held_out_median_error) + " / " + percent_or_dash(f.fit.held_out_max_error),
               microseconds(f.link_alpha_s),
               f.link_beta_s_per_byte > 0 ? fixed(1e-9 / f.link_beta_s_per_byte, 2) : "-"});
  t.write(out, "  ");
}

// NCCL's own prediction for each fitted communicator whose cost model its tuning log gave.
void write_nccl_model(const Projection& p, std::ostream& out) {
  std::vector<std::string> header = {"op", "tier", "ranks"};
  for (const auto bytes : kProjectionSizes) header.push_back(size_label(bytes) + " fit / NCCL us");
  Table t(header);
  for (const auto& f : p.fits) {
    if (f.nccl_model.empty()) continue;
    std::vector<std::string> row = {f.op, f.tier, std::to_string(f.ranks)};
    for (const auto bytes : kProjectionSizes) {
      std::string cell = "-";
      for (const auto& m : f.nccl_model)
        if (m.size_bytes == bytes)
          cell = microseconds(m.fitted_s) + " / " + microseconds(m.nccl_s) + " (" + m.nccl_choice + ")";
      row.push_back(std::move(cell));
    }
    t.add_row(std::move(row));
  }
  if (t.empty()) return;
  out << "  NCCL's own cost model of the communicators measured (its tuning log), beside the fit\n";
  t.write(out, "  ");
}

// One row per op, algorithm and target size; one column per message size: time (busbw).
void write_projected_collectives(const Projection& p, std::ostream& out) {
  std::vector<std::string> header = {"op", "algo", "ranks", "nodes", "bottleneck"};
  for (const auto bytes : kProjectionSizes) header.push_back(size_label(bytes) + " us (GB/s)");
  Table t(header);
  std::vector<std::string> row;
  for (std::size_t i = 0; i < p.collectives.size(); ++i) {
    const auto& c = p.collectives[i];
    if (row.empty()) row = {c.op, c.algorithm, std::to_string(c.ranks), std::to_string(c.nodes), c.bottleneck};
    row.push_back(microseconds(c.time_s) + " (" + fixed(c.busbw_gbps, 1) + ")");
    const bool last = i + 1 == p.collectives.size();
    if (last || p.collectives[i + 1].op != c.op || p.collectives[i + 1].algorithm != c.algorithm ||
        p.collectives[i + 1].ranks != c.ranks) {
      while (row.size() < header.size()) row.push_back("-");
      t.add_row(std::move(row));
      row.clear();
    }
  }
  t.write(out, "  ");
}

void write_ddp(const Projection& p, std::ostream& out) {
  if (p.ddp.empty()) return;
  out << "  DDP step (compute-only and overlap as measured, bucket allreduces projected)\n";
  Table t({"config", "ranks", "algo", "compute(ms)", "comm(ms)", "exposed(ms)", "step(ms)", "samples/s", "eff(%)",
           "comm at measured size: measured/model (ms)"});
  for (const auto& d : p.ddp)
    t.add_row({d.config, std::to_string(d.ranks), d.algorithm, fixed(d.compute_s * 1e3, 2), fixed(d.comm_s * 1e3, 2),
               fixed(d.exposed_comm_s * 1e3, 2), fixed(d.step_s * 1e3, 2), fixed(d.samples_per_s, 0),
               fixed(d.efficiency * 100, 1),
               fixed(d.measured_comm_s * 1e3, 2) + " / " + fixed(d.modelled_comm_at_measured_s * 1e3, 2)});
  t.write(out, "  ");
}

}  // namespace

void write_projection(const Projection& p, std::ostream& out) {
  out << "Projection to " << join(p.target_ranks) << " ranks (" << p.gpus_per_node
      << " per node as measured; t = alpha + n beta fitted per op and tier, every other size held out; "
         "docs/PROJECTION.md)\n";
  for (const auto& note : p.notes) out << "  note: " << note << '\n';
  if (p.fits.empty()) return;
  write_fits(p, out);
  write_nccl_model(p, out);
  write_projected_collectives(p, out);
  write_ddp(p, out);
}

void append_figures(const std::optional<Projection>& projection, std::vector<Figure>& out) {
  if (!projection) return;
  const auto add = [&](const char* metric, Labels labels, double value, const char* unit) {
    out.push_back(Figure{names::kProjection, metric, std::move(labels), value, unit, Better::none});
  };
  for (const auto& f : projection->fits) {
    const Labels l{{names::kOp, f.op}, {names::kTier, f.tier}, {names::kRanks, std::to_string(f.ranks)}};
    add(names::kFitAlpha, l, f.fit.alpha_s, "s");
    add(names::kFitBeta, l, f.fit.beta_s_per_byte, "s/B");
    if (f.fit.held_out_max_error) add(names::kFitHeldOutError, l, *f.fit.held_out_max_error, "ratio");
    for (const auto& m : f.nccl_model) {
      Labels ml = l;
      ml.emplace(names::kBytes, std::to_string(m.size_bytes));
      add(names::kNcclModelTime, std::move(ml), m.nccl_s, "s");
    }
  }
  for (const auto& c : projection->collectives) {
    const Labels l{{names::kOp, c.op},
                   {names::kAlgorithm, c.algorithm},
                   {names::kRanks, std::to_string(c.ranks)},
                   {names::kBytes, std::to_string(c.size_bytes)}};
    add(names::kProjectedTime, l, c.time_s, "s");
    add(names::kProjectedBusBw, l, c.busbw_gbps, "GB/s");
  }
  for (const auto& d : projection->ddp) {
    const Labels l{{names::kModel, d.model}, {names::kConfig, d.config}, {names::kRanks, std::to_string(d.ranks)}};
    add(names::kProjectedStepTime, l, d.step_s, "s");
    add(names::kProjectedSamplesPerS, l, d.samples_per_s, "samples/s");
  }
}

}  // namespace gpuscale::results
