// gpu-in-use for a process that appeared mid-run: named with its phase, PID, name and memory; error
// when it computes or the GPU was busy, warning when it only holds memory; JSON round trip.
#include "results/schema/MidRunTenancy.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/TenancyChecks.hpp"
#include "results/base/CheckIds.hpp"

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

MidRunTenant tenant(bool compute) {
  return {"compute", 3, "node7", "GPU 0000:1b:00.0 (NVIDIA H200)", {4242, "gpu_tenant", compute, 96ull << 20}, {}, {}};
}

TEST(MidRunTenancy, NamesThePhasePidNameAndMemory) {
  std::vector<Check> out;
  midrun_tenancy_checks(RunReport{}, {tenant(true), tenant(false)}, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].id, check_ids::kGpuInUse);
  EXPECT_EQ(out[0].severity, Severity::error);
  EXPECT_EQ(out[0].ranks, std::vector<int>{3});
  EXPECT_EQ(out[0].blocks_gpu_work, GpuBlock::none);
  EXPECT_NE(out[0].message.find("GPU 0000:1b:00.0 (NVIDIA H200) on node7: another process appeared during compute: "
                                "PID 4242 (gpu_tenant, 96 MiB) computes on it"),
            std::string::npos)
      << out[0].message;
  EXPECT_EQ(out[1].severity, Severity::warning);
  EXPECT_NE(out[1].message.find("holds memory on it"), std::string::npos) << out[1].message;
}

TEST(MidRunTenancy, ABusyGpuWithoutAListedProcessIsAnError) {
  MidRunTenant t = tenant(false);
  t.process = {};
  t.utilization_pct = 37;
  std::vector<Check> out;
  midrun_tenancy_checks(RunReport{}, {t}, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].severity, Severity::error);
  EXPECT_NE(out[0].message.find("37% busy while the job was idle"), std::string::npos) << out[0].message;
}

TEST(MidRunTenancy, RoundTripsThroughJson) {
  MidRunTenant t = tenant(true);
  t.phases = {"compute", "burn"};
  const auto back = nlohmann::json(t).get<MidRunTenant>();
  EXPECT_EQ(back.phase, "compute");
  EXPECT_EQ(back.phases, t.phases);
  EXPECT_FALSE(nlohmann::json(tenant(true)).contains("phases")) << "an empty list is left out";
  EXPECT_EQ(back.process.pid, 4242);
  EXPECT_EQ(back.process.used_memory_bytes, t.process.used_memory_bytes);
  EXPECT_FALSE(back.utilization_pct);
  EXPECT_TRUE(measured_shared({"compute", "burn"}, "burn"));
  EXPECT_FALSE(measured_shared({"compute"}, "train"));
}

}  // namespace
}  // namespace gpuscale::results
