#include "workloads/train/Buckets.hpp"

namespace gpuscale::workloads {

BucketPlan assign_buckets(const std::vector<std::size_t>& layer_elements, std::size_t element_bytes,
                          std::size_t first_cap_bytes, std::size_t cap_bytes) {
  BucketPlan plan;
  plan.layer_offset.assign(layer_elements.size(), 0);
  plan.bucket_of_layer.assign(layer_elements.size(), 0);
  Bucket open;
  auto close = [&] {
    open.offset = plan.total_elements;
    for (int l : open.layers) {
      plan.layer_offset[static_cast<std::size_t>(l)] = plan.total_elements;
      plan.bucket_of_layer[static_cast<std::size_t>(l)] = static_cast<int>(plan.buckets.size());
      plan.total_elements += layer_elements[static_cast<std::size_t>(l)];
    }
    plan.buckets.push_back(std::move(open));
    open = Bucket{};
  };
  for (std::size_t i = layer_elements.size(); i-- > 0;) {
    open.layers.push_back(static_cast<int>(i));
    open.elements += layer_elements[i];
    const std::size_t cap = plan.buckets.empty() ? first_cap_bytes : cap_bytes;
    if (cap > 0 && open.elements * element_bytes >= cap) close();
  }
  if (!open.layers.empty()) close();
  return plan;
}

}  // namespace gpuscale::workloads
