// Usage: mpirun -np N build/bench/nccl_ceiling [-b MIN] [-e MAX] [-f FACTOR] [-n ITERS] [-w WARMUP] [--json PATH]
//          [--op allreduce|allgather|reducescatter] [--inplace 0|1] [--ctas N] [--register local|window]
//          [--cta-policy efficiency|zero]
// nccl_ceiling: allreduce (float sum, out of place; --op allgather|reducescatter for the halves of
// one) timed by NCCL alone, with no gpuscale harness: the ceiling any tool that measures NCCL can
// report on this machine. Sizes are the full buffer (allreduce's, allgather's output, reducescatter's
// input), as nccl-tests counts them. One MPI rank per GPU (local
// rank -> device), ncclGetUniqueId broadcast over MPI, ncclCommInitRank (blocking), one stream.
// Per size, after warm-up and a barrier, two timings of the same communicator and buffers:
//   batch:    N back-to-back collectives between one event pair, per op = elapsed / N, the slowest
//             rank's (nccl-tests' figure);
//   boundary: one event before the first op and one after each, sample i = boundary i - boundary
//             i - 1, the slowest rank's per sample, median (gpuscale's figure).
// Probes beyond NCCL's defaults, each off by default: --inplace 1, --ctas N (ncclConfig_t.minCTAs),
// --register local|window (buffers from ncclMemAlloc, registered with ncclCommRegister, or as
// symmetric windows with ncclCommWindowRegister, which NCCL 2.27+ may serve with its symmetric kernels),
// --cta-policy efficiency|zero (ncclConfig_t.CTAPolicy, NCCL 2.28; zero with windows lets NCCL run an
// allgather on the copy engines instead of SMs).
// Standalone on purpose: MPI, CUDA and NCCL are called directly here, outside the project's layers.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>
#include <nlohmann/json.hpp>

#include "results/base/Statistics.hpp"

namespace {

[[noreturn]] void fail(const char* file, int line, const char* expr, const std::string& why) {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "[rank %d] nccl_ceiling %s:%d: %s failed: %s\n", rank, file, line, expr, why.c_str());
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();
}

std::string mpi_error(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

#define GPUSCALE_CEILING_CUDA(expr)                                                  \
  do {                                                                               \
    const cudaError_t rc_ = (expr);                                                  \
    if (rc_ != cudaSuccess) fail(__FILE__, __LINE__, #expr, cudaGetErrorString(rc_)); \
  } while (0)
#define GPUSCALE_CEILING_NCCL(expr)                                                    \
  do {                                                                                 \
    const ncclResult_t rc_ = (expr);                                                   \
    if (rc_ != ncclSuccess) fail(__FILE__, __LINE__, #expr, ncclGetErrorString(rc_));  \
  } while (0)
#define GPUSCALE_CEILING_MPI(expr)                                            \
  do {                                                                        \
    const int rc_ = (expr);                                                   \
    if (rc_ != MPI_SUCCESS) fail(__FILE__, __LINE__, #expr, mpi_error(rc_)); \
  } while (0)

struct Options {
  std::size_t min_bytes = 8, max_bytes = std::size_t{1} << 30, factor = 4;
  int iterations = 20, warmup = 5;
  std::string json_path;
  // Probes of what NCCL can do beyond its defaults (each off by default):
  bool in_place = false;        // --inplace 1: recv = send
  int min_ctas = 0;             // --ctas N: ncclConfig_t.minCTAs (and maxCTAs >= N)
  std::string registration;     // --register local|window: buffers from ncclMemAlloc, then
                                // ncclCommRegister, or ncclCommWindowRegister(NCCL_WIN_COLL_SYMMETRIC)
  std::string op = "allreduce";  // --op allreduce|allgather|reducescatter
  std::string cta_policy;        // --cta-policy efficiency|zero: ncclConfig_t.CTAPolicy
};

std::size_t parse_bytes(const std::string& text) {
  std::size_t used = 0;
  const unsigned long long value = std::stoull(text, &used);
  const std::string unit = text.substr(used);
  const int shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : -1;
  if (shift < 0 || text[0] == '-') throw std::invalid_argument("bad size " + text);
  return static_cast<std::size_t>(value) << shift;
}

// Throws std::invalid_argument / std::out_of_range on bad input.
Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "-b") o.min_bytes = parse_bytes(value);
    else if (flag == "-e") o.max_bytes = parse_bytes(value);
    else if (flag == "-f") o.factor = parse_bytes(value);
    else if (flag == "-n") o.iterations = std::stoi(value);
    else if (flag == "-w") o.warmup = std::stoi(value);
    else if (flag == "--json") o.json_path = value;
    else if (flag == "--inplace") o.in_place = std::stoi(value) != 0;
    else if (flag == "--ctas") o.min_ctas = std::stoi(value);
    else if (flag == "--register") o.registration = value;
    else if (flag == "--op") o.op = value;
    else if (flag == "--cta-policy") o.cta_policy = value;
    else throw std::invalid_argument("unknown option " + flag);
  }
  if (o.min_bytes < 4 || o.max_bytes < o.min_bytes || o.factor < 2 || o.iterations < 1 || o.warmup < 0)
    throw std::invalid_argument("need 4 <= -b <= -e, -f >= 2, -n >= 1, -w >= 0");
  if (o.min_ctas < 0 || !(o.registration.empty() || o.registration == "local" || o.registration == "window"))
    throw std::invalid_argument("need --ctas >= 0 and --register local|window");
  if (!(o.op == "allreduce" || o.op == "allgather" || o.op == "reducescatter"))
    throw std::invalid_argument("need --op allreduce|allgather|reducescatter");
  if (!(o.cta_policy.empty() || o.cta_policy == "efficiency" || o.cta_policy == "zero"))
    throw std::invalid_argument("need --cta-policy efficiency|zero");
  return o;
}

// What every size shares. Owned by main; released there in reverse order before MPI_Finalize.
struct Bench {
  int rank = 0, ranks = 1;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  float* send = nullptr;
  float* recv = nullptr;  // == send with --inplace 1
  std::vector<void*> handles;            // ncclCommRegister
  std::vector<ncclWindow_t> windows;     // ncclCommWindowRegister
  std::vector<cudaEvent_t> marks;  // iterations + 1
  std::string op;
};

// count: the full buffer's floats. In place, allgather sends from and reducescatter receives into
// this rank's slice of the full buffer (NCCL's in-place forms).
void collective(const Bench& b, std::size_t count) {
  const std::size_t slice = count / static_cast<std::size_t>(b.ranks), at = slice * static_cast<std::size_t>(b.rank);
  const bool in_place = b.send == b.recv;
  if (b.op == "allgather")
    GPUSCALE_CEILING_NCCL(ncclAllGather(in_place ? b.recv + at : b.send, b.recv, slice, ncclFloat, b.comm, b.stream));
  else if (b.op == "reducescatter")
    GPUSCALE_CEILING_NCCL(
        ncclReduceScatter(b.send, in_place ? b.send + at : b.recv, slice, ncclFloat, ncclSum, b.comm, b.stream));
  else
    GPUSCALE_CEILING_NCCL(ncclAllReduce(b.send, b.recv, count, ncclFloat, ncclSum, b.comm, b.stream));
}

void finish(const Bench& b) {
  GPUSCALE_CEILING_CUDA(cudaStreamSynchronize(b.stream));
  ncclResult_t async = ncclSuccess;
  GPUSCALE_CEILING_NCCL(ncclCommGetAsyncError(b.comm, &async));
  GPUSCALE_CEILING_NCCL(async);
}

double seconds_between(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  GPUSCALE_CEILING_CUDA(cudaEventElapsedTime(&ms, from, to));
  return ms * 1e-3;
}

void max_over_ranks(std::vector<double>& values) {
  GPUSCALE_CEILING_MPI(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE,
                                     MPI_MAX, MPI_COMM_WORLD));
}

struct Row {
  std::size_t bytes = 0, count = 0;
  double batch_s = 0;                       // nccl-tests: elapsed / N between one event pair, slowest rank
  gpuscale::results::Summary boundary;      // per-op samples, slowest rank per sample
  double boundary_batch_s = 0;              // first to last boundary / N, slowest rank
};

Row measure(const Bench& b, const Options& o, std::size_t count) {
  const int n = o.iterations;
  for (int i = 0; i < o.warmup; ++i) collective(b, count);
  finish(b);
  GPUSCALE_CEILING_MPI(MPI_Barrier(MPI_COMM_WORLD));
  GPUSCALE_CEILING_CUDA(cudaEventRecord(b.marks[0], b.stream));
  for (int i = 0; i < n; ++i) collective(b, count);
  GPUSCALE_CEILING_CUDA(cudaEventRecord(b.marks[1], b.stream));
  finish(b);
  std::vector<double> batch{seconds_between(b.marks[0], b.marks[1]) / n};

  GPUSCALE_CEILING_MPI(MPI_Barrier(MPI_COMM_WORLD));
  GPUSCALE_CEILING_CUDA(cudaEventRecord(b.marks[0], b.stream));
  for (int i = 0; i < n; ++i) {
    collective(b, count);
    GPUSCALE_CEILING_CUDA(cudaEventRecord(b.marks[static_cast<std::size_t>(i) + 1], b.stream));
  }
  finish(b);
  std::vector<double> samples;
  for (std::size_t i = 1; i <= static_cast<std::size_t>(n); ++i) samples.push_back(seconds_between(b.marks[i - 1], b.marks[i]));
  batch.push_back(seconds_between(b.marks[0], b.marks[static_cast<std::size_t>(n)]) / n);
  max_over_ranks(samples);
  max_over_ranks(batch);

  Row r;
  r.count = count;
  r.bytes = count * sizeof(float);
  r.batch_s = batch[0];
  r.boundary_batch_s = batch[1];
  r.boundary = gpuscale::results::summarize(samples);
  return r;
}

// nccl-tests' bus bandwidth: allreduce moves 2 (n - 1) / n of the buffer per rank, its halves (n - 1) / n.
double busbw_gbps(const Row& r, double seconds, int ranks, const std::string& op) {
  const double factor = (op == "allreduce" ? 2.0 : 1.0) * (ranks - 1) / ranks;
  return seconds > 0 ? static_cast<double>(r.bytes) / seconds / 1e9 * factor : 0.0;
}

void report(const std::vector<Row>& rows, const Options& o, int ranks) {
  int version = 0;
  GPUSCALE_CEILING_NCCL(ncclGetVersion(&version));
  std::printf("# nccl_ceiling: NCCL %d, %d ranks, %s float%s %s, %d iterations after %d warm-up%s%s%s%s%s\n",
              version, ranks, o.op.c_str(), o.op == "allgather" ? "" : " sum", o.in_place ? "in place" : "out of place",
              o.iterations, o.warmup, o.min_ctas > 0 ? (", minCTAs " + std::to_string(o.min_ctas)).c_str() : "",
              o.registration.empty() ? "" : ", registered: ", o.registration.c_str(),
              o.cta_policy.empty() ? "" : ", CTA policy ", o.cta_policy.c_str());
  std::printf("%12s %12s %12s %11s %12s %11s %12s\n", "size(B)", "count", "batch(us)", "busbw(GB/s)", "median(us)",
              "busbw(GB/s)", "bnd-mean(us)");
  nlohmann::json json_rows = nlohmann::json::array();
  for (const Row& r : rows) {
    const double batch_bw = busbw_gbps(r, r.batch_s, ranks, o.op);
    const double median_bw = busbw_gbps(r, r.boundary.median, ranks, o.op);
    std::printf("%12zu %12zu %12.2f %11.2f %12.2f %11.2f %12.2f\n", r.bytes, r.count, r.batch_s * 1e6, batch_bw,
                r.boundary.median * 1e6, median_bw, r.boundary_batch_s * 1e6);
    json_rows.push_back({{"size_bytes", r.bytes},       {"count", r.count},
                         {"batch_time_s", r.batch_s},   {"batch_busbw_gbps", batch_bw},
                         {"median_time_s", r.boundary.median}, {"median_busbw_gbps", median_bw},
                         {"p10_time_s", r.boundary.p10}, {"p90_time_s", r.boundary.p90},
                         {"boundary_batch_time_s", r.boundary_batch_s}});
  }
  if (o.json_path.empty()) return;
  const nlohmann::json doc{{"tool", "nccl_ceiling"}, {"nccl_version", version}, {"ranks", ranks},
                           {"op", o.op},              {"type", "float"},
                           {"redop", o.op == "allgather" ? "none" : "sum"},
                           {"cta_policy", o.cta_policy.empty() ? "default" : o.cta_policy},
                           {"iterations", o.iterations}, {"warmup", o.warmup},  {"in_place", o.in_place},
                           {"min_ctas", o.min_ctas},     {"registration", o.registration}, {"rows", json_rows}};
  std::ofstream file(o.json_path);
  file << doc.dump(1) << '\n';
  if (!file.flush()) fail(__FILE__, __LINE__, "writing --json", "cannot write " + o.json_path);
}

// One rank per GPU: the rank's index on its node picks the device.
Bench open_bench(const Options& o) {
  Bench b;
  GPUSCALE_CEILING_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &b.rank));
  GPUSCALE_CEILING_MPI(MPI_Comm_size(MPI_COMM_WORLD, &b.ranks));
  MPI_Comm node = MPI_COMM_NULL;
  GPUSCALE_CEILING_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, b.rank, MPI_INFO_NULL, &node));
  int local_rank = 0, devices = 0;
  GPUSCALE_CEILING_MPI(MPI_Comm_rank(node, &local_rank));
  GPUSCALE_CEILING_MPI(MPI_Comm_free(&node));
  GPUSCALE_CEILING_CUDA(cudaGetDeviceCount(&devices));
  GPUSCALE_CEILING_CUDA(cudaSetDevice(local_rank % devices));

  ncclUniqueId id{};
  if (b.rank == 0) GPUSCALE_CEILING_NCCL(ncclGetUniqueId(&id));
  GPUSCALE_CEILING_MPI(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  if (o.min_ctas > 0) {
    config.minCTAs = o.min_ctas;
    config.maxCTAs = o.min_ctas > 32 ? o.min_ctas : 32;
  }
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
  if (!o.cta_policy.empty())
    config.CTAPolicy = o.cta_policy == "zero" ? NCCL_CTA_POLICY_ZERO : NCCL_CTA_POLICY_EFFICIENCY;
#else
  if (!o.cta_policy.empty()) fail(__FILE__, __LINE__, "--cta-policy", "needs NCCL 2.28 or later");
#endif
  GPUSCALE_CEILING_NCCL(ncclCommInitRankConfig(&b.comm, b.ranks, id, b.rank, &config));
  GPUSCALE_CEILING_CUDA(cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
  const int buffers = o.in_place ? 1 : 2;
  float* bufs[2] = {nullptr, nullptr};
  for (int i = 0; i < buffers; ++i) {
    void* p = nullptr;
    if (o.registration.empty()) GPUSCALE_CEILING_CUDA(cudaMalloc(&p, o.max_bytes));
    else GPUSCALE_CEILING_NCCL(ncclMemAlloc(&p, o.max_bytes));
    bufs[i] = static_cast<float*>(p);
    if (o.registration == "local") {
      void* handle = nullptr;
      GPUSCALE_CEILING_NCCL(ncclCommRegister(b.comm, p, o.max_bytes, &handle));
      b.handles.push_back(handle);
    } else if (o.registration == "window") {
      ncclWindow_t window = nullptr;
      GPUSCALE_CEILING_NCCL(ncclCommWindowRegister(b.comm, p, o.max_bytes, &window, NCCL_WIN_COLL_SYMMETRIC));
      b.windows.push_back(window);
    }
  }
  b.send = bufs[0];
  b.recv = o.in_place ? bufs[0] : bufs[1];
  b.op = o.op;
  // Never time on zeros: every float of the input is 0x3C3C3C3C (about 0.0115).
  GPUSCALE_CEILING_CUDA(cudaMemset(b.send, 0x3C, o.max_bytes));
  if (!o.in_place) GPUSCALE_CEILING_CUDA(cudaMemset(b.recv, 0, o.max_bytes));
  GPUSCALE_CEILING_CUDA(cudaDeviceSynchronize());
  b.marks.resize(static_cast<std::size_t>(o.iterations) + 1);
  for (auto& e : b.marks) GPUSCALE_CEILING_CUDA(cudaEventCreate(&e));
  return b;
}

void close_bench(Bench& b, const Options& o) {
  for (auto& e : b.marks) GPUSCALE_CEILING_CUDA(cudaEventDestroy(e));
  for (ncclWindow_t w : b.windows) GPUSCALE_CEILING_NCCL(ncclCommWindowDeregister(b.comm, w));
  for (void* h : b.handles) GPUSCALE_CEILING_NCCL(ncclCommDeregister(b.comm, h));
  std::vector<float*> owned{b.send};
  if (b.recv != b.send) owned.push_back(b.recv);
  for (float* p : owned) {
    if (o.registration.empty()) GPUSCALE_CEILING_CUDA(cudaFree(p));
    else GPUSCALE_CEILING_NCCL(ncclMemFree(p));
  }
  GPUSCALE_CEILING_CUDA(cudaStreamDestroy(b.stream));
  GPUSCALE_CEILING_NCCL(ncclCommFinalize(b.comm));
  GPUSCALE_CEILING_NCCL(ncclCommDestroy(b.comm));
}

}  // namespace

int main(int argc, char** argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 3;
  GPUSCALE_CEILING_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {  // every rank parses the same arguments: all leave here
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
      std::fprintf(stderr,
                   "nccl_ceiling: %s (-b MIN -e MAX -f FACTOR -n ITERS -w WARMUP --json PATH --inplace 0|1 --ctas N "
                   "--register local|window --op allreduce|allgather|reducescatter --cta-policy efficiency|zero)\n",
                   e.what());
    MPI_Finalize();
    return 2;
  }
  o.max_bytes -= o.max_bytes % sizeof(float);
  Bench b = open_bench(o);
  std::vector<Row> rows;
  for (std::size_t bytes = o.min_bytes; bytes <= o.max_bytes; bytes *= o.factor) {
    const std::size_t floats = bytes / sizeof(float), ranks = static_cast<std::size_t>(b.ranks);
    rows.push_back(measure(b, o, o.op == "allreduce" ? floats : floats / ranks * ranks));  // whole slices
    if (b.rank == 0) std::fprintf(stderr, "nccl_ceiling: %zu B done\n", bytes);
  }
  if (b.rank == 0) report(rows, o, b.ranks);
  close_bench(b, o);
  GPUSCALE_CEILING_MPI(MPI_Finalize());
  return 0;
}
