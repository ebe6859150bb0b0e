// Conv2d through cuDNN 9: the legacy convolution API (cudnnConvolutionForward / BackwardData /
// BackwardFilter) and the graph API's execution plans (CudnnGraph.hpp). Algorithms (AlgoSearch):
// `heuristic` takes the legacy API's first suggestion that fits the workspace cap (PyTorch's
// default); `find` runs cudnnFind*Ex on scratch tensors and takes the fastest that fits; `graph` and
// `exhaustive` time the graph API's plans, alone or beside find's winner, and keep the fastest (like
// torch.backends.cudnn.benchmark). A graph plan overwrites its output; accumulating calls take the
// legacy algorithm find chose. Choices are cached per shape, precision and pass. The whole
// convolution runs in the storage type with fp32 accumulation; float outputs of half precisions are
// produced through a staging tensor and the convert kernel.
#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <cudnn.h>

#include "harness/LibraryCall.hpp"
#include "workloads/layers/CudnnGraph.hpp"
#include "workloads/layers/DeviceKernels.hpp"
#include "workloads/layers/LayerFactory.hpp"
#include "workloads/layers/LegacyConv.hpp"
#include "workloads/layers/LibraryHandle.hpp"

namespace gpuscale::workloads {
namespace {

constexpr std::size_t kFindRetimed = 6;  // cudnnFind's fastest that fit, timed again behind a hold...
constexpr float kFindRetimeBelow_ms = 0.5f;  // ...those it timed under this: launches may have ranked them

struct Choice {
  int algo = 0;  // legacy: every call when there is no graph plan, accumulating calls when there is
  std::size_t workspace_bytes = 0;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  std::optional<ConvGraphPlan> graph;  // the faster, where timed
  float found_ms = -1;                  // cudnnFind's time for `algo` (-1: not timed by find)
};

// A graph plan where chosen and the output is overwritten, else the legacy algorithm.
void execute(cudnnHandle_t h, const LegacyConv& legacy, Pass pass, const Choice& c, const ConvOperands& o,
             void* workspace, float beta) {
  if (c.graph && beta == 0.0f)
    run_conv_graph(h, *c.graph, pass, o.a, o.b, o.out, workspace);
  else
    legacy.run(h, pass, c.algo, o, workspace, c.workspace_bytes, beta);
}

class CudnnFactory;

class CudnnConv2d final : public Layer {
 public:
  CudnnConv2d(CudnnFactory& factory, LayerSpec spec);
  const LayerSpec& spec() const noexcept override { return spec_; }
  AlgorithmChoice algorithm(Pass pass) const override {
    if (!contains(spec_.passes, pass)) return {};
    const Choice& c = choices_[static_cast<int>(pass)];
    if (c.graph) return {c.graph->name, c.graph->workspace_bytes};
    const bool tensor_ops = c.math == CUDNN_TENSOR_OP_MATH || c.math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    return {legacy_algorithm_name(pass, c.algo) + (tensor_ops ? " tensor-op" : ""), c.workspace_bytes};
  }
  void forward(const void* x, const void* w, void* y, harness::Stream& stream) override {
    run(Pass::forward, {x, w, y}, output_type(spec_), Accumulate::overwrite, stream);
  }
  void backward_data(const void* dy, const void* w, void* dx, harness::Stream& stream) override {
    run(Pass::backward_data, {w, dy, dx}, output_type(spec_), Accumulate::overwrite, stream);
  }
  void backward_weight(const void* dy, const void* x, void* dw, Accumulate mode, harness::Stream& stream) override {
    run(Pass::backward_weight, {x, dy, dw}, weight_grad_type(spec_), mode, stream);
  }

 private:
  void run(Pass pass, ConvOperands o, harness::DataType out_type, Accumulate mode, harness::Stream& stream);

  CudnnFactory& factory_;
  LayerSpec spec_;
  LegacyConv legacy_;
  Choice choices_[3];
  std::unique_ptr<harness::Buffer> staging_;  // storage-type output when the caller wants float
};

class CudnnFactory final : public LayerFactory {
 public:
  explicit CudnnFactory(DeviceEnv& env) : env_(env) { GPUSCALE_CUDNN_OK(cudnnCreate(&handle_.value)); }
  std::unique_ptr<Layer> create(const LayerSpec& spec) override { return std::make_unique<CudnnConv2d>(*this, spec); }
  DeviceEnv& env() { return env_; }
  cudnnHandle_t handle(harness::Stream& stream) {
    GPUSCALE_CUDNN_OK(cudnnSetStream(handle_.value, static_cast<cudaStream_t>(stream.native())));
    return handle_.value;
  }
  // The cached choice for this pass of this spec, searching first if needed.
  Choice choose(const LayerSpec& spec, LegacyConv& legacy, Pass pass);

 private:
  // settled: rank the short rounds' finalists again settled (TuningOptions::settled_window_s).
  Choice search(const LayerSpec& spec, LegacyConv& legacy, Pass pass, const std::vector<LegacyCandidate>& suggested,
                bool settled);
  Choice fastest_found(LegacyConv& legacy, Pass pass, Precision precision, const std::vector<Choice>& all,
                       const ConvOperands& o, void* workspace);
  std::vector<ConvGraphPlan> graph_plans(const LayerSpec& spec, Pass pass);

  DeviceEnv& env_;
  LibraryHandle<cudnnHandle_t, cudnnDestroy> handle_;
  std::map<std::string, Choice> cache_;
};

// The candidates that ran and fit the cap, in cuDNN's order (best first), `most` at most.
std::vector<Choice> fitting(const std::vector<LegacyCandidate>& list, std::size_t limit_bytes, std::size_t most) {
  std::vector<Choice> out;
  for (const auto& c : list)
    if (c.status == CUDNN_STATUS_SUCCESS && c.memory <= limit_bytes && out.size() < most)
      out.push_back(Choice{c.algo, c.memory, c.math, std::nullopt, c.time_ms});
  return out;
}

Choice CudnnFactory::choose(const LayerSpec& spec, LegacyConv& legacy, Pass pass) {
  const bool settled = tunes_settled(env_, spec);
  const std::string key = describe(spec.shape) + " " + std::string(to_string(spec.precision)) + " " +
                          std::string(to_string(pass)) + (settled ? " settled" : "");
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  const auto suggested = legacy.heuristic(handle(env_.stream), pass);
  Choice choice;
  if (env_.tuning.conv_search != AlgoSearch::heuristic) {
    choice = search(spec, legacy, pass, suggested, settled);
  } else {
    const auto first = fitting(suggested, env_.tuning.workspace_limit_bytes, 1);
    if (first.empty())
      throw harness::LibraryError("cuDNN", "no algorithm",
                                  harness::error_location() + " cuDNN suggests no algorithm within the " +
                                      std::to_string(env_.tuning.workspace_limit_bytes) + "-byte workspace cap for " +
                                      key);
    choice = first.front();
  }
  return cache_.emplace(key, choice).first->second;
}

Choice CudnnFactory::search(const LayerSpec& spec, LegacyConv& legacy, Pass pass,
                            const std::vector<LegacyCandidate>& suggested, bool settled) {
  // Give Find the largest workspace any suggested algorithm wants, up to the cap.
  std::size_t find_bytes = 0;
  for (const auto& c : suggested)
    if (c.status == CUDNN_STATUS_SUCCESS && c.memory <= env_.tuning.workspace_limit_bytes)
      find_bytes = std::max(find_bytes, c.memory);
  const ScratchTensors t = make_scratch(env_.backend, env_.stream, spec);
  const ConvOperands o = pass == Pass::forward         ? ConvOperands{t.x->data(), t.w->data(), t.y->data()}
                         : pass == Pass::backward_data ? ConvOperands{t.w->data(), t.dy->data(), t.dx->data()}
                                                       : ConvOperands{t.x->data(), t.dy->data(), t.dw->data()};
  // Find writes the outputs in the storage type; the scratch outputs may be float (larger), so fine.
  void* workspace = env_.workspace.ensure(find_bytes);
  const cudnnHandle_t h = handle(env_.stream);
  const auto found = legacy.find(h, pass, o, workspace, find_bytes);
  env_.stream.synchronize(harness::Deadline::after(env_.wait_s), "cudnnFind");
  const auto found_fitting = fitting(found, find_bytes, kFindRetimed);
  if (found_fitting.empty())
    throw harness::LibraryError("cuDNN", "no algorithm",
                                harness::error_location() + " cudnnFind found no algorithm that runs for " +
                                    describe(spec.shape) + " " + std::string(to_string(pass)));
  Choice choice = fastest_found(legacy, pass, spec.precision, found_fitting, o, workspace);
  if (env_.tuning.conv_search == AlgoSearch::find) return choice;
  const auto plans = graph_plans(spec, pass);
  if (plans.empty()) return choice;
  // Each plan, and find's winner where it may win, on the same tensors.
  std::size_t largest = find_bytes;
  for (const auto& p : plans) largest = std::max(largest, p.workspace_bytes);
  workspace = env_.workspace.ensure(largest);
  if (spec.precision != Precision::fp32) legacy.set_math(pass, choice.math);
  const std::size_t with_find = env_.tuning.conv_search == AlgoSearch::exhaustive ? 1 : 0;
  const auto run = [&](std::size_t i) {
    if (i < with_find)
      execute(h, legacy, pass, choice, o, workspace, 0.0f);
    else
      run_conv_graph(h, plans[i - with_find], pass, o.a, o.b, o.out, workspace);
  };
  const auto seconds = best_round_s(env_.backend, env_.stream, env_.wait_s, with_find + plans.size(), kTuningRounds,
                                    kTuningReps, run, tuning_hold(env_));
  const auto finalists = settled_finalists(seconds);  // fastest first; empty when none ran
  if (finalists.empty()) {
    if (with_find) return choice;
    throw harness::LibraryError("cuDNN", "no algorithm",
                                harness::error_location() + " no cuDNN graph plan ran for " + describe(spec.shape) +
                                    " " + std::string(to_string(pass)));
  }
  std::size_t best = finalists.front();
  if (settled && finalists.size() > 1)
    best =
        settled_fastest(env_.backend, env_.stream, env_.wait_s, finalists, seconds, env_.tuning.settled_window_s, run);
  env_.stream.synchronize(harness::Deadline::after(env_.wait_s), "cuDNN tuning");
  if (best >= with_find) choice.graph = plans[best - with_find];
  return choice;
}

// cudnnFind times each algorithm from an idle stream, so a convolution that runs shorter than its
// launch is ranked by launch cost, and can put an algorithm without tensor ops, ten times slower, first
// for a conv as short as the default 1x256x64x64 one. Its fitting
// candidates that find timed under kFindRetimeBelow_ms are timed again, round-robin behind a hold
// (best_round_s), and the fastest kept. Longer calls keep find's order: their launches cannot rank them,
// and re-timing them (a 10x slower algorithm among the six) would cost the whole-job run's training
// phase, which searches every context's convolutions with find, seconds for nothing.
Choice CudnnFactory::fastest_found(LegacyConv& legacy, Pass pass, Precision precision, const std::vector<Choice>& all,
                                   const ConvOperands& o, void* workspace) {
  std::vector<Choice> found;
  for (const Choice& c : all)
    if (c.found_ms >= 0 && c.found_ms < kFindRetimeBelow_ms) found.push_back(c);
  if (found.size() < 2) return all.front();
  const cudnnHandle_t h = handle(env_.stream);
  const auto seconds = best_round_s(
      env_.backend, env_.stream, env_.wait_s, found.size(), kTuningRounds, kTuningReps,
      [&](std::size_t i) {
        if (precision != Precision::fp32) legacy.set_math(pass, found[i].math);
        legacy.run(h, pass, found[i].algo, o, workspace, found[i].workspace_bytes, 0.0f);
      },
      tuning_hold(env_));
  env_.stream.synchronize(harness::Deadline::after(env_.wait_s), "cuDNN find re-timing");
  const auto best = std::min_element(seconds.begin(), seconds.end()) - seconds.begin();
  // Every candidate ran inside cudnnFind; none that runs now leaves cuDNN's order standing.
  if (!(seconds[static_cast<std::size_t>(best)] < std::numeric_limits<double>::infinity())) return all.front();
  return found[static_cast<std::size_t>(best)];
}

// The graph API's plans for this pass. With --cudnn-algo exhaustive a convolution the graph API cannot
// express (or a cuDNN without it) leaves find's winner alone; with graph, the error stands.
std::vector<ConvGraphPlan> CudnnFactory::graph_plans(const LayerSpec& spec, Pass pass) {
  const auto build = [&] {
    const GraphPlanLimits limits{env_.tuning.workspace_limit_bytes,
                                 static_cast<std::size_t>(std::max(1, env_.tuning.conv_plans)),
                                 env_.tuning.conv_runtime_compiled};
    return conv_graph_plans(handle(env_.stream), spec, pass, limits);
  };
  if (env_.tuning.conv_search == AlgoSearch::graph) {
    auto plans = build();
    if (plans.empty())
      throw harness::LibraryError("cuDNN", "no algorithm",
                                  harness::error_location() + " the cuDNN graph API offers no plan for " +
                                      describe(spec.shape) + " " + std::string(to_string(pass)));
    return plans;
  }
  try {
    return build();
  } catch (const harness::OutOfMemoryError&) {
    throw;
  } catch (const harness::LibraryError&) {
    return {};
  }
}

CudnnConv2d::CudnnConv2d(CudnnFactory& factory, LayerSpec spec)
    : factory_(factory), spec_(std::move(spec)), legacy_(spec_) {
  std::size_t staging_bytes = 0;
  for (Pass pass : kAllPasses) {
    if (!contains(spec_.passes, pass)) continue;
    Choice& c = choices_[static_cast<int>(pass)];
    c = factory_.choose(spec_, legacy_, pass);
    // Run with the math type the algorithm was measured with (fp32 stays FMA: it never lists others).
    if (spec_.precision != Precision::fp32) legacy_.set_math(pass, c.math);
    factory_.env().workspace.ensure(std::max(c.workspace_bytes, c.graph ? c.graph->workspace_bytes : 0));
  }
  const auto storage = input_type(spec_);
  const auto elements = [&](std::int64_t n) { return static_cast<std::size_t>(n) * harness::size_of(storage); };
  if (output_type(spec_) != storage)
    staging_bytes = std::max(elements(output_elements(spec_.shape)), elements(input_elements(spec_.shape)));
  if (weight_grad_type(spec_) != storage)
    staging_bytes = std::max(staging_bytes, elements(weight_elements(spec_.shape)));
  if (staging_bytes) staging_ = factory_.env().backend.allocate(staging_bytes);
}

void CudnnConv2d::run(Pass pass, ConvOperands o, harness::DataType out_type, Accumulate mode, harness::Stream& stream) {
  if (!contains(spec_.passes, pass))
    throw harness::RuntimeError(harness::error_location() + " Conv2d " + std::string(to_string(pass)) +
                                " called on a layer made without it (LayerSpec::passes)");
  const Choice& c = choices_[static_cast<int>(pass)];
  void* workspace = factory_.env().workspace.data();
  const cudnnHandle_t h = factory_.handle(stream);
  if (out_type == input_type(spec_)) {
    execute(h, legacy_, pass, c, o, workspace, mode == Accumulate::add ? 1.0f : 0.0f);
    return;
  }
  void* target = o.out;
  o.out = staging_->data();
  execute(h, legacy_, pass, c, o, workspace, 0.0f);
  const auto& g = spec_.shape;
  const std::int64_t count = pass == Pass::forward         ? output_elements(g)
                             : pass == Pass::backward_data ? input_elements(g)
                                                           : weight_elements(g);
  kernels::convert(staging_->data(), input_type(spec_), target, out_type, static_cast<std::size_t>(count),
                   mode == Accumulate::add, stream.native());
}

}  // namespace

std::unique_ptr<LayerFactory> make_cudnn_factory(DeviceEnv& env) { return std::make_unique<CudnnFactory>(env); }

}  // namespace gpuscale::workloads
