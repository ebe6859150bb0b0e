#pragma once
// Reading a file that the user names (RUN.json for report and compare, BASE/NEW for compare, --expect
// FILE): every such file goes through here, so each command refuses the same things the same way.
// A FIFO, device, directory or socket is refused without blocking; so is a file over kMaxInputBytes,
// JSON nested deeper than kMaxJsonDepth, or an object that gives one key twice. Errors are InputError with one line naming the path.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace gpuscale::results {

// Generous: a run report of the largest job is tens of MB; this bounds memory, not legitimate use.
inline constexpr std::uint64_t kMaxInputBytes = std::uint64_t{1} << 30;  // 1 GiB
// Every document gpuscale writes nests fewer than 10 levels; deeper input is crafted.
inline constexpr int kMaxJsonDepth = 64;

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A value that such a file may not hold: std::invalid_argument with WHAT, which the command prefixes
// with the path.
[[noreturn]] inline void refuse_input(const std::string& what) { throw std::invalid_argument(what); }

// The whole content of PATH. Opens it with O_NONBLOCK and checks it with fstat before reading, so a
// FIFO with no writer cannot stall the caller. Throws InputError: "PATH: ..." on any problem.
std::string read_input_file(const std::string& path);

// Called with each element of an array as soon as the element is complete: the array's path in the
// document ("/ranks", "/groups/0/figures"; keys as written, array positions as numbers), the
// element's index in that array, the element. Returning true takes the element: it is dropped from the
// document (the sink has kept what it needs), so a large array need not be held twice.
using ElementSink = std::function<bool(const std::string& path, std::size_t index, nlohmann::json& element)>;

// Parses TEXT as JSON in time and memory linear in its size, refusing nesting deeper than
// kMaxJsonDepth before building it. Throws InputError: "SOURCE: ..." for invalid JSON, too deep
// nesting, or a key given twice in one object ("SOURCE: the key /verdict/passed is given twice ...":
// which of the two counts is up to the parser, so the file means two things); whatever SINK throws
// passes through.
nlohmann::json parse_input_json(const std::string& text, const std::string& source, const ElementSink& sink = nullptr);

// Reads PATH as read_input_file checks it and parses it as parse_input_json does, streaming: the
// file's text is never held whole, so the memory is the document's (less what SINK takes) and a
// 64 KiB buffer. Errors are InputError "PATH: ...".
nlohmann::json parse_input_file(const std::string& path, const ElementSink& sink = nullptr);

}  // namespace gpuscale::results
