// matmul_sustained: every cuBLASLt candidate for one square GEMM, timed where the H200's power limit
// sets the clock. Under the 700 W limit a long GEMM's speed is its energy per call (the controller
// lowers the clock until the power fits), so two kernels that tie at the top clock can differ here,
// and short tuning rounds cannot see it. Each candidate runs back to back for --settle-ms, then
// --calls calls are timed with an event pair each (median); candidates in order, then in reverse, so
// a drift in temperature cancels. Candidates: cuBLASLt's heuristic top --candidates, each also with
// its CTA swizzling flipped (L2 reuse, hence DRAM traffic and power) where cuBLASLt accepts it, and
// cublasGemmEx's default (PyTorch's path); with --space K also the K configurations of cuBLASLt's whole
// space (matmul_space.hpp: every algorithm id, tile, stages, cluster shape and swizzle it accepts) that
// ran fastest in a short screen (3 calls each, for --space-s seconds at most, in a shuffled order). Each
// candidate's wall-clock window (unix seconds) is printed so that an nvidia-smi log beside it gives its
// clock and power, and its output's largest difference from cublasGemmEx's, relative to the largest
// output, so that a configuration that computes something else shows.
// The GEMM is gpuscale's Linear forward Y = X W^T as workloads/Gemm.hpp issues it (column-major,
// op(A) = A^T, op(B) = B), inputs uniform in [-1, 1), drawn in float32 with every mantissa bit.
// Standalone on purpose: cuBLAS and CUDA are called directly, outside the project's layers.
//   build/bench/matmul_sustained --n 8192 --precision tf32 --candidates 24 --settle-ms 600 --calls 40 --space 8
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "matmul_space.hpp"

namespace {

[[noreturn]] void fail(const char* expr, const char* why) {
  std::fprintf(stderr, "matmul_sustained: %s failed: %s\n", expr, why);
  std::exit(3);
}
#define SUSTAINED_CUDA(expr)                                    \
  do {                                                          \
    const cudaError_t rc_ = (expr);                             \
    if (rc_ != cudaSuccess) fail(#expr, cudaGetErrorString(rc_)); \
  } while (0)
#define SUSTAINED_CUBLAS(expr)                                               \
  do {                                                                       \
    const cublasStatus_t rc_ = (expr);                                       \
    if (rc_ != CUBLAS_STATUS_SUCCESS) fail(#expr, cublasGetStatusString(rc_)); \
  } while (0)

struct Options {
  int n = 8192, candidates = 24, settle_ms = 600, calls = 40, space = 0, space_s = 40;
  std::string precision = "tf32";
};

Options parse(int argc, char** argv) {
  Options o;
  if (argc % 2 == 0) {
    std::fprintf(stderr, "matmul_sustained: %s needs a value\n", argv[argc - 1]);
    std::exit(2);
  }
  auto number = [](const std::string& key, const std::string& value, int least) {
    std::size_t used = 0;
    int v = least - 1;
    try {
      v = std::stoi(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size() || v < least) {
      std::fprintf(stderr, "matmul_sustained: %s must be an integer >= %d, not '%s'\n", key.c_str(), least,
                   value.c_str());
      std::exit(2);
    }
    return v;
  };
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--n") o.n = number(key, value, 1);
    else if (key == "--candidates") o.candidates = number(key, value, 1);
    else if (key == "--settle-ms") o.settle_ms = number(key, value, 0);
    else if (key == "--calls") o.calls = number(key, value, 1);
    else if (key == "--space") o.space = number(key, value, 0);
    else if (key == "--space-s") o.space_s = number(key, value, 1);
    else if (key == "--precision") o.precision = value;
    else {
      std::fprintf(stderr, "matmul_sustained: unknown option %s\n", key.c_str());
      std::exit(2);
    }
  }
  if (o.precision != "tf32" && o.precision != "fp32" && o.precision != "bf16") {
    std::fprintf(stderr, "matmul_sustained: --precision must be tf32, fp32 or bf16\n");
    std::exit(2);
  }
  return o;
}

double unix_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::int64_t config(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t which) {
  std::size_t size = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&algo, which, nullptr, 0, &size) != CUBLAS_STATUS_SUCCESS) return -99;
  std::int64_t value = 0;
  std::size_t written = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&algo, which, &value, size, &written) != CUBLAS_STATUS_SUCCESS) return -99;
  if (size == 4) value = static_cast<std::int32_t>(value);  // int32 attributes (id, splitK) may be negative
  if (size == 2) value = static_cast<std::uint16_t>(value);
  return value;
}

std::string describe(const cublasLtMatmulAlgo_t& algo) {
  char text[200];
  std::snprintf(text, sizeof text, "algo %lld tile %lld stages %lld splitK %lld red %lld swz %lld opt %lld clu %lld",
                static_cast<long long>(config(algo, CUBLASLT_ALGO_CONFIG_ID)),
                static_cast<long long>(config(algo, CUBLASLT_ALGO_CONFIG_TILE_ID)),
                static_cast<long long>(config(algo, CUBLASLT_ALGO_CONFIG_STAGES_ID)),
                static_cast<long long>(config(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM)),
                static_cast<long long>(config(algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME)),
                static_cast<long long>(config(algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING)),
                static_cast<long long>(config(algo, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION)),
                static_cast<long long>(config(algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID)));
  return text;
}

// "h3 algo ...": the heuristic's rank; "h3~" marks the swizzle-flipped twin; "s3": the screen's.
std::string label(int rank, const char* mark, const cublasLtMatmulAlgo_t& algo, const char* source = "h") {
  std::string out = source;
  out.append(std::to_string(rank)).append(mark).append(describe(algo));
  return out;
}

struct Candidate {
  bool gemmex = false;
  cublasLtMatmulAlgo_t algo{};
  std::size_t workspace = 0;
  std::string name;
  std::vector<double> median_ms;  // one per pass
  std::vector<double> begin_s, end_s;
};

// The --space screen: each accepted configuration once (a failed call drops it), then 3 calls between one
// event pair, in a shuffled order until --space-s has passed; the --space fastest, named "s<rank>".
template <class Run>
std::vector<Candidate> screen(const matmul_space::Problem& problem, const Options& o, Run run, cudaStream_t stream,
                              const std::vector<cudaEvent_t>& events) {
  int ids = 0;
  std::vector<matmul_space::Config> space = matmul_space::enumerate(problem, ids);
  std::shuffle(space.begin(), space.end(), std::mt19937(11));
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(o.space_s);
  std::vector<std::pair<double, std::size_t>> timed;  // (ms per call, index into space)
  for (std::size_t i = 0; i < space.size() && std::chrono::steady_clock::now() < until; ++i) {
    const auto& c = space[i];
    if (run(c.algo, c.workspace) != CUBLAS_STATUS_SUCCESS || cudaStreamSynchronize(stream) != cudaSuccess) continue;
    SUSTAINED_CUDA(cudaEventRecord(events[0], stream));
    for (int k = 0; k < 3; ++k) run(c.algo, c.workspace);
    SUSTAINED_CUDA(cudaEventRecord(events[1], stream));
    SUSTAINED_CUDA(cudaEventSynchronize(events[1]));
    float ms = 0;
    SUSTAINED_CUDA(cudaEventElapsedTime(&ms, events[0], events[1]));
    timed.emplace_back(ms / 3, i);
  }
  std::sort(timed.begin(), timed.end());
  std::printf("space: %d algorithm ids, %zu configurations accepted, %zu screened; fastest %.3f ms\n", ids,
              space.size(), timed.size(), timed.empty() ? 0.0 : timed.front().first);
  std::vector<Candidate> out;
  for (std::size_t r = 0; r < timed.size() && r < static_cast<std::size_t>(o.space); ++r) {
    const auto& c = space[timed[r].second];
    out.push_back({false, c.algo, c.workspace, label(static_cast<int>(r), " ", c.algo, "s"), {}, {}, {}});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const bool bf16 = o.precision == "bf16";
  const cudaDataType_t ab = bf16 ? CUDA_R_16BF : CUDA_R_32F, cd = ab;
  const cublasComputeType_t compute = o.precision == "tf32" ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  const std::size_t count = static_cast<std::size_t>(o.n) * static_cast<std::size_t>(o.n);
  const std::size_t element = bf16 ? 2 : 4, bytes = count * element;
  const std::size_t workspace_cap = std::size_t{1} << 30;

  // Inputs: uniform in [-1, 1), drawn in float32, rounded to the type.
  std::vector<float> host(count);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  void *a = nullptr, *b = nullptr, *d = nullptr, *workspace = nullptr;
  SUSTAINED_CUDA(cudaMalloc(&a, bytes));
  SUSTAINED_CUDA(cudaMalloc(&b, bytes));
  SUSTAINED_CUDA(cudaMalloc(&d, bytes));
  SUSTAINED_CUDA(cudaMalloc(&workspace, workspace_cap));
  for (void* target : {a, b}) {
    for (auto& v : host) v = uniform(rng);
    if (bf16) {
      std::vector<__nv_bfloat16> narrow(count);
      for (std::size_t i = 0; i < count; ++i) narrow[i] = __float2bfloat16(host[i]);
      SUSTAINED_CUDA(cudaMemcpy(target, narrow.data(), bytes, cudaMemcpyHostToDevice));
    } else {
      SUSTAINED_CUDA(cudaMemcpy(target, host.data(), bytes, cudaMemcpyHostToDevice));
    }
  }
  cudaStream_t stream;
  SUSTAINED_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasLtHandle_t lt;
  SUSTAINED_CUBLAS(cublasLtCreate(&lt));
  cublasHandle_t blas;
  SUSTAINED_CUBLAS(cublasCreate(&blas));

  // D [n,n] = op(A) B with op(A) = A^T: gpuscale's forward (m = N, n = M, k = K, all n here).
  cublasLtMatmulDesc_t op;
  SUSTAINED_CUBLAS(cublasLtMatmulDescCreate(&op, compute, CUDA_R_32F));
  const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  SUSTAINED_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
  SUSTAINED_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
  cublasLtMatrixLayout_t la, lb, lc;
  SUSTAINED_CUBLAS(cublasLtMatrixLayoutCreate(&la, ab, o.n, o.n, o.n));
  SUSTAINED_CUBLAS(cublasLtMatrixLayoutCreate(&lb, ab, o.n, o.n, o.n));
  SUSTAINED_CUBLAS(cublasLtMatrixLayoutCreate(&lc, cd, o.n, o.n, o.n));
  cublasLtMatmulPreference_t pref;
  SUSTAINED_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
  SUSTAINED_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_cap,
                                                        sizeof workspace_cap));
  std::vector<cublasLtMatmulHeuristicResult_t> found(static_cast<std::size_t>(o.candidates));
  int returned = 0;
  SUSTAINED_CUBLAS(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, o.candidates, found.data(), &returned));

  std::vector<Candidate> all;
  for (int i = 0; i < returned; ++i) {
    const auto& r = found[static_cast<std::size_t>(i)];
    if (r.state != CUBLAS_STATUS_SUCCESS) continue;
    all.push_back({false, r.algo, r.workspaceSize, label(i, " ", r.algo), {}, {}, {}});
    // The same kernel with its CTA swizzling flipped, where cuBLASLt accepts it.
    cublasLtMatmulAlgo_t flipped = r.algo;
    const std::uint32_t swizzle = config(r.algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING) == 0 ? 1 : 0;
    cublasLtMatmulHeuristicResult_t checked{};
    if (cublasLtMatmulAlgoConfigSetAttribute(&flipped, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &swizzle,
                                             sizeof swizzle) == CUBLAS_STATUS_SUCCESS &&
        cublasLtMatmulAlgoCheck(lt, op, la, lb, lc, lc, &flipped, &checked) == CUBLAS_STATUS_SUCCESS &&
        checked.workspaceSize <= workspace_cap)
      all.push_back({false, flipped, checked.workspaceSize, label(i, "~ ", flipped), {}, {}, {}});
  }
  const float alpha = 1.0f, beta = 0.0f;
  auto call = [&](const Candidate& c) {
    if (c.gemmex) {
      SUSTAINED_CUBLAS(cublasSetStream(blas, stream));
      SUSTAINED_CUBLAS(cublasSetWorkspace(blas, workspace, c.workspace));
      SUSTAINED_CUBLAS(cublasGemmEx(blas, ta, tb, o.n, o.n, o.n, &alpha, a, ab, o.n, b, ab, o.n, &beta, d, cd, o.n,
                                    compute, CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    } else {
      SUSTAINED_CUBLAS(cublasLtMatmul(lt, op, &alpha, a, la, b, lb, &beta, d, lc, d, lc, &c.algo, workspace,
                                      c.workspace, stream));
    }
  };
  std::vector<cudaEvent_t> events(static_cast<std::size_t>(std::max(o.calls, 3)) + 1);
  for (auto& e : events) SUSTAINED_CUDA(cudaEventCreate(&e));
  const double flops = 2.0 * o.n * static_cast<double>(o.n) * o.n;
  if (o.space > 0) {
    const matmul_space::Problem problem{lt, op, la, lb, lc, compute, ab, cd, workspace_cap};
    for (const auto& c : screen(problem, o, [&](const cublasLtMatmulAlgo_t& algo, std::size_t space_bytes) {
           return cublasLtMatmul(lt, op, &alpha, a, la, b, lb, &beta, d, lc, d, lc, &algo, workspace, space_bytes, stream);
         }, stream, events))
      all.push_back(c);
  }
  all.push_back({true, {}, std::size_t{32} << 20, "cublasGemmEx default", {}, {}, {}});

  auto measure = [&](Candidate& c) {
    c.begin_s.push_back(unix_seconds());
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(o.settle_ms);
    while (std::chrono::steady_clock::now() < until) {  // settle: back to back, 10 calls in flight at most
      for (int i = 0; i < 10; ++i) call(c);
      SUSTAINED_CUDA(cudaStreamSynchronize(stream));
    }
    for (int i = 0; i < 4; ++i) call(c);  // keep the queue fed while the timed calls are enqueued
    SUSTAINED_CUDA(cudaEventRecord(events[0], stream));
    for (int i = 0; i < o.calls; ++i) {
      call(c);
      SUSTAINED_CUDA(cudaEventRecord(events[static_cast<std::size_t>(i) + 1], stream));
    }
    SUSTAINED_CUDA(cudaStreamSynchronize(stream));
    c.end_s.push_back(unix_seconds());
    std::vector<double> ms(static_cast<std::size_t>(o.calls));
    for (std::size_t i = 0; i < ms.size(); ++i) {
      float elapsed = 0;
      SUSTAINED_CUDA(cudaEventElapsedTime(&elapsed, events[i], events[i + 1]));
      ms[i] = elapsed;
    }
    std::nth_element(ms.begin(), ms.begin() + static_cast<std::ptrdiff_t>(ms.size() / 2), ms.end());
    c.median_ms.push_back(ms[ms.size() / 2]);
  };
  std::printf("matmul_sustained n=%d %s: %zu candidates, settle %d ms, %d timed calls\n", o.n, o.precision.c_str(),
              all.size(), o.settle_ms, o.calls);
  for (auto& c : all) measure(c);
  for (auto it = all.rbegin(); it != all.rend(); ++it) measure(*it);

  // Each candidate's output against cublasGemmEx's (the last candidate): largest difference over largest |D|.
  auto output = [&](const Candidate& c) {
    call(c);
    SUSTAINED_CUDA(cudaStreamSynchronize(stream));
    std::vector<float> out(count);
    if (bf16) {
      std::vector<__nv_bfloat16> narrow(count);
      SUSTAINED_CUDA(cudaMemcpy(narrow.data(), d, bytes, cudaMemcpyDeviceToHost));
      for (std::size_t i = 0; i < count; ++i) out[i] = __bfloat162float(narrow[i]);
    } else {
      SUSTAINED_CUDA(cudaMemcpy(out.data(), d, bytes, cudaMemcpyDeviceToHost));
    }
    return out;
  };
  const std::vector<float> reference = output(all.back());
  float scale = 0;
  for (const float v : reference) scale = std::max(scale, std::fabs(v));
  std::vector<double> error;
  for (const auto& c : all) {
    const std::vector<float> mine = output(c);
    double worst = 0;
    for (std::size_t i = 0; i < count; ++i)
      worst = std::isnan(mine[i]) ? INFINITY : std::max(worst, static_cast<double>(std::fabs(mine[i] - reference[i])));
    error.push_back(worst / scale);
  }

  std::printf("%-8s %-8s %-8s %-17s %-17s %s\n", "TFLOP/s", "pass 1", "pass 2", "window 1 (unix s)",
              "window 2 (unix s)", "candidate");
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Candidate& c = all[i];
    const double mean = (c.median_ms[0] + c.median_ms[1]) / 2;
    std::printf("%-8.1f %-8.1f %-8.1f %.2f-%.2f %.2f-%.2f %s (%zu MiB) err %.1e\n", flops / (mean * 1e-3) / 1e12,
                flops / (c.median_ms[0] * 1e-3) / 1e12, flops / (c.median_ms[1] * 1e-3) / 1e12, c.begin_s[0],
                c.end_s[0], c.begin_s[1], c.end_s[1], c.name.c_str(), c.workspace >> 20, error[i]);
  }
  return 0;
}
