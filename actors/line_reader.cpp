#include "actors/line_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cwf::actors {

bool LineReader::open(const std::string& path) {
  close();
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return false;
  buffer_.resize(kBufferSize);
  begin_ = end_ = 0;
  eof_ = false;
  line_number_ = 0;
  error_.clear();
  return true;
}

void LineReader::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

// Moves the unread bytes to the front (growing the buffer when one line fills it) and reads more.
bool LineReader::fill() {
  if (eof_ || fd_ < 0) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  for (;;) {
    ssize_t n = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
    if (n > 0) {
      end_ += static_cast<std::size_t>(n);
      return true;
    }
    if (n == 0) {
      eof_ = true;
      return false;
    }
    if (errno == EINTR) continue;
    error_ = std::strerror(errno);
    eof_ = true;
    return false;
  }
}

bool LineReader::next(std::string_view& line) {
  std::size_t scanned = begin_;
  for (;;) {
    const char* data = buffer_.data();
    const void* nl = end_ > scanned ? std::memchr(data + scanned, '\n', end_ - scanned) : nullptr;
    if (nl) {
      std::size_t stop = static_cast<std::size_t>(static_cast<const char*>(nl) - data);
      std::size_t length = stop - begin_;
      if (length > 0 && data[stop - 1] == '\r') --length;
      line = std::string_view(data + begin_, length);
      begin_ = stop + 1;
      ++line_number_;
      return true;
    }
    std::size_t consumed = begin_;
    scanned = end_;
    if (!fill()) break;
    scanned -= consumed;  // fill() moved the unread bytes to the front
  }
  if (begin_ == end_) return false;
  std::size_t length = end_ - begin_;
  if (buffer_[end_ - 1] == '\r') --length;
  line = std::string_view(buffer_.data() + begin_, length);
  begin_ = end_;
  ++line_number_;
  return true;
}

}  // namespace cwf::actors
