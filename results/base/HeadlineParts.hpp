#pragma once
// The parts each phase builds its headlines from (results/views/PhaseView.hpp, Headlines.hpp): the
// context they read, a headline of the job's own figure, one per GPU, and the peaks and floors a GPU
// model's data sheet gives.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "results/base/Figure.hpp"

namespace gpuscale::results {

struct Headline {
  std::string metric;  // one of Headlines.hpp's names
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
  std::optional<double> floor;     // the GPU model's floor (results/base/GpuReference.hpp), in `unit`
  std::string floor_source;        // "56% of the data sheet's 989 dense bf16 TFLOP/s"
  std::string note;                // why a figure reads as it does: above 100% of its peak, say
  // Ranks of per_rank whose every figure was measured while another process computed on the GPU
  // (Figure::beside_tenant): value is the median of the others, and Prometheus leaves them out.
  std::set<int> beside_tenant_ranks;
  // value itself was measured beside another process (a job figure, or every GPU's was).
  bool beside_tenant = false;
  // Ranks of per_rank the judge found under the GPU model's floor (Figure::under_floor).
  std::set<int> under_floor_ranks;
  bool local_copy = false;  // value is a collective's over one rank (Figure::local_copy): no link measured
};

// The job's GPU model, for the peaks and floors of its data sheet: its name and its PCIe link's
// maximum (env's records: the first rank with a GPU).
struct GpuModel {
  std::string name;
  std::optional<unsigned> pcie_gen_max, pcie_width_max;
};

// What every phase's headlines read beside its own records.
struct HeadlineContext {
  const std::vector<Figure>& figures;  // the run's
  // The baseline's median of a figure, where a baseline has it (set by headlines(),
  // results/report/Headlines.hpp; empty: no baseline).
  std::function<std::optional<double>(const Figure&)> baseline_median;
  std::optional<GpuModel> gpu;  // the first rank's GPU with one: the job's model
};

using Keep = std::function<bool(const Figure&)>;
using Peak = std::function<void(Headline&)>;  // sets peak and peak_source where known

Headline named(const char* metric, std::string title, const char* what, Labels labels = {});
// The job's own figure `f` as a headline.
Headline of_job(const char* metric, std::string title, const char* what, Labels labels, const Figure& f);
// The baseline's median of the figure `source`, where a baseline has it.
void set_baseline(const HeadlineContext& c, const Figure& source, Headline& h);

// One headline per value of `group_key` (every figure in one group for ""): each rank's best figure among
// those `keep` accepts; the baseline is read for the labels most ranks had their best at.
void per_gpu(HeadlineContext& c, const char* phase, const char* metric, const char* group_key, const Keep& keep,
             const Headline& proto, const Peak& peak, std::vector<Headline>& out);

// The job's GPU model's data sheet: TFLOP/s at the headline's precision (with burn's floor where
// `burn`), the PCIe link's rate and the host link's floor, HBM bandwidth and its floor.
Peak tflops_peak(const HeadlineContext& c, bool burn);
Peak pcie_peak(const HeadlineContext& c);
Peak hbm_peak(const HeadlineContext& c);

std::uint64_t bytes_of(const Figure& f);  // its "bytes" label
// "1 rank", "8 GPUs": a count label with its noun.
std::string count_of(const Figure& f, const char* label, std::string_view noun);

}  // namespace gpuscale::results
