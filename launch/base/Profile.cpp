#include "launch/base/Profile.hpp"

#include "results/base/Format.hpp"

namespace gpuscale::launch {
namespace {

constexpr std::uint64_t kKiB = 1ull << 10, kMiB = 1ull << 20, kGiB = 1ull << 30;

}  // namespace

Profile make_profile(bool quick, bool cpu_backend) {
  Profile p;
  p.name = std::string(quick ? "quick" : "default") + (cpu_backend ? "-cpu" : "");
  // The preflight's 15 s: fewer sizes (factor 4), iterations and steps; no scaling table (the
  // pairwise matrix stays: it finds a bad link); the precisions training runs in.
  p.budget_s = quick ? 15 : cpu_backend ? 120 : 60;
  auto& c = p.collectives;
  c.step_factor = quick ? 4 : 2;
  c.warmup = quick ? 2 : 5;
  c.iterations = quick ? 5 : 20;
  // Host memory and MPI on shared cores: small enough that 4 oversubscribed ranks stay quick.
  c.max_bytes = cpu_backend ? (quick ? 64 * kKiB : 4 * kMiB) : (quick ? 64 * kMiB : kGiB);
  if (!quick) c.scaling_sizes = cpu_backend ? std::vector<std::uint64_t>{8, 64 * kKiB}
                                            : std::vector<std::uint64_t>{8, kMiB, 64 * kMiB};
  c.pair_large_bytes = cpu_backend ? kMiB : 64 * kMiB;
  c.isolation_bytes = cpu_backend ? 256 * kKiB : 64 * kMiB;

  auto& m = p.compute;
  m.precisions = quick ? "tf32,bf16" : "fp32,tf32,fp16,bf16";
  // 4096^3 in double precision would take minutes per call on the host.
  m.shape_sets = cpu_backend ? "cpu" : "default";
  m.warmup = quick ? 2 : 5;
  m.iterations = quick ? 5 : 20;

  auto& t = p.train;
  t.models = quick ? "mlp" : "mlp,cnn";
  t.precisions = quick ? "bf16" : "fp32,bf16";
  t.warmup = cpu_backend ? 1 : quick ? 2 : 5;
  t.iterations = cpu_backend ? 3 : quick ? 5 : 20;
  if (cpu_backend) {
    t.depth = 3;
    t.width = 16;
    t.batch = 4;
  }
  // A second communicator per DDP size and the timed trials do not fit the preflight's budget.
  t.comm_ctas = quick ? "0" : "auto";
  // A preflight checks the gradients that matter most, not every one.
  t.essential_checks_only = quick;

  p.burn.seconds = cpu_backend ? (quick ? 0.5 : 2) : (quick ? 2 : 4);
  p.burn.dim = cpu_backend ? (quick ? 64 : 128) : 8192;

  auto& l = p.links;
  if (cpu_backend) {
    l.pinned_bytes = quick ? std::vector<std::uint64_t>{kMiB} : std::vector<std::uint64_t>{kMiB, 16 * kMiB};
    l.pageable_bytes = quick ? kMiB : 4 * kMiB;
    l.hbm_bytes = quick ? 4 * kMiB : 16 * kMiB;
    l.repeats = quick ? 2 : 3;
  } else {
    l.pinned_bytes = quick ? std::vector<std::uint64_t>{64 * kMiB} : std::vector<std::uint64_t>{64 * kMiB, kGiB};
    l.pageable_bytes = quick ? 16 * kMiB : 64 * kMiB;
    l.hbm_bytes = quick ? kGiB : 4 * kGiB;
    l.repeats = quick ? 3 : 5;
  }
  return p;
}

std::string profile_default_text(const std::function<std::string(const Profile&)>& value_of) {
  const std::string base = value_of(make_profile(false, false));
  std::string text = base;
  const std::string quick = value_of(make_profile(true, false));
  const std::string cpu = value_of(make_profile(false, true));
  const std::string quick_cpu = value_of(make_profile(true, true));
  if (quick != base) text += "; " + quick + " with --quick";
  if (cpu != base) text += "; " + cpu + " on cpu";
  // Where --quick and cpu both change the value, the two together cannot be guessed from either.
  const bool both = quick != base && cpu != base;
  if (both || quick_cpu != (quick != base ? quick : cpu)) text += "; " + quick_cpu + " with --quick on cpu";
  return text;
}

std::string size_text(std::uint64_t bytes) { return results::binary_bytes(static_cast<double>(bytes)); }

std::string size_list_text(const std::vector<std::uint64_t>& sizes) {
  if (sizes.empty()) return "none";
  std::string text;
  for (const auto s : sizes) text += (text.empty() ? "" : ",") + size_text(s);
  return text;
}

}  // namespace gpuscale::launch
