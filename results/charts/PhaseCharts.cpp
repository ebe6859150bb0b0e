#include "results/charts/PhaseCharts.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/ReadableNumber.hpp"
#include "results/base/Statistics.hpp"
#include "results/charts/SvgCharts.hpp"

namespace gpuscale::results {
namespace {

using svg::Bar;
using svg::Point;
using svg::Series;

constexpr std::size_t kMaxChartsPerKind = 12;

std::optional<double> numeric_label(const Figure& f, const char* key) {
  const auto text = label_or_empty(f, key);
  if (text.empty()) return std::nullopt;
  try {
    return std::stod(text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

Labels rest_of(const Figure& f, std::initializer_list<const char*> dropped) {
  Labels rest = f.labels;
  for (const char* key : dropped) rest.erase(key);
  return rest;
}

// The figure's labels without `dropped`, as a series or group key.
std::string labels_without(const Figure& f, std::initializer_list<const char*> dropped) {
  const auto text = labels_text(rest_of(f, dropped));
  return text.empty() ? f.metric : text;
}

std::vector<const Figure*> select(const std::vector<Figure>& figures, const char* metric, const char* x_label) {
  std::vector<const Figure*> out;
  for (const auto& f : figures)
    if (f.metric == metric && numeric_label(f, x_label)) out.push_back(&f);
  return out;
}

// Labels whose value names a series by itself ("ddp", "mlp", "allreduce"), in the order a name lists them;
// any other label is written key=value.
constexpr const char* kPlainLabels[] = {names::kStrategy, names::kModel,   names::kLayer, "pass", names::kPrecision,
                                        names::kScaling,  names::kOptions, names::kOp,    "dtype"};

// A label's value as a reader says it: compute's pass names in words.
std::string plain_value(const std::string& key, const std::string& value) {
  if (key != "pass") return value;
  if (value == "fwd") return "forward";
  if (value == "bwd_data") return "backward (data)";
  if (value == "bwd_weight") return "backward (weights)";
  return value;
}

// A legend name: the labels that tell this series from the chart's others (all of them when it is alone),
// values alone for the plain labels, key=value for others.
std::string series_name(const Labels& labels, const Labels& common, const char* separator = " ") {
  Labels own;
  for (const auto& [key, value] : labels)
    if (!common.count(key)) own[key] = value;
  if (own.empty()) own = labels;
  std::string name;
  const auto add = [&name, separator](const std::string& text) {
    if (!name.empty()) name += separator;
    name += text;
  };
  // compute's default shape set goes without saying.
  if (const auto it = own.find("set"); it != own.end() && it->second == "default") own.erase(it);
  for (const char* key : kPlainLabels)
    if (const auto it = own.find(key); it != own.end()) add(plain_value(key, it->second)), own.erase(it);
  for (const auto& [key, value] : own) add(key + "=" + value);
  return name;
}

// A chart heading's qualifier: the group's labels in words, or nothing for no labels.
std::string qualifier(const Labels& group) {
  const auto words = group.empty() ? std::string() : series_name(group, {}, ", ");
  return words.empty() ? "" : ", " + words;
}

// Each of `sets` named by series_name against the labels all of them share (the same key and value).
std::vector<std::string> names_apart(const std::vector<Labels>& sets) {
  Labels common = sets.empty() ? Labels{} : sets.front();
  for (const auto& l : sets)
    std::erase_if(common, [&l](const auto& kv) { return !l.count(kv.first) || l.at(kv.first) != kv.second; });
  std::vector<std::string> out;
  for (const auto& l : sets) out.push_back(series_name(l, common));
  return out;
}

// Series by their labels (without x and `dropped`), named by what sets them apart; points (x label, value).
std::vector<Series> series_over(const std::vector<const Figure*>& figures, const char* x_label,
                                std::initializer_list<const char*> dropped) {
  std::map<Labels, std::vector<Point>> by_labels;
  for (const auto* f : figures) {
    Labels rest = f->labels;
    for (const char* key : dropped) rest.erase(key);
    by_labels[rest].push_back(Point{*numeric_label(*f, x_label), f->value, false});
  }
  std::vector<Labels> sets;
  for (const auto& [labels, points] : by_labels) sets.push_back(labels);
  const auto names = names_apart(sets);
  std::vector<Series> out;
  for (auto& [labels, points] : by_labels) out.push_back(Series{names[out.size()], std::move(points)});
  return out;
}

std::string unit_of(const std::vector<const Figure*>& figures) { return figures.empty() ? "" : figures.front()->unit; }

void busbw_charts_of(const std::vector<Figure>& figures, std::vector<ChartSection>& out) {
  auto sized = select(figures, names::kBusBw, names::kBytes);
  // Where the sweeps say in or out of place, their figures alone: the scaling runs' few sizes (no
  // placement) have the chart against ranks, and would be a series named like a sweep's here.
  const auto unplaced = [](const Figure* f) { return label_or_empty(*f, "placement").empty(); };
  if (!std::all_of(sized.begin(), sized.end(), unplaced)) std::erase_if(sized, unplaced);
  double max_ranks = 0;
  for (const auto* f : sized) max_ranks = std::max(max_ranks, numeric_label(*f, names::kRanks).value_or(0));
  std::erase_if(sized, [&](const Figure* f) { return numeric_label(*f, names::kRanks).value_or(0) != max_ranks; });
  // One rank moves nothing over a link: its "bus bandwidth" is a local copy's (or none at all).
  if (!sized.empty() && max_ranks >= 2)
    out.push_back({"Bus bandwidth against message size",
                   svg::line_chart({"chart-busbw-size", "busbw against message size", "message size", "busbw", "B",
                                    unit_of(sized)},
                                   series_over(sized, names::kBytes, {names::kBytes, names::kRanks}), true)});

  auto ranked = select(figures, names::kBusBw, names::kRanks);
  std::erase_if(ranked, [](const Figure* f) { return measures_no_bus(*f); });
  std::map<std::string, double> largest;  // series -> its largest size
  for (const auto* f : ranked) {
    auto& l = largest[labels_without(*f, {names::kBytes, names::kRanks})];
    l = std::max(l, numeric_label(*f, names::kBytes).value_or(0));
  }
  std::erase_if(ranked, [&](const Figure* f) {
    return numeric_label(*f, names::kBytes).value_or(0) != largest[labels_without(*f, {names::kBytes, names::kRanks})];
  });
  std::set<double> rank_counts;
  for (const auto* f : ranked) rank_counts.insert(*numeric_label(*f, names::kRanks));
  if (rank_counts.size() > 1)
    out.push_back({"Bus bandwidth against ranks (largest size)",
                   svg::line_chart({"chart-busbw-ranks", "busbw against ranks", "ranks", "busbw", "count", unit_of(ranked)},
                                   series_over(ranked, names::kRanks, {names::kBytes, names::kRanks}), true)});
}

using BarValues = std::vector<std::pair<std::string, double>>;  // (bar label, value) in bar order

// A bar per node in place of one per rank (`ranked` in rank order): the node's slowest GPU, the nodes
// in the order of their first rank. A rank `rank_nodes` does not know keeps a bar of its own.
BarValues slowest_per_node(const std::vector<const Figure*>& ranked, const RankNodes& rank_nodes) {
  BarValues out;
  std::map<std::string, std::size_t> bar_of;  // node -> its bar
  for (const auto* f : ranked) {
    const auto rank = label_or_empty(*f, names::kRank);
    const double id = *numeric_label(*f, names::kRank);
    const bool known = id >= 0 && id < static_cast<double>(rank_nodes.size());
    const auto name = known ? rank_nodes[static_cast<std::size_t>(id)] : "rank " + rank;
    const auto [it, fresh] = bar_of.try_emplace(name, out.size());
    if (fresh)
      out.emplace_back(name, f->value);
    else
      out[it->second].second = std::min(out[it->second].second, f->value);
  }
  return out;
}

void tflops_charts_of(const std::vector<Figure>& figures, const RankNodes& rank_nodes, std::vector<ChartSection>& out) {
  const auto selected = select(figures, names::kTflops, names::kRank);
  std::set<std::string> ranks;
  for (const auto* f : selected) ranks.insert(label_or_empty(*f, names::kRank));
  // Several ranks: a chart per layer, precision and pass with a bar per rank, so that a slow GPU stands
  // out (a bar per node past a few nodes, whose slowest GPU stands for it). One rank: a chart per layer
  // and pass with a bar per precision.
  const bool per_rank = ranks.size() > 1;
  const bool per_node = per_rank && !rank_nodes.empty();
  const char* bar_key = per_rank ? names::kRank : names::kPrecision;
  std::map<Labels, std::vector<const Figure*>> groups;
  for (const auto* f : selected) groups[rest_of(*f, {names::kRank, bar_key})].push_back(f);
  // Forward passes first: with more groups than charts, every layer and precision still gets one.
  std::vector<std::pair<Labels, std::vector<const Figure*>>> ordered(groups.begin(), groups.end());
  std::stable_partition(ordered.begin(), ordered.end(),
                        [](const auto& g) { return label_or_empty(*g.second.front(), "pass") == "fwd"; });
  std::size_t n = 0;
  for (auto& [group, members] : ordered) {
    if (n >= kMaxChartsPerKind) break;
    std::sort(members.begin(), members.end(), [&](const Figure* a, const Figure* b) {
      return per_rank ? *numeric_label(*a, names::kRank) < *numeric_label(*b, names::kRank)
                      : label_or_empty(*a, bar_key) < label_or_empty(*b, bar_key);
    });
    BarValues values;
    if (per_node)
      values = slowest_per_node(members, rank_nodes);
    else
      for (const auto* f : members) values.emplace_back(label_or_empty(*f, bar_key), f->value);
    std::vector<double> heights;
    for (const auto& v : values) heights.push_back(v.second);
    const double mid = median(heights);
    std::vector<Bar> bars;
    // Only the worse side is outlined: a GPU faster than the median is no fault.
    for (const auto& [label, value] : values)
      bars.push_back({label, {value}, per_rank && signed_worse(value, mid, members.front()->better) > kOutlierFraction});
    const std::string title = (per_node ? "TFLOP/s of each node's slowest GPU" : "TFLOP/s per GPU") + qualifier(group);
    out.push_back({title, svg::bar_chart({"chart-tflops-" + std::to_string(n++), title, per_node ? "node" : bar_key,
                                          "throughput", "", members.front()->unit},
                                         bars)});
    if (per_rank)
      out.back().note = "Outlined red: more than " + fixed(kOutlierFraction * 100, 0) + "% slower than the median " +
                        (per_node ? "node" : "GPU") + " (" + readable_with_unit(mid, members.front()->unit) +
                        "); a faster one is not marked.";
  }
}

// One stacked chart per model, precision and scaling mode (what the figures carry of them): a bar per
// strategy, options and GPU count, compute-only time under exposed communication.
void overlap_charts(const std::vector<Figure>& figures, std::vector<ChartSection>& out) {
  using Bars = std::map<std::pair<Labels, double>, std::vector<double>>;  // (labels, gpus) -> segments
  std::map<Labels, Bars> charts;
  for (const auto& f : figures) {
    const bool compute = f.metric == names::kComputeTime, exposed = f.metric == names::kExposedCommTime;
    if (!compute && !exposed) continue;
    Labels chart, bar = f.labels;
    for (const char* key : {names::kModel, names::kPrecision, names::kScaling})
      if (const auto it = bar.find(key); it != bar.end()) chart.insert(*it), bar.erase(it);
    const double gpus = numeric_label(f, names::kGpus).value_or(0);
    bar.erase(names::kGpus);
    auto& segments = charts[chart][{bar, gpus}];
    segments.resize(2, std::nan(""));
    segments[compute ? 0 : 1] = f.value;
  }
  std::size_t n = 0;
  for (const auto& [chart, stacks] : charts) {
    if (n >= kMaxChartsPerKind) break;
    std::vector<Labels> sets;
    for (const auto& [key, segments] : stacks) sets.push_back(key.first);
    const auto names = names_apart(sets);
    std::vector<Bar> bars;
    for (const auto& [key, segments] : stacks)
      bars.push_back({names[bars.size()] + (key.second > 0 ? " x" + shortest(key.second) : ""), segments, false});
    const std::string of = qualifier(chart);
    const svg::ChartFrame frame{"chart-overlap-" + std::to_string(n++), "compute vs exposed communication" + of, "run",
                                "time", "", "s"};
    out.push_back({"Compute and exposed communication per step" + of,
                   svg::stacked_bar_chart(frame, {"compute", "exposed communication"}, bars)});
  }
}

void training_charts_of(const std::vector<Figure>& figures, std::vector<ChartSection>& out) {
  const auto steps = select(figures, names::kStepTime, names::kGpus);
  if (!steps.empty())
    out.push_back({"Step time against GPUs",
                   svg::line_chart({"chart-step-time", "step time against GPUs", "GPUs", "step time", "count", unit_of(steps)},
                                   series_over(steps, names::kGpus, {names::kGpus}), true)});
  const auto eff = select(figures, names::kScalingEfficiency, names::kGpus);
  if (!eff.empty())
    out.push_back({"Scaling efficiency against GPUs",
                   svg::line_chart({"chart-efficiency", "scaling efficiency against GPUs", "GPUs", "efficiency", "count",
                                    unit_of(eff)},
                                   series_over(eff, names::kGpus, {names::kGpus}), true)});
  overlap_charts(figures, out);
}

void pairwise_charts_of(const std::vector<Figure>& figures, std::vector<ChartSection>& out) {
  std::map<Labels, std::vector<const Figure*>> groups;
  for (const auto* f : select(figures, names::kPairBusBw, names::kSrc))
    if (numeric_label(*f, names::kDst)) groups[rest_of(*f, {names::kSrc, names::kDst})].push_back(f);
  std::size_t n = 0;
  for (const auto& [group, members] : groups) {
    if (n >= kMaxChartsPerKind) break;
    std::set<int> ids;
    for (const auto* f : members) ids.insert(static_cast<int>(*numeric_label(*f, names::kSrc))), ids.insert(static_cast<int>(*numeric_label(*f, names::kDst)));
    const std::vector<int> order(ids.begin(), ids.end());
    svg::HeatMatrix m;
    for (int id : order) m.rows.push_back(std::to_string(id)), m.columns.push_back(std::to_string(id));
    m.values.assign(order.size(), std::vector<double>(order.size(), std::nan("")));
    const auto index = [&](double id) { return std::lower_bound(order.begin(), order.end(), static_cast<int>(id)) - order.begin(); };
    for (const auto* f : members) m.values[index(*numeric_label(*f, names::kSrc))][index(*numeric_label(*f, names::kDst))] = f->value;
    out.push_back({"Pairwise bandwidth" + qualifier(group),
                   svg::heat_map({"chart-pairwise-" + std::to_string(n++),
                                  "pairwise busbw (" + members.front()->unit + ")" + qualifier(group),
                                  "destination rank (rows: source rank)", "", "", members.front()->unit},
                                 m)});
  }
}

}  // namespace

double signed_worse(double value, double reference, Better better) {
  if (!(reference > 0)) return 0;
  const double change = value / reference - 1;
  return better == Better::higher ? -change : change;
}

bool measures_no_bus(const Figure& f) {
  return f.local_copy && (f.metric == names::kBusBw || f.metric == names::kPeakBusBw || f.metric == names::kLinkUse);
}

void collective_charts(const std::vector<Figure>& figures, const RankNodes&, std::vector<ChartSection>& out) {
  busbw_charts_of(figures, out);
  pairwise_charts_of(figures, out);
}

void tflops_charts(const std::vector<Figure>& figures, const RankNodes& rank_nodes, std::vector<ChartSection>& out) {
  tflops_charts_of(figures, rank_nodes, out);
}

void training_charts(const std::vector<Figure>& figures, const RankNodes&, std::vector<ChartSection>& out) {
  training_charts_of(figures, out);
}

}  // namespace gpuscale::results
