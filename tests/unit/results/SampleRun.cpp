#include "SampleRun.hpp"

#include <string>

#include "results/FigureNames.hpp"

namespace gpuscale::results::testing {

RunReport sample_run() {
  RunReport r;
  r.tool_version = "0.1.0";
  r.command_line = "gpuscale env --json run.json";
  r.start_time = "2026-11-30T00:00:00Z";
  r.elapsed_s = 2.5;
  r.world_size = 2;
  r.node_count = 1;
  r.phases_completed = {"env"};
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
      f.push_back({kCollectives, kBusBw, {{kOp, op}, {kBytes, std::to_string(static_cast<long long>(bytes))}, {kRanks, "4"}},
                   peak * bytes / (bytes + 2e6), "GB/s", Better::higher});
    }
    for (int ranks : {2, 4}) {
      f.push_back({kCollectives, kBusBw, {{kOp, op}, {kBytes, "67108864"}, {kRanks, std::to_string(ranks)}},
                   ranks == 2 ? 340.0 : 320.0, "GB/s", Better::higher});
    }
  }
  for (int rank = 0; rank < 4; ++rank)
    f.push_back({kCompute, kTflops, {{kRank, std::to_string(rank)}, {kLayer, "matmul-8192"}, {kPrecision, "bf16"}},
                 rank == 3 ? 610.0 : 720.0, "TFLOP/s", Better::higher});
  for (const char* strategy : {"dp", "ddp"}) {
    for (int gpus : {1, 2, 4}) {
      const Labels l{{kStrategy, strategy}, {kGpus, std::to_string(gpus)}};
      const double comm = std::string(strategy) == "dp" ? 0.02 * gpus : 0.004 * gpus;
      f.push_back({kTrain, kStepTime, l, 0.1 + comm, "s", Better::lower});
      f.push_back({kTrain, kScalingEfficiency, l, 0.1 / (0.1 + comm), "ratio", Better::higher});
      f.push_back({kTrain, kComputeTime, l, 0.1, "s", Better::lower});
      f.push_back({kTrain, kExposedCommTime, l, comm, "s", Better::lower});
    }
  }
  for (int src = 0; src < 4; ++src)
    for (int dst = 0; dst < 4; ++dst)
      if (src != dst)
        f.push_back({kCollectives, kPairBusBw, {{kSrc, std::to_string(src)}, {kDst, std::to_string(dst)}},
                     (src / 2 == dst / 2) ? 390.0 : 45.0, "GB/s", Better::higher});
  return f;
}

}  // namespace gpuscale::results::testing
