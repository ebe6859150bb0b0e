#include "phases/env/EnvView.hpp"

#include "phases/env/EnvFigures.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/PhaseNames.hpp"

namespace gpuscale::results::views::env {
namespace {

using namespace names;

constexpr FigureSpec kFigures[] = {
    {phase::env, kSmokeAllreduceTime, "rank", "s"},
    {phase::env, kSmokeInitTime, "rank", "s"},
    {phase::env, kWrongElements, "rank,test", "count"},
    {phase::env, kGpuMemoryTotal, "rank", "B"},
    {phase::env, kGpuMemoryFree, "rank", "B"},
    {phase::env, kSmClock, "rank", "MHz"},
    {phase::env, kSmClockMax, "rank", "MHz"},
    {phase::env, kMemoryClock, "rank", "MHz"},
    {phase::env, kTemperature, "rank", "C"},
    {phase::env, kPowerDraw, "rank", "W"},
    {phase::env, kPowerLimit, "rank", "W"},
    {phase::env, "foreign_gpu_processes", "rank", "count"},
    {phase::env, "gpu_utilization_before_start", "rank", "%"},
    {phase::env, "rdma_port_rate", "rank,adapter,port", "Gb/s"},
};

constexpr CheckSection kCheckSections[] = {CheckSection::env, CheckSection::outliers, CheckSection::budget};

// One environment per rank: world and ranks[] agree (RunConsistency.hpp checks each rank's), and a run
// has at least one.
bool has_every_rank(const Records& records, int world_size) {
  return !records.empty() && records.size() == static_cast<std::size_t>(world_size);
}

}  // namespace

extern constinit const PhaseViewOf<Records> kView{
    .name = phase::env,
    .title = "Environment: clocks, memory, power and the smoke allreduce",
    .has_records = has_every_rank,
    .name_ranks = nullptr,
    .append_figures = [](const Records& records, const RecordMarks&, std::vector<Figure>& out) {
      append_figures(records, out);
    },
    .vocabulary = kFigures,
    .console = nullptr,  // the run's header: ranks, launch, versions and topology (ConsoleReporter.cpp)
    .headlines = nullptr,
    .check_sections = kCheckSections,
    .charts = nullptr,
};

}  // namespace gpuscale::results::views::env
