#include "actors/line_reader.hpp"

#include "actors/read_ahead.hpp"
#include "actors/xz_decoder.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

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
  reading_ahead_ = false;  // asked for again (read_ahead) by who opens
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return false;
  compressed_ = ends_with_xz(path) || starts_with_xz_magic(fd_);
  if (compressed_) xz_ = std::make_unique<XzDecoder>();
  buffer_.resize(kBufferSize);
  reset_text();
  return true;
}

void LineReader::close() {
  stop_reading_ahead();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  xz_.reset();
}

void LineReader::read_ahead(ExternalWake wake, Duration poll, std::string path) {
  reading_ahead_ = true;
  wake_ = std::move(wake);
  poll_ = poll;
  path_ = std::move(path);
}

void LineReader::stop_reading_ahead() {
  if (ahead_) {
    ReadAhead::Handover handover = ahead_->stop();
    ahead_.reset();
    fd_ = handover.fd;
    xz_ = std::move(handover.xz);
  }
  piece_.clear();
  piece_used_ = 0;
  waiting_ = false;
  change_ = Change::none;
}

void LineReader::reset_text() {
  begin_ = end_ = 0;
  eof_ = false;
  line_number_ = 0;
  consumed_ = 0;
  marked_ = false;
  error_.clear();
}

LineReader::Change LineReader::take_change(const std::string& path) {
  // Reading in place, the path is looked at now; reading ahead, the thread did. Bytes read from
  // the descriptor: what was moved out of the buffer and what is in it.
  Change change = !ahead_ && !reading_ahead_ && follow_ && fd_ >= 0
                      ? follow_change(fd_, path, consumed_ + end_)
                      : std::exchange(change_, Change::none);
  if (change != Change::none) reset_text();
  return change;
}

void LineReader::mark() {
  marked_ = true;
  mark_begin_ = begin_;
  mark_line_ = line_number_;
}

void LineReader::rewind() {
  if (!marked_) return;
  begin_ = mark_begin_;
  line_number_ = mark_line_;
  marked_ = false;
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

// Moves the unread bytes (from the mark, when set) to the front, growing the buffer when one line
// fills it, and reads more.
bool LineReader::fill() {
  if (eof_ || (fd_ < 0 && !ahead_)) return false;
  if (std::size_t keep = marked_ ? mark_begin_ : begin_; keep > 0) {
    std::memmove(buffer_.data(), buffer_.data() + keep, end_ - keep);
    end_ -= keep;
    consumed_ += keep;
    begin_ -= keep;
    if (marked_) mark_begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  if (reading_ahead_) return fill_ahead();
  long n = read_some(buffer_.data() + end_, buffer_.size() - end_);
  if (n > 0) {
    end_ += static_cast<std::size_t>(n);
    return true;
  }
  eof_ = true;
  return false;
}

bool LineReader::fill_ahead() {
  waiting_ = false;
  if (change_ != Change::none) return false;  // until it is taken
  if (piece_used_ == piece_.size()) {
    if (!ahead_) {
      // Bytes read from the descriptor so far: what was moved out of the buffer and what is in it.
      ReadAhead::Options options{path_, follow_, poll_};
      ahead_ = std::make_unique<ReadAhead>(fd_, std::move(xz_), consumed_ + end_,
                                           std::move(options), wake_);
      fd_ = -1;
    }
    if (piece_.capacity() > 0) ahead_->recycle(std::move(piece_));
    piece_ = {};
    piece_used_ = 0;
    ReadAhead::Piece piece;
    if (!ahead_->take(piece)) {
      waiting_ = true;
      return false;
    }
    switch (piece.kind) {
      case ReadAhead::Kind::data:
        piece_ = std::move(piece.bytes);
        break;
      case ReadAhead::Kind::error:
        error_ = std::move(piece.error);
        eof_ = true;
        return false;
      case ReadAhead::Kind::end:
        eof_ = true;
        return false;
      case ReadAhead::Kind::truncated:
        change_ = Change::truncated;
        return false;
      case ReadAhead::Kind::replaced:
        change_ = Change::replaced;
        return false;
    }
  }
  std::size_t n = std::min(piece_.size() - piece_used_, buffer_.size() - end_);
  std::memcpy(buffer_.data() + end_, piece_.data() + piece_used_, n);
  end_ += n;
  piece_used_ += n;
  return true;
}

bool LineReader::seek(std::uint64_t offset, std::uint64_t line_number) {
  if (ahead_) {
    // A plain file goes back with lseek, wherever the thread stands; anything else would skip
    // what the thread read and was not taken.
    stop_reading_ahead();
    struct stat status {};
    if (compressed_ || fd_ < 0 || ::fstat(fd_, &status) != 0 || !S_ISREG(status.st_mode)) {
      error_ = "cannot go back in a file already read ahead";
      return false;
    }
  }
  if (fd_ < 0) return false;
  if (!compressed_) {
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
      reset_text();
      consumed_ = offset;
      line_number_ = line_number;
      return true;
    }
  }
  // Compressed, or not a plain file: read up to the offset, in place (the thread, when reading
  // ahead, starts at the next read from where the descriptor and the decoder stand).
  struct InPlace {
    bool& flag;
    bool saved;
    ~InPlace() { flag = saved; }
  } in_place{reading_ahead_, std::exchange(reading_ahead_, false)};
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
    const std::uint64_t consumed = consumed_;
    scanned = end_;
    if (!fill()) break;
    scanned -= static_cast<std::size_t>(consumed_ - consumed);  // fill() moved the text forward
  }
  // Followed, the end is where the writer has got to: more may come.
  if (follow_) eof_ = false;
  return false;
}

bool LineReader::has_line() {
  std::size_t stop = 0;
  return find_line_end(stop) || (!follow_ && !waiting_ && begin_ < end_);
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
  // A last line without its newline: a line at the end of a file, not yet when following it or
  // while more may come.
  if (begin_ == end_ || follow_ || waiting_ || change_ != Change::none) return false;
  std::size_t length = end_ - begin_;
  if (buffer_[end_ - 1] == '\r') --length;
  line = std::string_view(buffer_.data() + begin_, length);
  begin_ = end_;
  ++line_number_;
  return true;
}

}  // namespace cwf::actors
