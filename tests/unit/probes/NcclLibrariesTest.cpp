// Plugin discovery on a fixture library path: default names, NCCL_<KIND>_PLUGIN as a suffix, a file
// name or a path, "none", and the search order.
#include "probes/NcclLibraries.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <gtest/gtest.h>

namespace gpuscale::probes {
namespace {
namespace fs = std::filesystem;

class LibraryPathFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gpuscale-libs-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root_ = pattern;
    fs::create_directories(root_ / "a");
    fs::create_directories(root_ / "b");
    fs::create_directories(root_ / "conf.d");
  }
  void TearDown() override { fs::remove_all(root_); }
  void library(const std::string& relative, const std::string& bytes) { std::ofstream(root_ / relative) << bytes; }
  const results::LibraryFile& kind(const std::vector<results::LibraryFile>& files, const std::string& k) {
    for (const auto& f : files)
      if (f.kind == k) return f;
    throw std::runtime_error("no " + k);
  }
  fs::path root_;
};

TEST(NcclLibraries, Fnv1aOfKnownBytes) {
  char pattern[] = "/tmp/gpuscale-hash-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const fs::path file = fs::path(pattern) / "x";
  std::ofstream(file) << "a";
  std::uint64_t hash = 0, size = 0;
  ASSERT_TRUE(hash_file(file, hash, size));
  EXPECT_EQ(hash, 0xaf63dc4c8601ec8cull);  // FNV-1a 64 of "a" (the published test vector)
  EXPECT_EQ(size, 1u);
  EXPECT_FALSE(hash_file(fs::path(pattern) / "missing", hash, size));
  fs::remove_all(pattern);
}

TEST_F(LibraryPathFixture, DefaultNamesFollowTheSearchOrder) {
  library("a/libnccl-net.so", "first");
  library("b/libnccl-net.so", "second");
  library("b/libnccl-tuner.so", "tuner");
  const auto files = find_nccl_plugins({}, {(root_ / "a").string(), (root_ / "b").string()});
  ASSERT_EQ(files.size(), 3u);
  EXPECT_TRUE(kind(files, "net").found);
  EXPECT_EQ(kind(files, "net").path, (root_ / "a/libnccl-net.so").string());
  EXPECT_EQ(kind(files, "net").size_bytes, 5u);
  EXPECT_EQ(kind(files, "tuner").path, (root_ / "b/libnccl-tuner.so").string());
  EXPECT_FALSE(kind(files, "profiler").found);
  EXPECT_EQ(kind(files, "profiler").requested, "libnccl-profiler.so");
}

TEST_F(LibraryPathFixture, VariableAsSuffixFileNameOrPath) {
  library("a/libnccl-net-aws.so", "aws");
  library("b/libcustom-tuner.so", "custom");
  library("b/prof.so", "prof");
  const std::map<std::string, std::string> variables = {{"NCCL_NET_PLUGIN", "aws"},
                                                        {"NCCL_TUNER_PLUGIN", "libcustom-tuner.so"},
                                                        {"NCCL_PROFILER_PLUGIN", (root_ / "b/prof.so").string()}};
  const auto files = find_nccl_plugins(variables, {(root_ / "a").string(), (root_ / "b").string()});
  EXPECT_EQ(kind(files, "net").requested, "libnccl-net-aws.so");
  EXPECT_EQ(kind(files, "net").path, (root_ / "a/libnccl-net-aws.so").string());
  EXPECT_EQ(kind(files, "tuner").path, (root_ / "b/libcustom-tuner.so").string());
  EXPECT_EQ(kind(files, "profiler").path, (root_ / "b/prof.so").string());
}

TEST_F(LibraryPathFixture, NoneDisablesAndHashesTellFilesApart) {
  library("a/libnccl-net.so", "one build");
  library("b/libnccl-net.so", "another build");
  const auto first = find_nccl_plugins({{"NCCL_TUNER_PLUGIN", "none"}}, {(root_ / "a").string()});
  const auto second = find_nccl_plugins({}, {(root_ / "b").string()});
  EXPECT_FALSE(kind(first, "tuner").found);
  EXPECT_EQ(kind(first, "tuner").requested, "none");
  EXPECT_NE(kind(first, "net").fnv1a64, kind(second, "net").fnv1a64);
}

TEST_F(LibraryPathFixture, SearchPathReadsLdLibraryPathThenLdSoConf) {
  std::ofstream(root_ / "ld.so.conf") << "# comment\ninclude conf.d/*.conf\n/opt/direct\n";
  std::ofstream(root_ / "conf.d/b.conf") << "/opt/from-b\n";
  std::ofstream(root_ / "conf.d/a.conf") << "/opt/from-a\n";
  std::ofstream(root_ / "conf.d/skip.txt") << "/opt/not-a-conf\n";
  const auto path = library_search_path("/x:/y", (root_ / "ld.so.conf").string());
  ASSERT_GE(path.size(), 5u);
  EXPECT_EQ(std::vector<std::string>(path.begin(), path.begin() + 5),
            (std::vector<std::string>{"/x", "/y", "/opt/from-a", "/opt/from-b", "/opt/direct"}));
  EXPECT_EQ(std::count(path.begin(), path.end(), "/opt/not-a-conf"), 0);
}

}  // namespace
}  // namespace gpuscale::probes
