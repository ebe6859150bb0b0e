#include "results/schema/AtomicFile.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <streambuf>

namespace gpuscale::results {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTempPrefix = ".gpuscale-";
constexpr const char* kTempSuffix = ".tmp";
constexpr std::size_t kHostChars = 64;  // HOST_NAME_MAX on Linux; keeps temp names far below NAME_MAX

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw std::runtime_error("cannot write " + path + ": " + why);
}

std::string folder_of(const std::string& path) {
  const auto parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "host";
  std::string host(name);
  for (auto& c : host)
    if (c == '/' || c == '\0') c = '_';
  return host.substr(0, kHostChars);
}

// FNV-1a: stable across runs and builds, so a later writer finds an earlier writer's temp names.
std::string name_hash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

std::string temp_stem(const std::string& path) {
  return kTempPrefix + name_hash(fs::path(path).filename().string()) + "-" + host_name() + "-";
}

// "" when PATH is absent (or a dangling symlink, which the rename replaces) or a regular file.
std::string not_regular(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) return "";
  if (S_ISREG(st.st_mode)) return "";
  if (S_ISDIR(st.st_mode)) return "it is a directory";
  if (S_ISCHR(st.st_mode)) return "it is a character device; gpuscale writes only regular files";
  if (S_ISBLK(st.st_mode)) return "it is a block device; gpuscale writes only regular files";
  if (S_ISFIFO(st.st_mode)) return "it is a FIFO; gpuscale writes only regular files";
  if (S_ISSOCK(st.st_mode)) return "it is a socket; gpuscale writes only regular files";
  return "it is not a regular file";
}

// Creates the temp file exclusively and without following a symlink planted under its name. A file
// of that name can only be this PID's own leftover (or a dead one's of a reused PID): replace it once.
int create_temp(const std::string& tmp) {
  constexpr int kFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = ::open(tmp.c_str(), kFlags, 0644);
  if (fd < 0 && errno == EEXIST && ::unlink(tmp.c_str()) == 0) fd = ::open(tmp.c_str(), kFlags, 0644);
  return fd;
}

bool process_is_gone(long pid) { return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

// Seconds since the epoch at which process PID started (/proc/PID/stat field 22, in clock ticks since
// boot, plus /proc/stat's btime); negative when unknown.
double process_start_s(long pid) {
  std::ifstream stat_file("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat_file, text)) return -1;
  const auto close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return -1;
  std::istringstream fields(text.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
  }
  std::ifstream boot("/proc/stat");
  std::string key;
  double btime_s = -1;
  while (boot >> key)
    if (key == "btime" && boot >> btime_s) break;
  const long ticks_per_s = ::sysconf(_SC_CLK_TCK);
  if (!fields || btime_s < 0 || ticks_per_s <= 0) return -1;
  return btime_s + std::strtod(field.c_str(), nullptr) / static_cast<double>(ticks_per_s);
}

// btime is whole seconds: a live writer's temp can look up to 1 s older than its process start.
constexpr double kStartSlack_s = 2.0;

// The writer's PID of a temp name of this host, ".gpuscale-HASH-HOST-PID.tmp"; 0 when NAME is none
// (another host's temps are left alone: their PIDs mean nothing here).
long temp_writer_on_this_host(const std::string& name) {
  const std::string tail = "-" + host_name() + "-";
  const std::size_t prefix = std::strlen(kTempPrefix), suffix = std::strlen(kTempSuffix);
  if (name.size() <= prefix + 16 + tail.size() + suffix || name.compare(0, prefix, kTempPrefix) != 0 ||
      name.compare(name.size() - suffix, suffix, kTempSuffix) != 0)
    return 0;
  const std::string hash = name.substr(prefix, 16);
  if (hash.find_first_not_of("0123456789abcdef") != std::string::npos) return 0;
  if (name.compare(prefix + 16, tail.size(), tail) != 0) return 0;
  const std::string digits = name.substr(prefix + 16 + tail.size(), name.size() - prefix - 16 - tail.size() - suffix);
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  return std::stol(digits);
}

// A temp is stale when its writer is gone: no process has its PID, or the process that has it now
// started clearly after the temp was last written (the PID was reused). A live writer's temp is
// never older than the writer.
bool writer_is_gone(long pid, const fs::path& temp) {
  if (pid <= 0) return false;
  if (process_is_gone(pid)) return true;
  struct stat st{};
  if (::lstat(temp.c_str(), &st) != 0) return false;
  const double started_s = process_start_s(pid);
  const double written_s = static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9;
  return started_s > 0 && written_s < started_s - kStartSlack_s;
}

// Removes every temp file in PATH's folder, whatever target it was for, whose writer on this host is
// gone (a writer killed with SIGKILL leaves its temp behind).
void remove_dead_writers_temps(const std::string& path) {
  std::error_code ec;
  for (fs::directory_iterator it(folder_of(path), ec), end; !ec && it != end; it.increment(ec)) {
    const long pid = temp_writer_on_this_host(it->path().filename().string());
    if (pid != 0 && pid != ::getpid() && writer_is_gone(pid, it->path())) ::unlink(it->path().c_str());
  }
}

// Owns the temp file until it is renamed: every other way out (error, exception) removes it.
class TempFile {
 public:
  TempFile(const std::string& target, std::string tmp) : target_(target), tmp_(std::move(tmp)) {
    fd_ = create_temp(tmp_);
    if (fd_ < 0) fail(target_, std::strerror(errno));
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!renamed_) ::unlink(tmp_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  void write_all(const std::string& content) {
    write_bytes(content.data(), content.size());
    finish();
  }

  void write_bytes(const char* data, std::size_t size) {
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fd_, data + done, size - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(target_, std::strerror(errno));
      done += static_cast<std::size_t>(n);
    }
  }

  void finish() {
    const int synced = ::fsync(fd_);
    const int closed = ::close(fd_);
    fd_ = -1;
    if (synced != 0 || closed != 0) fail(target_, std::strerror(errno));
  }

  void rename_over_target() {
    // The target may have changed since check_writable: a device that appeared meanwhile is refused.
    if (const auto why = not_regular(target_); !why.empty()) fail(target_, why);
    if (std::rename(tmp_.c_str(), target_.c_str()) != 0) fail(target_, std::strerror(errno));
    renamed_ = true;
  }

 private:
  std::string target_, tmp_;
  int fd_ = -1;
  bool renamed_ = false;
};

// An ostream's buffer that hands every full buffer to the temp file: a write error throws from the
// writer's own call (the stream's exceptions() let it through) rather than being lost in a stream state.
class TempFileBuffer final : public std::streambuf {
 public:
  explicit TempFileBuffer(TempFile& file) : file_(file) { setp(buffer_, buffer_ + sizeof buffer_); }
  void flush_all() { sync(); }

 protected:
  int_type overflow(int_type c) override {
    sync();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    file_.write_bytes(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(buffer_, buffer_ + sizeof buffer_);
    return 0;
  }

 private:
  TempFile& file_;
  char buffer_[1 << 16];
};

std::string temp_path_for(const std::string& path) {
  return (fs::path(folder_of(path)) / temp_name_for(path)).string();
}

// What every write checks again: PATH names a file that is absent or regular, in a folder that exists.
void check_target(const std::string& path) {
  if (path.empty()) fail(path, "empty path");
  if (const auto why = not_regular(path); !why.empty()) fail(path, why);
  const auto folder = folder_of(path);
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) fail(path, "folder " + folder + " does not exist");
  const auto name = fs::path(path).filename().string();
  if (name.empty() || name == "." || name == "..") fail(path, "no file name");
}

bool unsupported(int error) { return error == EINVAL || error == ENOSYS || error == EOPNOTSUPP; }

// Where the filesystem cannot swap names: the rule that most often stops a rename over another
// user's file (a sticky folder such as /tmp), as the kernel applies it.
void check_sticky_rule(const std::string& path) {
  struct stat folder{}, target{};
  if (::stat(folder_of(path).c_str(), &folder) != 0 || ::lstat(path.c_str(), &target) != 0) return;
  const uid_t me = ::geteuid();
  if ((folder.st_mode & S_ISVTX) && me != 0 && target.st_uid != me && folder.st_uid != me)
    fail(path, std::strerror(EPERM));
}

// Proves that the final rename of a temp over PATH will succeed by doing it with the empty PROBE and
// undoing it at once. Where PATH is absent the probe takes its name (never replacing a file that
// appeared meanwhile) and gives it back; where PATH exists the two swap names and swap back, so PATH
// keeps its content (a reader could see the empty probe for the microseconds between the swaps).
void prove_rename(const std::string& path, const std::string& probe) {
  if (::renameat2(AT_FDCWD, probe.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) {
    if (std::rename(path.c_str(), probe.c_str()) != 0) ::unlink(path.c_str());
    return;
  }
  if (unsupported(errno)) {  // no RENAME_NOREPLACE here: a hard link meets the same name and folder rules
    if (::link(probe.c_str(), path.c_str()) == 0) {
      ::unlink(path.c_str());
      return;
    }
    if (errno != EEXIST) fail(path, std::strerror(errno));
  } else if (errno != EEXIST) {
    fail(path, std::strerror(errno));
  }
  if (::renameat2(AT_FDCWD, probe.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) != 0) {
    if (!unsupported(errno)) fail(path, std::strerror(errno));
    check_sticky_rule(path);
    return;
  }
  if (::renameat2(AT_FDCWD, probe.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) != 0)
    std::rename(probe.c_str(), path.c_str());  // PATH's content, now under the probe's name, goes back
}

}  // namespace

std::string temp_name_for(const std::string& path) {
  return temp_stem(path) + std::to_string(::getpid()) + kTempSuffix;
}

void check_writable(const std::string& path) {
  check_target(path);
  // Creating a file beside the target is the only test that root and read-only mounts cannot fool.
  const std::string probe = temp_path_for(path);
  const int fd = create_temp(probe);
  if (fd < 0) fail(path, "cannot create a file in " + folder_of(path) + ": " + std::strerror(errno));
  ::close(fd);
  try {
    prove_rename(path, probe);
  } catch (...) {
    ::unlink(probe.c_str());
    throw;
  }
  ::unlink(probe.c_str());
}

void write_file_atomically(const std::string& path, const std::string& content) {
  check_target(path);
  remove_dead_writers_temps(path);
  TempFile tmp(path, temp_path_for(path));
  tmp.write_all(content);
  tmp.rename_over_target();
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  check_writable(path);
  remove_dead_writers_temps(path);
  TempFile tmp(path, temp_path_for(path));
  auto buffer = std::make_unique<TempFileBuffer>(tmp);
  std::ostream out(buffer.get());
  out.exceptions(std::ios::badbit);  // rethrows what the buffer threw (a write error) from `write`
  write(out);
  buffer->flush_all();
  tmp.finish();
  tmp.rename_over_target();
}

bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  struct stat sa{}, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  const auto na = fs::weakly_canonical(fs::absolute(a, ea), ea);
  const auto nb = fs::weakly_canonical(fs::absolute(b, eb), eb);
  return !ea && !eb && na == nb;
}

}  // namespace gpuscale::results
