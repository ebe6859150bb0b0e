#include "results/base/HeadlineParts.hpp"

#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/GpuPeak.hpp"
#include "results/base/GpuReference.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::results {
namespace {

bool better_than(const Figure& a, const Figure& b) {
  return a.better == Better::lower ? a.value < b.value : a.value > b.value;
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

}  // namespace

Headline named(const char* metric, std::string title, const char* what, Labels labels) {
  Headline h;
  h.metric = metric;
  h.title = std::move(title);
  h.what = what;
  h.labels = std::move(labels);
  return h;
}

Headline of_job(const char* metric, std::string title, const char* what, Labels labels, const Figure& f) {
  auto h = named(metric, std::move(title), what, std::move(labels));
  h.unit = f.unit;
  h.better = f.better;
  h.value = f.value;
  h.local_copy = f.local_copy;
  return h;
}

void set_baseline(const HeadlineContext& c, const Figure& source, Headline& h) {
  if (c.baseline_median) h.baseline = c.baseline_median(source);
}

void per_gpu(HeadlineContext& c, const char* phase, const char* metric, const char* group_key, const Keep& keep,
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
      if (f->under_floor) h.under_floor_ranks.insert(rank);
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

Peak tflops_peak(const HeadlineContext& c, bool burn) {
  return [&c, burn](Headline& h) {
    if (!c.gpu) return;
    const auto precision = h.labels[names::kPrecision];
    h.peak = peak_tflops(c.gpu->name, precision);
    if (h.peak) h.peak_source = c.gpu->name + " data sheet";
    if (burn) set_floor(burn_floor(c.gpu->name, precision), h);
    else if (h.peak && h.value > *h.peak) h.note = kAbovePeakCompute;
  };
}

Peak pcie_peak(const HeadlineContext& c) {
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

Peak hbm_peak(const HeadlineContext& c) {
  return [&c](Headline& h) {
    if (!c.gpu) return;
    h.peak = peak_memory_gbps(c.gpu->name);
    if (h.peak) h.peak_source = c.gpu->name + " data sheet";
    set_floor(hbm_floor(c.gpu->name), h);
  };
}

std::uint64_t bytes_of(const Figure& f) { return std::stoull(label_or_empty(f, names::kBytes)); }

std::string count_of(const Figure& f, const char* label, std::string_view noun) {
  return plural(std::stoll(label_or_empty(f, label)), noun);
}

}  // namespace gpuscale::results
