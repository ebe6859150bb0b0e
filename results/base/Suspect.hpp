#pragma once
// A suspect: a node the judge names as the one slow traffic is localised to, from the slow-node
// isolation's measurements (phases/collectives/SuspectRanking.hpp ranks them). The judge's output, kept
// beside the records (RunReport::suspects) and not in them, so that the isolation's record holds
// measurements only and a file read back is ranked afresh; the JSON still writes them in the isolation's
// object, as collectives.isolation.suspects. Below the phases: it names no phase's record.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

struct Suspect {
  int node = 0;
  std::string host;
  double score = 0;        // share of its rounds it failed, among those not explained by a worse suspect
  int rounds_failed = 0;
  int rounds_counted = 0;  // rounds played, less those with a partner named before it
  bool by_bisection = false;
  bool by_node_local = false;  // its node-local allreduce lay out of the other nodes' (SuspectRanking.hpp)
  std::string evidence;
};

// The isolation's suspects, most suspect first, as the judge last ranked them.
struct SuspectList {
  std::vector<Suspect> ranked;
  // The file saved no measurement of the isolation, only the suspects its run ranked: those were kept
  // as they were, not judged again (collectives.isolation.suspects_not_rejudged).
  bool not_rejudged = false;
};

constexpr auto json_fields(const Suspect*) {
  using T = Suspect;
  return optional_fields(field("node", &T::node), field("host", &T::host), field("score", &T::score),
                         field("rounds_failed", &T::rounds_failed), field("rounds_counted", &T::rounds_counted),
                         field("by_bisection", &T::by_bisection), field("by_node_local", &T::by_node_local),
                         field("evidence", &T::evidence));
}

void to_json(nlohmann::json& j, const Suspect& v);
void from_json(const nlohmann::json& j, Suspect& v);

// Writes `suspects` into the isolation's JSON object (`suspects`, and `suspects_not_rejudged` where
// true); reads them back out of it (none where the key is absent).
void write_suspects(nlohmann::json& isolation, const SuspectList& suspects);
void read_suspects(const nlohmann::json& isolation, SuspectList& out);

}  // namespace gpuscale::results
