#pragma once
// A phase's share of the run's time budget, as a question every rank answers alike: "is the share
// spent?". Rank 0 reads its clock and broadcasts the answer, so ranks never split into different
// collectives (one rank dropping a size that another measures would hang both).
#include "harness/Deadline.hpp"

namespace gpuscale::harness {

class World;

class BudgetGate {
 public:
  // Unbounded: spent() is false at once on every rank, without communicating.
  BudgetGate() = default;
  // `share_end` is read on world rank 0 only; `wait_s` bounds each broadcast of the answer.
  BudgetGate(const World& world, Deadline share_end, double wait_s)
      : world_(&world), share_end_(share_end), wait_s_(wait_s) {}

  // Collective over the world when bounded: every rank calls it at the same point of the same loop.
  // Once true it stays true, on every rank, without communicating again.
  bool spent();
  bool bounded() const { return world_ != nullptr; }
  // Local, no communication: what spent() answered last (the same on every rank).
  bool was_spent() const { return spent_; }

 private:
  const World* world_ = nullptr;
  Deadline share_end_ = Deadline::never();
  double wait_s_ = 0;
  bool spent_ = false;
};

}  // namespace gpuscale::harness
