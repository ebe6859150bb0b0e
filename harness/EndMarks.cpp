// World's end marks (detail/MpiWorld.hpp): a byte per rank of the machine in MPI shared memory. A
// peer reads them from the Watchdog's thread without any MPI call, and after the marking process is
// gone: a rank stopped while another ended the job on purpose still finds the mark when it resumes.
#include <atomic>

#include "harness/LibraryCall.hpp"
#include "harness/Watchdog.hpp"
#include "harness/detail/MpiWorld.hpp"

namespace gpuscale::harness::detail {

void start_end_marks(MpiWorld& m, const Deadline& deadline) {
  unsigned char* own = nullptr;
  {
    const BlockingCall guard(deadline, "the allocation of the machine's end marks (MPI shared memory)");
    GPUSCALE_MPI_OK(MPI_Comm_split_type(m.world, MPI_COMM_TYPE_SHARED, m.rank, MPI_INFO_NULL, &m.machine));
    GPUSCALE_MPI_OK(MPI_Win_allocate_shared(1, 1, MPI_INFO_NULL, m.machine, &own, &m.end_marks));
  }
  std::atomic_ref<unsigned char>(*own).store(0);  // before learn_peers' exchange: no one reads it earlier
  int size = 0;
  GPUSCALE_MPI_OK(MPI_Comm_size(m.machine, &size));
  MPI_Group machine_group = MPI_GROUP_NULL, world_group = MPI_GROUP_NULL;
  GPUSCALE_MPI_OK(MPI_Comm_group(m.machine, &machine_group));
  GPUSCALE_MPI_OK(MPI_Comm_group(m.world, &world_group));
  std::vector<int> locals(static_cast<std::size_t>(size)), worlds(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) locals[static_cast<std::size_t>(i)] = i;
  const int translated = MPI_Group_translate_ranks(machine_group, size, locals.data(), world_group, worlds.data());
  MPI_Group_free(&machine_group);
  MPI_Group_free(&world_group);
  GPUSCALE_MPI_OK(translated);
  m.end_mark.assign(static_cast<std::size_t>(m.size), nullptr);
  for (int i = 0; i < size; ++i) {
    MPI_Aint bytes = 0;
    int unit = 0;
    void* base = nullptr;
    GPUSCALE_MPI_OK(MPI_Win_shared_query(m.end_marks, i, &bytes, &unit, &base));
    const int r = worlds[static_cast<std::size_t>(i)];
    if (r >= 0 && r < m.size) m.end_mark[static_cast<std::size_t>(r)] = static_cast<unsigned char*>(base);
  }
  set_end_mark([own] { std::atomic_ref<unsigned char>(*own).store(1); });
}

void stop_end_marks(MpiWorld& m) noexcept {
  set_end_mark(nullptr);
  m.end_mark.clear();
  if (m.end_marks != MPI_WIN_NULL) MPI_Win_free(&m.end_marks);
  if (m.machine != MPI_COMM_NULL) MPI_Comm_free(&m.machine);
}

bool ended_on_purpose(const MpiWorld& m, int rank) noexcept {
  if (rank < 0 || rank >= static_cast<int>(m.end_mark.size())) return false;
  unsigned char* mark = m.end_mark[static_cast<std::size_t>(rank)];
  return mark && std::atomic_ref<unsigned char>(*mark).load() != 0;
}

}  // namespace gpuscale::harness::detail
