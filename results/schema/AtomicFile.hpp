#pragma once
// Output files: gpuscale writes only regular files, and writes them so that readers see either the
// old content or the whole new one, never half. Runs as root in job prologs, so a path that names a
// device, FIFO, socket or directory (or a symlink to one) is refused, never replaced.
//
// The text goes to a temp file in the target's folder, ".gpuscale-HASH-HOST-PID.tmp" (HASH: of the
// target's file name, so the name fits NAME_MAX whatever the target's length), is flushed, then
// renamed over the target. Every exit path of the writer removes its temp file; a temp left by a
// writer that was killed (SIGKILL) is removed by the next write into the same folder on the same
// host, whatever its target, once its writer is gone (no process has its PID, or the one that has it
// started after the temp was written). A named temp plus that sweep works on every filesystem
// (O_TMPFILE does not, and it cannot replace an existing file in one rename).
#include <functional>
#include <ostream>
#include <string>

namespace gpuscale::results {

// Throws std::runtime_error("cannot write PATH: reason") on failure; the temp file is removed.
// Re-checks right before the rename that PATH is still absent or a regular file.
void write_file_atomically(const std::string& path, const std::string& content);
// The same, with the text streamed by `write` straight into the temp file (through a fixed buffer), so
// that a large report is never held whole in memory; an exception from `write` removes the temp file.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

// Fails early, before any work: PATH is empty, names something other than a regular file, its
// folder does not take a new file, or the final rename onto PATH would fail (a name over NAME_MAX,
// another user's file in a sticky folder, an immutable file). Proved by doing what the write does:
// a probe temp is created beside PATH and renamed onto it, then the rename is undone (an existing
// PATH is swapped with the probe and back, so it keeps its content). Root cannot bypass this the way
// it bypasses access(). Throws std::runtime_error("cannot write PATH: reason").
void check_writable(const std::string& path);

// True when a and b name the same file: same st_dev/st_ino where both exist, else the same absolute
// path once ".", ".." and symlinked folders are resolved.
bool same_file(const std::string& a, const std::string& b);

// The temp file name the writer uses for PATH in PATH's folder (no folder part); at most 120 bytes.
std::string temp_name_for(const std::string& path);

}  // namespace gpuscale::results
