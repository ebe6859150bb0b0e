// A fatal error marks the process as ending, so destructors that would wait on the device skip it
// (Error.hpp fatal_error_raised); a recoverable error (out of memory, turned into a skipped record)
// does not. Each test runs in its own process (gtest_discover_tests), so the flag starts clear.
#include <gtest/gtest.h>

#include "harness/Error.hpp"

namespace gpuscale::harness {
namespace {

TEST(FatalError, ATimeoutMarksTheProcessAsEnding) {
  EXPECT_FALSE(fatal_error_raised());
  const TimeoutError error("timed out waiting for a timed interval");
  EXPECT_TRUE(fatal_error_raised());
}

TEST(FatalError, OutOfMemoryDoesNot) {
  try {
    throw_library_error("cuda", 2, "cudaErrorMemoryAllocation", "out of memory", "cudaMalloc(&p, n)", __FILE__,
                        __LINE__, /*out_of_memory=*/true);
  } catch (const OutOfMemoryError&) {
  }
  EXPECT_FALSE(fatal_error_raised());
}

}  // namespace
}  // namespace gpuscale::harness
