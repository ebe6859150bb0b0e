#include "results/render/Headlines.hpp"

#include <functional>

#include "results/models/FigureNames.hpp"
#include "results/models/GpuFloors.hpp"
#include "results/models/GpuPeak.hpp"
#include "results/models/Statistics.hpp"
#include "results/render/CollectivesReporter.hpp"
#include "results/render/Format.hpp"
#include "results/schema/LinksRecord.hpp"

namespace gpuscale::results {
namespace {

using Keep = std::function<bool(const Figure&)>;
using Peak = std::function<void(Headline&)>;  // sets peak and peak_source where known

struct Context {
  const RunReport& run;
  const std::vector<Figure>& figures;
  std::map<std::string, double> baseline_medians;  // baseline_key -> median
  const GpuInfo* gpu = nullptr;                    // the first rank's GPU with one: the job's model
};

Context context(const RunReport& run, const std::vector<Figure>& figures, const Baseline* baseline) {
  Context c{run, figures, {}, nullptr};
  for (const auto& e : run.ranks)
    if (e.gpu && !c.gpu) c.gpu = &*e.gpu;
  if (const auto* group = baseline ? find_group(*baseline, machine_shape(run)) : nullptr)
    for (const auto& f : group->figures) c.baseline_medians[baseline_key(f)] = f.median;
  return c;
}

Headline named(const char* metric, std::string title, const char* what, Labels labels = {}) {
  Headline h;
  h.metric = metric;
  h.title = std::move(title);
  h.what = what;
  h.labels = std::move(labels);
  return h;
}

// The job's own figure `f` as a headline.
Headline of_job(const char* metric, std::string title, const char* what, Labels labels, const Figure& f) {
  auto h = named(metric, std::move(title), what, std::move(labels));
  h.unit = f.unit;
  h.better = f.better;
  h.value = f.value;
  h.local_copy = f.local_copy;
  return h;
}

bool better_than(const Figure& a, const Figure& b) {
  return a.better == Better::lower ? a.value < b.value : a.value > b.value;
}

void set_baseline(const Context& c, const Figure& source, Headline& h) {
  const auto it = c.baseline_medians.find(baseline_key(source));
  if (it != c.baseline_medians.end()) h.baseline = it->second;
}

// One headline per value of `group_key` (every figure in one group for ""): each rank's best figure among
// those `keep` accepts; the baseline is read for the labels most ranks had their best at.
void per_gpu(Context& c, const char* phase, const char* metric, const char* group_key, const Keep& keep,
             const Headline& proto, const Peak& peak, std::vector<Headline>& out) {
  std::map<std::string, std::map<int, const Figure*>> groups;  // group value -> rank -> its best
  for (const auto& f : c.figures) {
    if (f.phase != phase || f.metric != metric || label_or_empty(f, names::kRank).empty() || !keep(f)) continue;
    auto& best = groups[label_or_empty(f, group_key)][std::stoi(label_or_empty(f, names::kRank))];
    // A GPU's own figure before one measured beside another process, then the better one.
    if (!best || (best->beside_tenant && !f.beside_tenant) ||
        (best->beside_tenant == f.beside_tenant && better_than(f, *best)))
      best = &f;
  }
  for (const auto& [group, best] : groups) {
    Headline h = proto;
    if (*group_key) h.labels[group_key] = group, h.title += ", " + group;
    std::vector<double> values, shared;
    std::map<std::string, std::pair<int, const Figure*>> sources;  // labels without rank -> (ranks, figure)
    for (const auto& [rank, f] : best) {
      h.per_rank[rank] = f->value;
      if (f->beside_tenant) h.beside_tenant_ranks.insert(rank);
      (f->beside_tenant ? shared : values).push_back(f->value);
      Labels rest = f->labels;
      rest.erase(names::kRank);
      auto& s = sources[labels_text(rest)];
      s = {s.first + 1, f};
    }
    h.beside_tenant = values.empty();
    h.value = median(h.beside_tenant ? shared : values);
    h.unit = best.begin()->second->unit;
    h.better = best.begin()->second->better;
    const auto source = std::max_element(sources.begin(), sources.end(),
                                         [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
    set_baseline(c, *source->second.second, h);
    peak(h);
    out.push_back(std::move(h));
  }
}

void set_floor(const std::optional<Floor>& floor, Headline& h) {
  if (!floor) return;
  h.floor = floor->value;
  h.floor_source = floor->source;
}

// Convolutions count the direct method's multiplications; cuDNN's Winograd and FFT algorithms do fewer,
// so a convolution's TFLOP/s can read above the data sheet's peak.
constexpr const char* kAbovePeakCompute =
    "above the data sheet's peak: a convolution's FLOPs are counted as the direct method does them, and "
    "Winograd or FFT algorithms do fewer multiplications";

Peak tflops_peak(const Context& c, bool burn) {
  return [&c, burn](Headline& h) {
    if (!c.gpu) return;
    const auto precision = h.labels[names::kPrecision];
    h.peak = peak_tflops(c.gpu->name, precision);
    if (h.peak) h.peak_source = c.gpu->name + " data sheet";
    if (burn) set_floor(burn_floor(c.gpu->name, precision), h);
    else if (h.peak && h.value > *h.peak) h.note = kAbovePeakCompute;
  };
}

Peak pcie_peak(const Context& c) {
  return [&c](Headline& h) {
    if (!c.gpu) return;
    set_floor(host_link_floor(c.gpu->name, c.gpu->pcie_gen_max, c.gpu->pcie_width_max), h);
    if (!c.gpu->pcie_gen_max || !c.gpu->pcie_width_max) return;
    if (const auto lane = pcie_lane_gbps(*c.gpu->pcie_gen_max)) {
      h.peak = *lane * *c.gpu->pcie_width_max;
      h.peak_source = "PCIe gen" + std::to_string(*c.gpu->pcie_gen_max) + " x" + std::to_string(*c.gpu->pcie_width_max);
    }
  };
}

Peak hbm_peak(const Context& c) {
  return [&c](Headline& h) {
    if (!c.gpu) return;
    h.peak = peak_memory_gbps(c.gpu->name);
    if (h.peak) h.peak_source = c.gpu->name + " data sheet";
    set_floor(hbm_floor(c.gpu->name), h);
  };
}

std::uint64_t bytes_of(const Figure& f) { return std::stoull(label_or_empty(f, names::kBytes)); }

// "1 rank", "8 GPUs": a count label with its noun.
std::string count_of(const Figure& f, const char* label, std::string_view noun) {
  return plural(std::stoll(label_or_empty(f, label)), noun);
}

// Pinned copies alone on the node, at the largest size each direction measured.
Keep largest_pinned_solo(const Context& c) {
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

// The sweep's allreduce at the most ranks and then the largest size, out of place where both were run.
void allreduce_busbw(Context& c, std::vector<Headline>& out) {
  const Figure* pick = nullptr;
  const auto key = [](const Figure& f) {
    return std::make_tuple(!f.beside_tenant, std::stoi(label_or_empty(f, names::kRanks)), bytes_of(f),
                           label_or_empty(f, "placement") == "out");
  };
  for (const auto& f : c.figures)
    if (f.phase == phase::collectives && f.metric == names::kBusBw && label_or_empty(f, names::kOp) == "allreduce" &&
        !label_or_empty(f, "placement").empty() && (!pick || key(f) > key(*pick)))
      pick = &f;
  if (!pick) return;
  auto h = of_job("allreduce_busbw_gbps",
                  "Collectives: allreduce busbw at " + size_label(bytes_of(*pick)) + " over " +
                      count_of(*pick, names::kRanks, "rank"),
                  "allreduce bus bandwidth at the largest size over the most ranks (GB/s)", {}, *pick);
  h.beside_tenant = pick->beside_tenant;
  if (c.run.collectives)
    for (const auto& s : c.run.collectives->sweeps)
      if (s.op == "allreduce" && std::to_string(s.ranks) == label_or_empty(*pick, names::kRanks) &&
          s.headline.link_gbps)
        h.peak = s.headline.link_gbps, h.peak_source = s.headline.link;
  set_baseline(c, *pick, h);
  out.push_back(std::move(h));
}

// DDP's step time per model, at the most GPUs it ran on (the first configuration listed there).
void ddp_step_time(Context& c, std::vector<Headline>& out) {
  std::map<std::string, const Figure*> by_model;
  const auto gpus = [](const Figure& f) { return std::stoi(label_or_empty(f, names::kGpus)); };
  for (const auto& f : c.figures) {
    if (f.phase != phase::train || f.metric != names::kStepTime || label_or_empty(f, names::kStrategy) != "ddp")
      continue;
    auto& pick = by_model[label_or_empty(f, names::kModel)];
    if (!pick || (pick->beside_tenant && !f.beside_tenant) ||
        (pick->beside_tenant == f.beside_tenant && gpus(f) > gpus(*pick)))
      pick = &f;
  }
  for (const auto& [model, f] : by_model) {
    auto h = of_job("ddp_step_time_s",
                    "Training: DDP step time, " + model + " on " + count_of(*f, names::kGpus, "GPU"),
                    "DDP training step time at the most GPUs (s)", {{names::kModel, model}}, *f);
    h.beside_tenant = f->beside_tenant;
    set_baseline(c, *f, h);
    out.push_back(std::move(h));
  }
}

}  // namespace

std::vector<Headline> headlines(const RunReport& run, const std::vector<Figure>& figures, const Baseline* baseline) {
  auto c = context(run, figures, baseline);
  std::vector<Headline> out;
  const auto any = [](const Figure&) { return true; };
  per_gpu(
      c, phase::compute, names::kTflops, names::kPrecision, any,
      named("compute_best_tflops", "Compute: best TFLOP/s", "best TFLOP/s of a GPU over the compute layers and passes"),
      tflops_peak(c, false), out);
  per_gpu(c, phase::burn, names::kSustainedTflops, names::kPrecision, any,
          named("burn_sustained_tflops", "Burn: sustained TFLOP/s", "TFLOP/s a GPU sustained under the burn load"),
          tflops_peak(c, true), out);
  per_gpu(c, phase::links, names::kHostCopyBw, names::kDirection, largest_pinned_solo(c),
          named("host_link_gbps", "Host link: pinned copy bandwidth",
                "pinned host copy bandwidth of a GPU alone on its node, largest size (GB/s)"),
          pcie_peak(c), out);
  per_gpu(
      c, phase::links, names::kHbmBw, "", [](const Figure& f) { return label_or_empty(f, names::kKernel) == "copy"; },
      named("hbm_gbps", "Memory: device copy bandwidth (read + written)",
            "device memory copy bandwidth, bytes read plus written (GB/s)"),
      hbm_peak(c), out);
  allreduce_busbw(c, out);
  ddp_step_time(c, out);
  return out;
}

}  // namespace gpuscale::results
