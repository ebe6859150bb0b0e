// The phase's timeout reaches every workload as a parameter of its run functions, never as a field of
// an option or setup struct, where a caller that forgot to set it made every wait time out at once:
// a struct that gains a timeout again, or a run function callable without one, fails here.
#include <type_traits>

#include <gtest/gtest.h>

#include "workloads/burn/Burn.hpp"
#include "workloads/compute/ComputeRun.hpp"
#include "workloads/layers/ContextFactory.hpp"
#include "workloads/links/LinksRun.hpp"
#include "workloads/train/TrainRun.hpp"
#include "workloads/train/TrainVerification.hpp"

namespace gpuscale::workloads {
namespace {

template <class T>
constexpr bool holds_a_timeout = requires(const T& t) { t.timeout_s; };

TEST(WorkloadTimeout, NoOptionOrSetupStructHoldsOne) {
  EXPECT_FALSE(holds_a_timeout<TuningOptions>);
  EXPECT_FALSE(holds_a_timeout<BenchOptions>);
  EXPECT_FALSE(holds_a_timeout<ComputePlan>);
  EXPECT_FALSE(holds_a_timeout<ComputeRunSetup>);
  EXPECT_FALSE(holds_a_timeout<BurnOptions>);
  EXPECT_FALSE(holds_a_timeout<LinkOptions>);
  EXPECT_FALSE(holds_a_timeout<TimingOptions>);
  EXPECT_FALSE(holds_a_timeout<TrainBenchOptions>);
  EXPECT_FALSE(holds_a_timeout<VerificationSetup>);
  EXPECT_FALSE(holds_a_timeout<TrainPlan>);
  EXPECT_FALSE(holds_a_timeout<TrainRunSetup>);
}

template <auto F, class... Args>
constexpr bool callable_with = std::is_invocable_v<decltype(F), Args...>;

TEST(WorkloadTimeout, RunFunctionsTakeThePhasesTime) {
  EXPECT_FALSE((callable_with<&run_compute, ComputePlan, ComputeRunSetup&>));
  EXPECT_TRUE((callable_with<&run_compute, ComputePlan, ComputeRunSetup&, double>));
  EXPECT_FALSE((callable_with<&run_training, const TrainPlan&, TrainRunSetup&>));
  EXPECT_TRUE((callable_with<&run_training, const TrainPlan&, TrainRunSetup&, double>));
  EXPECT_FALSE((callable_with<&run_burn, ComputeContext&, harness::Stream&, const BurnOptions&>));
  EXPECT_TRUE((callable_with<&run_burn, ComputeContext&, harness::Stream&, const BurnOptions&, double>));
  EXPECT_FALSE((callable_with<&make_compute_context, harness::Backend&, harness::Stream&, const TuningOptions&>));
  EXPECT_TRUE(
      (callable_with<&make_compute_context, harness::Backend&, harness::Stream&, const TuningOptions&, double>));
  EXPECT_FALSE((callable_with<&run_train_verification, const VerificationSetup&>));
  EXPECT_TRUE((callable_with<&run_train_verification, const VerificationSetup&, double>));
}

}  // namespace
}  // namespace gpuscale::workloads
