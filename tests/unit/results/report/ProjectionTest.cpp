#include "results/models/ProjectionBuild.hpp"

#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "results/models/ProjectionModel.hpp"
#include "results/render/ProjectionReporter.hpp"
#include "results/report/ConsoleReporter.hpp"
#include "results/report/CsvReporter.hpp"
#include "results/report/HtmlReporter.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {
namespace {

constexpr double kProjAlpha = 14e-6;        // allreduce over 8 ranks: 14 steps of 1 us
constexpr double kProjBeta = 1.75 / 200e9;  // factor 1.75 over a 200 GB/s link

CollectiveSweep allreduce_sweep(int ranks, double alpha, double beta) {
  CollectiveSweep s;
  s.op = "allreduce";
  s.ranks = ranks;
  s.group = "world";
  s.busbw_factor = 2.0 * (ranks - 1) / ranks;
  for (std::uint64_t n = 8; n <= (1u << 26); n *= 4) {
    CollectiveRow r;
    r.size_bytes = n;
    r.out_of_place.measured = true;
    r.out_of_place.time_s = alpha + static_cast<double>(n) * beta;
    s.rows.push_back(r);
  }
  return s;
}

TrainRecord ddp_record(int gpus) {
  TrainRecord r;
  r.strategy = "ddp";
  r.model = "mlp";
  r.precision = "bf16";
  r.scaling = "weak";
  r.gpus = gpus;
  r.batch_per_gpu = 256;
  r.buckets = 10;
  r.parameter_bytes = 400'000'000;  // fp32: 1e8 parameters
  r.grad_dtype = "bf16";            // 200 MB allreduced per step
  r.compute_s = 0.1;
  r.comm_s = 0.01;
  r.overlap_pct = 60;
  return r;
}

RunReport one_node_report() {
  RunReport r;
  r.world_size = 8;
  r.node_count = 1;
  r.collectives.emplace();
  r.collectives->sweeps.push_back(allreduce_sweep(8, kProjAlpha, kProjBeta));
  r.train.records.push_back(ddp_record(8));
  return r;
}

TEST(Projection, FitsTheWorldSweepAsTheIntraNodeTierOfOneNode) {
  const auto p = build_projection(one_node_report(), {512, 1024});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->gpus_per_node, 8);
  ASSERT_EQ(p->fits.size(), 1u);
  const auto& f = p->fits[0];
  EXPECT_EQ(f.tier, "intra-node");
  EXPECT_EQ(f.source, "sweep");
  EXPECT_NEAR(f.fit.alpha_s / kProjAlpha, 1, 1e-9);
  EXPECT_NEAR(f.link_alpha_s, 1e-6, 1e-15);
  EXPECT_NEAR(1 / f.link_beta_s_per_byte, 200e9, 1);
  // No inter-node tier: said once per op, and every multi-node row names the optimistic stand-in.
  ASSERT_EQ(p->notes.size(), 1u);
  EXPECT_NE(p->notes[0].find("optimistic"), std::string::npos);
  // 2 targets x (ring, tree) x the sizes.
  ASSERT_EQ(p->collectives.size(), 2 * 2 * std::size(kProjectionSizes));
  for (const auto& c : p->collectives) {
    EXPECT_NE(c.bottleneck.find("optimistic"), std::string::npos);
    const double want = projected_time_s("allreduce", c.algorithm == "ring" ? Algorithm::ring : Algorithm::tree,
                                         JobShape{c.ranks, 8}, static_cast<double>(c.size_bytes),
                                         {1e-6, 1 / 200e9}, {1e-6, 1 / 200e9});
    EXPECT_NEAR(c.time_s / want, 1, 1e-6);
  }
}

// DDP: buckets x t(mean bucket) of the faster algorithm; exposed = comm x (1 - overlap); step = compute + exposed.
TEST(Projection, ProjectsTheDdpStepFromComputeOverlapAndBuckets) {
  const auto p = build_projection(one_node_report(), {512});
  ASSERT_TRUE(p);
  ASSERT_EQ(p->ddp.size(), 1u);
  const auto& d = p->ddp[0];
  EXPECT_EQ(d.gradient_bytes, 200'000'000u);
  // 512 ranks on 64 nodes, link alpha 1 us, 200 GB/s: tree latency 2 (7 + 6) us = 26 us per bucket;
  // bandwidth 2 x 511/512 x 20 MB / 200 GB/s per bucket.
  const double per_bucket = 26e-6 + 2.0 * 511 / 512 * 20e6 / 200e9;
  EXPECT_EQ(d.algorithm, "tree");
  EXPECT_NEAR(d.comm_s, 10 * per_bucket, 1e-12);
  EXPECT_NEAR(d.exposed_comm_s, 0.4 * d.comm_s, 1e-12);
  EXPECT_NEAR(d.step_s, 0.1 + 0.4 * d.comm_s, 1e-12);
  EXPECT_NEAR(d.samples_per_s, 256.0 * 512 / d.step_s, 1e-6);
  EXPECT_NEAR(d.efficiency, 0.1 / d.step_s, 1e-12);
  // At the measured 8 ranks: 10 x (14 us + 1.75 x 20 MB / 200 GB/s).
  EXPECT_NEAR(d.modelled_comm_at_measured_s, 10 * (14e-6 + 1.75 * 20e6 / 200e9), 1e-12);
}

TEST(Projection, UsesTheInterNodeTierAcrossNodes) {
  RunReport r;
  r.world_size = 16;
  r.node_count = 2;
  r.collectives.emplace();
  // Inter-node: one rank per node (2 ranks): 2 steps of 5 us, 25 GB/s.
  for (const std::uint64_t n : {8ull, 1ull << 20, 64ull << 20}) {
    ScalingPoint s;
    s.group = "inter-node";
    s.ranks = 2;
    s.op = "allreduce";
    s.size_bytes = n;
    s.time_s = 10e-6 + static_cast<double>(n) / 25e9;
    r.collectives->scaling.push_back(s);
    s.group = "intra-node";
    s.ranks = 8;
    s.time_s = 14e-6 + 1.75 * static_cast<double>(n) / 200e9;
    r.collectives->scaling.push_back(s);
  }
  const auto p = build_projection(r, {4096});
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->notes.empty());
  ASSERT_EQ(p->fits.size(), 2u);
  EXPECT_EQ(p->fits[0].tier, "intra-node");
  EXPECT_EQ(p->fits[1].tier, "inter-node");
  EXPECT_NEAR(1 / p->fits[1].link_beta_s_per_byte, 25e9, 1e3);
  for (const auto& c : p->collectives) {
    EXPECT_EQ(c.bottleneck, "inter-node");
    // Tree's latency is logarithmic, so at 1 GiB its busbw is the inter-node link's; the ring's
    // 8190 steps of 5 us are not.
    if (c.size_bytes == (1ull << 30) && c.algorithm == "tree") {
      EXPECT_NEAR(c.busbw_gbps, 25, 0.5);
    }
  }
}

// NCCL's model of the 8-rank world communicator: Ring/Simple 20 us + n / 100 GB/s, Tree/LL 5 us and
// 1 GB/s, and a pair it does not run (bandwidth 0), which is never chosen.
NcclModel nccl_model(int ranks, int nodes) {
  return {ranks, nodes,
          {{"allreduce", "Ring", "Simple", 20, 100}, {"allreduce", "Tree", "LL", 5, 1},
           {"allreduce", "NVLS", "Simple", 1, 0}, {"allgather", "Ring", "Simple", 1, 1000}}};
}

TEST(Projection, ShowsNcclsOwnModelBesideTheFitOfTheSameCommunicator) {
  RunReport r = one_node_report();
  r.collectives->nccl_models = {nccl_model(8, 2), nccl_model(8, 1)};  // the first is another shape
  r.projection = build_projection(r, {512});
  ASSERT_TRUE(r.projection);
  const auto& f = r.projection->fits.at(0);
  ASSERT_EQ(f.nccl_model.size(), std::size(kProjectionSizes));
  EXPECT_EQ(f.nccl_model[0].size_bytes, 8u);
  EXPECT_NEAR(f.nccl_model[0].nccl_s, 5e-6 + 8 / 1e9, 1e-12);  // Tree/LL at 8 B
  EXPECT_EQ(f.nccl_model[0].nccl_choice, "Tree/LL");
  EXPECT_NEAR(f.nccl_model[0].fitted_s, kProjAlpha + 8 * kProjBeta, 1e-12);
  EXPECT_NEAR(f.nccl_model[3].nccl_s, 20e-6 + (1 << 30) / 100e9, 1e-9);  // Ring/Simple at 1 GiB
  EXPECT_EQ(f.nccl_model[3].nccl_choice, "Ring/Simple");
  const nlohmann::json j = r;
  RunReport back;
  from_json(j, back);
  EXPECT_EQ(nlohmann::json(*back.projection), j.at("projection"));
  std::ostringstream console, csv;
  ConsoleReporter().write(back, console);
  EXPECT_NE(console.str().find("NCCL's own cost model"), std::string::npos) << console.str();
  EXPECT_NE(console.str().find("(Tree/LL)"), std::string::npos);
  CsvReporter().write(back, csv);
  EXPECT_NE(csv.str().find("projection,nccl_model_time,"), std::string::npos);
}

TEST(Projection, SaysWhenNcclsModelIsOfNoFittedCommunicator) {
  RunReport r = one_node_report();
  r.collectives->nccl_models = {nccl_model(2, 2)};
  const auto p = build_projection(r, {512});
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->fits.at(0).nccl_model.empty());
  std::ostringstream console;
  write_projection(*p, console);
  EXPECT_EQ(console.str().find("NCCL's own cost model"), std::string::npos);
  ASSERT_EQ(p->notes.size(), 2u);
  EXPECT_NE(p->notes[0].find("no communicator a tier was fitted on"), std::string::npos) << p->notes[0];
}

TEST(Projection, NothingToProjectWithoutTargetsOrCollectives) {
  EXPECT_FALSE(build_projection(one_node_report(), {}));
  RunReport none;
  EXPECT_FALSE(build_projection(none, {512}));
  RunReport one_rank = one_node_report();
  one_rank.collectives->sweeps = {allreduce_sweep(1, kProjAlpha, kProjBeta)};
  const auto p = build_projection(one_rank, {512});
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->fits.empty());
  EXPECT_TRUE(p->collectives.empty());
  ASSERT_EQ(p->notes.size(), 1u);
}

TEST(Projection, RoundTripsThroughTheReportAndShowsInEveryOutput) {
  RunReport r = one_node_report();
  r.projection = build_projection(r, {512});
  const nlohmann::json j = r;
  ASSERT_TRUE(j.contains("projection"));
  RunReport back;
  from_json(j, back);
  ASSERT_TRUE(back.projection);
  EXPECT_EQ(nlohmann::json(*back.projection), j.at("projection"));
  std::ostringstream console, csv;
  ConsoleReporter().write(back, console);
  EXPECT_NE(console.str().find("Projection to 512 ranks"), std::string::npos);
  CsvReporter().write(back, csv);
  EXPECT_NE(csv.str().find("projection,projected_step_time,"), std::string::npos);
  EXPECT_NE(csv.str().find("projection,fit_alpha,"), std::string::npos);
}

// A fit of ranks sharing a GPU times their contention: each output says so where it shows the fits.
TEST(Projection, SaysBesideTheFitsThatRanksSharedAGpu) {
  RunReport r = one_node_report();
  r.emulation = Emulation{1, true};
  r.projection = build_projection(r, {512});
  ASSERT_TRUE(r.projection);
  ASSERT_FALSE(r.projection->fits.empty());
  const auto note = shared_gpu_fit_note();
  EXPECT_NE(note.find("GPUSCALE_TEST_SHARE_GPU=1"), std::string::npos) << note;
  ASSERT_FALSE(r.projection->notes.empty());
  EXPECT_EQ(r.projection->notes.front(), note);
  const nlohmann::json j = r;
  EXPECT_EQ(j.at("projection").at("notes").at(0), note);
  RunReport back;
  from_json(j, back);
  std::ostringstream console, html;
  ConsoleReporter().write(back, console);
  const auto at = console.str().find("note: " + note);
  ASSERT_NE(at, std::string::npos) << console.str();
  EXPECT_LT(at, console.str().find("alpha(us)"));  // above the fits' table
  HtmlReporter().write(back, html);
  const auto section = html.str().find("id=\"phase-projection\"");
  ASSERT_NE(section, std::string::npos);
  EXPECT_NE(html.str().find(note, section), std::string::npos);
}

TEST(Projection, SaysNothingOfSharedGpusOnOwnGpus) {
  RunReport r = one_node_report();
  r.emulation = Emulation{4, false};
  const auto p = build_projection(r, {512});
  ASSERT_TRUE(p);
  for (const auto& n : p->notes) EXPECT_NE(n, shared_gpu_fit_note());
}

}  // namespace
}  // namespace gpuscale::results
