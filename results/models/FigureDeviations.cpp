#include "results/models/FigureDeviations.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "results/base/CheckIds.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/SpeedJudged.hpp"
#include "results/base/Statistics.hpp"
#include "results/models/GpuLabels.hpp"

namespace gpuscale::results {
namespace {

// The figures that say how fast one GPU (label rank) or one node (label node) is: not one measured
// beside another process on its GPU (Figure::beside_tenant), which says how busy that process was.
bool judged(const Figure& f) {
  static const std::set<std::string> kMetrics = {
      names::kTflops,        names::kSustainedTflops,     names::kHostCopyBw,   names::kHbmBw,  // per GPU
      names::kRankStepTime,  names::kSmokeAllreduceTime,                                          // per GPU
      names::kNodeLocalBusBw, names::kInterNodeBusBw};                                            // per node
  return f.better != Better::none && !f.beside_tenant && kMetrics.count(f.metric) &&
         (f.labels.count(names::kRank) || f.labels.count(names::kNode));
}

// A figure of one GPU or node, with where it sits in the job.
struct Member {
  const Figure* figure;
  int node = 0, rank = -1;
};

std::string model_of(const RankEnv& e) { return e.gpu ? e.gpu->name : kCpuDevice; }

int number(const Figure& f, const char* label) {
  try {
    return std::stoi(label_or_empty(f, label));
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

std::string outlier_figure_name(const Figure& f) {
  Labels rest = f.labels;
  rest.erase(names::kRank);
  rest.erase(names::kNode);
  return f.phase + " " + f.metric + (rest.empty() ? "" : " " + labels_text(rest));
}

std::vector<Outlier> figure_deviations(const std::vector<Figure>& figures, const std::vector<RankEnv>& ranks) {
  std::map<int, const RankEnv*> first_of_node;
  for (const auto& e : ranks) first_of_node.emplace(e.node, &e);
  const auto labels = gpu_labels(ranks);
  // (figure without rank or node, model) -> its GPUs' or nodes' figures
  std::map<std::pair<std::string, std::string>, std::vector<Member>> groups;
  for (const auto& f : figures) {
    if (!judged(f) || !std::isfinite(f.value)) continue;
    Member m{&f};
    const RankEnv* env = nullptr;
    if (f.labels.count(names::kRank)) {
      m.rank = number(f, names::kRank);
      if (m.rank < 0 || static_cast<std::size_t>(m.rank) >= ranks.size()) continue;
      env = &ranks[static_cast<std::size_t>(m.rank)];
      m.node = env->node;
    } else {
      m.node = number(f, names::kNode);
      const auto it = first_of_node.find(m.node);
      if (it == first_of_node.end()) continue;
      env = it->second;
    }
    groups[{outlier_figure_name(f), model_of(*env)}].push_back(m);
  }
  std::vector<Outlier> out;
  for (const auto& [key, members] : groups) {
    if (members.size() < kOutlierMinGroup) continue;
    std::vector<double> values;
    for (const auto& m : members) values.push_back(m.figure->value);
    const double centre = median(values);
    const double sigma = robust_sigma(values);
    if (!(centre != 0)) continue;
    for (const auto& m : members) {
      const double v = m.figure->value;
      const double excess = m.figure->better == Better::higher ? centre - v : v - centre;
      const double worse = excess / std::fabs(centre);
      const double sigmas = sigma > 0 ? excess / sigma : (excess > 0 ? std::numeric_limits<double>::infinity() : 0.0);
      const RankEnv& env = m.rank >= 0 ? ranks[static_cast<std::size_t>(m.rank)] : *first_of_node.at(m.node);
      out.push_back({m.node, env.host, m.rank, m.rank >= 0 ? labels[static_cast<std::size_t>(m.rank)] : "",
                     key.second, m.figure->phase, key.first, m.figure->unit, v, centre, worse, sigmas});
    }
  }
  return out;
}

}  // namespace gpuscale::results
