#include "phases/compute/run/ComputePhase.hpp"

#include <string>
#include <vector>

#include "launch/base/OptionValue.hpp"
#include "launch/base/Profile.hpp"
#include "phases/compute/ComputeRecord.hpp"
#include "phases/compute/run/ComputePlan.hpp"
#include "results/base/Format.hpp"
#include "workloads/compute/ComputeRun.hpp"

namespace gpuscale::launch {

void add_compute_options(cxxopts::Options& o) {
  const ComputePlan d;  // the defaults that no profile changes
  const auto by_profile = [](auto field) {
    return " (default " + profile_default_text([&](const Profile& p) { return field(p.compute); }) + ")";
  };
  const auto fixed = [](const std::string& value) { return " (default " + value + ")"; };
  const auto ms = [](double s) { return results::shortest(s * 1e3); };
  auto add = o.add_options("compute");
  add("mnk", "matmul shape(s) M,N,K (Y[M,N] = X[M,K] W[N,K]^T); several separated by ';'",
      cxxopts::value<std::string>(), "M,N,K");
  add("conv", "conv shape(s) N,C,H,W,K,R,S[,stride,pad,dilation]; several separated by ';'",
      cxxopts::value<std::string>(), "SHAPE");
  add("shapes",
      "shape sets: default, mlp, cnn, resnet50, transformer, all; without --mnk/--conv" +
          by_profile([](const ComputeProfile& c) { return c.shape_sets; }),
      cxxopts::value<std::string>(), "LIST");
  add("precision", "fp32,tf32,fp16,bf16 or all" + by_profile([](const ComputeProfile& c) { return c.precisions; }),
      cxxopts::value<std::string>(), "LIST");
  add("layout", std::string("conv layout: nchw, nhwc, auto (NHWC for fp16/bf16)") + fixed(kAutoLayout),
      cxxopts::value<std::string>(), "L");
  add("cudnn-algo",
      "heuristic, find (cudnnFind), graph (graph API plans) or exhaustive (both timed, like cudnn.benchmark)" +
          fixed(std::string(workloads::to_string(d.tuning.conv_search))),
      cxxopts::value<std::string>(), "MODE");
  add("cudnn-plans", "graph API plans timed per conv pass with graph or exhaustive" +
      fixed(std::to_string(d.tuning.conv_plans)), cxxopts::value<int>(), "N");
  add("cudnn-runtime-compiled", "those plans include engines that compile their kernel at run time (seconds each)");
  add("workspace-mb", "workspace cap for cuBLASLt and cuDNN algorithms, MiB" +
      fixed(std::to_string(d.tuning.workspace_limit_bytes >> 20)), cxxopts::value<double>(), "MB");
  add("matmul-candidates", "cuBLASLt heuristic candidates timed per shape" +
      fixed(std::to_string(d.tuning.matmul_candidates)), cxxopts::value<int>(), "N");
  add("matmul-path",
      "lt (cuBLASLt's candidates), fastest (those and cublasGemmEx timed together) or gemmex (that alone)" +
          fixed(std::string(workloads::to_string(d.tuning.matmul_path))),
      cxxopts::value<std::string>(), "P");
  add("passes", "the passes timed: all or any of fwd,bwd_data,bwd_weight (the reference check runs all)" +
      fixed(passes_text(d.bench.passes)), cxxopts::value<std::string>(), "LIST");
  add("iters", "timed calls per pass" + by_profile([](const ComputeProfile& c) { return std::to_string(c.iterations); }),
      cxxopts::value<int>(), "N");
  add("warmup", "untimed calls per pass first" +
      by_profile([](const ComputeProfile& c) { return std::to_string(c.warmup); }), cxxopts::value<int>(), "N");
  add("warmup-ms", "then run each pass alone this long before timing it, so the GPU settles under its power "
      "limit on that pass's load" + fixed(ms(d.bench.warmup_s)), cxxopts::value<double>(), "MS");
  add("min-time-ms",
      "time each pass for at least this long, with more calls than --iters where needed (at most " +
          std::to_string(workloads::kMaxTimedCalls) +
          "; not for launch-bound calls): a GPU at its power limit saws its clock over about a second" +
          fixed(ms(d.bench.min_time_s)),
      cxxopts::value<double>(), "MS");
  add("tune-window-ms",
      "cuBLASLt tuning also times the first two kernels' CTA-swizzle twins; cuBLASLt and cuDNN (graph, "
      "exhaustive) tuning rank their three fastest (within 5%) again once the GPU has settled, in windows "
      "this long; 0: short rounds alone" + fixed(ms(d.tuning.settled_window_s)),
      cxxopts::value<double>(), "MS");
  add("no-check", "skip the comparison with the cpu reference");
}

std::vector<results::ComputeRecord> run_compute_phase(PhaseContext& ctx) {
  workloads::ComputeRunSetup setup{
      .world = ctx.world,
      .backend = ctx.backend,
      .hooks = ctx.hooks,
  };
  return workloads::run_compute(ctx.plan<ComputePlan>(), setup, ctx.timeout_s);
}

}  // namespace gpuscale::launch
