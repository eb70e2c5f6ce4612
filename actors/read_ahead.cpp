#include "actors/read_ahead.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "actors/xz_decoder.hpp"

namespace cwf::actors {

namespace {

// `path` opened to read when it is a regular file, else -1; never waits (a FIFO's open would).
int open_regular(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return -1;
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode) ||
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

FileChange follow_change(int& fd, const std::string& path, std::uint64_t offset) {
  struct stat open_file {
  }, at_path{};
  if (::fstat(fd, &open_file) != 0) return FileChange::none;
  if (::stat(path.c_str(), &at_path) == 0 &&
      (at_path.st_ino != open_file.st_ino || at_path.st_dev != open_file.st_dev)) {
    const int replacement = open_regular(path);
    if (replacement < 0) return FileChange::none;
    ::close(fd);
    fd = replacement;
    return FileChange::replaced;
  }
  if (static_cast<std::uint64_t>(open_file.st_size) < offset && ::lseek(fd, 0, SEEK_SET) == 0)
    return FileChange::truncated;
  return FileChange::none;
}

ReadAhead::ReadAhead(int fd, std::unique_ptr<XzDecoder> xz, std::uint64_t offset, Options options,
                     ExternalWake wake)
    : fd_(fd),
      xz_(std::move(xz)),
      offset_(offset),
      options_(std::move(options)),
      wake_(std::move(wake)) {
  struct stat status {};
  regular_ = ::fstat(fd_, &status) == 0 && S_ISREG(status.st_mode);
  if (!regular_) {
    stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (stop_fd_ < 0)
      throw std::runtime_error(std::string("cannot read ahead: eventfd: ") + std::strerror(errno));
  }
  thread_ = std::thread([this] { run(); });
}

ReadAhead::~ReadAhead() {
  Handover handover = stop();
  if (handover.fd >= 0) ::close(handover.fd);
}

ReadAhead::Handover ReadAhead::stop() {
  if (thread_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    room_or_stop_.notify_all();
    if (stop_fd_ >= 0) {
      std::uint64_t one = 1;
      [[maybe_unused]] ssize_t n = ::write(stop_fd_, &one, sizeof one);
    }
    thread_.join();
  }
  if (stop_fd_ >= 0) ::close(stop_fd_);
  stop_fd_ = -1;
  Handover handover{fd_, std::move(xz_)};
  fd_ = -1;
  return handover;
}

bool ReadAhead::take(Piece& piece) {
  {
    std::lock_guard lock(mutex_);
    if (ready_.empty()) return false;
    piece = std::move(ready_.front());
    ready_.pop_front();
  }
  room_or_stop_.notify_one();
  return true;
}

void ReadAhead::recycle(std::vector<char>&& bytes) {
  if (bytes.capacity() < options_.chunk) return;
  std::lock_guard lock(mutex_);
  if (spare_.size() < options_.chunks) spare_.push_back(std::move(bytes));
}

void ReadAhead::hand_over(Piece&& piece) {
  {
    std::lock_guard lock(mutex_);
    ready_.push_back(std::move(piece));
  }
  wake_.wake();
}

bool ReadAhead::readable() {
  if (regular_) {
    std::lock_guard lock(mutex_);
    return !stopping_;
  }
  pollfd fds[2] = {{fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
  for (;;) {
    int n = ::poll(fds, 2, -1);
    if (n < 0 && errno == EINTR) continue;
    // An error on the descriptor is for read() to report.
    return n < 0 || fds[1].revents == 0;
  }
}

long ReadAhead::read_some(std::vector<char>& buffer, std::string& error) {
  if (xz_) {
    long n = xz_->read(fd_, buffer.data(), buffer.size(), [this] { return readable(); });
    if (n == -1) error = xz_->error();
    return n;
  }
  if (!readable()) return -2;
  for (;;) {
    ssize_t n = ::read(fd_, buffer.data(), buffer.size());
    if (n >= 0) return static_cast<long>(n);
    if (errno == EINTR) continue;
    error = std::strerror(errno);
    return -1;
  }
}

void ReadAhead::run() {
  for (;;) {
    std::vector<char> buffer;
    {
      std::unique_lock lock(mutex_);
      room_or_stop_.wait(lock, [&] { return stopping_ || ready_.size() < options_.chunks; });
      if (stopping_) return;
      if (!spare_.empty()) {
        buffer = std::move(spare_.back());
        spare_.pop_back();
      }
    }
    buffer.resize(options_.chunk);
    Piece piece;
    long n = read_some(buffer, piece.error);
    if (n == -2) return;
    if (n > 0) {
      buffer.resize(static_cast<std::size_t>(n));
      offset_ += static_cast<std::uint64_t>(n);
      piece.bytes = std::move(buffer);
      hand_over(std::move(piece));
      continue;
    }
    if (n < 0) {
      piece.kind = Kind::error;
      hand_over(std::move(piece));
      return;
    }
    if (!options_.follow) {
      piece.kind = Kind::end;
      hand_over(std::move(piece));
      return;
    }
    // Followed: the end is only where the writer has got to (a plain file: follow refuses
    // compressed ones).
    if (FileChange change = follow_change(fd_, options_.path, offset_);
        change != FileChange::none) {
      offset_ = 0;
      piece.kind = change == FileChange::truncated ? Kind::truncated : Kind::replaced;
      hand_over(std::move(piece));
      continue;
    }
    std::unique_lock lock(mutex_);
    if (room_or_stop_.wait_for(lock, std::chrono::nanoseconds(options_.poll),
                               [&] { return stopping_; }))
      return;
  }
}

}  // namespace cwf::actors
