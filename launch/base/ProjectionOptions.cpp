#include "launch/base/ProjectionOptions.hpp"

#include <algorithm>
#include <string>

#include "harness/Error.hpp"
#include "launch/base/OptionValue.hpp"

namespace gpuscale::launch {
namespace {

std::string default_text() {
  std::string text;
  for (const int r : kDefaultProjectRanks) text += (text.empty() ? "" : ",") + std::to_string(r);
  return text;
}

int parse_ranks(const std::string& item, std::string_view text) {
  const auto bad = [&](const std::string& why) {
    return harness::UsageError("--project-ranks " + std::string(text) + ": '" + item + "' " + why);
  };
  if (item.empty() || item.size() > 9 || !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw bad("is not a rank count (a comma list of whole numbers, or none)");
  const long value = std::stol(item);
  if (value < 2 || value > kMaxProjectRanks)
    throw bad("must be in 2.." + std::to_string(kMaxProjectRanks));
  return static_cast<int>(value);
}

}  // namespace

void add_projection_options(cxxopts::Options& o) {
  o.add_options("projection")
      ("project-ranks", "project collectives and DDP steps to these job sizes (ranks, at the measured GPUs per "
                        "node); none disables it (default " + default_text() + ")",
       cxxopts::value<std::string>(), "LIST");
}

std::vector<int> parse_project_ranks(std::string_view text) {
  if (text == "none") return {};
  std::vector<int> ranks;
  for (const auto& item : split_list(std::string(text), ',')) ranks.push_back(parse_ranks(item, text));
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

std::vector<int> default_project_ranks() {
  return {std::begin(kDefaultProjectRanks), std::end(kDefaultProjectRanks)};
}

std::vector<int> project_ranks(const cxxopts::ParseResult& r) {
  if (!r.count("project-ranks")) return default_project_ranks();
  return parse_project_ranks(option<std::string>(r, "project-ranks", ""));
}

}  // namespace gpuscale::launch
