// Writes answers as product-format lines to a file through one large buffer, so that output is a
// small part of a run's time (one write(2) per megabyte, not one per answer), made behind the
// answers on a thread of its own (actors::WriteBehind).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "actors/write_behind.hpp"
#include "linear_road/answer_sink.hpp"

namespace cwf::lr {

class AnswerWriter : public AnswerSink {
 public:
  static constexpr std::size_t kBufferSize = 1 << 20;

  AnswerWriter();
  ~AnswerWriter() override;
  AnswerWriter(const AnswerWriter&) = delete;
  AnswerWriter& operator=(const AnswerWriter&) = delete;

  // Creates (truncates) `path`, or with `append` (a resumed run) keeps what it holds and writes
  // after it; false with error() set when it cannot.
  bool open(const std::string& path, bool append = false);
  // Writes to a descriptor the caller keeps open (e.g. 1 for standard output).
  void attach(int fd);
  // Writes out what is buffered and closes an opened file; false if any write failed.
  bool close();
  const std::string& error() const { return error_; }

  // Checkpoints (as actors::BufferedWriter): sync() writes out the buffer and makes an opened
  // file durable; size() is what the file holds as written through this writer (with what it
  // held when opened to append); truncate_to() cuts a file opened to append back to a
  // checkpoint's size. False with error() set on failure.
  bool sync();
  std::uint64_t size() const { return size_; }
  bool truncate_to(std::uint64_t bytes);

  void toll(const TollNotification& answer) override { put(answer); }
  void alert(const AccidentAlert& answer) override { put(answer); }
  void balance(const BalanceAnswer& answer) override { put(answer); }
  void expenditure(const ExpenditureAnswer& answer) override { put(answer); }

  std::uint64_t lines() const { return lines_; }

 private:
  template <class Answer>
  void put(const Answer& answer);
  // Hands the buffer over to the write-behind.
  void flush();
  // Writes out what was handed over and takes what the writes came to.
  void drain();

  int fd_ = -1;
  bool owns_fd_ = false;
  std::unique_ptr<actors::WriteBehind> behind_;  // while open
  std::string buffer_;
  std::size_t used_ = 0;
  std::uint64_t lines_ = 0;
  std::uint64_t base_size_ = 0;  // the file's size before this writer wrote to it
  std::uint64_t size_ = 0;
  std::string error_;
};

}  // namespace cwf::lr
