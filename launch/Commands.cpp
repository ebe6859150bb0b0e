#include "launch/Commands.hpp"

#include "harness/Error.hpp"
#include "launch/BaselineCommand.hpp"
#include "launch/Phases.hpp"
#include "launch/ReportCommands.hpp"
#include "results/models/Spelling.hpp"
#include "launch/phases/collectives/ProjectionOptions.hpp"

namespace gpuscale::launch {
namespace {

void file_inputs(cxxopts::Options& o) {
  o.add_options("input")("inputs", "run report(s) to read", cxxopts::value<std::vector<std::string>>());
  o.parse_positional({"inputs"});
  o.positional_help("RUN.json");
}

void report_options(cxxopts::Options& o) {
  file_inputs(o);
  o.add_options("report")("full", "print every table (one line per rank, every size) instead of the screen the run "
                                  "printed (the whole-job run's one-screen summary)");
}

void compare_options(cxxopts::Options& o) {
  file_inputs(o);
  o.add_options("compare")("tolerance", "relative change that counts as a regression", cxxopts::value<double>()->default_value("0.05"))
      ("allow-incomplete", "compare a run that did not finish (failed, interrupted or killed) on the figures it has")
      ("allow-missing", "list figures of BASE that NEW lacks without failing on them");
  o.positional_help("BASE.json NEW.json");
}

void baseline_options(cxxopts::Options& o) {
  file_inputs(o);
  o.add_options("baseline")("o,output", "write the baseline to FILE (atomically)", cxxopts::value<std::string>(), "FILE");
  o.positional_help("RUN.json... -o BASE.json");
}

// Each command's phases, in the order they run. The whole-job run: every registered phase, in the
// registry's order (PhaseRegistry.def says why that order).
constexpr std::string_view kRunPhases[] = {
#define GPUSCALE_PHASE(name) #name,
#include "launch/PhaseRegistry.def"
#undef GPUSCALE_PHASE
};
constexpr std::string_view kEnvPhases[] = {"env"};
constexpr std::string_view kComputePhases[] = {"env", "compute"};
constexpr std::string_view kCollectivesPhases[] = {"env", "collectives"};
constexpr std::string_view kTrainPhases[] = {"env", "train"};
constexpr std::string_view kBurnPhases[] = {"env", "burn"};
constexpr std::string_view kLinksPhases[] = {"env", "links"};

constexpr CommandSpec kCommands[] = {
    {"run", "the default job: environment and checks, then every phase, then the report",
     "[run] [options]",
     "mpirun -np 8 gpuscale\n"
     "srun -N 4 --ntasks-per-node=8 --mpi=pmix gpuscale --json run.json\n"
     "gpuscale --device cpu --quick",
     kRunPhases, add_projection_options, nullptr, /*whole_job=*/true},
    {"env", "environment of every rank, cross-rank checks and a verified smoke allreduce",
     "env [options]",
     "mpirun -np 8 gpuscale env\n"
     "mpirun -np 2 gpuscale env --json env.json\n"
     "srun --mpi=pmix -n 4 gpuscale env --device cpu",
     kEnvPhases, nullptr},
    {"compute", "cuBLAS matmul and cuDNN convolution, forward and backward", "compute [options]",
     "mpirun -np 8 gpuscale compute\n"
     "mpirun -np 2 gpuscale compute --mnk 8192,8192,8192 --precision bf16 --cudnn-algo exhaustive\n"
     "gpuscale compute --shapes resnet50 --precision fp16,bf16 --json compute.json\n"
     "gpuscale compute --conv 32,256,56,56,256,3,3,1,1,1 --layout nhwc",
     kComputePhases, nullptr},
    {"collectives", "NCCL collective sweeps (nccl-tests flags), scaling table, pairwise matrix", "collectives [options]",
     "mpirun -np 8 gpuscale collectives -b 8 -e 1G -f 4\n"
     "mpirun -np 2 gpuscale collectives --ops allreduce -G 10 -d bfloat16 --json coll.json\n"
     "mpirun -np 4 gpuscale collectives --device cpu -b 1 -e 64K --scaling-sizes 8,4K",
     kCollectivesPhases, nullptr},
    {"train", "data-parallel training steps: single, DP-style, DDP-style; scaling report", "train [options]",
     "mpirun -np 8 gpuscale train\n"
     "mpirun -np 2 gpuscale train --model mlp --precision bf16 --scaling both\n"
     "mpirun -np 8 gpuscale train --model resnet50,transformer --grad-dtype bf16 --comm-priority both\n"
     "mpirun -np 4 gpuscale train --device cpu --strategy ddp --accum 4",
     kTrainPhases, nullptr},
    {"burn", "sustained GEMM load on every GPU at once: throughput over wall time, clocks, power, temperature, "
     "throttle reasons, ECC errors, and the outputs compared across GPUs", "burn [options]",
     "mpirun -np 8 gpuscale burn\n"
     "mpirun -np 8 gpuscale burn --burn-s 300 --precision fp16 --json burn.json\n"
     "mpirun -np 2 gpuscale burn --device cpu --burn-s 1",
     kBurnPhases, nullptr},
    {"links", "host links and device memory: H2D and D2H copies pinned and pageable, one GPU at a time and every GPU "
     "of a node at once, the PCIe link under load, NVLink state and errors, XID events, HBM copy and triad",
     "links [options]",
     "mpirun -np 8 gpuscale links\n"
     "mpirun -np 8 gpuscale links --sizes 64M,1G,4G --repeats 10 --json links.json\n"
     "mpirun -np 2 gpuscale links --device cpu --sizes 1M --hbm-size 16M",
     kLinksPhases, nullptr},
    {"report", "rebuild the table / CSV / HTML from a saved run (no GPU needed)", "report [options]",
     "gpuscale report run.json --html run.html\n"
     "gpuscale report run.json --full\n"
     "gpuscale report new.json --baseline base.json", {}, report_options, report_command, false, true,
     "it rebuilds the outputs of a saved run"},
    {"compare", "regressions between two runs; exit 1 past --tolerance and the runs' noise", "compare [options]",
     "gpuscale compare base.json new.json --tolerance 0.05", {}, compare_options, compare_command, false,
     /*judges_one_run=*/false, "it compares two saved runs, prints the comparison and exits 1 on a regression"},
    {"baseline", "median and spread per figure and machine shape over saved runs, for --baseline",
     "baseline RUN.json... -o BASE.json",
     "gpuscale baseline run1.json run2.json run3.json -o base.json\n"
     "gpuscale baseline fleet.json -o base.json",
     {}, baseline_options, make_baseline, false, /*judges_one_run=*/false,
     "the baseline is made from saved runs and goes to -o FILE"},
};

}  // namespace

std::span<const CommandSpec> commands() { return kCommands; }

const CommandSpec* find_command(std::string_view name) {
  for (const auto& c : kCommands)
    if (c.name == name) return &c;
  return nullptr;
}

const CommandSpec& command_named(std::string_view name) {
  if (const auto* spec = find_command(name)) return *spec;
  std::vector<std::string> names;
  for (const auto& c : kCommands) names.emplace_back(c.name);
  const auto guess = results::did_you_mean(name, names);
  if (!guess.empty()) throw harness::UsageError("unknown command '" + std::string(name) + "'" + guess);
  std::string listed;
  for (const auto& n : names) listed += (listed.empty() ? "" : ", ") + n;
  throw harness::UsageError("unknown command '" + std::string(name) + "'; commands: " + listed + " (gpuscale --help)");
}

const CommandSpec& default_command() { return kCommands[0]; }

void add_command_options(const CommandSpec& command, cxxopts::Options& options) {
  if (command.add_options) return command.add_options(options);
  for (const auto name : command.phases)
    if (const auto* phase = find_phase_spec(name); phase && phase->add_options) phase->add_options(options);
}

}  // namespace gpuscale::launch
