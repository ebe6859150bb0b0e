// The writer never replaces what is not a regular file, fits its temp names in NAME_MAX, and leaves
// no temp file behind; a dead writer's temp is swept by the next writer of the same target.
#include "results/schema/AtomicFile.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

namespace fs = std::filesystem;

// A fresh folder of this test's own; removed at the end.
class Folder {
 public:
  Folder() {
    std::string pattern = ::testing::TempDir() + "/atomicXXXXXX";
    path_ = ::mkdtemp(pattern.data());
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  std::size_t entries() const {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(path_)) ++n;
    return n;
  }

 private:
  std::string path_;
};

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

mode_t kind_of(const std::string& path) {
  struct stat st{};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & S_IFMT;
}

void expect_refused(const std::string& path, mode_t kind) {
  EXPECT_THROW(check_writable(path), std::runtime_error) << path;
  EXPECT_THROW(write_file_atomically(path, "{}"), std::runtime_error) << path;
  EXPECT_EQ(kind_of(path), kind) << path << " was replaced";
}

// Streamed: text larger than the writer's buffer arrives whole; a writer that throws leaves the old
// file as it was and no temp file.
TEST(AtomicFile, StreamedWriteIsWholeOrNothing) {
  Folder dir;
  const auto path = dir / "big.txt";
  const std::string line(1000, 'x');
  write_file_atomically(path, [&](std::ostream& out) {
    for (int i = 0; i < 300; ++i) out << line << '\n';
  });
  EXPECT_EQ(read(path).size(), 300u * 1001u);
  EXPECT_THROW(write_file_atomically(path, [&](std::ostream& out) {
                 out << line;
                 throw std::runtime_error("writer failed");
               }),
               std::runtime_error);
  EXPECT_EQ(read(path).size(), 300u * 1001u);
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(AtomicFile, RefusesADeviceNodeAndLeavesItAlone) {
  Folder dir;
  const auto node = dir / "fakenull";
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "mknod needs root";
  expect_refused(node, S_IFCHR);
  EXPECT_EQ(dir.entries(), 1u);  // no temp file left behind
}

TEST(AtomicFile, RefusesAFifoASocketADirectoryAndSymlinksToThem) {
  Folder dir;
  const auto fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  expect_refused(fifo, S_IFIFO);
  const auto sock = dir / "sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  expect_refused(sock, S_IFSOCK);
  ::close(fd);
  const auto sub = dir / "sub";
  fs::create_directory(sub);
  expect_refused(sub, S_IFDIR);
  const auto link = dir / "link";
  fs::create_symlink(fifo, link);
  expect_refused(link, S_IFLNK);
  EXPECT_EQ(kind_of(fifo), static_cast<mode_t>(S_IFIFO));
  EXPECT_EQ(dir.entries(), 4u);
}

TEST(AtomicFile, ReplacesARegularFileAndLeavesNoTemp) {
  Folder dir;
  const auto path = dir / "out.json";
  std::ofstream(path) << "old";
  write_file_atomically(path, "new");
  EXPECT_EQ(read(path), "new");
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(AtomicFile, ALegalLongNameWorks) {
  Folder dir;
  const std::string name = std::string(245, 'r') + ".json";  // 250 bytes: legal, NAME_MAX is 255
  EXPECT_LE(temp_name_for(dir / name).size(), 120u);
  write_file_atomically(dir / name, "{}");
  EXPECT_EQ(read(dir / name), "{}");
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(AtomicFile, TheWritabilityCheckCreatesAFileRatherThanAskingAccess) {
  // root passes access(W_OK) on /proc, where no file can be created.
  EXPECT_THROW(check_writable("/proc/gpuscale-test.json"), std::runtime_error);
  EXPECT_THROW(check_writable(""), std::runtime_error);
  EXPECT_THROW(check_writable("/nonexistent-folder/x.json"), std::runtime_error);
}

TEST(AtomicFile, ADeadWritersTempIsSweptALiveOnesIsKept) {
  Folder dir;
  const auto path = dir / "run.json";
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);  // now a PID with no process
  const std::string mine = temp_name_for(path), own_pid = std::to_string(::getpid());
  const auto stem = mine.substr(0, mine.size() - own_pid.size() - 4);  // without "PID.tmp"
  const auto dead = dir / (stem + std::to_string(child) + ".tmp");
  const auto live = dir / (stem + "1.tmp");  // PID 1 always runs
  std::ofstream(dead) << "half";
  std::ofstream(live) << "busy";
  write_file_atomically(path, "{}");
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_EQ(dir.entries(), 2u);
}

// A temp of this host for `target` in DIR as writer PID would name it.
std::string temp_of(const Folder& dir, const std::string& target, long pid) {
  const std::string mine = temp_name_for(dir / target), own_pid = std::to_string(::getpid());
  return dir / (mine.substr(0, mine.size() - own_pid.size() - 4) + std::to_string(pid) + ".tmp");
}

TEST(AtomicFile, AnyTargetsTempIsSweptOnceItsWriterIsGone) {
  Folder dir;
  const pid_t dead_pid = ::fork();
  if (dead_pid == 0) ::_exit(0);
  ASSERT_GT(dead_pid, 0);
  ::waitpid(dead_pid, nullptr, 0);
  const pid_t reused = ::fork();  // stands for a PID reused by a process started after the temp
  if (reused == 0) {
    ::pause();
    ::_exit(0);
  }
  ASSERT_GT(reused, 0);
  const auto dead = temp_of(dir, "job-41.json", dead_pid);
  const auto older_than_writer = temp_of(dir, "job-42.prom", reused);
  const auto live = temp_of(dir, "job-43.json", 1);  // PID 1 started before this temp: a live writer's
  auto other_host = temp_of(dir, "job-44.json", dead_pid);
  other_host.replace(other_host.rfind('-' + std::to_string(dead_pid)), 1, "x-");  // another host's name
  for (const auto& p : {dead, older_than_writer, live, other_host}) std::ofstream(p) << "half";
  const timespec hour_ago[2] = {{::time(nullptr) - 3600, 0}, {::time(nullptr) - 3600, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, older_than_writer.c_str(), hour_ago, 0), 0);
  write_file_atomically(dir / "job-45.json", "{}");
  ::kill(reused, SIGKILL);
  ::waitpid(reused, nullptr, 0);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(older_than_writer));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other_host));
  EXPECT_EQ(dir.entries(), 3u);
}

TEST(AtomicFile, TheCheckProvesTheRenameAndLeavesTheTargetAsItWas) {
  Folder dir;
  EXPECT_THROW(check_writable(dir / (std::string(251, 'n') + ".json")), std::runtime_error);  // over NAME_MAX
  const auto kept = dir / "kept.json";
  std::ofstream(kept) << "old";
  check_writable(kept);
  EXPECT_EQ(read(kept), "old");
  check_writable(dir / "new.json");
  EXPECT_FALSE(fs::exists(dir / "new.json"));
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(AtomicFile, SameFileComparesIdentityNotSpelling) {
  Folder dir;
  const auto a = dir / "a.json";
  std::ofstream(a) << "{}";
  const auto hard = dir / "hard.json";
  fs::create_hard_link(a, hard);
  EXPECT_TRUE(same_file(a, hard));
  EXPECT_TRUE(same_file(a, dir / "./a.json"));
  EXPECT_TRUE(same_file(dir / "new.csv", dir / "../" + fs::path(dir / "").parent_path().filename().string() + "/new.csv"));
  EXPECT_FALSE(same_file(a, dir / "b.json"));
  EXPECT_FALSE(same_file(dir / "b.json", dir / "c.json"));
}

}  // namespace
}  // namespace gpuscale::results
