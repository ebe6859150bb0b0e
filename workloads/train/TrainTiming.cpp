#include "workloads/train/TrainTiming.hpp"

#include <algorithm>
#include <memory>

namespace gpuscale::workloads {
namespace {

using harness::Deadline;

struct EventPairs {
  std::vector<std::unique_ptr<harness::Event>> begin, end;
  EventPairs(harness::Backend& backend, int n) {
    for (int i = 0; i < n; ++i) {
      begin.push_back(backend.create_event());
      end.push_back(backend.create_event());
    }
  }
  std::vector<double> seconds(double timeout_s) {
    std::vector<double> out;
    const Deadline deadline = Deadline::after(timeout_s);
    for (std::size_t i = 0; i < begin.size(); ++i) out.push_back(end[i]->seconds_since(*begin[i], deadline));
    return out;
  }
};

template <class Work>
std::vector<double> timed(harness::Backend& backend, harness::Stream& stream, const TimingOptions& o, double timeout_s,
                          Work&& work) {
  EventPairs events(backend, o.iterations);
  for (int i = 0; i < o.iterations; ++i) {
    events.begin[static_cast<std::size_t>(i)]->record(stream);
    work();
    events.end[static_cast<std::size_t>(i)]->record(stream);
  }
  return events.seconds(timeout_s);
}

void barrier(const TimingOptions& o) {
  if (o.before_timing) o.before_timing();
}

}  // namespace

RankTiming time_ddp(DdpTrainer& trainer, harness::Backend& backend, const TimingOptions& o, double timeout_s) {
  RankTiming out;
  for (int i = 0; i < o.warmup; ++i) trainer.step();
  trainer.synchronize(Deadline::after(timeout_s));
  settle_for(trainer, o, timeout_s);
  barrier(o);
  out.step_s = timed(backend, trainer.compute_stream(), o, timeout_s, [&] { trainer.step(); });
  trainer.synchronize(Deadline::after(timeout_s));
  if (!o.parts) return out;
  trainer.step(false);
  trainer.synchronize(Deadline::after(timeout_s));
  barrier(o);
  out.compute_s = timed(backend, trainer.compute_stream(), o, timeout_s, [&] { trainer.step(false); });
  trainer.synchronize(Deadline::after(timeout_s));
  if (!trainer.communicates()) return out;
  barrier(o);
  std::vector<double> comm = timed(backend, trainer.comm_stream(), o, timeout_s, [&] { trainer.allreduce_only(); });
  trainer.synchronize(Deadline::after(timeout_s));
  out.comm_s = std::move(comm);
  return out;
}

DpTiming time_dp(DpTrainer& trainer, const TimingOptions& o, double timeout_s) {
  DpTiming out;
  for (int i = 0; i < o.warmup; ++i) trainer.step();
  trainer.synchronize(Deadline::after(timeout_s));
  settle_for(trainer, o, timeout_s);
  barrier(o);
  std::vector<DpStepEvents> events;
  for (int i = 0; i < o.iterations; ++i) events.push_back(trainer.make_events());
  for (auto& e : events) trainer.step(&e);
  trainer.synchronize(Deadline::after(timeout_s));
  trainer.backend(0).make_current();
  std::vector<std::vector<double>> phase(DpStepEvents::count);
  const Deadline deadline = Deadline::after(timeout_s);
  for (auto& e : events) {
    out.step_s.push_back(e.marks[DpStepEvents::end]->seconds_since(*e.marks[DpStepEvents::start], deadline));
    for (int p = 1; p < DpStepEvents::count; ++p)
      phase[static_cast<std::size_t>(p)].push_back(e.marks[static_cast<std::size_t>(p)]->seconds_since(
          *e.marks[static_cast<std::size_t>(p - 1)], deadline));
  }
  auto med = [&](DpStepEvents::Mark m) { return results::median(phase[m]); };
  out.phases = {med(DpStepEvents::broadcast), med(DpStepEvents::scatter), med(DpStepEvents::forward),
                med(DpStepEvents::gather),    med(DpStepEvents::grad_scatter), med(DpStepEvents::backward),
                med(DpStepEvents::reduce),    med(DpStepEvents::end)};
  return out;
}

std::vector<results::TraceSpan> trace_ddp_step(DdpTrainer& trainer, int rank, const std::string& config,
                                               double timeout_s) {
  std::vector<TracedWork> work;
  trainer.step(true, &work);
  trainer.synchronize(Deadline::after(timeout_s));
  std::vector<results::TraceSpan> out;
  if (work.empty()) return out;
  const Deadline deadline = Deadline::after(timeout_s);
  harness::Event& origin = *work.front().begin;
  for (auto& w : work) {
    const double start = w.begin->seconds_since(origin, deadline);
    out.push_back({rank, w.lane, w.name, start, w.end->seconds_since(*w.begin, deadline), {{"run", config}}, config});
  }
  return out;
}

}  // namespace gpuscale::workloads
