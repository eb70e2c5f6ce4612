#include "actors/line_reader.hpp"

#include "actors/xz_decoder.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace cwf::actors {

namespace {

bool ends_with_xz(const std::string& path) {
  return path.size() >= 3 && path.compare(path.size() - 3, 3, ".xz") == 0;
}

// The magic is looked at with pread so that the descriptor still starts at offset 0; a pipe
// cannot be peeked at that way, and then only the name decides.
bool starts_with_xz_magic(int fd) {
  unsigned char head[6];
  ssize_t n = ::pread(fd, head, sizeof head, 0);
  return n == static_cast<ssize_t>(sizeof head) && has_xz_magic(head, sizeof head);
}

}  // namespace

LineReader::LineReader() = default;
LineReader::~LineReader() {
  close();
}

bool LineReader::open(const std::string& path) {
  close();
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return false;
  if (ends_with_xz(path) || starts_with_xz_magic(fd_)) xz_ = std::make_unique<XzDecoder>();
  buffer_.resize(kBufferSize);
  begin_ = end_ = 0;
  eof_ = false;
  line_number_ = 0;
  consumed_ = 0;
  error_.clear();
  return true;
}

void LineReader::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  xz_.reset();
}

// Raw bytes or decompressed ones: > 0 bytes read, 0 at the end, -1 with error_ set.
long LineReader::read_some(char* out, std::size_t capacity) {
  if (xz_) {
    long n = xz_->read(fd_, out, capacity);
    if (n < 0) error_ = xz_->error();
    return n;
  }
  for (;;) {
    ssize_t n = ::read(fd_, out, capacity);
    if (n >= 0) return static_cast<long>(n);
    if (errno == EINTR) continue;
    error_ = std::strerror(errno);
    return -1;
  }
}

// Moves the unread bytes to the front (growing the buffer when one line fills it) and reads more.
bool LineReader::fill() {
  if (eof_ || fd_ < 0) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    consumed_ += begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  long n = read_some(buffer_.data() + end_, buffer_.size() - end_);
  if (n > 0) {
    end_ += static_cast<std::size_t>(n);
    return true;
  }
  eof_ = true;
  return false;
}

bool LineReader::seek(std::uint64_t offset, std::uint64_t line_number) {
  if (fd_ < 0) return false;
  if (!xz_) {
    struct stat status {};
    if (::fstat(fd_, &status) == 0 && S_ISREG(status.st_mode)) {
      if (static_cast<std::uint64_t>(status.st_size) < offset) {
        error_ = "the file has " + std::to_string(status.st_size) + " bytes, fewer than the " +
                 std::to_string(offset) + " already read";
        return false;
      }
      if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) {
        error_ = std::strerror(errno);
        return false;
      }
      begin_ = end_ = 0;
      eof_ = false;
      consumed_ = offset;
      line_number_ = line_number;
      return true;
    }
  }
  // Compressed, or not a plain file: read up to the offset.
  while (position() < offset) {
    std::uint64_t wanted = offset - position();
    if (end_ > begin_) {
      std::size_t skip = static_cast<std::size_t>(std::min<std::uint64_t>(wanted, end_ - begin_));
      begin_ += skip;
      continue;
    }
    if (!fill()) {
      if (error_.empty())
        error_ = "the text has " + std::to_string(position()) + " bytes, fewer than the " +
                 std::to_string(offset) + " already read";
      return false;
    }
  }
  line_number_ = line_number;
  return true;
}

bool LineReader::find_line_end(std::size_t& stop) {
  std::size_t scanned = begin_;
  for (;;) {
    const char* data = buffer_.data();
    const void* nl = end_ > scanned ? std::memchr(data + scanned, '\n', end_ - scanned) : nullptr;
    if (nl) {
      stop = static_cast<std::size_t>(static_cast<const char*>(nl) - data);
      return true;
    }
    std::size_t consumed = begin_;
    scanned = end_;
    if (!fill()) break;
    scanned -= consumed;  // fill() moved the unread bytes to the front
  }
  // Followed, the end is where the writer has got to: more may come.
  if (follow_) eof_ = false;
  return false;
}

bool LineReader::has_line() {
  std::size_t stop = 0;
  return find_line_end(stop) || (!follow_ && begin_ < end_);
}

bool LineReader::next(std::string_view& line) {
  std::size_t stop = 0;
  if (find_line_end(stop)) {
    const char* data = buffer_.data();
    std::size_t length = stop - begin_;
    if (length > 0 && data[stop - 1] == '\r') --length;
    line = std::string_view(data + begin_, length);
    begin_ = stop + 1;
    ++line_number_;
    return true;
  }
  // A last line without its newline: a line at the end of a file, not yet when following it.
  if (begin_ == end_ || follow_) return false;
  std::size_t length = end_ - begin_;
  if (buffer_[end_ - 1] == '\r') --length;
  line = std::string_view(buffer_.data() + begin_, length);
  begin_ = end_;
  ++line_number_;
  return true;
}

LineReader::Change LineReader::change(const std::string& path) const {
  struct stat open_file {
  }, at_path{};
  if (fd_ < 0 || ::fstat(fd_, &open_file) != 0) return Change::none;
  if (::stat(path.c_str(), &at_path) == 0 &&
      (at_path.st_ino != open_file.st_ino || at_path.st_dev != open_file.st_dev))
    return Change::replaced;
  // Bytes read from the descriptor: what was moved out of the buffer and what is in it.
  if (!xz_ && static_cast<std::uint64_t>(open_file.st_size) < consumed_ + end_)
    return Change::truncated;
  return Change::none;
}

void LineReader::restart() {
  if (fd_ < 0) return;
  ::lseek(fd_, 0, SEEK_SET);
  begin_ = end_ = 0;
  eof_ = false;
  line_number_ = 0;
  consumed_ = 0;
  error_.clear();
}

}  // namespace cwf::actors
