#include "harness/MpiCommunicator.hpp"

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "harness/Backend.hpp"
#include "harness/FaultInjection.hpp"
#include "harness/HalfFloat.hpp"
#include "harness/LibraryCall.hpp"
#include "harness/Watchdog.hpp"
#include "harness/World.hpp"
#include "harness/detail/AbandonedMpi.hpp"
#include "harness/detail/MpiRequest.hpp"
#include "harness/detail/MpiWorld.hpp"

namespace gpuscale::harness {
namespace {

// MPI has no 16-bit floating types: they travel as 16-bit words and reduce through these ops.
template <float (*ToFloat)(std::uint16_t), std::uint16_t (*FromFloat)(float), int Op>
void reduce_16bit(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const std::uint16_t*>(in);
  auto* b = static_cast<std::uint16_t*>(inout);
  for (int i = 0; i < *len; ++i) {
    const float x = ToFloat(a[i]), y = ToFloat(b[i]);
    float r = 0;
    if constexpr (Op == 0) r = x + y;
    if constexpr (Op == 1) r = x * y;
    if constexpr (Op == 2) r = x < y ? x : y;
    if constexpr (Op == 3) r = x > y ? x : y;
    b[i] = FromFloat(r);
  }
}

MPI_Datatype mpi_type(DataType t) {
  switch (t) {
    case DataType::int8: return MPI_INT8_T;
    case DataType::uint8: return MPI_UINT8_T;
    case DataType::int32: return MPI_INT32_T;
    case DataType::uint32: return MPI_UINT32_T;
    case DataType::int64: return MPI_INT64_T;
    case DataType::uint64: return MPI_UINT64_T;
    case DataType::float16:
    case DataType::bfloat16: return MPI_UINT16_T;
    case DataType::float32: return MPI_FLOAT;
    case DataType::float64: return MPI_DOUBLE;
  }
  return MPI_BYTE;
}

int op_index(RedOp op) {
  switch (op) {
    case RedOp::sum:
    case RedOp::avg: return 0;
    case RedOp::prod: return 1;
    case RedOp::min: return 2;
    case RedOp::max: return 3;
  }
  return 0;
}

// Divides `count` elements in place by n: avg = sum / ranks, as NCCL defines it.
void divide(void* data, std::size_t count, DataType t, int n) {
  auto each = [&](auto* p) {
    for (std::size_t i = 0; i < count; ++i) p[i] = static_cast<std::remove_reference_t<decltype(*p)>>(p[i] / n);
  };
  switch (t) {
    case DataType::int8: each(static_cast<std::int8_t*>(data)); break;
    case DataType::uint8: each(static_cast<std::uint8_t*>(data)); break;
    case DataType::int32: each(static_cast<std::int32_t*>(data)); break;
    case DataType::uint32: each(static_cast<std::uint32_t*>(data)); break;
    case DataType::int64: each(static_cast<std::int64_t*>(data)); break;
    case DataType::uint64: each(static_cast<std::uint64_t*>(data)); break;
    case DataType::float32: each(static_cast<float*>(data)); break;
    case DataType::float64: each(static_cast<double*>(data)); break;
    case DataType::float16: {
      auto* p = static_cast<std::uint16_t*>(data);
      for (std::size_t i = 0; i < count; ++i) p[i] = float_to_half(half_to_float(p[i]) / static_cast<float>(n));
      break;
    }
    case DataType::bfloat16: {
      auto* p = static_cast<std::uint16_t*>(data);
      for (std::size_t i = 0; i < count; ++i)
        p[i] = float_to_bfloat16(bfloat16_to_float(p[i]) / static_cast<float>(n));
      break;
    }
  }
}

// Test seam (GPUSCALE_TEST_SLOW_NODE): a slowed rank sleeps this long after each operation. A fixed
// delay, not a multiple of the operation's time: that time includes waiting for another slowed rank's
// delay, and the delays would compound over a node's own collectives.
constexpr std::chrono::milliseconds kSlowDelay{200};

class Throttle {
 public:
  explicit Throttle(bool slow) : slow_(slow) {}
  ~Throttle() {
    if (slow_) std::this_thread::sleep_for(kSlowDelay);
  }
  Throttle(const Throttle&) = delete;
  Throttle& operator=(const Throttle&) = delete;

 private:
  bool slow_;
};

int checked_count(std::size_t count) {
  if (count > static_cast<std::size_t>(INT32_MAX)) {
    throw UsageError("the cpu backend moves at most 2^31-1 elements per operation");
  }
  return static_cast<int>(count);
}

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator(MPI_Comm comm, bool slow) : comm_(comm), slow_(slow) {
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    create_16bit_ops();
  }
  ~MpiCommunicator() override {
    // A nonblocking collective abandoned on the error path (detail/MpiRequest.hpp) may still be
    // progressed on this communicator with these ops: freeing them would hand MPI's progress engine
    // freed handles. The process is ending; they stay.
    if (detail::mpi_operation_abandoned()) return;
    for (auto& per_type : ops16_)
      for (auto& op : per_type)
        if (op != MPI_OP_NULL) MPI_Op_free(&op);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

  int rank() const noexcept override { return rank_; }
  int size() const noexcept override { return size_; }
  std::string_view transport() const noexcept override { return "mpi"; }

  void all_reduce(const void* send, void* recv, std::size_t count, DataType t, RedOp op, Stream&,
                  const Deadline& deadline) override {
    wait_if_hung(deadline, "allreduce");  // the hang seam: this op never runs, as on a stopped GPU
    const Throttle throttle(slow_);
    const std::size_t bytes = count * size_of(t);
    const void* in = stage(send, bytes, recv, bytes);
    detail::MpiRequest r(detail::MpiRequest::Kind::collective, staging_);
    GPUSCALE_MPI_OK(MPI_Iallreduce(in, recv, checked_count(count), mpi_type(t), mpi_op(t, op), comm_, r.handle()));
    r.wait(deadline, "allreduce");
    if (op == RedOp::avg) divide(recv, count, t, size_);
  }

  void all_gather(const void* send, void* recv, std::size_t count, DataType t, Stream&,
                  const Deadline& deadline) override {
    wait_if_hung(deadline, "allgather");
    const Throttle throttle(slow_);
    const std::size_t bytes = count * size_of(t);
    const void* in = stage(send, bytes, recv, bytes * static_cast<std::size_t>(size_));
    detail::MpiRequest r(detail::MpiRequest::Kind::collective, staging_);
    GPUSCALE_MPI_OK(MPI_Iallgather(in, checked_count(count), mpi_type(t), recv, checked_count(count),
                                      mpi_type(t), comm_, r.handle()));
    r.wait(deadline, "allgather");
  }

  void reduce_scatter(const void* send, void* recv, std::size_t count, DataType t, RedOp op, Stream&,
                  const Deadline& deadline) override {
    wait_if_hung(deadline, "reducescatter");
    const Throttle throttle(slow_);
    const std::size_t bytes = count * size_of(t);
    const void* in = stage(send, bytes * static_cast<std::size_t>(size_), recv, bytes);
    detail::MpiRequest r(detail::MpiRequest::Kind::collective, staging_);
    GPUSCALE_MPI_OK(
        MPI_Ireduce_scatter_block(in, recv, checked_count(count), mpi_type(t), mpi_op(t, op), comm_, r.handle()));
    r.wait(deadline, "reducescatter");
    if (op == RedOp::avg) divide(recv, count, t, size_);
  }

  void broadcast(const void* send, void* recv, std::size_t count, DataType t, int root, Stream&,
                  const Deadline& deadline) override {
    wait_if_hung(deadline, "broadcast");
    const Throttle throttle(slow_);
    const std::size_t bytes = count * size_of(t);
    if (rank_ == root && send != recv) std::memmove(recv, send, bytes);
    detail::MpiRequest r(detail::MpiRequest::Kind::collective, staging_);
    GPUSCALE_MPI_OK(MPI_Ibcast(recv, checked_count(count), mpi_type(t), root, comm_, r.handle()));
    r.wait(deadline, "broadcast");
  }

  void reduce(const void* send, void* recv, std::size_t count, DataType t, RedOp op, int root, Stream&,
                  const Deadline& deadline) override {
    wait_if_hung(deadline, "reduce");
    const Throttle throttle(slow_);
    const std::size_t bytes = count * size_of(t);
    const void* in = stage(send, bytes, recv, bytes);
    detail::MpiRequest r(detail::MpiRequest::Kind::collective, staging_);
    GPUSCALE_MPI_OK(MPI_Ireduce(in, rank_ == root ? recv : nullptr, checked_count(count), mpi_type(t),
                                   mpi_op(t, op), root, comm_, r.handle()));
    r.wait(deadline, "reduce");
    if (op == RedOp::avg && rank_ == root) divide(recv, count, t, size_);
  }

  void all_to_all(const void* send, void* recv, std::size_t count, DataType t, Stream&,
                  const Deadline& deadline) override {
    wait_if_hung(deadline, "alltoall");
    const Throttle throttle(slow_);
    const std::size_t bytes = count * size_of(t) * static_cast<std::size_t>(size_);
    const void* in = stage(send, bytes, recv, bytes);
    detail::MpiRequest r(detail::MpiRequest::Kind::collective, staging_);
    GPUSCALE_MPI_OK(MPI_Ialltoall(in, checked_count(count), mpi_type(t), recv, checked_count(count),
                                     mpi_type(t), comm_, r.handle()));
    r.wait(deadline, "alltoall");
  }

  void send_recv(const void* send, int send_peer, void* recv, int recv_peer, std::size_t count, DataType t,
                 Stream&, const Deadline& deadline) override {
    wait_if_hung(deadline, "sendrecv");
    const Throttle throttle(slow_);
    const std::size_t bytes = count * size_of(t);
    const void* in = stage(send, bytes, recv, bytes);
    using detail::MpiRequest;
    MpiRequest receiving(MpiRequest::Kind::point_to_point), sending(MpiRequest::Kind::point_to_point, staging_);
    GPUSCALE_MPI_OK(
        MPI_Irecv(recv, checked_count(count), mpi_type(t), recv_peer, kSendRecvTag, comm_, receiving.handle()));
    GPUSCALE_MPI_OK(
        MPI_Isend(in, checked_count(count), mpi_type(t), send_peer, kSendRecvTag, comm_, sending.handle()));
    sending.wait(deadline, "sendrecv (send)");
    receiving.wait(deadline, "sendrecv (receive)");
  }

  void group_start() override {}
  void group_end(const Deadline&) override {}
  void wait(Stream&, const Deadline& deadline, std::string_view what) override { wait_if_hung(deadline, what); }

  // Host memory has no window to register: the caller allocates from the backend.
  std::unique_ptr<Buffer> allocate_window(std::size_t, MemoryTracker*, const Deadline&) override { return nullptr; }

  std::unique_ptr<Communicator> split(int color, int key, const Deadline& deadline, const CommConfig&) override {
    MPI_Comm out = MPI_COMM_NULL;
    {
      const BlockingCall guard(deadline, "MPI_Comm_split");  // MPI has no nonblocking split
      GPUSCALE_MPI_OK(MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, key, &out));
    }
    if (out == MPI_COMM_NULL) return nullptr;
    return std::make_unique<MpiCommunicator>(out, slow_);
  }

  void abort() noexcept override {}  // MPI cannot abort one communicator; the job's abort ends it.

 private:
  static constexpr int kSendRecvTag = 4711;

  void create_16bit_ops() {
    MPI_User_function* half_ops[4] = {
        reduce_16bit<half_to_float, float_to_half, 0>, reduce_16bit<half_to_float, float_to_half, 1>,
        reduce_16bit<half_to_float, float_to_half, 2>, reduce_16bit<half_to_float, float_to_half, 3>};
    MPI_User_function* bf16_ops[4] = {
        reduce_16bit<bfloat16_to_float, float_to_bfloat16, 0>, reduce_16bit<bfloat16_to_float, float_to_bfloat16, 1>,
        reduce_16bit<bfloat16_to_float, float_to_bfloat16, 2>, reduce_16bit<bfloat16_to_float, float_to_bfloat16, 3>};
    for (int i = 0; i < 4; ++i) {
      GPUSCALE_MPI_OK(MPI_Op_create(half_ops[i], 1, &ops16_[0][i]));
      GPUSCALE_MPI_OK(MPI_Op_create(bf16_ops[i], 1, &ops16_[1][i]));
    }
  }

  MPI_Op mpi_op(DataType t, RedOp op) const {
    if (t == DataType::float16) return ops16_[0][op_index(op)];
    if (t == DataType::bfloat16) return ops16_[1][op_index(op)];
    static const MPI_Op kOps[4] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
    return kOps[op_index(op)];
  }

  // MPI forbids aliased send and receive buffers; NCCL allows them (in-place). Copy the input aside.
  const void* stage(const void* send, std::size_t send_bytes, const void* recv, std::size_t recv_bytes) {
    const auto* s = static_cast<const char*>(send);
    const auto* r = static_cast<const char*>(recv);
    if (s + send_bytes <= r || r + recv_bytes <= s) return send;
    staging_->assign(s, s + send_bytes);
    return staging_->data();
  }

  MPI_Comm comm_;
  bool slow_;
  int rank_ = 0, size_ = 1;
  MPI_Op ops16_[2][4] = {{MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL},
                         {MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL}};
  // Shared with the requests that read it, so that an abandoned one keeps it (detail/MpiRequest.hpp).
  std::shared_ptr<std::vector<char>> staging_ = std::make_shared<std::vector<char>>();
};

}  // namespace

std::unique_ptr<Communicator> make_mpi_communicator(const World& world, const Deadline& deadline) {
  const MPI_Comm comm = detail::duplicate(world.mpi().world, deadline,
                                         "MPI_Comm_idup (the duplication of the world for a communicator)");
  return std::make_unique<MpiCommunicator>(comm, slowed_node() == world.node());
}

}  // namespace gpuscale::harness
