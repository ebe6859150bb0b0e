#include "results/schema/InputFile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <istream>
#include <streambuf>
#include <utility>
#include <vector>

namespace gpuscale::results {
namespace {

// Closes the descriptor on every path out of read_input_file.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

static_assert(kMaxInputBytes % (std::uint64_t{1} << 30) == 0, "the message states the limit in GiB");
std::string limit_text() { return std::to_string(kMaxInputBytes >> 30) + " GiB"; }

using nlohmann::json;

// Thrown from the builder; the parse functions turn them into an InputError naming the source.
struct TooDeep {};
struct DuplicateKey {
  std::string where;  // "/verdict/passed": the key's path in the document
};

// Builds the document from SAX events with an explicit stack. nlohmann's own callback parser scans a
// container's every element each time one of its objects ends (quadratic in an array's width), so
// the depth limit, the duplicate keys and the sink are handled here instead.
class Builder final : public nlohmann::json_sax<json> {
 public:
  explicit Builder(const ElementSink& sink) : sink_(sink) {}

  bool null() override { return scalar(json(nullptr)); }
  bool boolean(bool v) override { return scalar(json(v)); }
  bool number_integer(number_integer_t v) override { return scalar(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return scalar(json(v)); }
  bool string(string_t& v) override { return scalar(json(std::move(v))); }
  bool binary(binary_t& v) override { return scalar(json(std::move(v))); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
  // A key given twice in one object: JSON parsers disagree on which one counts (nlohmann keeps the
  // last, others the first), so a file saying `"complete": false, "complete": true` means two things.
  bool key(string_t& k) override {
    if (open_.back().value->contains(k)) throw DuplicateKey{path_ + "/" + k};
    key_ = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error_ = e.what();
    return false;
  }

  json& root() { return root_; }
  const std::string& error() const { return error_; }

 private:
  struct Open {
    json* value;                // the container being filled
    std::size_t path_length;    // of path_ before this container's segment
    std::size_t elements = 0;   // an array's elements completed so far, taken ones included
  };

  // The next value's segment of the path: its key, or its index in the array being filled.
  std::string next_segment() const {
    if (open_.empty()) return "";
    return "/" + (open_.back().value->is_array() ? std::to_string(open_.back().elements) : key_);
  }

  // Puts V where the parser is: the root, the next array element, or the current key's value.
  json& place(json&& v) {
    if (open_.empty()) return root_ = std::move(v);
    json& parent = *open_.back().value;
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return parent.back();
    }
    return parent[key_] = std::move(v);
  }

  bool scalar(json&& v) {
    place(std::move(v));
    offer();
    return true;
  }

  bool open(json&& empty) {
    if (open_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) throw TooDeep{};
    const std::size_t length = path_.size();
    path_ += next_segment();
    open_.push_back({&place(std::move(empty)), length});
    return true;
  }

  bool close() {
    path_.resize(open_.back().path_length);
    open_.pop_back();
    offer();
    return true;
  }

  // The value just completed is an element of an array: the sink may take it.
  void offer() {
    if (open_.empty() || !open_.back().value->is_array()) return;
    auto& array = open_.back();
    const std::size_t index = array.elements++;
    if (sink_ && sink_(path_, index, array.value->back())) array.value->get_ref<json::array_t&>().pop_back();
  }

  const ElementSink& sink_;
  json root_;
  std::vector<Open> open_;  // the containers being filled, outermost first
  std::string path_;        // of the innermost open container: "/groups/0/figures"
  std::string key_;         // the key whose value comes next, in the innermost object
  std::string error_;
};

// A regular file's bytes as a stream, read through a buffer of its own, at most `limit` of them (its
// size when opened: a file that grows while it is read is not read past it).
class DescriptorStream final : public std::streambuf {
 public:
  DescriptorStream(int fd, std::uint64_t limit, const std::string& path) : fd_(fd), left_(limit), path_(path) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (left_ == 0) return traits_type::eof();
    for (;;) {
      const ssize_t n = ::read(fd_, buffer_, static_cast<std::size_t>(std::min<std::uint64_t>(left_, sizeof buffer_)));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw InputError(path_ + ": cannot read: " + std::strerror(errno));
      if (n == 0) return traits_type::eof();  // the file shrank while we read it: take what is there
      left_ -= static_cast<std::uint64_t>(n);
      setg(buffer_, buffer_, buffer_ + n);
      return traits_type::to_int_type(*gptr());
    }
  }

 private:
  int fd_;
  std::uint64_t left_;
  const std::string& path_;
  char buffer_[1 << 16];
};

// Opens PATH for reading once it is known to be a regular file within the size limit; its size.
std::pair<int, std::uint64_t> open_regular(const std::string& path) {
  // Looked at before opening, so that not even open() reaches a device; fstat below checks again
  // what was actually opened.
  struct stat before {};
  if (::stat(path.c_str(), &before) == 0 && !S_ISREG(before.st_mode))
    throw InputError(path + ": " + kind_of(before.st_mode) + ", not a regular file");
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw InputError(path + ": cannot stat: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InputError(path + ": " + kind_of(st.st_mode) + ", not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxInputBytes)
    throw InputError(path + ": " + std::to_string(st.st_size) + " bytes, over the " + limit_text() +
                     " limit for input files");
  return {fd.release(), static_cast<std::uint64_t>(st.st_size)};
}

template <typename Input>
json build(Input&& input, const std::string& source, const ElementSink& sink) {
  Builder builder(sink);
  try {
    if (!json::sax_parse(std::forward<Input>(input), &builder))
      throw InputError(source + ": not valid JSON (" + builder.error() + ")");
  } catch (const TooDeep&) {
    throw InputError(source + ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  } catch (const DuplicateKey& d) {
    throw InputError(source + ": the key " + d.where + " is given twice; each key once, please");
  }
  return std::move(builder.root());
}

}  // namespace

std::string read_input_file(const std::string& path) {
  const auto [descriptor, size] = open_regular(path);
  const Descriptor fd(descriptor);
  std::string text(static_cast<std::size_t>(size), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::read(fd.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(path + ": cannot read: " + std::strerror(errno));
    if (n == 0) break;  // the file shrank while we read it: take what is there
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  return text;
}

nlohmann::json parse_input_json(const std::string& text, const std::string& source, const ElementSink& sink) {
  return build(text, source, sink);
}

nlohmann::json parse_input_file(const std::string& path, const ElementSink& sink) {
  const auto [descriptor, size] = open_regular(path);
  const Descriptor fd(descriptor);
  DescriptorStream bytes(fd.get(), size, path);
  std::istream in(&bytes);
  return build(in, path, sink);
}

}  // namespace gpuscale::results
