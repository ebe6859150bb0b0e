// The one reader of user files: refuses what is not a regular file without blocking, and JSON
// nested beyond the limit before building it, and keys given twice; reads the rest whole or streams it.
#include "results/schema/InputFile.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "results/report/JsonReporter.hpp"

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

// A key twice in one object means two things (parsers keep the first or the last): refused, with its path.
TEST(InputFile, DuplicateKeysAreRefusedNamingThePath) {
  const auto refusal = [](const std::string& text) {
    try {
      parse_input_json(text, "run.json", [](const std::string&, std::size_t, nlohmann::json&) { return true; });
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal(R"({"complete": false, "complete": true})"),
            "run.json: the key /complete is given twice; each key once, please");
  EXPECT_EQ(refusal(R"({"verdict": {"passed": false, "reasons": [], "passed": true}})"),
            "run.json: the key /verdict/passed is given twice; each key once, please");
  // In an element of a top-level array, after the sink took the elements before it.
  EXPECT_EQ(refusal(R"({"ranks": [{"rank": 0}, {"rank": 1, "host": "a", "host": "b"}]})"),
            "run.json: the key /ranks/1/host is given twice; each key once, please");
  EXPECT_EQ(refusal(R"([[{"a": 1}], {"b": {"c": 1, "c": 2}}])"), "run.json: the key /1/b/c is given twice; each key once, please");
  // The same key in two objects is no duplicate.
  EXPECT_EQ(refusal(R"({"a": {"k": 1}, "b": {"k": 1}, "c": [{"k": 1}, {"k": 2}]})"), "accepted");
}

TEST(InputFile, SinkTakesArrayElementsByPath) {
  std::vector<int> taken;
  std::vector<std::string> paths;
  const auto j = parse_input_json(
      R"({"keep": [1, 2], "take": [3, {"b": 4}, 5], "nested": {"take": [6]}, "g": [{"f": [7, 8]}, {"f": [9]}]})", "x",
      [&](const std::string& path, std::size_t index, nlohmann::json& element) {
        paths.push_back(path + "#" + std::to_string(index));
        if ((path != "/take" && path.rfind("/g/", 0) != 0) || !element.is_number()) return false;
        taken.push_back(element.get<int>() * 10 + static_cast<int>(index));
        return true;
      });
  EXPECT_EQ(taken, (std::vector<int>{30, 52, 70, 81, 90}));
  EXPECT_EQ(j.dump(), R"({"g":[{"f":[]},{"f":[]}],"keep":[1,2],"nested":{"take":[6]},"take":[{"b":4}]})");
  EXPECT_EQ(paths, (std::vector<std::string>{"/keep#0", "/keep#1", "/take#0", "/take#1", "/take#2", "/nested/take#0",
                                             "/g/0/f#0", "/g/0/f#1", "/g#0", "/g/1/f#0", "/g#1"}));
}

// A file is parsed as it streams in: the same document as from its text, the same refusals.
TEST(InputFile, ParsesAFileAsItStreams) {
  const TempDir dir;
  const std::filesystem::path path = dir.file("run.json");
  std::string text = R"({"a": [)";
  for (int i = 0; i < 100000; ++i) text += std::to_string(i) + ",";  // past the 64 KiB buffer
  text += R"(0], "b": {"c": "d"}})";
  std::ofstream(path) << text;
  EXPECT_EQ(parse_input_file(path.string()), parse_input_json(text, "x"));
  std::ofstream(path) << R"({"b": 1, "b": 2})";
  try {
    parse_input_file(path.string());
    ADD_FAILURE() << "accepted a duplicate key";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ": the key /b is given twice; each key once, please");
  }
  EXPECT_THROW(parse_input_file(dir.file("absent.json")), InputError);
}

}  // namespace
}  // namespace gpuscale::results
