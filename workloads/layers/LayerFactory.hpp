#pragma once
// What the cuda context hands each library's layer factory (cuBLAS for Linear, cuDNN for Conv2d),
// so that vendor headers stay in the one .cpp that needs them. Layers keep references into the
// factory and the context: destroy every layer before its context.
#include <memory>
#include <vector>

#include "workloads/layers/DeviceKernels.hpp"
#include "workloads/layers/Layer.hpp"
#include "workloads/layers/Workspace.hpp"

namespace gpuscale::workloads {

struct DeviceEnv {
  harness::Backend& backend;
  harness::Stream& stream;  // where tuning runs
  Workspace& workspace;
  TuningOptions tuning;
  double wait_s;  // bounds each wait of the tuning: the phase's --timeout (make_compute_context)
};

// best_round_s's hold, on the tuning stream.
inline auto tuning_hold(const DeviceEnv& env) {
  return [&stream = env.stream](double seconds) { kernels::hold(seconds, stream.native()); };
}

// Whether the tuning of `spec`'s layer ranks its finalists settled: asked for (TuningOptions::settled_window_s)
// and not turned off for the layer (LayerSpec::settle_tuning). Tuners key their caches on it, so that a winner
// of short rounds alone (the reference check's layer) is never reused where settled ranking was asked.
inline bool tunes_settled(const DeviceEnv& env, const LayerSpec& spec) {
  return env.tuning.settled_window_s > 0 && spec.settle_tuning;
}

class LayerFactory {
 public:
  virtual ~LayerFactory() = default;
  // The spec has been validated. Tunes on scratch tensors (allocated, then freed) unless cached.
  virtual std::unique_ptr<Layer> create(const LayerSpec& spec) = 0;
};

std::unique_ptr<LayerFactory> make_cublaslt_factory(DeviceEnv& env);  // LinearShape specs
std::unique_ptr<LayerFactory> make_cudnn_factory(DeviceEnv& env);     // Conv2dShape specs

// Scratch copies of a layer's six tensors with random inputs and poisoned outputs, for tuning.
struct ScratchTensors {
  std::unique_ptr<harness::Buffer> x, w, y, dy, dx, dw;
};
ScratchTensors make_scratch(harness::Backend& backend, harness::Stream& stream, const LayerSpec& spec);

// Mean seconds per call of `work` on `stream`: one untimed call, then hold(seconds) enqueues a hold
// of kHoldPerCall_s per timed call and two more (the events), then `reps` calls timed with device
// events. The hold lets the host launch the timed calls while the stream waits, so the events time
// their runs: from an idle stream a call that runs shorter than its launch is timed at the launch's
// pace (a legacy cuDNN call runs 15 us and takes 70-90 to launch), and a tuner would rank launch
// costs, not kernels. Returns +inf when the work throws a library error (an algorithm that cannot run).
// wait_s bounds the wait for the timed calls (here and in best_round_s and settled_fastest: each timer's).
template <class Work, class Hold>
double time_per_call_s(harness::Backend& backend, harness::Stream& stream, double wait_s, int reps, Work&& work,
                       Hold&& hold);

// Seconds per call of each of `count` candidates (run(i) enqueues candidate i once), timed
// round-robin over `rounds` rounds of `reps` calls (each behind hold(seconds), as above), each keeping
// its best round: a clock ramp or one noisy moment cannot decide between kernels a few percent apart.
// +inf for a candidate that cannot run.
template <class Run, class Hold>
std::vector<double> best_round_s(harness::Backend& backend, harness::Stream& stream, double wait_s, std::size_t count,
                                 int rounds, int reps, Run&& run, Hold&& hold);

// The short rounds every tuner (cuBLASLt algorithms, cuDNN plans) gives best_round_s.
inline constexpr int kTuningRounds = 3;  // per candidate, round-robin
inline constexpr int kTuningReps = 3;    // timed calls per round

// Short rounds' finalists timed again once the GPU has settled (TuningOptions::settled_window_s).
inline constexpr std::size_t kSettledFinalists = 3;
inline constexpr double kSettledMaxCalls = 20000;  // per window
// A candidate more than this much slower than the fastest in its best short round is no finalist: the
// settled and short-round ranks of one kernel pair differ by a few percent (the clock's sawtooth), and
// each finalist costs two windows per pass tuned.
inline constexpr double kSettledWithin = 0.05;

// The candidates worth ranking settled, fastest short round first: those that ran (finite short_s[i]),
// within kSettledWithin of the fastest, kSettledFinalists at most. Empty when none ran.
std::vector<std::size_t> settled_finalists(const std::vector<double>& short_s);

// Which of `finalists` (candidate indices; short_s[i]: candidate i's short-round seconds per call) runs
// fastest settled: the first runs `window_s` untimed (past the top-clock transient of a load), then
// each runs back to back for `window_s` (the calls its short-round time gives, at most kSettledMaxCalls), in order
// and again in reverse, each window timed by one event pair. The least time per call, summed over its
// two windows, wins; `finalists` is not empty and each of them ran in the short rounds.
template <class Run>
std::size_t settled_fastest(harness::Backend& backend, harness::Stream& stream, double wait_s,
                            const std::vector<std::size_t>& finalists, const std::vector<double>& short_s,
                            double window_s, Run&& run);

}  // namespace gpuscale::workloads

#include "workloads/layers/LayerFactory.inl"
