#include "results/schema/InputFile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

// Thrown from the builder; parse_input_json turns it into an InputError naming the source.
struct TooDeep {};

// Builds the document from SAX events with an explicit stack. nlohmann's own callback parser scans a
// container's every element each time one of its objects ends (quadratic in an array's width), so
// the depth limit and the sink are applied here instead.
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
  bool key(string_t& k) override {
    if (open_.size() == 1) top_key_ = k;
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
  // Puts V where the parser is: the root, the next array element, or the current key's value.
  json& place(json&& v) {
    if (open_.empty()) return root_ = std::move(v);
    json& parent = *open_.back();
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
    if (open_.size() == 1 && empty.is_array()) top_index_ = 0;
    open_.push_back(&place(std::move(empty)));
    return true;
  }

  bool close() {
    open_.pop_back();
    offer();
    return true;
  }

  // The value just completed is an element of a top-level key's array: the sink may take it.
  void offer() {
    if (open_.size() != 2 || !open_[0]->is_object() || !open_[1]->is_array()) return;
    json& array = *open_[1];
    if (sink_ && sink_(top_key_, top_index_, array.back())) array.get_ref<json::array_t&>().pop_back();
    ++top_index_;
  }

  const ElementSink& sink_;
  json root_;
  std::vector<json*> open_;  // the containers being filled, outermost first
  std::string key_;          // the key whose value comes next, in the innermost object
  std::string top_key_;      // the top-level key whose value is being read
  std::size_t top_index_ = 0;
  std::string error_;
};

}  // namespace

std::string read_input_file(const std::string& path) {
  // Looked at before opening, so that not even open() reaches a device; fstat below checks again
  // what was actually opened.
  struct stat before {};
  if (::stat(path.c_str(), &before) == 0 && !S_ISREG(before.st_mode))
    throw InputError(path + ": " + kind_of(before.st_mode) + ", not a regular file");
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw InputError(path + ": cannot stat: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InputError(path + ": " + kind_of(st.st_mode) + ", not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxInputBytes)
    throw InputError(path + ": " + std::to_string(st.st_size) + " bytes, over the " + limit_text() +
                     " limit for input files");
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
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
  Builder builder(sink);
  try {
    if (!json::sax_parse(text, &builder)) throw InputError(source + ": not valid JSON (" + builder.error() + ")");
  } catch (const TooDeep&) {
    throw InputError(source + ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  return std::move(builder.root());
}

}  // namespace gpuscale::results
