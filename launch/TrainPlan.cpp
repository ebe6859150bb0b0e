#include "launch/TrainPlan.hpp"

#include <cmath>

#include "harness/Error.hpp"
#include "launch/OptionValue.hpp"

namespace gpuscale::launch {
namespace {

using harness::UsageError;

void parse_comm_ctas(TrainPlan& plan, const std::string& text) {
  plan.comm_ctas_auto = text == "auto";
  if (plan.comm_ctas_auto) return;
  std::size_t used = 0;
  try {
    plan.comm_ctas = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  // NCCL's limit on channels (MAXCHANNELS): more CTAs than that are refused at communicator creation.
  if (text.empty() || used != text.size() || plan.comm_ctas < 0 || plan.comm_ctas > kTunedCommCtas)
    throw UsageError("--comm-ctas must be auto or 0.." + std::to_string(kTunedCommCtas));
}

std::vector<std::string> split(const std::string& text) { return split_list(text, ','); }

void parse_strategies(TrainPlan& plan, const std::string& text) {
  plan.single = plan.dp = plan.ddp = false;
  for (const auto& s : split(text)) {
    if (s == "single") plan.single = true;
    else if (s == "dp") plan.dp = true;
    else if (s == "ddp") plan.ddp = true;
    else throw UsageError("--strategy: unknown strategy '" + s + "' (use single, dp, ddp)");
  }
}

void parse_scaling(TrainPlan& plan, const std::string& text) {
  if (text != "weak" && text != "strong" && text != "both")
    throw UsageError("--scaling must be weak, strong or both");
  plan.weak = text != "strong";
  plan.strong = text != "weak";
}

std::vector<harness::StreamPriority> parse_priorities(const std::string& text) {
  if (text == "normal") return {harness::StreamPriority::normal};
  if (text == "high") return {harness::StreamPriority::high};
  if (text == "both") return {harness::StreamPriority::normal, harness::StreamPriority::high};
  throw UsageError("--comm-priority must be normal, high or both");
}

void parse_ddp_options(TrainPlan& plan, const cxxopts::ParseResult& r) {
  auto& d = plan.ddp_options;
  d.bucket_mb = option<double>(r, "bucket-mb", 25);
  d.first_bucket_mb = option<double>(r, "first-bucket-mb", 1);
  d.overlap = !r.count("no-overlap");
  d.overlap_optimizer = !r.count("no-optimizer-overlap");
  d.accum = option<int>(r, "accum", 1);
  d.h2d = r.count("h2d") > 0;
  d.lr = static_cast<float>(option<double>(r, "lr", 0.01));
  d.sm_margin = option<int>(r, "comm-sm-margin", 0);
  if (d.sm_margin < 0 || d.sm_margin > 1024) throw UsageError("--comm-sm-margin must be in 0..1024");
  const std::string grad = option<std::string>(r, "grad-dtype", "fp32");
  if (grad == "bf16") d.grad_type = harness::DataType::bfloat16;
  else if (grad == "fp16") d.grad_type = harness::DataType::float16;
  else if (grad != "fp32") throw UsageError("--grad-dtype must be fp32, bf16 or fp16");
  const std::string buffers = option<std::string>(r, "comm-buffers", "plain");
  if (buffers != "plain" && buffers != "window") throw UsageError("--comm-buffers must be plain or window");
  d.comm_window = buffers == "window";
  if (!(d.bucket_mb > 0) || !(d.first_bucket_mb > 0) || !std::isfinite(d.bucket_mb))
    throw UsageError("--bucket-mb and --first-bucket-mb must be positive");
  if (d.accum < 1 || d.accum > 1024) throw UsageError("--accum must be in 1..1024");
}

void validate(const TrainPlan& plan) {
  if (plan.timing.iterations < 1 || plan.timing.warmup < 0)
    throw UsageError("--iters must be at least 1 and --warmup not negative");
  if (!(plan.timing.warmup_s >= 0) || plan.timing.warmup_s > 3600)
    throw UsageError("--warmup-ms must be in 0..3600000");
  if (plan.batch < 0 || plan.check_batch < 1) throw UsageError("--batch and --check-batch must be positive");
  if (plan.dp_devices < 0) throw UsageError("--dp-devices must not be negative");
  for (int k : plan.ddp_sizes)
    if (k < 1) throw UsageError("--gpus: every rank count must be at least 1");
  if (!(plan.straggler_threshold > 0)) throw UsageError("--straggler-threshold must be a positive fraction");
}

}  // namespace

void add_train_options(cxxopts::Options& o) {
  o.add_options("train")
      ("model", "mlp, cnn, resnet50, transformer, all, or a list (default mlp,cnn)", cxxopts::value<std::string>(), "LIST")
      ("precision", "fp32, tf32, fp16, bf16 or a list (default fp32,bf16)", cxxopts::value<std::string>(), "LIST")
      ("strategy", "single, dp, ddp or a list (default all three)", cxxopts::value<std::string>(), "LIST")
      ("depth", "layers (blocks for transformer) instead of the preset's", cxxopts::value<int>(), "N")
      ("width", "features (mlp), channels (cnn), d_model (transformer)", cxxopts::value<int>(), "N")
      ("batch", "samples per GPU (default: the preset's)", cxxopts::value<int>(), "N")
      ("scaling", "weak (fixed per-GPU batch), strong (fixed global batch) or both", cxxopts::value<std::string>(), "S")
      ("gpus", "DDP rank counts, e.g. 1,2,4,8 (default powers of two up to the world size)", cxxopts::value<std::string>(), "LIST")
      ("dp-devices", "GPUs that DP drives from rank 0 (default every visible GPU)", cxxopts::value<int>(), "N")
      ("bucket-mb", "DDP bucket cap in MiB (default 25)", cxxopts::value<double>(), "MB")
      ("first-bucket-mb", "DDP first bucket cap in MiB (default 1)", cxxopts::value<double>(), "MB")
      ("no-overlap", "allreduce every bucket after the whole backward, then SGD")
      ("no-optimizer-overlap", "one SGD after every allreduce (default: SGD per bucket as its allreduce ends)")
      ("accum", "micro-steps per optimizer step (no allreduce for the first K-1)", cxxopts::value<int>(), "K")
      ("grad-dtype", "allreduce dtype: fp32 (default), bf16, fp16", cxxopts::value<std::string>(), "T")
      ("h2d", "copy each batch from pinned host memory (a data loader with pin_memory)")
      ("comm-priority", "comm stream priority: normal (default), high, both", cxxopts::value<std::string>(), "P")
      ("comm-buffers", "DDP buckets in plain device memory (default) or window: NCCL-allocated, registered as a "
       "symmetric window (NCCL's symmetric kernels over NVLink)", cxxopts::value<std::string>(), "B")
      ("comm-ctas", "thread blocks NCCL gives each DDP allreduce at least (ncclConfig_t.minCTAs; 0: NCCL's choice; "
       "auto, the default of `gpuscale train`: time steps with 0 and with 64, keep the faster)",
       cxxopts::value<std::string>(), "N")
      ("comm-sm-margin", "SMs the DDP backward GEMMs leave to the allreduces beside them (cuBLASLt's SM count "
       "target = the GPU's SMs - N; default 0: all)", cxxopts::value<int>(), "N")
      ("lr", "SGD learning rate (default 0.01)", cxxopts::value<double>(), "LR")
      ("cudnn-algo", "exhaustive (default: cudnnFind and graph API plans timed, like cudnn.benchmark; find in the "
       "whole-job run), find, graph or heuristic", cxxopts::value<std::string>(), "MODE")
      ("iters", "timed steps (default 20; 5 with --quick; 3 on cpu)", cxxopts::value<int>(), "N")
      ("warmup", "untimed steps first (default 5; 2 with --quick; 1 on cpu)", cxxopts::value<int>(), "N")
      ("warmup-ms", "then steps until this long has run, so the GPUs settle under their power limit as in a long "
       "job (default 0)", cxxopts::value<double>(), "MS")
      ("no-check", "skip the gradient correctness checks")
      ("check-batch", "samples per rank in the correctness checks (default 2)", cxxopts::value<int>(), "N")
      ("straggler-threshold", "flag a rank slower than the median rank by this fraction (default 0.10)",
       cxxopts::value<double>(), "F");
}

std::vector<int> default_ddp_sizes(int world_size) {
  std::vector<int> out;
  for (int k = 1; k < world_size; k *= 2) out.push_back(k);
  out.push_back(world_size);
  return out;
}

TrainPlan parse_train_plan(const cxxopts::ParseResult& r, bool quick, bool cpu, bool whole_job) {
  TrainPlan plan;
  plan.models = workloads::parse_model_list(option<std::string>(r, "model", quick ? "mlp" : "mlp,cnn"));
  plan.precisions = workloads::parse_precision_list(option<std::string>(r, "precision", quick ? "bf16" : "fp32,bf16"));
  parse_strategies(plan, option<std::string>(r, "strategy", "single,dp,ddp"));
  plan.depth = option<int>(r, "depth", cpu ? 3 : 0);
  plan.width = option<int>(r, "width", cpu ? 16 : 0);
  plan.batch = option<int>(r, "batch", cpu ? 4 : 0);
  parse_scaling(plan, option<std::string>(r, "scaling", "weak"));
  for (const auto& k : split(option<std::string>(r, "gpus", ""))) {
    if (k.empty()) continue;
    try {
      plan.ddp_sizes.push_back(std::stoi(k));
    } catch (const std::exception&) {
      throw UsageError("--gpus: '" + k + "' is not a rank count");
    }
  }
  plan.dp_devices = option<int>(r, "dp-devices", 0);
  parse_ddp_options(plan, r);
  // The whole-job run keeps cudnnFind alone: with the graph plans timed in every fresh context (each DP
  // replica tunes its own) the default run took 91 s of its 60 on 2 H200s (PERFORMANCE.md).
  plan.tuning.conv_search =
      workloads::parse_algo_search(option<std::string>(r, "cudnn-algo", whole_job ? "find" : "exhaustive"));
  // Normal by default, as torch's NCCL streams: high measured the same on 2 H200s (PERFORMANCE.md).
  plan.comm_priorities = parse_priorities(option<std::string>(r, "comm-priority", "normal"));
  plan.ddp_options.comm_priority = plan.comm_priorities.front();  // the first: every run; the rest: one each
  parse_comm_ctas(plan, option<std::string>(r, "comm-ctas", quick || whole_job ? "0" : "auto"));
  plan.timing.iterations = option<int>(r, "iters", cpu ? 3 : quick ? 5 : 20);
  plan.timing.warmup = option<int>(r, "warmup", cpu ? 1 : quick ? 2 : 5);
  plan.timing.warmup_s = option<double>(r, "warmup-ms", 0) * 1e-3;
  plan.check = !r.count("no-check");
  plan.check_batch = option<int>(r, "check-batch", 2);
  plan.straggler_threshold = option<double>(r, "straggler-threshold", 0.10);
  validate(plan);
  return plan;
}

}  // namespace gpuscale::launch
