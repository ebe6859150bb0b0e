#include "workloads/layers/CudnnGraph.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <set>

#include "harness/Error.hpp"
#include "harness/LibraryCall.hpp"

namespace gpuscale::workloads {
namespace {

using Descriptor = std::shared_ptr<void>;  // a cudnnBackendDescriptor_t, destroyed with its last owner

// Tensor ids in the variant pack: each pass reads and writes tensors shaped like X, W and Y.
constexpr std::int64_t kXShaped = 1, kWShaped = 2, kYShaped = 3;
constexpr std::int64_t kAlignmentBytes = 16;  // gradient views in flat buckets are 16-byte aligned

Descriptor create(cudnnBackendDescriptorType_t type) {
  cudnnBackendDescriptor_t d = nullptr;
  GPUSCALE_CUDNN_OK(cudnnBackendCreateDescriptor(type, &d));
  return Descriptor(d, [](void* p) { cudnnBackendDestroyDescriptor(p); });
}

void set(const Descriptor& d, cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type,
         std::int64_t count, const void* values) {
  GPUSCALE_CUDNN_OK(cudnnBackendSetAttribute(d.get(), name, type, count, values));
}

void set_descriptor(const Descriptor& d, cudnnBackendAttributeName_t name, const Descriptor& value) {
  cudnnBackendDescriptor_t raw = value.get();
  set(d, name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw);
}

// The handle attributes are deprecated from cuDNN 9.x on in favour of device properties, which older
// cuDNN 9 releases lack; the handle works on every 9.x.
void set_handle(const Descriptor& d, cudnnBackendAttributeName_t name, cudnnHandle_t handle) {
  set(d, name, CUDNN_TYPE_HANDLE, 1, &handle);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
constexpr cudnnBackendAttributeName_t kGraphHandle = CUDNN_ATTR_OPERATIONGRAPH_HANDLE;
constexpr cudnnBackendAttributeName_t kPlanHandle = CUDNN_ATTR_EXECUTION_PLAN_HANDLE;
#pragma GCC diagnostic pop

Descriptor finalized(Descriptor d) {
  GPUSCALE_CUDNN_OK(cudnnBackendFinalize(d.get()));
  return d;
}

// dims in cuDNN's N, C, H, W order (K, C, R, S for filters); strides from the layout.
Descriptor tensor(std::int64_t id, cudnnDataType_t type, std::array<std::int64_t, 4> dims, Layout layout) {
  const std::int64_t c = dims[1], h = dims[2], w = dims[3];
  const std::array<std::int64_t, 4> strides =
      layout == Layout::nhwc ? std::array<std::int64_t, 4>{h * w * c, 1, w * c, c}
                             : std::array<std::int64_t, 4>{c * h * w, h * w, w, 1};
  auto t = create(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  set(t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type);
  set(t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, dims.data());
  set(t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, strides.data());
  set(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &id);
  set(t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &kAlignmentBytes);
  return finalized(std::move(t));
}

Descriptor convolution(const Conv2dShape& g) {
  auto conv = create(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
  const cudnnDataType_t accumulate = CUDNN_DATA_FLOAT;
  const cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
  const std::int64_t spatial = 2;
  const std::array<std::int64_t, 2> pad{g.pad, g.pad}, stride{g.stride, g.stride}, dilation{g.dilation, g.dilation};
  set(conv, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &accumulate);
  set(conv, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode);
  set(conv, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &spatial);
  set(conv, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, pad.data());
  set(conv, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, pad.data());
  set(conv, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, stride.data());
  set(conv, CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, dilation.data());
  return finalized(std::move(conv));
}

// The attributes of one pass's operation: its tensors (shaped like X, W and Y) and parameters.
struct OpAttributes {
  cudnnBackendDescriptorType_t type;
  cudnnBackendAttributeName_t x_shaped, w_shaped, y_shaped, conv, alpha, beta;
};
constexpr OpAttributes kForwardOp{
    CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,  CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,
    CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,              CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y,
    CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC,      CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA,
    CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA};
constexpr OpAttributes kBackwardDataOp{
    CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,                  CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC,          CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA};
constexpr OpAttributes kBackwardFilterOp{
    CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW,                 CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC,          CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA};

// The operation graph of one pass (alpha 1, beta 0), owning every descriptor it was built from.
struct Graph {
  std::vector<Descriptor> parts;  // tensors, convolution, operation
  Descriptor graph;
};

std::shared_ptr<Graph> build_graph(cudnnHandle_t handle, const LayerSpec& spec, Pass pass) {
  const auto& g = std::get<Conv2dShape>(spec.shape);
  const cudnnDataType_t type = cudnn_data_type(input_type(spec));
  auto out = std::make_shared<Graph>();
  const Descriptor x = tensor(kXShaped, type, {g.n, g.c, g.h, g.w}, g.layout);
  const Descriptor w = tensor(kWShaped, type, {g.k, g.c, g.r, g.s}, g.layout);
  const Descriptor y = tensor(kYShaped, type, {g.n, g.k, g.p(), g.q()}, g.layout);
  const Descriptor conv = convolution(g);
  const OpAttributes& names = pass == Pass::forward         ? kForwardOp
                              : pass == Pass::backward_data ? kBackwardDataOp
                                                            : kBackwardFilterOp;
  Descriptor op = create(names.type);
  set_descriptor(op, names.x_shaped, x);
  set_descriptor(op, names.w_shaped, w);
  set_descriptor(op, names.y_shaped, y);
  set_descriptor(op, names.conv, conv);
  const float alpha = 1.0f, beta = 0.0f;
  set(op, names.alpha, CUDNN_TYPE_FLOAT, 1, &alpha);
  set(op, names.beta, CUDNN_TYPE_FLOAT, 1, &beta);
  op = finalized(std::move(op));
  out->graph = create(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
  set_handle(out->graph, kGraphHandle, handle);
  set_descriptor(out->graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, op);
  out->graph = finalized(std::move(out->graph));
  out->parts = {x, w, y, conv, op};
  return out;
}

// The engine configurations the heuristics of `mode` rank for the graph, best first.
std::vector<Descriptor> engine_configs(const Graph& graph, cudnnBackendHeurMode_t mode) {
  auto heuristics = create(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
  set_descriptor(heuristics, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph.graph);
  set(heuristics, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode);
  heuristics = finalized(std::move(heuristics));
  std::int64_t count = 0;
  GPUSCALE_CUDNN_OK(cudnnBackendGetAttribute(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                                CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr));
  std::vector<Descriptor> configs;
  std::vector<cudnnBackendDescriptor_t> raw;
  for (std::int64_t i = 0; i < count; ++i) {
    configs.push_back(create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR));
    raw.push_back(configs.back().get());
  }
  std::int64_t returned = 0;
  GPUSCALE_CUDNN_OK(cudnnBackendGetAttribute(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                                CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &returned, raw.data()));
  configs.resize(static_cast<std::size_t>(std::clamp<std::int64_t>(returned, 0, count)));
  return configs;
}

// What a configuration's engine is: its global index, numerical and behaviour notes.
struct EngineFacts {
  std::int64_t index = -1;
  std::vector<cudnnBackendNumericalNote_t> notes;
  bool compiles = false;  // CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION: its plan compiles a kernel
  bool has(cudnnBackendNumericalNote_t note) const {
    return std::find(notes.begin(), notes.end(), note) != notes.end();
  }
};

// nullopt for a configuration that does not say (skipped, like one whose plan does not finalize).
std::optional<EngineFacts> facts_of(const Descriptor& config) {
  const Descriptor engine = create(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
  cudnnBackendDescriptor_t raw = engine.get();
  std::int64_t n = 0;
  EngineFacts facts;
  facts.notes.resize(CUDNN_NUMERICAL_NOTE_TYPE_COUNT);
  const bool told =
      cudnnBackendGetAttribute(config.get(), CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n,
                               &raw) == CUDNN_STATUS_SUCCESS &&
      cudnnBackendGetAttribute(engine.get(), CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &n, &facts.index) ==
          CUDNN_STATUS_SUCCESS &&
      cudnnBackendGetAttribute(engine.get(), CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE,
                               CUDNN_NUMERICAL_NOTE_TYPE_COUNT, &n, facts.notes.data()) == CUDNN_STATUS_SUCCESS;
  if (!told) return std::nullopt;
  facts.notes.resize(static_cast<std::size_t>(std::clamp<std::int64_t>(n, 0, CUDNN_NUMERICAL_NOTE_TYPE_COUNT)));
  std::vector<cudnnBackendBehaviorNote_t> behaviour(CUDNN_BEHAVIOR_NOTE_TYPE_COUNT);
  if (cudnnBackendGetAttribute(engine.get(), CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE, CUDNN_TYPE_BEHAVIOR_NOTE,
                               CUDNN_BEHAVIOR_NOTE_TYPE_COUNT, &n, behaviour.data()) != CUDNN_STATUS_SUCCESS)
    return std::nullopt;
  behaviour.resize(static_cast<std::size_t>(std::clamp<std::int64_t>(n, 0, CUDNN_BEHAVIOR_NOTE_TYPE_COUNT)));
  facts.compiles = std::find(behaviour.begin(), behaviour.end(), CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION) !=
                   behaviour.end();
  return facts;
}

bool keeps_numerics(const EngineFacts& e, Precision precision) {
  if (e.has(CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION)) return false;
  if (precision == Precision::fp32 && e.has(CUDNN_NUMERICAL_NOTE_TENSOR_CORE)) return false;
  const bool float_data = precision == Precision::fp32 || precision == Precision::tf32;
  return !(float_data && e.has(CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS));
}

}  // namespace

cudnnDataType_t cudnn_data_type(harness::DataType t) {
  switch (t) {
    case harness::DataType::float16:
      return CUDNN_DATA_HALF;
    case harness::DataType::bfloat16:
      return CUDNN_DATA_BFLOAT16;
    default:
      return CUDNN_DATA_FLOAT;
  }
}

std::vector<ConvGraphPlan> conv_graph_plans(cudnnHandle_t handle, const LayerSpec& spec, Pass pass,
                                            const GraphPlanLimits& limits) {
  const std::shared_ptr<Graph> graph = build_graph(handle, spec, pass);
  std::vector<ConvGraphPlan> out;
  // Mode A may rank one engine several times (different knob settings); the fallback list adds only
  // engines mode A did not rank.
  std::set<std::int64_t> ranked;
  for (const auto mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK}) {
    const bool fallback = mode == CUDNN_HEUR_MODE_FALLBACK;
    const auto configs = engine_configs(*graph, mode);
    for (std::size_t rank = 0; rank < configs.size(); ++rank) {
      if (out.size() >= limits.count) return out;
      const Descriptor& config = configs[rank];
      const auto engine = facts_of(config);
      if (!engine || (engine->compiles && !limits.runtime_compiled) || !keeps_numerics(*engine, spec.precision) ||
          (fallback && ranked.count(engine->index)))
        continue;
      auto plan = create(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
      set_handle(plan, kPlanHandle, handle);
      set_descriptor(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, config);
      if (cudnnBackendFinalize(plan.get()) != CUDNN_STATUS_SUCCESS) continue;  // not for this shape or GPU
      std::int64_t workspace = -1, n = 0;
      if (cudnnBackendGetAttribute(plan.get(), CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &n,
                                   &workspace) != CUDNN_STATUS_SUCCESS ||
          workspace < 0 || static_cast<std::size_t>(workspace) > limits.workspace_bytes)
        continue;
      if (!fallback) ranked.insert(engine->index);
      // The plan's owner keeps the graph and the configuration alive with it.
      struct Owned {
        std::shared_ptr<Graph> graph;
        Descriptor config, plan;
      };
      auto owned = std::make_shared<Owned>(Owned{graph, config, plan});
      const bool tensor_ops = engine->has(CUDNN_NUMERICAL_NOTE_TENSOR_CORE);
      out.push_back({std::shared_ptr<void>(owned, plan.get()), static_cast<std::size_t>(workspace),
                     "graph engine " + std::to_string(engine->index) + (fallback ? " fallback #" : " A #") +
                         std::to_string(rank + 1) + (tensor_ops ? " tensor-op" : "") +
                         (engine->compiles ? " compiled" : "")});
    }
  }
  return out;
}

void run_conv_graph(cudnnHandle_t handle, const ConvGraphPlan& plan, Pass pass, const void* a, const void* b,
                    void* out, void* workspace) {
  using Ids = std::array<std::int64_t, 3>;
  const Ids ids = pass == Pass::forward         ? Ids{kXShaped, kWShaped, kYShaped}
                  : pass == Pass::backward_data ? Ids{kWShaped, kYShaped, kXShaped}
                                                : Ids{kXShaped, kYShaped, kWShaped};
  std::array<void*, 3> pointers{const_cast<void*>(a), const_cast<void*>(b), out};
  auto pack = create(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
  set(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, 3, ids.data());
  set(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, 3, pointers.data());
  set(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace);
  pack = finalized(std::move(pack));
  GPUSCALE_CUDNN_OK(cudnnBackendExecute(handle, plan.plan.get(), pack.get()));
}

}  // namespace gpuscale::workloads
