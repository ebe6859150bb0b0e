#include "phases/train/TrainView.hpp"

#include <map>

#include "phases/train/TrainFigures.hpp"
#include "phases/train/TrainTable.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/HeadlineParts.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/charts/PhaseCharts.hpp"

namespace gpuscale::results::views::train {
namespace {

using namespace names;

constexpr std::string_view kTrainLabels = "strategy,model,precision,scaling,gpus,options?";

constexpr FigureSpec kFigures[] = {
    {phase::train, kStepTime, kTrainLabels, "s"},
    {phase::train, kSamplesPerS, kTrainLabels, "samples/s"},
    {phase::train, kScalingEfficiency, kTrainLabels, "ratio"},
    {phase::train, kComputeTime, kTrainLabels, "s"},
    {phase::train, kCommTime, kTrainLabels, "s"},
    {phase::train, kExposedCommTime, kTrainLabels, "s"},
    {phase::train, kOverlap, kTrainLabels, "%"},
    {phase::train, kPeakMemory, kTrainLabels, "B"},
    {phase::train, kRankStepTime, "strategy,model,precision,scaling,gpus,options?,rank", "s"},
    {phase::train, kDpPhaseTime, "strategy,model,precision,scaling,gpus,options?,dp_phase", "s"},
};

// DDP's step time per model, at the most GPUs it ran on (the first configuration listed there).
void ddp_step_time(const Records&, HeadlineContext& c, std::vector<Headline>& out) {
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

void name_ranks(const Records& records, const RankRefs& refs) {
  for (std::size_t i = 0; i < records.records.size(); ++i) {
    const auto& t = records.records[i];
    if (t.strategy == "dp") continue;  // its ranks are rank 0's devices, not world ranks
    for (const auto& k : t.ranks) refs.rank(k.rank, element_name("train.records", i) + " (" + t.strategy + ")");
  }
}

constexpr CheckSection kCheckSections[] = {CheckSection::training_proofs, CheckSection::train};

}  // namespace

extern constinit const PhaseViewOf<Records> kView{
    .name = phase::train,
    .title = "Training: data-parallel steps",
    .has_records = [](const Records& records, int) { return !records.records.empty(); },
    .name_ranks = name_ranks,
    .append_figures = [](const Records& records, const RecordMarks& marks, std::vector<Figure>& out) {
      append_figures(records, marks, out);
    },
    .vocabulary = kFigures,
    .console = [](const Records& records, const RecordMarks& marks, bool per_rank, std::ostream& out) {
      write_train_tables(records, marks, per_rank, out);
    },
    .headlines = ddp_step_time,
    .check_sections = kCheckSections,
    .charts = training_charts,
};

}  // namespace gpuscale::results::views::train
