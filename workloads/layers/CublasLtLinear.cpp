// Linear through cuBLAS. Each pass is one column-major GEMM (Gemm.hpp). Its algorithm is chosen by
// timing candidates on scratch tensors, once per problem, and the winner is cached for every later
// layer of the same problem. The candidates: cuBLASLt's heuristic top results under the workspace
// limit, and cublasGemmEx's default algorithm (PyTorch's path, CublasGemmEx.hpp). The heuristic is
// asked once, under the workspace limit: a second query under a smaller workspace doubles the tuning
// time without finding other winners. The first two kernels that launch thread-block clusters are also
// timed with the other cluster shapes of kClusterShapes: a kernel's cluster shape sets which operand
// tiles its CTAs share through the cluster, hence its L2 traffic and power, so under a power limit the
// same kernel can run several percent faster with another shape than the heuristic's. With
// TuningOptions::settled_window_s (compute --tune-window-ms), for layers whose LayerSpec::settle_tuning
// is set (not the reference check's), the first two kernels' swizzle twins are candidates too, and the
// short rounds' fastest three (within 5%: settled_finalists) are ranked again settled: the twins tie at
// the top clock and differ under the power limit, which only windows of a good part of a second resolve
// (shorter ones rank by the clock's sawtooth).
#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <cublasLt.h>
#include <cuda_runtime.h>

#include "harness/LibraryCall.hpp"
#include "workloads/layers/CublasGemmEx.hpp"
#include "workloads/layers/Gemm.hpp"
#include "workloads/layers/LayerFactory.hpp"
#include "workloads/layers/LibraryHandle.hpp"

namespace gpuscale::workloads {
namespace {

// The cuBLASLt descriptors of one GEMM: operation, and the layouts of A, B and C (= D).
struct GemmDescriptors {
  LibraryHandle<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy> op;
  LibraryHandle<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy> a, b, c;

  explicit GemmDescriptors(const Gemm& g) {
    GPUSCALE_CUBLASLT_OK(cublasLtMatmulDescCreate(&op.value, compute_type(g.precision), CUDA_R_32F));
    const cublasOperation_t ta = operation(g.trans_a), tb = operation(g.trans_b);
    GPUSCALE_CUBLASLT_OK(cublasLtMatmulDescSetAttribute(op.value, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    GPUSCALE_CUBLASLT_OK(cublasLtMatmulDescSetAttribute(op.value, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    if (g.sm_count_target > 0) {  // the heuristic ranks, and the kernel runs, for that many SMs
      const std::int32_t sms = g.sm_count_target;
      GPUSCALE_CUBLASLT_OK(
          cublasLtMatmulDescSetAttribute(op.value, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &sms, sizeof sms));
    }
    // Stored (pre-op) shapes.
    const auto a_cols = g.trans_a ? g.m : g.k, b_cols = g.trans_b ? g.k : g.n;
    GPUSCALE_CUBLASLT_OK(cublasLtMatrixLayoutCreate(&a.value, cuda_type(g.ab_type), g.lda(), a_cols, g.lda()));
    GPUSCALE_CUBLASLT_OK(cublasLtMatrixLayoutCreate(&b.value, cuda_type(g.ab_type), g.ldb(), b_cols, g.ldb()));
    GPUSCALE_CUBLASLT_OK(cublasLtMatrixLayoutCreate(&c.value, cuda_type(g.d_type), g.m, g.n, g.ldc()));
  }
};

// The cluster shapes a clustered kernel is also timed with, and their names.
constexpr std::uint16_t kClusterShapes[] = {CUBLASLT_CLUSTER_SHAPE_1x1x1, CUBLASLT_CLUSTER_SHAPE_2x1x1,
                                            CUBLASLT_CLUSTER_SHAPE_1x2x1, CUBLASLT_CLUSTER_SHAPE_2x2x1};
constexpr const char* kClusterNames[] = {"1x1", "2x1", "1x2", "2x2"};
constexpr std::size_t kClusterVariantsOf = 2;  // the heuristic's first kernels given cluster variants

std::uint16_t cluster_shape(const cublasLtMatmulAlgo_t& algo) {
  std::uint16_t shape = CUBLASLT_CLUSTER_SHAPE_AUTO;
  std::size_t written = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &shape, sizeof shape,
                                           &written) != CUBLAS_STATUS_SUCCESS)
    return CUBLASLT_CLUSTER_SHAPE_AUTO;
  return shape;
}

std::string cluster_name(std::uint16_t shape) {
  for (std::size_t i = 0; i < std::size(kClusterShapes); ++i)
    if (kClusterShapes[i] == shape) return kClusterNames[i];
  return "id " + std::to_string(shape);  // cublasLtClusterShape_t
}

std::string algorithm_name(const cublasLtMatmulAlgo_t& algo) {
  // The size given must be the attribute's own (int32 or uint32 here), or cuBLASLt writes nothing:
  // ask for it first. Every queried attribute is a non-negative integer of at most 8 bytes.
  auto attribute = [&](cublasLtMatmulAlgoConfigAttributes_t which) -> std::string {
    std::size_t needed = 0;
    if (cublasLtMatmulAlgoConfigGetAttribute(&algo, which, nullptr, 0, &needed) != CUBLAS_STATUS_SUCCESS ||
        needed == 0 || needed > sizeof(std::uint64_t))
      return "?";
    std::uint64_t value = 0;  // little-endian: a narrower value lands in the low bytes
    std::size_t written = 0;
    if (cublasLtMatmulAlgoConfigGetAttribute(&algo, which, &value, needed, &written) != CUBLAS_STATUS_SUCCESS)
      return "?";
    // The id and the split count are int32: cuBLASLt gives some kernels a split count of -1.
    const bool signed_int32 = which == CUBLASLT_ALGO_CONFIG_ID || which == CUBLASLT_ALGO_CONFIG_SPLITK_NUM;
    if (signed_int32 && needed == sizeof(std::int32_t))
      return std::to_string(static_cast<std::int32_t>(static_cast<std::uint32_t>(value)));
    return std::to_string(value);
  };
  const std::uint16_t cluster = cluster_shape(algo);
  std::string name = "cublasLt algo ";
  name.append(attribute(CUBLASLT_ALGO_CONFIG_ID)).append(" tile ").append(attribute(CUBLASLT_ALGO_CONFIG_TILE_ID));
  name.append(" stages ").append(attribute(CUBLASLT_ALGO_CONFIG_STAGES_ID));
  name.append(" splitK ").append(attribute(CUBLASLT_ALGO_CONFIG_SPLITK_NUM));
  name.append(" swizzle ").append(attribute(CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING));
  if (cluster != CUBLASLT_CLUSTER_SHAPE_AUTO) name.append(" cluster ").append(cluster_name(cluster));
  return name;
}

// A candidate, and once timed the winner: which path runs the GEMM, and how.
struct Tuned {
  MatmulPath path = MatmulPath::lt;  // lt or gemmex
  cublasLtMatmulAlgo_t algo{};       // lt only
  std::size_t workspace_bytes = 0;
  std::string name;
};

class CublasLtFactory;

class CublasLtLinear final : public Layer {
 public:
  CublasLtLinear(CublasLtFactory& factory, LayerSpec spec);
  const LayerSpec& spec() const noexcept override { return spec_; }
  AlgorithmChoice algorithm(Pass pass) const override {
    const auto& p = plans_[static_cast<int>(pass)];
    return {p.tuned.name, p.tuned.workspace_bytes};  // empty for a pass the spec leaves out
  }
  void forward(const void* x, const void* w, void* y, harness::Stream& stream) override {
    run(Pass::forward, w, x, y, 0.0f, stream);
  }
  void backward_data(const void* dy, const void* w, void* dx, harness::Stream& stream) override {
    run(Pass::backward_data, w, dy, dx, 0.0f, stream);
  }
  void backward_weight(const void* dy, const void* x, void* dw, Accumulate mode, harness::Stream& stream) override {
    run(Pass::backward_weight, x, dy, dw, mode == Accumulate::add ? 1.0f : 0.0f, stream);
  }

 private:
  struct Plan {
    Gemm gemm;
    std::unique_ptr<GemmDescriptors> descriptors;
    Tuned tuned;
  };
  void run(Pass pass, const void* a, const void* b, void* d, float beta, harness::Stream& stream);

  CublasLtFactory& factory_;
  LayerSpec spec_;
  Plan plans_[3];
};

class CublasLtFactory final : public LayerFactory {
 public:
  explicit CublasLtFactory(DeviceEnv& env) : env_(env), gemmex_(env.workspace) {
    GPUSCALE_CUBLASLT_OK(cublasLtCreate(&handle_.value));
  }
  std::unique_ptr<Layer> create(const LayerSpec& spec) override {
    return std::make_unique<CublasLtLinear>(*this, spec);
  }
  DeviceEnv& env() { return env_; }

  // The cached winner for this GEMM, tuning it first on the spec's scratch tensors if needed.
  const Tuned& tuned(const Gemm& g, const GemmDescriptors& d, const LayerSpec& spec, Pass pass);

  // D = op(A) op(B) + beta D through the path and algorithm of `t`, on `stream`.
  void matmul(const Gemm& g, const GemmDescriptors& d, const Tuned& t, const void* a, const void* b, void* out,
              float beta, harness::Stream& stream) {
    if (t.path == MatmulPath::gemmex) return gemmex_.run(g, a, b, out, beta, t.workspace_bytes, stream);
    const float alpha = 1.0f;
    void* workspace = env_.workspace.ensure(t.workspace_bytes);
    GPUSCALE_CUBLASLT_OK(cublasLtMatmul(handle_.value, d.op.value, &alpha, a, d.a.value, b, d.b.value, &beta, out,
                                           d.c.value, out, d.c.value, &t.algo, workspace, t.workspace_bytes,
                                           static_cast<cudaStream_t>(stream.native())));
  }

 private:
  std::vector<Tuned> candidates(const Gemm& g, const GemmDescriptors& d, bool settled);
  template <class Value>
  void add_variant(const GemmDescriptors& d, const cublasLtMatmulAlgo_t& algo,
                   cublasLtMatmulAlgoConfigAttributes_t attribute, Value value, std::vector<Tuned>& out);
  void add_cluster_variants(const GemmDescriptors& d, const cublasLtMatmulAlgo_t& algo, std::vector<Tuned>& out);
  void add_swizzle_twin(const GemmDescriptors& d, const cublasLtMatmulAlgo_t& algo, std::vector<Tuned>& out);
  std::vector<cublasLtMatmulHeuristicResult_t> heuristic(const GemmDescriptors& d, std::uint64_t workspace_limit_bytes);

  DeviceEnv& env_;
  LibraryHandle<cublasLtHandle_t, cublasLtDestroy> handle_;
  CublasGemmEx gemmex_;
  std::map<std::string, Tuned> cache_;
};

std::vector<cublasLtMatmulHeuristicResult_t> CublasLtFactory::heuristic(const GemmDescriptors& d,
                                                                        std::uint64_t workspace_limit_bytes) {
  LibraryHandle<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy> pref;
  GPUSCALE_CUBLASLT_OK(cublasLtMatmulPreferenceCreate(&pref.value));
  GPUSCALE_CUBLASLT_OK(cublasLtMatmulPreferenceSetAttribute(pref.value, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                               &workspace_limit_bytes, sizeof workspace_limit_bytes));
  // Callers may pass views (gradient buckets) aligned to 16 bytes rather than cudaMalloc's 256.
  const std::uint32_t alignment = 16;
  for (auto which : {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                     CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES})
    GPUSCALE_CUBLASLT_OK(cublasLtMatmulPreferenceSetAttribute(pref.value, which, &alignment, sizeof alignment));
  std::vector<cublasLtMatmulHeuristicResult_t> results(
      static_cast<std::size_t>(std::max(1, env_.tuning.matmul_candidates)));
  int returned = 0;
  GPUSCALE_CUBLASLT_OK(cublasLtMatmulAlgoGetHeuristic(handle_.value, d.op.value, d.a.value, d.b.value, d.c.value,
                                                         d.c.value, pref.value, static_cast<int>(results.size()),
                                                         results.data(), &returned));
  results.resize(static_cast<std::size_t>(returned));
  std::erase_if(results, [](const auto& r) { return r.state != CUBLAS_STATUS_SUCCESS; });
  return results;
}

// `algo` with one configuration attribute set to `value`, where cuBLASLt accepts that under the workspace
// limit and the variant is not a candidate yet.
template <class Value>
void CublasLtFactory::add_variant(const GemmDescriptors& d, const cublasLtMatmulAlgo_t& algo,
                                  cublasLtMatmulAlgoConfigAttributes_t attribute, Value value,
                                  std::vector<Tuned>& out) {
  cublasLtMatmulAlgo_t variant = algo;
  cublasLtMatmulHeuristicResult_t checked{};
  if (cublasLtMatmulAlgoConfigSetAttribute(&variant, attribute, &value, sizeof value) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatmulAlgoCheck(handle_.value, d.op.value, d.a.value, d.b.value, d.c.value, d.c.value, &variant,
                              &checked) != CUBLAS_STATUS_SUCCESS ||
      checked.workspaceSize > env_.tuning.workspace_limit_bytes)
    return;
  std::string name = algorithm_name(variant);
  if (std::none_of(out.begin(), out.end(), [&](const Tuned& t) { return t.name == name; }))
    out.push_back({MatmulPath::lt, variant, checked.workspaceSize, std::move(name)});
}

// `algo` with each other shape of kClusterShapes, where `algo` launches clusters at all (its shape is
// not automatic).
void CublasLtFactory::add_cluster_variants(const GemmDescriptors& d, const cublasLtMatmulAlgo_t& algo,
                                           std::vector<Tuned>& out) {
  const std::uint16_t own = cluster_shape(algo);
  if (own == CUBLASLT_CLUSTER_SHAPE_AUTO) return;
  for (const std::uint16_t shape : kClusterShapes)
    if (shape != own) add_variant(d, algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, shape, out);
}

// `algo` with its CTA swizzling flipped (its CTAs' order over the output, hence L2 reuse and DRAM traffic).
void CublasLtFactory::add_swizzle_twin(const GemmDescriptors& d, const cublasLtMatmulAlgo_t& algo,
                                       std::vector<Tuned>& out) {
  std::uint32_t swizzle = 0;
  std::size_t written = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &swizzle, sizeof swizzle,
                                           &written) != CUBLAS_STATUS_SUCCESS)
    return;
  add_variant(d, algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, static_cast<std::uint32_t>(swizzle == 0 ? 1 : 0), out);
}

std::vector<Tuned> CublasLtFactory::candidates(const Gemm& g, const GemmDescriptors& d, bool settled) {
  std::vector<Tuned> out;
  const std::size_t limit = env_.tuning.workspace_limit_bytes;
  if (env_.tuning.matmul_path != MatmulPath::gemmex) {
    const auto found = heuristic(d, limit);
    for (const auto& r : found) out.push_back({MatmulPath::lt, r.algo, r.workspaceSize, algorithm_name(r.algo)});
    for (std::size_t i = 0; i < found.size() && i < kClusterVariantsOf && g.sm_count_target == 0; ++i) {
      add_cluster_variants(d, found[i].algo, out);
      if (settled) add_swizzle_twin(d, found[i].algo, out);
    }
  }
  if (env_.tuning.matmul_path != MatmulPath::lt && CublasGemmEx::supports(g))
    out.push_back({MatmulPath::gemmex, {}, std::min(limit, kCublasWorkspaceBytes), "cublasGemmEx default"});
  // With an SM count target the heuristic's first choice is kept untimed: timing on an idle GPU would
  // favour the kernel that fills every SM, the very thing the target is there to avoid.
  if (g.sm_count_target > 0 && out.size() > 1) out.resize(1);
  return out;
}

const Tuned& CublasLtFactory::tuned(const Gemm& g, const GemmDescriptors& d, const LayerSpec& spec, Pass pass) {
  const bool settled = tunes_settled(env_, spec);
  const std::string key = g.key() + (settled ? " settled" : "");
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  const auto all = candidates(g, d, settled);
  const std::string path(to_string(env_.tuning.matmul_path));
  if (all.empty())
    throw harness::LibraryError(
        "cuBLAS", "no algorithm",
        harness::error_location() + " no cuBLAS candidate (matmul path " + path + ") for " + key);
  const ScratchTensors t = make_scratch(env_.backend, env_.stream, spec);
  const void* a = pass == Pass::backward_weight ? t.x->data() : t.w->data();
  const void* b = pass == Pass::forward ? t.x->data() : t.dy->data();
  void* out = pass == Pass::forward ? t.y->data() : pass == Pass::backward_data ? t.dx->data() : t.dw->data();
  const auto seconds = best_round_s(
      env_.backend, env_.stream, env_.wait_s, all.size(), kTuningRounds, kTuningReps,
      [&](std::size_t i) { matmul(g, d, all[i], a, b, out, 0.0f, env_.stream); }, tuning_hold(env_));
  const auto finalists = settled_finalists(seconds);  // fastest first; empty when none ran
  if (finalists.empty())
    throw harness::LibraryError(
        "cuBLAS", "no algorithm",
        harness::error_location() + " no cuBLAS candidate ran (matmul path " + path + ") for " + key);
  std::size_t winner = finalists.front();
  if (settled && finalists.size() > 1)
    winner = settled_fastest(env_.backend, env_.stream, env_.wait_s, finalists, seconds, env_.tuning.settled_window_s,
                             [&](std::size_t i) { matmul(g, d, all[i], a, b, out, 0.0f, env_.stream); });
  env_.stream.synchronize(harness::Deadline::after(env_.wait_s), "cuBLAS tuning");
  return cache_.emplace(key, all[winner]).first->second;
}

CublasLtLinear::CublasLtLinear(CublasLtFactory& factory, LayerSpec spec) : factory_(factory), spec_(std::move(spec)) {
  for (Pass pass : kAllPasses) {
    if (!contains(spec_.passes, pass)) continue;
    auto& plan = plans_[static_cast<int>(pass)];
    plan.gemm = gemm_for(spec_, pass);
    plan.descriptors = std::make_unique<GemmDescriptors>(plan.gemm);
    plan.tuned = factory_.tuned(plan.gemm, *plan.descriptors, spec_, pass);
    factory_.env().workspace.ensure(plan.tuned.workspace_bytes);
  }
}

void CublasLtLinear::run(Pass pass, const void* a, const void* b, void* d, float beta, harness::Stream& stream) {
  if (!contains(spec_.passes, pass))
    throw harness::RuntimeError(harness::error_location() + " Linear " + std::string(to_string(pass)) +
                                " called on a layer made without it (LayerSpec::passes)");
  const auto& plan = plans_[static_cast<int>(pass)];
  factory_.matmul(plan.gemm, *plan.descriptors, plan.tuned, a, b, d, beta, stream);
}

}  // namespace

std::unique_ptr<LayerFactory> make_cublaslt_factory(DeviceEnv& env) { return std::make_unique<CublasLtFactory>(env); }

}  // namespace gpuscale::workloads
