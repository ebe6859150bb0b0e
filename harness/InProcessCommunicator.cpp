// The cpu backend's local group: host "devices" of one process. Each member posts its part of an
// operation; when the last member posts, the operation runs on every member's memory at once.
#include <cstring>
#include <memory>
#include <vector>

#include "harness/Backend.hpp"
#include "harness/Error.hpp"
#include "harness/FaultInjection.hpp"
#include "harness/Interrupts.hpp"
#include "harness/LocalGroup.hpp"

namespace gpuscale::harness {
namespace {

enum class OpKind { broadcast, reduce, all_reduce };

struct Posted {
  OpKind kind;
  const void* send;
  void* recv;
  std::size_t count;
  DataType type;
  RedOp op;
  int root;
};

struct GroupState {
  explicit GroupState(int n) : posted(static_cast<std::size_t>(n)) {}
  std::vector<Posted> posted;
  int count = 0;
};

void reduce_into(std::vector<float>& acc, const void* data, std::size_t count) {
  const auto* f = static_cast<const float*>(data);
  for (std::size_t i = 0; i < count; ++i) acc[i] += f[i];
}

void run(std::vector<Posted>& all) {
  const Posted& first = all.front();
  const std::size_t bytes = first.count * size_of(first.type);
  const int n = static_cast<int>(all.size());
  if (first.kind == OpKind::broadcast) {
    const void* src = all[static_cast<std::size_t>(first.root)].send;
    for (auto& p : all)
      if (p.recv != src) std::memmove(p.recv, src, bytes);
    return;
  }
  if (first.type != DataType::float32) throw UsageError("the in-process group reduces float32 only");
  std::vector<float> acc(first.count, 0.0f);
  for (const auto& p : all) reduce_into(acc, p.send, first.count);
  if (first.op == RedOp::avg)
    for (auto& v : acc) v /= static_cast<float>(n);
  for (std::size_t r = 0; r < all.size(); ++r)
    if (first.kind == OpKind::all_reduce || static_cast<int>(r) == first.root)
      std::memcpy(all[r].recv, acc.data(), bytes);
}

class InProcessCommunicator final : public Communicator {
 public:
  InProcessCommunicator(std::shared_ptr<GroupState> state, int rank) : state_(std::move(state)), rank_(rank) {}
  int rank() const noexcept override { return rank_; }
  int size() const noexcept override { return static_cast<int>(state_->posted.size()); }
  std::string_view transport() const noexcept override { return "in-process"; }

  // Operations run when their last member posts, in the same thread: nothing waits.
  void all_reduce(const void* send, void* recv, std::size_t count, DataType t, RedOp op, Stream&,
                  const Deadline&) override {
    post({OpKind::all_reduce, send, recv, count, t, op, 0});
  }
  void broadcast(const void* send, void* recv, std::size_t count, DataType t, int root, Stream&,
                 const Deadline&) override {
    post({OpKind::broadcast, send, recv, count, t, RedOp::sum, root});
  }
  void reduce(const void* send, void* recv, std::size_t count, DataType t, RedOp op, int root, Stream&,
              const Deadline&) override {
    post({OpKind::reduce, send, recv, count, t, op, root});
  }
  void all_gather(const void*, void*, std::size_t, DataType, Stream&, const Deadline&) override {
    unsupported("all_gather");
  }
  void reduce_scatter(const void*, void*, std::size_t, DataType, RedOp, Stream&, const Deadline&) override {
    unsupported("reduce_scatter");
  }
  void all_to_all(const void*, void*, std::size_t, DataType, Stream&, const Deadline&) override {
    unsupported("all_to_all");
  }
  void send_recv(const void*, int, void*, int, std::size_t, DataType, Stream&, const Deadline&) override {
    unsupported("send_recv");
  }
  void group_start() override {}
  void group_end(const Deadline&) override {}
  void wait(Stream&, const Deadline& deadline, std::string_view what) override {  // as HostStream's
    wait_if_hung(deadline, what);
    poll_interrupts();
  }
  // Host memory has no window to register: the caller allocates from the backend.
  std::unique_ptr<Buffer> allocate_window(std::size_t, MemoryTracker*, const Deadline&) override { return nullptr; }

  std::unique_ptr<Communicator> split(int, int, const Deadline&, const CommConfig&) override {
    unsupported("split");
    return nullptr;
  }
  void abort() noexcept override {}

 private:
  [[noreturn]] static void unsupported(const char* op) {
    throw UsageError(std::string("the in-process group has no ") + op);
  }
  void post(const Posted& p) {
    auto& s = *state_;
    s.posted[static_cast<std::size_t>(rank_)] = p;
    if (++s.count < size()) return;
    s.count = 0;
    run(s.posted);
  }

  std::shared_ptr<GroupState> state_;
  int rank_;
};

}  // namespace

std::vector<std::unique_ptr<Communicator>> make_in_process_group(int members) {
  auto state = std::make_shared<GroupState>(members);
  std::vector<std::unique_ptr<Communicator>> out;
  for (int r = 0; r < members; ++r) out.push_back(std::make_unique<InProcessCommunicator>(state, r));
  return out;
}

}  // namespace gpuscale::harness
