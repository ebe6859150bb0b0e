#pragma once
// Internal to harness: whether host memory must no longer be returned to the allocator because an
// MPI operation that may still write into it was abandoned (detail/MpiRequest.hpp). Set once, on the
// error path of a process that is about to end; never cleared. No MPI types here.
namespace gpuscale::harness::detail {

void hold_host_memory() noexcept;
bool host_memory_held() noexcept;

}  // namespace gpuscale::harness::detail
