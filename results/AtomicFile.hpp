#pragma once
// Writes a file so that readers see either the old content or the whole new one, never half:
// the text goes to "PATH.tmp.PID" in the same folder, is flushed, then renamed over PATH.
#include <string>

namespace gpuscale::results {

// Throws std::runtime_error("cannot write PATH: reason") on failure; the temp file is removed.
void write_file_atomically(const std::string& path, const std::string& content);

// Fails early, before any work, if PATH's folder does not exist or is not writable.
// Throws std::runtime_error with the reason.
void check_writable(const std::string& path);

}  // namespace gpuscale::results
