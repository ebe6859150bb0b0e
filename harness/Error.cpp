#include "harness/Error.hpp"

#include <mutex>

namespace gpuscale::harness {
namespace {
std::mutex location_mutex;
std::string location = "[rank ? host ?]";
}  // namespace

void set_error_location(int rank, const std::string& host) {
  std::lock_guard lock(location_mutex);
  location = "[rank " + std::to_string(rank) + " host " + host + "]";
}

std::string error_location() {
  std::lock_guard lock(location_mutex);
  return location;
}

void throw_library_error(const char* library, int code, const char* name, const char* text, const char* expr,
                         const char* file, int line, bool out_of_memory) {
  const std::string message = std::string(file) + ":" + std::to_string(line) + ": " + expr + " failed: " +
                              library + " " + (name ? name : "?") + " (" + std::to_string(code) +
                              "): " + (text ? text : "");
  if (out_of_memory) throw OutOfMemoryError(library, name ? name : "", message);
  throw LibraryError(library, name ? name : "", message);
}

}  // namespace gpuscale::harness
