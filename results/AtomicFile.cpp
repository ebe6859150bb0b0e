#include "results/AtomicFile.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <streambuf>
#include <stdexcept>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

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

// Removes temp files of PATH left by writers on this host whose process no longer exists.
void remove_dead_writers_temps(const std::string& path) {
  const std::string stem = temp_stem(path);
  std::error_code ec;
  for (fs::directory_iterator it(folder_of(path), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= stem.size() + 4 || name.compare(0, stem.size(), stem) != 0 ||
        name.compare(name.size() - 4, 4, kTempSuffix) != 0)
      continue;
    const std::string digits = name.substr(stem.size(), name.size() - stem.size() - 4);
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
    if (process_is_gone(std::stol(digits))) ::unlink(it->path().c_str());
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

}  // namespace

std::string temp_name_for(const std::string& path) {
  return temp_stem(path) + std::to_string(::getpid()) + kTempSuffix;
}

void check_writable(const std::string& path) {
  if (path.empty()) fail(path, "empty path");
  if (const auto why = not_regular(path); !why.empty()) fail(path, why);
  const auto folder = folder_of(path);
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) fail(path, "folder " + folder + " does not exist");
  const auto name = fs::path(path).filename().string();
  if (name.empty() || name == "." || name == "..") fail(path, "no file name");
  // Creating a file beside the target is the only test that root and read-only mounts cannot fool.
  const std::string probe = temp_path_for(path);
  const int fd = create_temp(probe);
  if (fd < 0) fail(path, "cannot create a file in " + folder + ": " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

void write_file_atomically(const std::string& path, const std::string& content) {
  check_writable(path);
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
