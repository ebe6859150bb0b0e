#pragma once
// The key figure of each phase that ran, per GPU where the phase measures GPUs one by one, beside the
// GPU's or the link's peak where known and the baseline's median where a baseline judged the run.
// Read from figures (results/models/FigureNames.hpp) and the ranks' environment. The HTML summary, its node
// heat map (results/render/HtmlSections.hpp) and the Prometheus export (results/render/PromReporter.hpp) show them.
// A figure measured beside another process on its GPU is taken only where no other one is.
//   compute_best_tflops    {precision}  per GPU: its best TFLOP/s over layers and passes; peak: data sheet
//   burn_sustained_tflops  {precision}  per GPU; peak: data sheet
//   host_link_gbps         {direction}  per GPU: pinned, alone on its node, largest size; peak: PCIe rate
//   hbm_gbps                            per GPU: the device copy (read + written); peak: data sheet
//   allreduce_busbw_gbps                the job: the largest size at the most ranks; peak: the link's
//   ddp_step_time_s        {model}      the job: DDP at the most GPUs
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "results/models/Baseline.hpp"
#include "results/models/Figure.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

struct Headline {
  std::string metric;  // one of the names above
  Labels labels;       // what tells headlines of one metric apart
  std::string title;   // in words: "Compute: best TFLOP/s, bf16"
  std::string what;    // the metric in words, the same for every headline of it
  std::string unit;
  Better better = Better::none;
  std::map<int, double> per_rank;  // rank -> value; empty for a figure of the whole job
  double value = 0;                // the job's: the median over per_rank, or the job's own figure
  std::optional<double> peak;      // in `unit`
  std::string peak_source;         // "NVIDIA H200 data sheet", "PCIe gen5 x16", "NVLink4 x18"
  std::optional<double> baseline;  // the baseline's median of the figure `value` is read from
  std::optional<double> floor;     // the GPU model's floor (results/models/GpuFloors.hpp), in `unit`
  std::string floor_source;        // "56% of the data sheet's 989 dense bf16 TFLOP/s"
  std::string note;                // why a figure reads as it does: above 100% of its peak, say
  // Ranks of per_rank whose every figure was measured while another process computed on the GPU
  // (Figure::beside_tenant): value is the median of the others, and Prometheus leaves them out.
  std::set<int> beside_tenant_ranks;
  // value itself was measured beside another process (a job figure, or every GPU's was).
  bool beside_tenant = false;
  bool local_copy = false;  // value is a collective's over one rank (Figure::local_copy): no link measured
};

// In the order above; a phase that did not run has none. `baseline` may be null.
std::vector<Headline> headlines(const RunReport& run, const std::vector<Figure>& figures, const Baseline* baseline);

}  // namespace gpuscale::results
