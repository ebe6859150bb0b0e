#pragma once
// The key figure of each phase that ran, per GPU where the phase measures GPUs one by one, beside the
// GPU's or the link's peak where known and the baseline's median where a baseline judged the run.
// Read from figures (results/base/FigureNames.hpp) and the ranks' environment. The HTML summary, its node
// heat map (results/report/HtmlSections.hpp) and the Prometheus export (results/report/PromReporter.hpp) show them.
// A figure measured beside another process on its GPU is taken only where no other one is.
//   host_link_gbps         {direction}  per GPU: pinned, alone on its node, largest size; peak: PCIe rate
//   hbm_gbps                            per GPU: the device copy (read + written); peak: data sheet
//   compute_best_tflops    {precision}  per GPU: its best TFLOP/s over layers and passes; peak: data sheet
//   burn_sustained_tflops  {precision}  per GPU; peak: data sheet
//   allreduce_busbw_gbps                the job: the largest size at the most ranks; peak: the link's
//   ddp_step_time_s        {model}      the job: DDP at the most GPUs
#include <vector>

#include "results/base/Figure.hpp"
#include "results/base/HeadlineParts.hpp"
#include "results/report/Baseline.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

// Each phase's (results/views/PhaseView.hpp), in the registry's order; a phase that did not run has
// none. `baseline` may be null.
std::vector<Headline> headlines(const RunReport& run, const std::vector<Figure>& figures, const Baseline* baseline);

}  // namespace gpuscale::results
