#pragma once
// DDP's gradient buckets (like torch's compute_bucket_assignment_by_size): parameters are taken in
// reverse layer order, the order backward produces their gradients, and appended to the open
// bucket; a bucket closes once it holds at least its cap (the first bucket's cap is small, 1 MiB,
// so the first allreduce starts early; later ones 25 MiB). A parameter larger than the cap is a
// bucket of its own. Gradients are views into one flat buffer laid out bucket after bucket.
#include <cstddef>
#include <vector>

namespace gpuscale::workloads {

struct Bucket {
  std::vector<int> layers;       // layer indices, in the order backward reaches them (descending)
  std::size_t offset = 0;        // first element in the flat gradient buffer
  std::size_t elements = 0;
};

struct BucketPlan {
  std::vector<Bucket> buckets;                 // in launch order
  std::vector<std::size_t> layer_offset;       // per layer (index = layer): first element of its grad
  std::vector<int> bucket_of_layer;            // per layer
  std::size_t total_elements = 0;
};

// layer_elements: parameters per layer, in layer (forward) order. Caps are bytes of `element_bytes`
// elements; a cap of 0 puts every layer in one bucket.
BucketPlan assign_buckets(const std::vector<std::size_t>& layer_elements, std::size_t element_bytes,
                          std::size_t first_cap_bytes, std::size_t cap_bytes);

}  // namespace gpuscale::workloads
