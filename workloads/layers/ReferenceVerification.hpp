#pragma once
// Verifies a layer of any backend against the double-precision reference: fresh random inputs
// uploaded from the host, outputs poisoned (NaN) first, all three passes, relative error
// ||out - ref||_2 / ||ref||_2 against relative_error_limit(precision). NaN never passes.
#include <array>
#include <cstdint>
#include <span>

#include "phases/compute/ComputeRecord.hpp"
#include "workloads/layers/Layer.hpp"

namespace gpuscale::workloads {

// ||out - ref||_2 / ||ref||_2; NaN if `out` holds a NaN or an infinity; 0 when both are all zero.
double relative_error(std::span<const double> out, std::span<const double> ref);
// relative_error <= limit, false for NaN.
bool within_limit(double relative_error, double limit);

// Creates a layer for `spec` (shape as given: pick it with verification_shape) in `ctx`, runs forward,
// backward data and backward weight once on `stream` and compares each output with the reference.
// Returns the verifications in kAllPasses order. Local. Throws harness::OutOfMemoryError where it must.
// corrupt_for_test: the test seam; adds 10 to the first element of each output before comparing.
std::array<results::ComputeVerification, 3> verify_against_reference(ComputeContext& ctx, harness::Stream& stream,
                                                             const LayerSpec& spec, std::uint64_t seed,
                                                             double timeout_s, bool corrupt_for_test = false);

}  // namespace gpuscale::workloads
