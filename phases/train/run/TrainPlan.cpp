#include "phases/train/run/TrainPlan.hpp"

#include <limits>
#include <sstream>

#include "harness/Error.hpp"
#include "launch/base/OptionValue.hpp"
#include "launch/base/Profile.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch {
namespace {

using harness::UsageError;

// Upper bounds past any sensible run, so that a typo or an overflow is refused before any work.
constexpr int kMaxSteps = 1'000'000;
constexpr double kMaxWarmupMs = 3'600'000;  // an hour
constexpr double kMaxBucketMb = 1 << 20;    // a TiB
constexpr double kMaxLearningRate = 1e3;
constexpr const char* kPlainBuffers = "plain";
constexpr const char* kWindowBuffers = "window";

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

const char* priority_text(harness::StreamPriority p) { return p == harness::StreamPriority::high ? "high" : "normal"; }

std::vector<harness::StreamPriority> parse_priorities(const std::string& text) {
  for (const auto p : {harness::StreamPriority::normal, harness::StreamPriority::high})
    if (text == priority_text(p)) return {p};
  if (text == "both") return {harness::StreamPriority::normal, harness::StreamPriority::high};
  throw UsageError("--comm-priority must be normal, high or both");
}

const char* grad_type_text(const std::optional<harness::DataType>& type) {
  if (!type) return "fp32";
  return *type == harness::DataType::bfloat16 ? "bf16" : "fp16";
}

void parse_ddp_options(TrainPlan& plan, const cxxopts::ParseResult& r) {
  auto& d = plan.ddp_options;
  d.bucket_mb = option_within(r, "bucket-mb", d.bucket_mb, 0.0, kMaxBucketMb);
  d.first_bucket_mb = option_within(r, "first-bucket-mb", d.first_bucket_mb, 0.0, kMaxBucketMb);
  if (!(d.bucket_mb > 0) || !(d.first_bucket_mb > 0))
    throw UsageError("--bucket-mb and --first-bucket-mb must be positive");
  d.overlap = !r.count("no-overlap");
  d.overlap_optimizer = !r.count("no-optimizer-overlap");
  d.accum = option_within(r, "accum", d.accum, 1, 1024);
  d.h2d = r.count("h2d") > 0;
  d.lr = static_cast<float>(option_within(r, "lr", static_cast<double>(d.lr), 0.0, kMaxLearningRate));
  d.sm_margin = option_within(r, "comm-sm-margin", d.sm_margin, 0, 1024);
  if (r.count("grad-dtype")) {
    const std::string grad = option<std::string>(r, "grad-dtype", "");
    if (grad == "bf16") d.grad_type = harness::DataType::bfloat16;
    else if (grad == "fp16") d.grad_type = harness::DataType::float16;
    else if (grad == "fp32") d.grad_type.reset();
    else throw UsageError("--grad-dtype must be fp32, bf16 or fp16");
  }
  if (r.count("comm-buffers")) {
    const std::string buffers = option<std::string>(r, "comm-buffers", "");
    if (buffers != kPlainBuffers && buffers != kWindowBuffers)
      throw UsageError("--comm-buffers must be plain or window");
    d.comm_window = buffers == kWindowBuffers;
  }
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
  const TrainPlan d;  // the defaults that no profile changes
  const auto& dd = d.ddp_options;
  const auto by_profile = [](auto field) {
    return " (default " + profile_default_text([&](const Profile& p) { return field(p.train); }) + ")";
  };
  const auto fixed = [](const std::string& value) { return " (default " + value + ")"; };
  const auto number = [](double value) { return results::shortest(value); };
  const auto preset_or = [](const std::optional<int>& v) { return v ? std::to_string(*v) : std::string("the preset's"); };
  std::string strategies;
  for (const auto& [on, name] : {std::pair{d.single, "single"}, {d.dp, "dp"}, {d.ddp, "ddp"}})
    if (on) strategies += (strategies.empty() ? "" : ",") + std::string(name);
  o.add_options("train")
      ("model", "mlp, cnn, resnet50, transformer, all, or a list" +
       by_profile([](const TrainProfile& t) { return t.models; }), cxxopts::value<std::string>(), "LIST")
      ("precision", "fp32, tf32, fp16, bf16 or a list" + by_profile([](const TrainProfile& t) { return t.precisions; }),
       cxxopts::value<std::string>(), "LIST")
      ("strategy", "single, dp, ddp or a list" + fixed(strategies), cxxopts::value<std::string>(), "LIST")
      ("depth", "layers (blocks for transformer)" + by_profile([&](const TrainProfile& t) { return preset_or(t.depth); }),
       cxxopts::value<int>(), "N")
      ("width", "features (mlp), channels (cnn), d_model (transformer)" +
       by_profile([&](const TrainProfile& t) { return preset_or(t.width); }), cxxopts::value<int>(), "N")
      ("batch", "samples per GPU" + by_profile([&](const TrainProfile& t) { return preset_or(t.batch); }),
       cxxopts::value<int>(), "N")
      ("scaling", "weak (fixed per-GPU batch), strong (fixed global batch) or both" +
       fixed(d.weak && d.strong ? "both" : d.strong ? "strong" : "weak"), cxxopts::value<std::string>(), "S")
      ("gpus", "DDP rank counts, e.g. 1,2,4,8 (default powers of two up to the world size)", cxxopts::value<std::string>(), "LIST")
      ("dp-devices", "GPUs that DP drives from rank 0 (default every visible GPU)", cxxopts::value<int>(), "N")
      ("bucket-mb", "DDP bucket cap in MiB" + fixed(number(dd.bucket_mb)), cxxopts::value<double>(), "MB")
      ("first-bucket-mb", "DDP first bucket cap in MiB" + fixed(number(dd.first_bucket_mb)), cxxopts::value<double>(), "MB")
      ("no-overlap", "allreduce every bucket after the whole backward, then SGD")
      ("no-optimizer-overlap", "one SGD after every allreduce (default: SGD per bucket as its allreduce ends)")
      ("accum", "micro-steps per optimizer step (no allreduce for the first K-1)" + fixed(std::to_string(dd.accum)),
       cxxopts::value<int>(), "K")
      ("grad-dtype", "allreduce dtype: fp32, bf16, fp16" + fixed(grad_type_text(dd.grad_type)),
       cxxopts::value<std::string>(), "T")
      ("h2d", "copy each batch from pinned host memory (a data loader with pin_memory)")
      ("comm-priority", "comm stream priority: normal, high, both" + fixed(priority_text(dd.comm_priority)),
       cxxopts::value<std::string>(), "P")
      ("comm-buffers", "DDP buckets in plain device memory or window: NCCL-allocated, registered as a symmetric "
       "window (NCCL's symmetric kernels over NVLink)" + fixed(dd.comm_window ? kWindowBuffers : kPlainBuffers),
       cxxopts::value<std::string>(), "B")
      ("comm-ctas", "thread blocks NCCL gives each DDP allreduce at least (ncclConfig_t.minCTAs; 0: NCCL's choice; "
       "auto: time steps with 0 and with " + std::to_string(kTunedCommCtas) + ", keep the faster)" +
       by_profile([](const TrainProfile& t) { return t.comm_ctas; }) + "; " + kWholeJobCommCtas +
       " in the whole-job run", cxxopts::value<std::string>(), "N")
      ("comm-sm-margin", "SMs the DDP backward GEMMs leave to the allreduces beside them (cuBLASLt's SM count "
       "target = the GPU's SMs - N; 0: all)" + fixed(std::to_string(dd.sm_margin)), cxxopts::value<int>(), "N")
      ("lr", "SGD learning rate" + fixed((std::ostringstream() << dd.lr).str()), cxxopts::value<double>(), "LR")
      ("cudnn-algo", "exhaustive (cudnnFind and graph API plans timed, like cudnn.benchmark), find, graph or "
       "heuristic" + fixed(std::string(workloads::to_string(d.tuning.conv_search))) + "; " +
       std::string(workloads::to_string(kWholeJobConvSearch)) + " in the whole-job run",
       cxxopts::value<std::string>(), "MODE")
      ("iters", "timed steps" + by_profile([](const TrainProfile& t) { return std::to_string(t.iterations); }),
       cxxopts::value<int>(), "N")
      ("warmup", "untimed steps first" + by_profile([](const TrainProfile& t) { return std::to_string(t.warmup); }),
       cxxopts::value<int>(), "N")
      ("warmup-ms", "then steps until this long has run, so the GPUs settle under their power limit as in a long "
       "job" + fixed(number(d.timing.warmup_s * 1e3)), cxxopts::value<double>(), "MS")
      ("no-check", "skip the gradient correctness checks")
      ("check-batch", "samples per rank in the correctness checks" + fixed(std::to_string(d.check_batch)),
       cxxopts::value<int>(), "N");
}

std::vector<int> default_ddp_sizes(int world_size) {
  std::vector<int> out;
  for (int k = 1; k < world_size; k *= 2) out.push_back(k);
  out.push_back(world_size);
  return out;
}

TrainPlan parse_train_plan(const cxxopts::ParseResult& r, const TrainProfile& profile, bool whole_job) {
  TrainPlan plan;  // its initialisers: the defaults that no profile changes
  plan.essential_checks_only = profile.essential_checks_only;
  plan.models = workloads::parse_model_list(option<std::string>(r, "model", profile.models));
  plan.precisions = workloads::parse_precision_list(option<std::string>(r, "precision", profile.precisions));
  if (r.count("strategy")) parse_strategies(plan, option<std::string>(r, "strategy", ""));
  plan.depth = option_within(r, "depth", 1, workloads::kMaxDepth);
  if (!plan.depth) plan.depth = profile.depth;
  plan.width = option_within(r, "width", 1, workloads::kMaxWidth);
  if (!plan.width) plan.width = profile.width;
  if (const auto batch = option_within(r, "batch", 1, std::numeric_limits<int>::max()).value_or(profile.batch.value_or(0)))
    plan.batch = batch;
  if (r.count("scaling")) parse_scaling(plan, option<std::string>(r, "scaling", ""));
  plan.ddp_sizes = parse_rank_counts(option<std::string>(r, "gpus", ""));
  plan.dp_devices = option_within(r, "dp-devices", 1, std::numeric_limits<int>::max());
  parse_ddp_options(plan, r);
  if (r.count("cudnn-algo")) plan.tuning.conv_search = workloads::parse_algo_search(option<std::string>(r, "cudnn-algo", ""));
  else if (whole_job) plan.tuning.conv_search = kWholeJobConvSearch;
  if (r.count("comm-priority")) plan.comm_priorities = parse_priorities(option<std::string>(r, "comm-priority", ""));
  else plan.comm_priorities = {plan.ddp_options.comm_priority};
  plan.ddp_options.comm_priority = plan.comm_priorities.front();  // the first: every run; the rest: one each
  parse_comm_ctas(plan, option<std::string>(r, "comm-ctas", whole_job ? kWholeJobCommCtas : profile.comm_ctas));
  plan.timing.iterations = option_within(r, "iters", profile.iterations, 1, kMaxSteps);
  plan.timing.warmup = option_within(r, "warmup", profile.warmup, 0, kMaxSteps);
  plan.timing.warmup_s = option_within(r, "warmup-ms", plan.timing.warmup_s * 1e3, 0.0, kMaxWarmupMs) * 1e-3;
  plan.check = !r.count("no-check");
  plan.check_batch = option_within(r, "check-batch", static_cast<int>(plan.check_batch), 1, 1 << 16);
  validate(plan);
  return plan;
}

}  // namespace gpuscale::launch
