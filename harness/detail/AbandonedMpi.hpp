#pragma once
// Internal to harness: whether an MPI operation was abandoned (detail/MpiRequest.hpp), so that MPI
// may still read or write its host buffers and still progress it on its communicator with its ops.
// From then on host buffers are not returned to the allocator and communicators and ops are not
// freed. Set once, on the error path of a process that is about to end; never cleared. No MPI types.
namespace gpuscale::harness::detail {

void note_mpi_operation_abandoned() noexcept;
bool mpi_operation_abandoned() noexcept;

}  // namespace gpuscale::harness::detail
