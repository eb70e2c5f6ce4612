#include "linear_road/answer_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "linear_road/answer_format.hpp"
#include "runtime/snapshot/durable_output.hpp"

namespace cwf::lr {

AnswerWriter::AnswerWriter() : buffer_(kBufferSize, '\0') {}

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
  base_size_ = 0;
  struct stat status {};
  if (append && ::fstat(fd_, &status) == 0) base_size_ = static_cast<std::uint64_t>(status.st_size);
  size_ = base_size_;
  behind_ = std::make_unique<actors::WriteBehind>(fd_);
  return true;
}

bool AnswerWriter::sync() {
  drain();
  if (owns_fd_ && fd_ >= 0 && error_.empty()) error_ = make_durable(fd_);
  return error_.empty();
}

bool AnswerWriter::truncate_to(std::uint64_t bytes) {
  if (!owns_fd_ || fd_ < 0) return true;
  drain();  // nothing should be written yet; if it is, it is cut back too
  if (!error_.empty()) return false;
  error_ = cut_back(fd_, size_, bytes);
  if (!error_.empty()) return false;
  base_size_ -= size_ - bytes;
  size_ = bytes;
  return true;
}

void AnswerWriter::attach(int fd) {
  close();
  error_.clear();
  fd_ = fd;
  owns_fd_ = false;
  base_size_ = size_ = 0;
  behind_ = std::make_unique<actors::WriteBehind>(fd_, /*shared=*/true);
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
  if (!behind_) {
    used_ = 0;
    return;
  }
  buffer_.resize(used_);
  behind_->hand_over(buffer_, 0);
  buffer_.resize(kBufferSize);
  used_ = 0;
}

void AnswerWriter::drain() {
  flush();
  if (!behind_) return;
  behind_->drain();
  actors::WriteBehind::Outcome outcome = behind_->take_outcome();
  size_ = base_size_ + outcome.bytes_written;
  if (error_.empty()) error_ = std::move(outcome.error);
}

bool AnswerWriter::close() {
  if (fd_ < 0) return error_.empty();
  drain();
  behind_.reset();
  if (owns_fd_ && ::close(fd_) != 0 && error_.empty()) error_ = std::strerror(errno);
  fd_ = -1;
  owns_fd_ = false;
  return error_.empty();
}

}  // namespace cwf::lr
