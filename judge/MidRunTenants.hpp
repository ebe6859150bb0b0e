#pragma once
// The tenants of a run, judged from its looks at the GPUs after every phase
// (results/schema/MidRunTenancy.hpp): records in, tenants out. A process on a rank's GPU that is not
// the job's (results/world/GpuTenants.hpp, the arithmetic env's own look is judged by, with every
// rank of the node as a possible holder of a context) and that env did not list there (env judged
// those) is a tenant from the first phase whose look lists it. A rank whose look lists none and reads
// busy (its second look where one was taken, at the report's busy_utilization_pct) is one with pid 0,
// once per rank. A tenant's phases: the one it appeared in and each later one at whose start or end a
// look on its rank found one; a phase with such a look on any rank is shared. The judge writes them
// into the report at every judgement (judge/Judge.hpp); the live watch (launch/TenancyWatch) asks it
// what a boundary found. Pure.
#include <string>
#include <vector>

#include "results/schema/MidRunTenancy.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::judge {

struct MidRunJudgement {
  std::vector<results::MidRunTenant> tenants;  // in the order they appeared
  std::vector<std::string> shared_phases;      // in the order of the looks
};

// `looks` in the order they were taken (phase by phase); `ranks`: the env records (a look of a rank
// without one is not judged).
MidRunJudgement judge_midrun_tenants(const std::vector<results::RankEnv>& ranks,
                                     const std::vector<results::TenancyLook>& looks, double busy_utilization_pct);

}  // namespace gpuscale::judge
