// The one reader of user files: refuses what is not a regular file without blocking, and JSON
// nested beyond the limit before building it; reads the rest whole.
#include "results/schema/InputFile.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "results/render/JsonReporter.hpp"

namespace gpuscale::results {
namespace {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gpuscale-input-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

std::string refusal(const std::string& path) {
  try {
    read_input_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "read";
}

TEST(InputFile, FifoIsRefusedWithoutBlocking) {
  const TempDir dir;
  const auto fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(refusal(fifo), fifo + ": a FIFO, not a regular file");
  EXPECT_THROW(read_report_file(fifo), std::runtime_error);
}

TEST(InputFile, DirectoryAndMissingFileAreRefused) {
  const TempDir dir;
  EXPECT_EQ(refusal(dir.file("")), dir.file("") + ": a directory, not a regular file");
  EXPECT_NE(refusal(dir.file("absent")).find("cannot open"), std::string::npos);
}

TEST(InputFile, RegularFileIsReadWhole) {
  const TempDir dir;
  const auto path = dir.file("f.json");
  std::ofstream(path) << "{\"a\": [1, 2]}";
  EXPECT_EQ(read_input_file(path), "{\"a\": [1, 2]}");
}

TEST(InputFile, NestingBeyondTheLimitIsRefused) {
  const std::string at_limit = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_NO_THROW(parse_input_json(at_limit, "x"));
  const std::string over = '[' + at_limit + ']';
  try {
    parse_input_json(over, "x");
    ADD_FAILURE() << "accepted " << kMaxJsonDepth + 1 << " levels";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "x: nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  const int n = 1000000;  // 1M levels must be refused at the limit, not walked
  EXPECT_THROW(parse_input_json(std::string(n, '[') + std::string(n, ']'), "x"), InputError);
}

TEST(InputFile, InvalidJsonNamesTheSource) {
  try {
    parse_input_json("{\"a\": ", "run.json");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("run.json: not valid JSON (", 0), 0u) << e.what();
  }
}

TEST(InputFile, SinkTakesTopLevelArrayElements) {
  std::vector<int> taken;
  const auto j = parse_input_json(R"({"keep": [1, 2], "take": [3, {"b": 4}, 5], "nested": {"take": [6]}})", "x",
                                  [&](const std::string& key, std::size_t index, nlohmann::json& element) {
                                    if (key != "take" || !element.is_number()) return false;
                                    taken.push_back(element.get<int>() * 10 + static_cast<int>(index));
                                    return true;
                                  });
  EXPECT_EQ(taken, (std::vector<int>{30, 52}));
  EXPECT_EQ(j.dump(), R"({"keep":[1,2],"nested":{"take":[6]},"take":[{"b":4}]})");
}

}  // namespace
}  // namespace gpuscale::results
