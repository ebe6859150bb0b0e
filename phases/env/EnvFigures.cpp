#include "phases/env/EnvFigures.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "results/base/FigureNames.hpp"
#include "results/base/FigureNoise.hpp"
#include "results/base/Format.hpp"
#include "results/world/GpuTenants.hpp"

namespace gpuscale::results {
namespace {

void add(std::vector<Figure>& out, const RankEnv& e, const char* metric, double value, const char* unit,
         Better better) {
  out.push_back(Figure{phase::env, metric, {{names::kRank, std::to_string(e.rank)}}, value, unit, better});
}

template <class T>
void add_optional(std::vector<Figure>& out, const RankEnv& e, const char* metric, const std::optional<T>& v,
                  const char* unit, Better better) {
  if (v) add(out, e, metric, static_cast<double>(*v), unit, better);
}

void append_gpu(const RankEnv& e, const GpuInfo& g, std::vector<Figure>& out) {
  add(out, e, names::kGpuMemoryTotal, static_cast<double>(g.memory_total_bytes), "B", Better::none);
  add(out, e, names::kGpuMemoryFree, static_cast<double>(g.memory_free_bytes), "B", Better::none);
  add_optional(out, e, names::kSmClock, g.sm_clock_mhz, "MHz", Better::none);
  add_optional(out, e, names::kSmClockMax, g.sm_clock_max_mhz, "MHz", Better::none);
  add_optional(out, e, names::kMemoryClock, g.memory_clock_mhz, "MHz", Better::none);
  add_optional(out, e, names::kTemperature, g.temperature_c, "C", Better::none);
  add_optional(out, e, names::kPowerDraw, g.power_draw_w, "W", Better::none);
  // Higher is better so that a baseline flags a power limit lowered since the healthy runs.
  add_optional(out, e, names::kPowerLimit, g.power_limit_w, "W", Better::higher);
}

// The figures behind gpu-in-use and nic-rate-mismatch, so --expect can bound them.
void append_health(const std::vector<RankEnv>& ranks, std::size_t index, std::vector<Figure>& out) {
  const auto& e = ranks[index];
  if (e.tenancy.probed) {
    add(out, e, "foreign_gpu_processes", static_cast<double>(foreign_processes(ranks, index).size()), "count",
        Better::lower);
    if (const auto busy = mean_utilization_pct(e.tenancy)) {
      add(out, e, "gpu_utilization_before_start", *busy, "%", Better::lower);
      // NVML reads whole percents, and an idle GPU reads 0 to 2: a move within one point is no move.
      const std::vector<double> samples(e.tenancy.utilization_pct.begin(), e.tenancy.utilization_pct.end());
      out.back().spread = std::max(1.0, band_in_unit(samples));
    }
  }
  for (const auto& a : e.network.adapters)
    for (const auto& p : a.ports)
      if (p.state == "ACTIVE" && p.rate_gbps > 0)  // an unknown rate is no figure
        out.push_back(Figure{phase::env, "rdma_port_rate",
                             {{names::kRank, std::to_string(e.rank)}, {"adapter", a.name}, {"port", std::to_string(p.port)}},
                             p.rate_gbps, "Gb/s", Better::higher});
}

}  // namespace

void append_figures(const std::vector<RankEnv>& ranks, std::vector<Figure>& out) {
  for (std::size_t i = 0; i < ranks.size(); ++i) append_health(ranks, i, out);
  for (const auto& e : ranks) {
    if (e.smoke.ran) {
      add(out, e, names::kSmokeAllreduceTime, e.smoke.op_s, "s", Better::lower);
      out.back().local_copy = e.world_size == 1;  // an allreduce over one rank copies its own memory
      add(out, e, names::kSmokeInitTime, e.smoke.init_s, "s", Better::lower);
      out.back().local_copy = e.world_size == 1;  // a communicator of one rank: no link to set up
      Figure wrong{phase::env, names::kWrongElements,
                   {{names::kRank, std::to_string(e.rank)}, {"test", "smoke_allreduce"}},
                   static_cast<double>(e.smoke.wrong), "count", Better::lower};
      out.push_back(wrong);
    }
    if (e.gpu) append_gpu(e, *e.gpu, out);
  }
}

void append_figures(const std::vector<Check>& checks, std::vector<Figure>& out) {
  for (const auto& c : checks) {
    Labels labels{{"severity", std::string(to_string(c.severity))}};
    if (!c.ranks.empty()) labels["on_ranks"] = join_ints(c.ranks);
    out.push_back(Figure{names::kChecks, c.id, labels, 1, "count", Better::lower});
  }
}

}  // namespace gpuscale::results
