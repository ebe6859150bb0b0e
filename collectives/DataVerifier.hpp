#pragma once
// Writes the pattern's inputs and counts wrong outputs where the data lives: on the GPU with kernels
// (DeviceDataVerifier.cu), in host memory on the cpu backend (HostDataVerifier.cpp). Pointers may point
// inside a Buffer (in-place layouts). Work is enqueued on `stream`.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "collectives/Pattern.hpp"
#include "harness/Backend.hpp"
#include "harness/DataType.hpp"

namespace gpuscale::collectives {

class DataVerifier {
 public:
  virtual ~DataVerifier() = default;
  DataVerifier() = default;
  DataVerifier(const DataVerifier&) = delete;
  DataVerifier& operator=(const DataVerifier&) = delete;

  // Element i of data = pattern::input(spec, spec.rank, i), for i < count.
  virtual void fill(void* data, std::size_t count, harness::DataType type, const pattern::Spec& spec,
                    harness::Stream& stream) = 0;
  // Zeroes `bytes`: no expected value is zero, so an element the op never wrote counts as wrong.
  virtual void clear(void* data, std::size_t bytes, harness::Stream& stream) = 0;
  // Elements i < count that differ from pattern::expected(spec, i). Waits for the stream (deadline).
  virtual std::uint64_t count_wrong(const void* data, std::size_t count, harness::DataType type,
                                    const pattern::Spec& spec, harness::Stream& stream,
                                    const harness::Deadline& deadline) = 0;
};

std::unique_ptr<DataVerifier> make_host_data_verifier();
// Defined by DeviceDataVerifier.cu where the CUDA backend is built; elsewhere it throws.
std::unique_ptr<DataVerifier> make_device_data_verifier();
// The check that matches where `backend` keeps its buffers.
std::unique_ptr<DataVerifier> make_data_verifier(const harness::Backend& backend);

}  // namespace gpuscale::collectives
