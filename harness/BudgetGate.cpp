#include "harness/BudgetGate.hpp"

#include "harness/World.hpp"

namespace gpuscale::harness {

bool BudgetGate::spent() {
  if (!world_ || spent_) return spent_;
  unsigned char answer = world_->rank() == 0 && share_end_.expired() ? 1 : 0;
  world_->broadcast_bytes(&answer, sizeof answer, 0, Deadline::after(wait_s_));
  spent_ = answer != 0;
  return spent_;
}

}  // namespace gpuscale::harness
