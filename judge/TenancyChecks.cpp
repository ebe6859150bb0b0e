// gpu-in-use for the processes that appeared on a job's GPU during a phase (results/schema/MidRunTenancy.hpp),
// judged after each phase's own families, so a run's findings read in the order they were found; and
// the marks of the records measured beside a process that computes on their GPU (whole-run pass).
#include "judge/TenancyChecks.hpp"

#include <algorithm>
#include <cstdio>

#include "judge/PhaseRules.hpp"
#include "judge/base/Stragglers.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/Format.hpp"
#include "results/base/GpuReference.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/base/SpeedJudged.hpp"
#include "results/base/Statistics.hpp"
#include "results/world/GpuTenants.hpp"

namespace gpuscale::judge {

using namespace results;

std::vector<std::string> tenant_phases(const RunReport& report, const MidRunTenant& t) {
  if (!t.phases.empty()) return t.phases;
  std::vector<std::string> out{t.phase};
  const auto& done = report.phases_completed;
  const auto from = std::find(done.begin(), done.end(), t.phase);
  if (from == done.end()) return out;
  for (auto p = from + 1; p != done.end(); ++p)
    if (measured_shared(report.shared_phases, *p)) out.push_back(*p);
  return out;
}

SharedGpus shared_gpus(const RunReport& report) {
  SharedGpus out;
  const auto& ranks = report.ranks;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (!ranks[i].tenancy.probed) continue;
    const auto foreign = foreign_processes(ranks, i);
    const auto busy = mean_utilization_pct(ranks[i].tenancy);
    if (std::any_of(foreign.begin(), foreign.end(), [](const GpuProcess& p) { return p.compute; }) ||
        (busy && *busy >= report.busy_utilization_pct))
      out.always.insert(ranks[i].rank);
  }
  for (const auto& t : report.tenants)
    if (t.process.pid == 0 || t.process.compute)
      for (const auto& phase : tenant_phases(report, t)) out.by_phase[phase].insert(t.rank);
  return out;
}

std::vector<RecordMark> beside_tenant_marks(const RunReport& report, const RuleContext& context) {
  std::vector<RecordMark> out;
  const auto shared = shared_gpus(report);
  if (shared.empty()) return out;
  for (const auto* phase : all_phase_rules())
    if (phase->beside_tenant_marks) phase->beside_tenant_marks(report, shared, context, out);
  return out;
}

namespace {

// 674.0, but 0.0123 on the cpu backend.
std::string tflops_text(double tflops) {
  if (tflops >= 10) return fixed(tflops, 1);
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", tflops);
  return text;
}

}  // namespace

std::string burn_consequence(const std::vector<BurnRecord>& burn, const std::vector<int>& ranks, double threshold) {
  std::vector<std::string> parts;
  bool short_of = false;  // some figure under its floor or the job's other GPUs
  for (const auto& r : burn) {
    if (r.sustained_tflops <= 0 || std::find(ranks.begin(), ranks.end(), r.rank) == ranks.end()) continue;
    std::string text =
        tflops_text(r.sustained_tflops) + " TFLOP/s " + r.precision + " on rank " + std::to_string(r.rank);
    std::vector<double> own;  // the job's GPUs of that kind that had the GPU to themselves
    for (const auto& o : burn)
      if (o.gpu == r.gpu && o.precision == r.precision && o.sustained_tflops > 0 &&
          std::find(ranks.begin(), ranks.end(), o.rank) == ranks.end())
        own.push_back(o.sustained_tflops);
    if (const auto floor = burn_floor(r.gpu, r.precision); floor && r.sustained_tflops < floor->value) {
      text += ", under the model's floor of " + fixed(floor->value, 1) + " TFLOP/s";
      short_of = true;
    } else if (!own.empty() && speed_judged(r.gpu) && is_below_median(r.sustained_tflops, median(own), threshold)) {
      text += ", " + percent(1 - r.sustained_tflops / median(own), 0) + " below the job's other GPUs";
      short_of = true;
    }
    parts.push_back(std::move(text));
  }
  if (parts.empty()) return "";
  return "; beside it the burn sustained " + join_words(parts) +
         (short_of ? ": that shortfall is this process's, not the GPU's power, clocks or cooling, and is not judged "
                     "apart"
                   : ", not judged apart");
}

namespace {

std::string what(const MidRunTenant& t) {
  const auto& p = t.process;
  if (p.pid == 0)
    return "the GPU was " + fixed(t.utilization_pct.value_or(0), 0) + "% busy while the job was idle, though NVML "
           "lists no new process (a container or MIG hides it)";
  std::string text = "PID " + std::to_string(p.pid) + " (" + (p.name.empty() ? "name not readable" : p.name);
  if (p.used_memory_bytes) text += ", " + std::to_string(*p.used_memory_bytes >> 20) + " MiB";
  return text + ") " + (p.compute ? "computes on it" : "holds memory on it");
}

}  // namespace

void midrun_tenancy_checks(const RunReport& report, const std::vector<MidRunTenant>& tenants, std::vector<Check>& out) {
  for (const auto& t : tenants) {
    const bool computes = t.process.pid == 0 || t.process.compute;
    const auto phases = tenant_phases(report, t);
    std::string message = t.gpu + " on " + t.host + ": another process appeared during " + t.phase + ": " + what(t);
    if (computes) {
      message += "; the figures of " + join_words(phases) +
                 " on this GPU were measured beside it and are marked (beside_tenant), left out of the straggler, "
                 "outlier and floor rules";
      if (measured_shared(phases, "burn"))
        message += burn_consequence(report.burn, {t.rank}, report.straggler_threshold);
    }
    if (report.tenants_not_rejudged) message += " (as the run found it: the file holds no looks to judge again)";
    out.push_back(Check{check_ids::kGpuInUse, computes ? Severity::error : Severity::warning, {t.rank},
                        message + ": stop it and run again"});
  }
}

namespace {

bool of_a_phase(const results::MidRunTenant& t) { return find_phase_rules(t.phase) != nullptr; }

Judged tenancy(const RunReport& report, const RuleContext& context) {
  std::vector<results::MidRunTenant> during;
  for (const auto& t : report.tenants)
    // The whole-run pass (no phase) takes those that no phase pass took.
    if (context.phase.empty() ? !of_a_phase(t) : t.phase == context.phase) during.push_back(t);
  Judged judged;
  midrun_tenancy_checks(report, during, judged.checks);
  if (context.phase.empty()) judged.marks = beside_tenant_marks(report, context);
  return judged;
}

// A process computing on a GPU from the start (env's gpu-in-use error): the burn still ran beside it (it
// runs on a shared GPU), and what that cost it is said there, not as a slow-burn finding of its own.
void burn_beside_startup_tenant(const RunReport& report, std::string_view phase, std::vector<Check>& checks) {
  if (phase != phase::env) return;
  for (auto& c : checks)
    if (c.id == check_ids::kGpuInUse && c.severity == Severity::error)
      c.message += burn_consequence(report.burn, c.ranks, report.straggler_threshold);
}

}  // namespace

extern const RuleFamily kTenancyChecks{
    "tenancy", "*", "tenants[], shared_phases, ranks[].tenancy, the records of every phase",
    "gpu-in-use error (computes) or warning (holds memory); marks beside_tenant", GpuBlock::none, tenancy,
    burn_beside_startup_tenant};

}  // namespace gpuscale::judge
