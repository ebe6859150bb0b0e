// Each phase's running half alone: this binary links every gpuscale_run_NAME whole (every object, not
// only those the test calls) with the launch base and the layers below launch, and not the driver. A
// running half that calls the Job, the phase table or the budget fails to link here; each folder
// defines the spec its registry line names.
#include <string_view>

#include <gtest/gtest.h>

#include "launch/base/PhaseSpec.hpp"

namespace gpuscale::launch {

#define GPUSCALE_PHASE(name, ...) \
  namespace phases::name {        \
  extern const PhaseSpec kPhase;  \
  }
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE

namespace {

struct Registered {
  std::string_view name;
  const PhaseSpec* spec;
};

constexpr Registered kRegistered[] = {
#define GPUSCALE_PHASE(name, ...) {#name, &phases::name::kPhase},
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
};

TEST(RunPhases, EachFolderDefinesTheSpecOfItsRegistryLine) {
  ASSERT_GE(std::size(kRegistered), 1u);
  for (const auto& r : kRegistered) {
    EXPECT_EQ(r.spec->name, r.name);
    EXPECT_NE(r.spec->run, nullptr) << r.name;
    EXPECT_GT(r.spec->timeout_s, 0) << r.name;
    EXPECT_GT(r.spec->budget_weight, 0) << r.name;
  }
}

}  // namespace
}  // namespace gpuscale::launch
