#include "SampleRun.hpp"

#include <string>
#include <tuple>

#include "results/base/FigureNames.hpp"

namespace gpuscale::results::testing {

namespace {

RunReport run_of(const char* command_line, int world_size, int node_count, std::vector<std::string> phases) {
  RunReport r;
  r.tool_version = "0.1.0";
  r.command_line = command_line;
  r.start_time = "2026-11-30T00:00:00Z";
  r.world_size = world_size;
  r.node_count = node_count;
  r.phases_completed = std::move(phases);
  return r;
}

}  // namespace

RunReport sample_run() {
  auto r = run_of("gpuscale env --json run.json", 2, 1, {"env"});
  r.elapsed_s = 2.5;
  for (int rank = 0; rank < 2; ++rank) {
    RankEnv e;
    e.rank = rank;
    e.world_size = 2;
    e.local_rank = rank;
    e.local_size = 2;
    e.host = "node1";
    e.backend = rank == 0 ? "cuda" : "cpu";
    e.cpu_model = "Test CPU";
    e.cpu_affinity = rank == 0 ? "0-7" : "8-15";
    e.versions.mpi_library = "Open MPI v4.1.6";
    e.versions.mpi_standard = "3.1";
    if (rank == 0) {
      GpuInfo g;
      g.cuda_index = 0;
      g.name = "NVIDIA H200";
      g.pci_bus_id = "0000:19:00.0";
      g.memory_total_bytes = 150000000000ull;
      g.memory_free_bytes = 149000000000ull;
      g.sm_clock_mhz = 1980u;
      g.temperature_c = 31u;
      g.power_draw_w = 120.5;
      g.power_limit_w = 700.0;
      e.gpu = g;
    }
    e.smoke.ran = true;
    e.smoke.passed = true;
    e.smoke.transport = "nccl";
    e.smoke.elements = 1024;
    e.smoke.init_s = 0.25;
    e.smoke.op_s = rank == 0 ? 0.0005 : 0.00075;
    r.ranks.push_back(e);
  }
  r.checks.push_back(Check{"numa-binding", Severity::warning, {1}, "bind rank 1, to NUMA node 0"});
  return r;
}

std::vector<Figure> synthetic_phase_figures() {
  using namespace names;
  std::vector<Figure> f;
  for (const char* op : {"allreduce", "allgather"}) {
    for (double bytes = 1024; bytes <= 64.0 * 1024 * 1024; bytes *= 8) {
      const double peak = std::string(op) == "allreduce" ? 360 : 300;
      f.push_back({phase::collectives, kBusBw, {{kOp, op}, {kBytes, std::to_string(static_cast<long long>(bytes))}, {kRanks, "4"}},
                   peak * bytes / (bytes + 2e6), "GB/s", Better::higher});
    }
    for (int ranks : {2, 4}) {
      f.push_back({phase::collectives, kBusBw, {{kOp, op}, {kBytes, "67108864"}, {kRanks, std::to_string(ranks)}},
                   ranks == 2 ? 340.0 : 320.0, "GB/s", Better::higher});
    }
  }
  for (int rank = 0; rank < 4; ++rank)
    f.push_back({phase::compute, kTflops, {{kRank, std::to_string(rank)}, {kLayer, "matmul-8192"}, {kPrecision, "bf16"}},
                 rank == 3 ? 610.0 : 720.0, "TFLOP/s", Better::higher});
  for (const char* strategy : {"dp", "ddp"}) {
    for (int gpus : {1, 2, 4}) {
      const Labels l{{kStrategy, strategy}, {kGpus, std::to_string(gpus)}};
      const double comm = std::string(strategy) == "dp" ? 0.02 * gpus : 0.004 * gpus;
      f.push_back({phase::train, kStepTime, l, 0.1 + comm, "s", Better::lower});
      f.push_back({phase::train, kScalingEfficiency, l, 0.1 / (0.1 + comm), "ratio", Better::higher});
      f.push_back({phase::train, kComputeTime, l, 0.1, "s", Better::lower});
      f.push_back({phase::train, kExposedCommTime, l, comm, "s", Better::lower});
    }
  }
  for (int src = 0; src < 4; ++src)
    for (int dst = 0; dst < 4; ++dst)
      if (src != dst)
        f.push_back({phase::collectives, kPairBusBw, {{kSrc, std::to_string(src)}, {kDst, std::to_string(dst)}},
                     (src / 2 == dst / 2) ? 390.0 : 45.0, "GB/s", Better::higher});
  return f;
}

RunReport sample_fleet_run() {
  auto r = run_of("gpuscale collectives --isolate", 8, 4, {"env", "burn", "collectives"});
  for (int rank = 0; rank < 8; ++rank) {
    RankEnv e;
    e.rank = rank;
    e.world_size = 8;
    e.node = rank / 2;
    e.node_count = 4;
    e.local_rank = rank % 2;
    e.local_size = 2;
    e.host = "n" + std::to_string(rank / 2);
    e.backend = "cuda";
    GpuInfo g;
    g.name = "NVIDIA H200";
    g.uuid = "GPU-" + std::to_string(rank);
    g.pcie_gen_max = 5u;
    g.pcie_width_max = 16u;
    e.gpu = g;
    r.ranks.push_back(e);
    BurnRecord b;
    b.rank = rank;
    b.host = e.host;
    b.gpu = g.name;
    b.precision = "bf16";
    b.sustained_tflops = rank == 5 ? 600 : 800;
    r.burn.push_back(b);
  }
  r.checks.push_back(Check{"slow-node", Severity::error, {4, 5}, "n2 failed 6 of 6 rounds; drain it"});
  IsolationRecord iso;
  iso.bytes = 64 << 20;
  iso.rounds = 6;
  iso.node_hosts = {"n0", "n1", "n2", "n3"};
  iso.threshold = 0.5;
  iso.bisection_node = 2;
  for (int node = 0; node < 4; ++node) iso.node_local.push_back({node, node == 2 ? 40.0 : 90.0});
  // Round 0 pairs 0-1 and 2-3, round 1 pairs 0-2 and 1-3: every pair with n2 moves a tenth.
  for (const auto& [round, a, b] : {std::tuple{0, 0, 1}, {0, 2, 3}, {1, 0, 2}, {1, 1, 3}}) {
    const double gbps = a == 2 || b == 2 ? 10 : 100;
    iso.matches.push_back({round, a, b, gbps, gbps});
    iso.matches.push_back({round, b, a, gbps, gbps});
  }
  r.collectives = CollectivesRecord{};
  r.collectives->isolation = iso;
  r.suspects.ranked.push_back(Suspect{2, "n2", 1.0, 6, 6, true, false, "6 of 6 rounds under 45% of the median"});
  return r;
}

std::vector<Figure> fleet_phase_figures() {
  using namespace names;
  std::vector<Figure> f;
  for (int rank = 0; rank < 8; ++rank) {
    const auto k = std::to_string(rank);
    for (const char* pass : {"fwd", "bwd_data"})
      f.push_back({phase::compute,
                   kTflops,
                   {{kRank, k}, {kLayer, "matmul"}, {"pass", pass}, {kPrecision, "bf16"}, {"set", "default"}},
                   (rank == 5 ? 500.0 : 700.0) - (std::string(pass) == "fwd" ? 0 : 50),
                   "TFLOP/s",
                   Better::higher});
    for (const char* mode : {"solo", "concurrent"})
      f.push_back({phase::links,
                   kHostCopyBw,
                   {{kRank, k}, {kDirection, "h2d"}, {kMemory, "pinned"}, {kMode, mode}, {kBytes, "1073741824"}},
                   std::string(mode) == "solo" ? 55.0 : 30.0,
                   "GB/s",
                   Better::higher});
    f.push_back({phase::links, kHbmBw, {{kRank, k}, {kKernel, "copy"}}, 4200, "GB/s", Better::higher});
  }
  for (const char* bytes : {"1048576", "67108864"})
    f.push_back({phase::collectives,
                 kBusBw,
                 {{kOp, "allreduce"}, {kBytes, bytes}, {kRanks, "8"}, {"placement", "out"}},
                 std::string(bytes) == "1048576" ? 20.0 : 180.0,
                 "GB/s",
                 Better::higher});
  f.push_back({phase::train, kStepTime, {{kStrategy, "ddp"}, {kModel, "mlp"}, {kGpus, "8"}}, 0.25, "s", Better::lower});
  return f;
}

}  // namespace gpuscale::results::testing
