#include "linear_road/answer_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "linear_road/answer_format.hpp"
#include "runtime/snapshot/durable_output.hpp"

namespace cwf::lr {

AnswerWriter::AnswerWriter() : buffer_(kBufferSize) {}

AnswerWriter::~AnswerWriter() {
  close();
}

bool AnswerWriter::open(const std::string& path, bool append) {
  close();
  error_.clear();
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
  if (fd_ < 0) {
    error_ = path + ": " + std::strerror(errno);
    return false;
  }
  owns_fd_ = true;
  size_ = 0;
  struct stat status {};
  if (append && ::fstat(fd_, &status) == 0) size_ = static_cast<std::uint64_t>(status.st_size);
  return true;
}

bool AnswerWriter::sync() {
  flush();
  if (owns_fd_ && fd_ >= 0 && error_.empty()) error_ = make_durable(fd_);
  return error_.empty();
}

bool AnswerWriter::truncate_to(std::uint64_t bytes) {
  if (!owns_fd_ || fd_ < 0) return true;
  error_ = cut_back(fd_, size_, bytes);
  if (!error_.empty()) return false;
  size_ = bytes;
  return true;
}

void AnswerWriter::attach(int fd) {
  close();
  error_.clear();
  fd_ = fd;
  owns_fd_ = false;
}

template <class Answer>
void AnswerWriter::put(const Answer& answer) {
  if (buffer_.size() - used_ < kMaxAnswerLine) flush();
  used_ =
      static_cast<std::size_t>(format_answer_line(buffer_.data() + used_, answer) - buffer_.data());
  ++lines_;
}

// The four answer types: callers that hold an AnswerWriter (not an AnswerSink) call put directly.
template void AnswerWriter::put(const TollNotification&);
template void AnswerWriter::put(const AccidentAlert&);
template void AnswerWriter::put(const BalanceAnswer&);
template void AnswerWriter::put(const ExpenditureAnswer&);

void AnswerWriter::flush() {
  std::size_t done = 0;
  while (done < used_ && fd_ >= 0 && error_.empty()) {
    ssize_t n = ::write(fd_, buffer_.data() + done, used_ - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      error_ = std::strerror(errno);
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  size_ += done;
  used_ = 0;
}

bool AnswerWriter::close() {
  if (fd_ < 0) return error_.empty();
  flush();
  if (owns_fd_ && ::close(fd_) != 0 && error_.empty()) error_ = std::strerror(errno);
  fd_ = -1;
  owns_fd_ = false;
  return error_.empty();
}

}  // namespace cwf::lr
