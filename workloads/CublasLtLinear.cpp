// Linear through cuBLASLt. Each pass is one column-major GEMM D = op(A) op(B) (+ D): the row-major
// tensors of the layer are read as their column-major transposes.
//   forward          Y^T  [N,M] = W   X^T    A = W (op T), B = X             m = N, n = M, k = K
//   backward data    dX^T [K,M] = W^T dY^T   A = W,        B = dY            m = K, n = M, k = N
//   backward weight  dW^T [K,N] = X^T dY     A = X,        B = dY (op T)     m = K, n = N, k = M
// The algorithm of each GEMM is chosen by timing the heuristic's top candidates on scratch tensors,
// once per problem; the winner is cached for every later layer of the same problem.
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "harness/Check.hpp"
#include "workloads/LayerFactory.hpp"
#include "workloads/LibraryHandle.hpp"

namespace gpuscale::workloads {
namespace {

cudaDataType_t cuda_type(harness::DataType t) {
  switch (t) {
    case harness::DataType::float16:
      return CUDA_R_16F;
    case harness::DataType::bfloat16:
      return CUDA_R_16BF;
    default:
      return CUDA_R_32F;
  }
}

struct Gemm {
  bool trans_a = false, trans_b = false;
  std::int64_t m = 0, n = 0, k = 0;
  harness::DataType ab_type{}, d_type{};
  Precision precision{};
  std::string key() const {
    return std::to_string(trans_a) + std::to_string(trans_b) + " " + std::to_string(m) + "," + std::to_string(n) + "," +
           std::to_string(k) + " " + std::string(to_string(precision)) + " " + std::string(harness::to_string(d_type));
  }
};

Gemm gemm_for(const LayerSpec& spec, Pass pass) {
  const auto& s = std::get<LinearShape>(spec.shape);
  Gemm g;
  g.ab_type = input_type(spec);
  g.precision = spec.precision;
  switch (pass) {
    case Pass::forward:
      g = {true, false, s.n, s.m, s.k, g.ab_type, output_type(spec), g.precision};
      break;
    case Pass::backward_data:
      g = {false, false, s.k, s.m, s.n, g.ab_type, output_type(spec), g.precision};
      break;
    case Pass::backward_weight:
      g = {false, true, s.k, s.n, s.m, g.ab_type, weight_grad_type(spec), g.precision};
      break;
  }
  return g;
}

// The descriptors of one GEMM: operation, and the layouts of A, B and C (= D).
struct GemmDescriptors {
  LibraryHandle<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy> op;
  LibraryHandle<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy> a, b, c;

  explicit GemmDescriptors(const Gemm& g) {
    const cublasComputeType_t compute =
        g.precision == Precision::tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    GPUSCALE_CHECK_CUBLASLT(cublasLtMatmulDescCreate(&op.value, compute, CUDA_R_32F));
    const cublasOperation_t ta = g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, tb = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
    GPUSCALE_CHECK_CUBLASLT(cublasLtMatmulDescSetAttribute(op.value, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    GPUSCALE_CHECK_CUBLASLT(cublasLtMatmulDescSetAttribute(op.value, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    // Stored (pre-op) shapes; leading dimension = rows, as the tensors are dense.
    const auto a_rows = g.trans_a ? g.k : g.m, a_cols = g.trans_a ? g.m : g.k;
    const auto b_rows = g.trans_b ? g.n : g.k, b_cols = g.trans_b ? g.k : g.n;
    GPUSCALE_CHECK_CUBLASLT(cublasLtMatrixLayoutCreate(&a.value, cuda_type(g.ab_type), a_rows, a_cols, a_rows));
    GPUSCALE_CHECK_CUBLASLT(cublasLtMatrixLayoutCreate(&b.value, cuda_type(g.ab_type), b_rows, b_cols, b_rows));
    GPUSCALE_CHECK_CUBLASLT(cublasLtMatrixLayoutCreate(&c.value, cuda_type(g.d_type), g.m, g.n, g.m));
  }
};

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
    return std::to_string(value);
  };
  return "cublasLt algo " + attribute(CUBLASLT_ALGO_CONFIG_ID) + " tile " + attribute(CUBLASLT_ALGO_CONFIG_TILE_ID) +
         " stages " + attribute(CUBLASLT_ALGO_CONFIG_STAGES_ID) + " splitK " +
         attribute(CUBLASLT_ALGO_CONFIG_SPLITK_NUM);
}

constexpr int kTuningRounds = 3;  // per candidate, round-robin
constexpr int kTuningReps = 3;    // timed calls per round

struct Tuned {
  cublasLtMatmulAlgo_t algo{};
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
    return {p.tuned.name, p.tuned.workspace_bytes};
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
  explicit CublasLtFactory(DeviceEnv& env) : env_(env) { GPUSCALE_CHECK_CUBLASLT(cublasLtCreate(&handle_.value)); }
  std::unique_ptr<Layer> create(const LayerSpec& spec) override {
    return std::make_unique<CublasLtLinear>(*this, spec);
  }
  DeviceEnv& env() { return env_; }
  cublasLtHandle_t handle() { return handle_.value; }

  // The cached winner for this GEMM, tuning it first on the spec's scratch tensors if needed.
  const Tuned& tuned(const Gemm& g, const GemmDescriptors& d, const LayerSpec& spec, Pass pass);

  void matmul(const GemmDescriptors& d, const cublasLtMatmulAlgo_t& algo, std::size_t workspace_bytes, const void* a,
              const void* b, void* out, float beta, harness::Stream& stream) {
    const float alpha = 1.0f;
    void* workspace = env_.workspace.ensure(workspace_bytes);
    GPUSCALE_CHECK_CUBLASLT(cublasLtMatmul(handle_.value, d.op.value, &alpha, a, d.a.value, b, d.b.value, &beta, out,
                                         d.c.value, out, d.c.value, &algo, workspace, workspace_bytes,
                                         static_cast<cudaStream_t>(stream.native())));
  }

 private:
  std::vector<cublasLtMatmulHeuristicResult_t> candidates(const GemmDescriptors& d);

  DeviceEnv& env_;
  LibraryHandle<cublasLtHandle_t, cublasLtDestroy> handle_;
  std::map<std::string, Tuned> cache_;
};

std::vector<cublasLtMatmulHeuristicResult_t> CublasLtFactory::candidates(const GemmDescriptors& d) {
  LibraryHandle<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy> pref;
  GPUSCALE_CHECK_CUBLASLT(cublasLtMatmulPreferenceCreate(&pref.value));
  const std::uint64_t limit = env_.tuning.workspace_limit_bytes;
  GPUSCALE_CHECK_CUBLASLT(
      cublasLtMatmulPreferenceSetAttribute(pref.value, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &limit, sizeof limit));
  // Callers may pass views (gradient buckets) aligned to 16 bytes rather than cudaMalloc's 256.
  const std::uint32_t alignment = 16;
  for (auto which : {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                     CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES})
    GPUSCALE_CHECK_CUBLASLT(cublasLtMatmulPreferenceSetAttribute(pref.value, which, &alignment, sizeof alignment));
  std::vector<cublasLtMatmulHeuristicResult_t> results(
      static_cast<std::size_t>(std::max(1, env_.tuning.matmul_candidates)));
  int returned = 0;
  GPUSCALE_CHECK_CUBLASLT(cublasLtMatmulAlgoGetHeuristic(handle_.value, d.op.value, d.a.value, d.b.value, d.c.value,
                                                       d.c.value, pref.value, static_cast<int>(results.size()),
                                                       results.data(), &returned));
  results.resize(static_cast<std::size_t>(returned));
  std::erase_if(results, [](const auto& r) { return r.state != CUBLAS_STATUS_SUCCESS; });
  return results;
}

const Tuned& CublasLtFactory::tuned(const Gemm& g, const GemmDescriptors& d, const LayerSpec& spec, Pass pass) {
  const std::string key = g.key();
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  const auto results = candidates(d);
  if (results.empty())
    throw harness::LibraryError("cuBLASLt", "no algorithm",
                                harness::error_location() + " cuBLASLt has no algorithm for " + key);
  const ScratchTensors t = make_scratch(env_.backend, env_.stream, spec);
  const void* a = pass == Pass::forward ? t.w->data() : pass == Pass::backward_data ? t.w->data() : t.x->data();
  const void* b = pass == Pass::forward ? t.x->data() : t.dy->data();
  void* out = pass == Pass::forward ? t.y->data() : pass == Pass::backward_data ? t.dx->data() : t.dw->data();
  // Candidates are timed round-robin over several rounds and each keeps its best round, so a clock
  // ramp or one noisy moment cannot decide between kernels a few percent apart.
  std::vector<double> seconds(results.size(), std::numeric_limits<double>::infinity());
  for (int round = 0; round < kTuningRounds; ++round)
    for (std::size_t i = 0; i < results.size(); ++i) {
      const auto& r = results[i];
      seconds[i] = std::min(seconds[i], time_per_call_s(env_.backend, env_.stream, kTuningReps, [&] {
        matmul(d, r.algo, r.workspaceSize, a, b, out, 0.0f, env_.stream);
      }));
    }
  const auto fastest = std::min_element(seconds.begin(), seconds.end());
  const double best_s = *fastest;
  const auto& winner = results[static_cast<std::size_t>(fastest - seconds.begin())];
  const Tuned best{winner.algo, winner.workspaceSize, algorithm_name(winner.algo)};
  if (!(best_s < std::numeric_limits<double>::infinity()))
    throw harness::LibraryError("cuBLASLt", "no algorithm",
                                harness::error_location() + " no cuBLASLt candidate ran for " + key);
  env_.stream.synchronize(harness::Deadline::after(120), "cuBLASLt tuning");
  return cache_.emplace(key, best).first->second;
}

CublasLtLinear::CublasLtLinear(CublasLtFactory& factory, LayerSpec spec) : factory_(factory), spec_(std::move(spec)) {
  for (Pass pass : kAllPasses) {
    auto& plan = plans_[static_cast<int>(pass)];
    const Gemm g = gemm_for(spec_, pass);
    plan.descriptors = std::make_unique<GemmDescriptors>(g);
    plan.tuned = factory_.tuned(g, *plan.descriptors, spec_, pass);
    factory_.env().workspace.ensure(plan.tuned.workspace_bytes);
  }
}

void CublasLtLinear::run(Pass pass, const void* a, const void* b, void* d, float beta, harness::Stream& stream) {
  const auto& plan = plans_[static_cast<int>(pass)];
  factory_.matmul(*plan.descriptors, plan.tuned.algo, plan.tuned.workspace_bytes, a, b, d, beta, stream);
}

}  // namespace

std::unique_ptr<LayerFactory> make_cublaslt_factory(DeviceEnv& env) { return std::make_unique<CublasLtFactory>(env); }

}  // namespace gpuscale::workloads
