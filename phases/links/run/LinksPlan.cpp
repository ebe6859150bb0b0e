#include "phases/links/run/LinksPlan.hpp"

#include "harness/Error.hpp"
#include "harness/SizeParse.hpp"
#include "launch/base/OptionValue.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch {
namespace {

using harness::UsageError;

constexpr int kMaxRepeats = 1000;
constexpr std::uint64_t kMaxCopyBytes = 64ull << 30;

void check_size(std::uint64_t bytes, const char* option) {
  if (bytes > kMaxCopyBytes)
    throw UsageError(std::string("--") + option + " " + std::to_string(bytes) + ": at most " +
                     results::binary_bytes(static_cast<double>(kMaxCopyBytes)) + "B");
}

}  // namespace

void add_links_options(cxxopts::Options& o) {
  const Profile d = make_profile(false, false);
  auto add = o.add_options("links");
  add("sizes", "pinned host copy sizes, comma list (default " + size_list_text(d.links.pinned_bytes) + ")",
      cxxopts::value<std::string>(), "LIST");
  add("pageable-size",
      "pageable host copy size, 0 for none (default " + results::binary_bytes(double(d.links.pageable_bytes)) + ")",
      cxxopts::value<std::string>(), "S");
  add("hbm-size", "each device memory buffer of the copy and triad, 0 for none (default " +
                      results::binary_bytes(double(d.links.hbm_bytes)) + ")",
      cxxopts::value<std::string>(), "S");
  add("repeats", "timed copies per configuration, after one warm-up (default " + std::to_string(d.links.repeats) + ")",
      cxxopts::value<int>(), "N");
}

LinksPlan parse_links_plan(const cxxopts::ParseResult& r, const Profile& profile) {
  LinksPlan plan;
  auto& l = plan.links;
  l.pinned_bytes = r.count("sizes") ? harness::parse_size_list(option<std::string>(r, "sizes", ""), "--sizes")
                                    : profile.links.pinned_bytes;
  for (const auto s : l.pinned_bytes) check_size(s, "sizes");
  l.pageable_bytes = size_option(r, "pageable-size", profile.links.pageable_bytes, true);
  check_size(l.pageable_bytes, "pageable-size");
  l.hbm_bytes = size_option(r, "hbm-size", profile.links.hbm_bytes, true);
  check_size(l.hbm_bytes, "hbm-size");
  l.repeats = option_within(r, "repeats", profile.links.repeats, 1, kMaxRepeats);
  return plan;
}


}  // namespace gpuscale::launch
