#pragma once
// The host side of a rank's environment: who we are in the job, the CPU and its binding, the
// launcher, the allow-listed environment variables (local, no communication; the variables' own
// functions are in probes/JobVariables.hpp).

namespace gpuscale::results {
struct RankEnv;
}

namespace gpuscale::harness {
class World;
}

namespace gpuscale::probes {

void probe_host(const harness::World& world, results::RankEnv& env);

}  // namespace gpuscale::probes
