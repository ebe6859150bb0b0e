#include "harness/World.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string>

#include "harness/Activity.hpp"
#include "harness/Interrupts.hpp"
#include "harness/LibraryCall.hpp"
#include "harness/Watchdog.hpp"
#include "harness/detail/MpiRequest.hpp"
#include "harness/detail/MpiWorld.hpp"

namespace gpuscale::harness {

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "unknown MPI error";
  return std::string(text, static_cast<std::size_t>(length));
}


namespace {

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

// The test-only node emulation (results/world/Emulation.hpp); ranks_per_node 0 when unset.
results::Emulation emulation_from_environment() {
  results::Emulation e;
  if (const char* value = std::getenv(results::kRanksPerNodeVariable); value && *value) {
    char* end = nullptr;
    const long k = std::strtol(value, &end, 10);
    if (*end != '\0' || k <= 0 || k > 1 << 20)
      throw UsageError(std::string(results::kRanksPerNodeVariable) + " must be a positive integer, got '" + value + "'");
    e.ranks_per_node = static_cast<int>(k);
  }
  if (const char* value = std::getenv(results::kShareGpuVariable); value && *value) {
    const std::string text = value;
    if (text != "0" && text != "1")
      throw UsageError(std::string(results::kShareGpuVariable) + " must be 0 or 1, got '" + text + "'");
    e.shared_gpu = text == "1";
    if (e.shared_gpu && e.ranks_per_node == 0)
      throw UsageError(std::string(results::kShareGpuVariable) + "=1 needs " + results::kRanksPerNodeVariable +
                       ": ranks may share a GPU only across emulated nodes");
  }
  return e;
}

// In the shared-GPU mode each emulated node is a host of its own for NCCL, so that NCCL joins ranks that
// drive one GPU over its network transport instead of refusing them as duplicates. Before any NCCL call.
void give_nccl_the_emulated_host(int node_index) {
  const std::string id = results::kEmulatedHostPrefix + std::to_string(node_index);
  if (::setenv("NCCL_HOSTID", id.c_str(), 1) != 0) throw RuntimeError("setenv(NCCL_HOSTID) failed");
}

}  // namespace

int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    const char* value = std::getenv(name);
    if (!value || !*value) continue;
    char* end = nullptr;
    const long rank = std::strtol(value, &end, 10);
    return *end == '\0' && rank >= 0 && rank <= 1 << 24 ? static_cast<int>(rank) : -1;
  }
  return -1;
}

namespace {

// MPI_Init_thread cannot poll: with Open MPI it waits until every rank of the launch has called it.
void init_mpi(int* argc, char*** argv, const Deadline& deadline, detail::MpiWorld& m) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  int provided = 0;
  {
    const BlockingCall guard(deadline, "MPI_Init_thread (waiting for every rank of the launch to start MPI)");
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
      throw RuntimeError("MPI_Init_thread failed");
    }
  }
  m.finalize = true;
}

// Local rank, node size, node index and count. The splits cannot poll: the barrier before them makes
// sure every rank is here, and they are BlockingCalls against the same deadline.
void find_node(detail::MpiWorld& m, int per_node, const Deadline& deadline) {
  {
    detail::MpiRequest request(detail::MpiRequest::Kind::collective);
    GPUSCALE_MPI_OK(MPI_Ibarrier(m.world, request.handle()));
    request.wait(deadline, "the start-up barrier (every rank past MPI_Init)");
  }
  MPI_Comm leaders = MPI_COMM_NULL;
  {
    const BlockingCall guard(deadline, "MPI_Comm_split of the world into nodes");
    if (per_node > 0) {
      GPUSCALE_MPI_OK(MPI_Comm_split(m.world, m.rank / per_node, m.rank, &m.node));
    } else {
      GPUSCALE_MPI_OK(MPI_Comm_split_type(m.world, MPI_COMM_TYPE_SHARED, m.rank, MPI_INFO_NULL, &m.node));
    }
    GPUSCALE_MPI_OK(MPI_Comm_rank(m.node, &m.local_rank));
    GPUSCALE_MPI_OK(MPI_Comm_size(m.node, &m.local_size));
    // Node index: the order of each node's local rank 0 among all node leaders.
    GPUSCALE_MPI_OK(MPI_Comm_split(m.world, m.local_rank == 0 ? 0 : MPI_UNDEFINED, m.rank, &leaders));
  }
  auto facts = std::make_shared<std::array<int, 2>>();
  if (leaders != MPI_COMM_NULL) {
    GPUSCALE_MPI_OK(MPI_Comm_rank(leaders, &(*facts)[0]));
    GPUSCALE_MPI_OK(MPI_Comm_size(leaders, &(*facts)[1]));
    MPI_Comm_free(&leaders);
  }
  detail::MpiRequest request(detail::MpiRequest::Kind::collective, facts);
  GPUSCALE_MPI_OK(MPI_Ibcast(facts->data(), 2, MPI_INT, 0, m.node, request.handle()));
  request.wait(deadline, "the broadcast of the node index");
  m.node_index = (*facts)[0];
  m.node_count = (*facts)[1];
}

}  // namespace

World::World(int* argc, char*** argv, const Deadline& deadline) : mpi_(std::make_unique<detail::MpiWorld>()) {
  auto& m = *mpi_;
  m.host = host_name();
  // Start-up messages name a rank: the launcher's, or 0 where no launcher variable is set (MPI then
  // starts a singleton, rank 0 of 1).
  set_error_location(std::max(launcher_rank(), 0), m.host);
  init_mpi(argc, argv, deadline, m);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  m.world = detail::duplicate(MPI_COMM_WORLD, deadline, "the duplication of MPI_COMM_WORLD");
  GPUSCALE_MPI_OK(MPI_Comm_set_errhandler(m.world, MPI_ERRORS_RETURN));
  GPUSCALE_MPI_OK(MPI_Comm_rank(m.world, &m.rank));
  GPUSCALE_MPI_OK(MPI_Comm_size(m.world, &m.size));
  set_error_location(m.rank, m.host);

  try {
    m.emulation = emulation_from_environment();
  } catch (const UsageError& e) {  // refused with the command line, once every rank can hear of it
    m.emulation_problem = e.what();
  }
  find_node(m, m.emulation.ranks_per_node, deadline);
  if (m.emulation.ranks_per_node > 0) {
    // Faults name the emulated node: on one machine the host alone does not tell the ranks' nodes apart.
    set_error_location(m.rank, m.host + " node " + std::to_string(m.node_index));
    if (m.emulation.shared_gpu) give_nccl_the_emulated_host(m.node_index);
  }
  detail::start_end_marks(m, deadline);
  detail::start_notices(m, deadline);
  set_liveness_check([this] { return dead_peers_to_name(); });
}

World::~World() {
  auto& m = *mpi_;
  // Before MPI_Finalize lets a finished rank exit: from here on a peer that is gone has not died.
  set_liveness_check(nullptr);
  detail::stop_end_marks(m);
  detail::stop_notices(m);
  if (m.node != MPI_COMM_NULL) MPI_Comm_free(&m.node);
  if (m.world != MPI_COMM_NULL) MPI_Comm_free(&m.world);
  if (m.finalize) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }
}

int World::rank() const noexcept { return mpi_->rank; }
int World::size() const noexcept { return mpi_->size; }
int World::local_rank() const noexcept { return mpi_->local_rank; }
int World::local_size() const noexcept { return mpi_->local_size; }
int World::node() const noexcept { return mpi_->node_index; }
int World::node_count() const noexcept { return mpi_->node_count; }
std::optional<results::Emulation> World::emulation() const {
  if (mpi_->emulation.ranks_per_node == 0) return std::nullopt;
  return mpi_->emulation;
}

const std::string& World::emulation_problem() const noexcept { return mpi_->emulation_problem; }
const std::string& World::host() const noexcept { return mpi_->host; }

std::string World::mpi_library_version() const {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  GPUSCALE_MPI_OK(MPI_Get_library_version(text, &length));
  std::string s(text, static_cast<std::size_t>(length));
  const auto eol = s.find_first_of("\n,");
  if (eol != std::string::npos) s.resize(eol);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

std::string World::mpi_standard_version() const {
  int version = 0, subversion = 0;
  GPUSCALE_MPI_OK(MPI_Get_version(&version, &subversion));
  return std::to_string(version) + "." + std::to_string(subversion);
}

void World::barrier(const Deadline& deadline) const {
  detail::MpiRequest request(detail::MpiRequest::Kind::collective);
  GPUSCALE_MPI_OK(MPI_Ibarrier(mpi_->world, request.handle()));
  request.wait(deadline, "barrier");
}

namespace {

using detail::MpiRequest;

// The memory of one variable-length gather, owned by its requests (detail/MpiRequest.hpp).
struct GatherMemory {
  std::string mine, all;
  int length = 0;
  std::vector<int> lengths, offsets;
};

std::vector<std::string> split_gathered(const GatherMemory& g) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < g.lengths.size(); ++i)
    out.push_back(g.all.substr(static_cast<std::size_t>(g.offsets[i]), static_cast<std::size_t>(g.lengths[i])));
  return out;
}

void lay_out(GatherMemory& g) {
  g.offsets.assign(g.lengths.size(), 0);
  std::size_t total = 0;
  for (std::size_t i = 0; i < g.lengths.size(); ++i) {
    g.offsets[i] = static_cast<int>(total);
    total += static_cast<std::size_t>(g.lengths[i]);
  }
  g.all.assign(total, '\0');
}

}  // namespace

std::vector<std::string> World::gather_to_root(const std::string& mine, const Deadline& deadline) const {
  const auto& m = *mpi_;
  auto g = std::make_shared<GatherMemory>();
  g->mine = mine;
  g->length = static_cast<int>(mine.size());
  g->lengths.assign(m.rank == 0 ? static_cast<std::size_t>(m.size) : 0, 0);
  {
    MpiRequest request(MpiRequest::Kind::collective, g);
    GPUSCALE_MPI_OK(MPI_Igather(&g->length, 1, MPI_INT, g->lengths.data(), 1, MPI_INT, 0, m.world, request.handle()));
    request.wait(deadline, "gather of record sizes");
  }
  lay_out(*g);
  MpiRequest request(MpiRequest::Kind::collective, g);
  GPUSCALE_MPI_OK(MPI_Igatherv(g->mine.data(), g->length, MPI_CHAR, g->all.data(), g->lengths.data(),
                                  g->offsets.data(), MPI_CHAR, 0, m.world, request.handle()));
  request.wait(deadline, "gather of records");
  return split_gathered(*g);
}

std::vector<std::string> World::node_all_gather(const std::string& mine, const Deadline& deadline) const {
  const auto& m = *mpi_;
  auto g = std::make_shared<GatherMemory>();
  g->mine = mine;
  g->length = static_cast<int>(mine.size());
  g->lengths.assign(static_cast<std::size_t>(m.local_size), 0);
  {
    MpiRequest request(MpiRequest::Kind::collective, g);
    GPUSCALE_MPI_OK(MPI_Iallgather(&g->length, 1, MPI_INT, g->lengths.data(), 1, MPI_INT, m.node, request.handle()));
    request.wait(deadline, "node gather of sizes");
  }
  lay_out(*g);
  MpiRequest request(MpiRequest::Kind::collective, g);
  GPUSCALE_MPI_OK(MPI_Iallgatherv(g->mine.data(), g->length, MPI_CHAR, g->all.data(), g->lengths.data(),
                                     g->offsets.data(), MPI_CHAR, m.node, request.handle()));
  request.wait(deadline, "node gather");
  return split_gathered(*g);
}

// The bytes travel through memory the request owns: `data` may be the caller's stack.
void World::broadcast_bytes(void* data, std::size_t bytes, int root, const Deadline& deadline) const {
  const auto* begin = static_cast<const char*>(data);
  auto copy = std::make_shared<std::vector<char>>(begin, begin + bytes);
  MpiRequest request(MpiRequest::Kind::collective, copy);
  GPUSCALE_MPI_OK(MPI_Ibcast(copy->data(), static_cast<int>(bytes), MPI_BYTE, root, mpi_->world, request.handle()));
  request.wait(deadline, "broadcast");
  if (bytes > 0) std::memcpy(data, copy->data(), bytes);
}

std::string World::broadcast_from_root(const std::string& value, const Deadline& deadline) const {
  unsigned long long length = value.size();
  broadcast_bytes(&length, sizeof length, 0, deadline);
  std::string out = mpi_->rank == 0 ? value : std::string(length, '\0');
  broadcast_bytes(out.data(), out.size(), 0, deadline);
  return out;
}

namespace {
std::vector<double> reduce_doubles(const detail::MpiWorld& m, const std::vector<double>& values, MPI_Op op,
                                   const Deadline& deadline, std::string_view what) {
  auto memory = std::make_shared<std::array<std::vector<double>, 2>>();
  (*memory)[0] = values;
  (*memory)[1].assign(values.size(), 0.0);
  MpiRequest request(MpiRequest::Kind::collective, memory);
  GPUSCALE_MPI_OK(MPI_Iallreduce((*memory)[0].data(), (*memory)[1].data(), static_cast<int>(values.size()),
                                    MPI_DOUBLE, op, m.world, request.handle()));
  request.wait(deadline, what);
  return (*memory)[1];
}
double reduce_double(const detail::MpiWorld& m, double value, MPI_Op op, const Deadline& deadline) {
  return reduce_doubles(m, {value}, op, deadline, "allreduce of a figure")[0];
}
}  // namespace

double World::max_over_ranks(double value, const Deadline& d) const { return reduce_double(*mpi_, value, MPI_MAX, d); }
double World::min_over_ranks(double value, const Deadline& d) const { return reduce_double(*mpi_, value, MPI_MIN, d); }
double World::sum_over_ranks(double value, const Deadline& d) const { return reduce_double(*mpi_, value, MPI_SUM, d); }

std::vector<double> World::max_over_ranks(const std::vector<double>& values, const Deadline& deadline) const {
  return reduce_doubles(*mpi_, values, MPI_MAX, deadline, "allreduce of figures");
}

void World::abort(int exit_code) const noexcept {
  mark_own_end();  // the peers that find this process gone must not name it dead
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);
}

}  // namespace gpuscale::harness
