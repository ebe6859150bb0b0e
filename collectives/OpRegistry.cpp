// The table of ops, built from the registry OpRegistry.def, and the `--ops` list syntax over it.
#include <algorithm>

#include "collectives/Op.hpp"
#include "harness/Error.hpp"
#include "results/base/Spelling.hpp"

namespace gpuscale::collectives {

#define GPUSCALE_COLLECTIVE(Name) extern const OpSpec k##Name;
#include "collectives/OpRegistry.def"
#undef GPUSCALE_COLLECTIVE

namespace {
constexpr const OpSpec* kOps[] = {
#define GPUSCALE_COLLECTIVE(Name) &k##Name,
#include "collectives/OpRegistry.def"
#undef GPUSCALE_COLLECTIVE
};
}  // namespace

Layout whole_buffer_layout(std::size_t elements, int, int) { return {elements, elements, elements, 0, 0}; }

double unit_busbw_factor(int) { return 1.0; }

std::uint64_t size_bytes(const Layout& l, harness::DataType type) {
  return static_cast<std::uint64_t>(std::max(l.send_count, l.recv_count)) * harness::size_of(type);
}

std::span<const OpSpec* const> all_ops() { return kOps; }

std::string op_names() {
  std::string out;
  for (const auto* op : kOps) out += (out.empty() ? "" : ", ") + std::string(op->name);
  return out;
}

const OpSpec& find_op(std::string_view name) {
  for (const auto* op : kOps)
    if (op->name == name) return *op;
  std::vector<std::string> names = {"all"};
  for (const auto* op : kOps) names.emplace_back(op->name);
  const auto guess = results::did_you_mean(name, names);
  throw harness::UsageError("unknown collective '" + std::string(name) + "'" +
                            (guess.empty() ? " (use " + op_names() + ", or all)" : guess));
}

std::vector<const OpSpec*> parse_ops(std::string_view list) {
  std::vector<const OpSpec*> out;
  auto add = [&out](const OpSpec* op) {
    if (std::find(out.begin(), out.end(), op) == out.end()) out.push_back(op);
  };
  for (;;) {
    const auto comma = list.find(',');
    const auto name = list.substr(0, comma);
    if (name == "all") {
      for (const auto* op : kOps) add(op);
    } else {
      add(&find_op(name));
    }
    if (comma == std::string_view::npos) return out;
    list = list.substr(comma + 1);
  }
}

}  // namespace gpuscale::collectives
