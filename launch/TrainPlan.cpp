#include "launch/TrainPlan.hpp"

#include <limits>

#include "results/Format.hpp"
#include "harness/Error.hpp"
#include "launch/OptionValue.hpp"

namespace gpuscale::launch {
namespace {

using harness::UsageError;

// Upper bounds past any sensible run, so that a typo or an overflow is refused before any work.
constexpr int kMaxSteps = 1'000'000;
constexpr double kMaxWarmupMs = 3'600'000;  // an hour
constexpr double kMaxBucketMb = 1 << 20;    // a TiB
constexpr double kMaxLearningRate = 1e3;
constexpr double kMaxStragglerFraction = 100;

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
  d.bucket_mb = option_within(r, "bucket-mb", 25.0, 0.0, kMaxBucketMb);
  d.first_bucket_mb = option_within(r, "first-bucket-mb", 1.0, 0.0, kMaxBucketMb);
  if (!(d.bucket_mb > 0) || !(d.first_bucket_mb > 0))
    throw UsageError("--bucket-mb and --first-bucket-mb must be positive");
  d.overlap = !r.count("no-overlap");
  d.overlap_optimizer = !r.count("no-optimizer-overlap");
  d.accum = option_within(r, "accum", 1, 1, 1024);
  d.h2d = r.count("h2d") > 0;
  d.lr = static_cast<float>(option_within(r, "lr", 0.01, 0.0, kMaxLearningRate));
  d.sm_margin = option_within(r, "comm-sm-margin", 0, 0, 1024);
  const std::string grad = option<std::string>(r, "grad-dtype", "fp32");
  if (grad == "bf16") d.grad_type = harness::DataType::bfloat16;
  else if (grad == "fp16") d.grad_type = harness::DataType::float16;
  else if (grad != "fp32") throw UsageError("--grad-dtype must be fp32, bf16 or fp16");
  const std::string buffers = option<std::string>(r, "comm-buffers", "plain");
  if (buffers != "plain" && buffers != "window") throw UsageError("--comm-buffers must be plain or window");
  d.comm_window = buffers == "window";
}

// "1,2,4": rank counts, each a whole number of at least 1.
std::vector<int> parse_rank_counts(const std::string& text) {
  std::vector<int> out;
  for (const auto& k : split(text)) {
    if (k.empty()) continue;
    std::size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(k, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != k.size() || value < 1)
      throw UsageError("--gpus: '" + k + "' is not a rank count (a whole number of at least 1)");
    out.push_back(value);
  }
  return out;
}

// Every model at the asked depth, width and batch: a tensor past 2^31 elements is refused here, before
// any work, rather than when the phase builds the layer.
void validate(const TrainPlan& plan) {
  for (const auto& name : plan.models) {
    const auto model = workloads::make_model(name, {plan.depth, plan.width, workloads::Layout::nchw});
    // The per-GPU batch and the correctness checks' batch.
    for (const std::int64_t batch : {plan.batch.value_or(model.default_batch), plan.check_batch})
      try {
        for (const auto& shape : workloads::shapes_at(model, batch)) workloads::validate(shape);
      } catch (const UsageError& e) {
        throw UsageError("model " + name + " at batch " + std::to_string(batch) + ": " + e.what());
      }
  }
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
      ("straggler-threshold", "flag a rank slower than the median rank by this fraction (default " +
                                  results::shortest(results::kDefaultStragglerThreshold) + ")",
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
  plan.depth = option_within(r, "depth", 1, workloads::kMaxDepth);
  plan.width = option_within(r, "width", 1, workloads::kMaxWidth);
  const auto batch = option_within(r, "batch", 1, std::numeric_limits<int>::max());
  if (batch) plan.batch = *batch;
  if (cpu) {
    if (!plan.depth) plan.depth = 3;
    if (!plan.width) plan.width = 16;
    if (!plan.batch) plan.batch = 4;
  }
  parse_scaling(plan, option<std::string>(r, "scaling", "weak"));
  plan.ddp_sizes = parse_rank_counts(option<std::string>(r, "gpus", ""));
  plan.dp_devices = option_within(r, "dp-devices", 1, std::numeric_limits<int>::max());
  parse_ddp_options(plan, r);
  // The whole-job run keeps cudnnFind alone: with the graph plans timed in every fresh context (each DP
  // replica tunes its own) the default run cannot keep its time budget.
  plan.tuning.conv_search =
      workloads::parse_algo_search(option<std::string>(r, "cudnn-algo", whole_job ? "find" : "exhaustive"));
  // Normal by default, as torch's NCCL streams: a high priority does not make DDP's allreduces faster.
  plan.comm_priorities = parse_priorities(option<std::string>(r, "comm-priority", "normal"));
  plan.ddp_options.comm_priority = plan.comm_priorities.front();  // the first: every run; the rest: one each
  parse_comm_ctas(plan, option<std::string>(r, "comm-ctas", quick || whole_job ? "0" : "auto"));
  plan.timing.iterations = option_within(r, "iters", cpu ? 3 : quick ? 5 : 20, 1, kMaxSteps);
  plan.timing.warmup = option_within(r, "warmup", cpu ? 1 : quick ? 2 : 5, 0, kMaxSteps);
  plan.timing.warmup_s = option_within(r, "warmup-ms", 0.0, 0.0, kMaxWarmupMs) * 1e-3;
  plan.check = !r.count("no-check");
  plan.check_batch = option_within(r, "check-batch", 2, 1, 1 << 16);
  plan.straggler_threshold = option_within(r, "straggler-threshold", results::kDefaultStragglerThreshold, 0.0, kMaxStragglerFraction);
  if (!(plan.straggler_threshold > 0)) throw UsageError("--straggler-threshold must be a positive fraction");
  validate(plan);
  return plan;
}

}  // namespace gpuscale::launch
