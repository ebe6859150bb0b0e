#include "results/report/CsvReporter.hpp"

#include <set>
#include <tuple>

#include "results/base/Figure.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/SpeedJudged.hpp"
#include "results/models/FigureDeviations.hpp"
#include "results/render/CsvText.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::results {
namespace {

constexpr char kHeader[] =
    "run_id,output_set,start_time,host,node,rank,local_rank,gpu_uuid,gpu_model,phase,metric,labels,value,unit,"
    "judgement\n";

// The label's value as a rank or node number, or -1 where the label is absent or not a number.
int number_label(const Labels& labels, const char* key) {
  const auto it = labels.find(key);
  if (it == labels.end()) return -1;
  try {
    std::size_t used = 0;
    const int n = std::stoi(it->second, &used);
    if (used == it->second.size() && n >= 0) return n;
  } catch (const std::exception&) {
  }
  return -1;
}

// A figure as the fleet-outlier rule names it: (figure name, rank or -1, node where there is no rank, else -1).
using FleetKey = std::tuple<std::string, int, int>;

FleetKey key_of(const Outlier& o) { return {o.figure, o.rank, o.rank >= 0 ? -1 : o.node}; }

// Which figures the fleet-outlier rule compared, and which it named.
struct FleetJudgement {
  std::set<FleetKey> compared, outlying;

  FleetJudgement(const RunReport& report, const std::vector<Figure>& figures) {
    for (const auto& d : figure_deviations(figures, report.ranks))
      if (speed_judged(d.model)) compared.insert(key_of(d));
    for (const auto& o : report.outliers) outlying.insert(key_of(o));
  }

  // rank and node: the figure's (number_label), node -1 where it has a rank.
  const char* of(const Figure& f, int rank, int node) const {
    if (f.beside_tenant) return "beside_tenant";
    const FleetKey key{outlier_figure_name(f), rank, node};
    if (outlying.count(key)) return "outlier";
    if (compared.count(key)) return "within_fleet";
    return "not_judged";
  }
};

}  // namespace

void CsvReporter::write(const RunReport& report, std::ostream& out) const {
  out << kHeader;
  const std::string run = csv_field(run_id(report)), set = csv_field(report.output_set),
                    start = csv_field(report.start_time);
  if (!report.output_set.empty())
    write_csv_line(out, {run, set, start, "", "", "", "", "", "", "run", "verdict",
                         std::string("result=") + verdict_result(report.verdict), report.verdict.passed ? "1" : "0", "",
                         "not_judged"});
  const auto figures = flatten(report);
  const FleetJudgement judgement(report, figures);
  const CsvPlaces places(report.ranks);
  for (const auto& f : figures) {
    const int rank = number_label(f.labels, names::kRank);
    const int node = rank >= 0 ? -1 : number_label(f.labels, names::kNode);
    const CsvPlace place = rank >= 0 ? places.of_rank(rank) : node >= 0 ? places.of_node(node) : CsvPlace{};
    Labels rest = f.labels;
    if (rank >= 0) rest.erase(names::kRank);
    if (node >= 0) rest.erase(names::kNode);
    write_csv_line(out,
                   {run, set, start, csv_field(place.host), place.node, place.rank, place.local_rank,
                    csv_field(place.gpu_uuid), csv_field(place.gpu_model), csv_field(f.phase), csv_field(f.metric),
                    csv_field(labels_text(rest)), shortest(f.value), csv_field(f.unit), judgement.of(f, rank, node)});
  }
}

}  // namespace gpuscale::results
