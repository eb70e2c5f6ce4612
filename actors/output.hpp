// Buffered output for the sinks, and the text formats they share.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include "runtime/actor/actor_context.hpp"
#include "runtime/values/value.hpp"

namespace cwf::actors {

// Appends go to an in-memory buffer that is written out when it passes `capacity` and on
// flush(); one write call per buffer-full instead of one per event.
class BufferedWriter {
 public:
  static constexpr std::size_t kCapacity = 1 << 16;

  BufferedWriter() = default;
  ~BufferedWriter() { close(); }
  BufferedWriter(const BufferedWriter&) = delete;
  BufferedWriter& operator=(const BufferedWriter&) = delete;

  enum class Mode { truncate, append };
  // Opens a file, emptied or to be appended to; throws std::runtime_error when it cannot.
  void open(const std::string& path, Mode mode = Mode::truncate);
  // Writes to a stream the writer does not own (stdout).
  void attach(std::FILE* stream);
  bool is_open() const { return stream_ != nullptr; }

  std::string& buffer() { return buffer_; }
  // One more event's text is in the buffer. Events count as written once a flush succeeded, and
  // as lost when the flush that should have written them failed, or after a failure.
  void count_event(std::uint64_t n = 1) { pending_ += n; }
  void maybe_flush() {
    if (buffer_.size() >= kCapacity) flush();
  }
  // False after a write error (see error()).
  bool flush();
  // Flushes, then closes an owned file.
  bool close();
  const std::string& error() const { return error_; }
  // Events lost to write errors and not yet reported (reporting takes them).
  std::uint64_t take_lost() { return std::exchange(lost_, 0); }

 private:
  std::FILE* stream_ = nullptr;
  bool owned_ = false;
  std::string buffer_;
  std::string error_;
  std::uint64_t pending_ = 0;  // counted events whose text was not yet written out
  std::uint64_t lost_ = 0;
};

// What a sink does after writing: reports the events that a write error lost (as soon as the
// error happens, and what was lost after it at the end), so that the run says they may be lost.
void report_write_losses(ActorContext& context, BufferedWriter& writer, std::string_view output);

// CSV field text for a value: null is empty, strings as they are, doubles always with a '.', or
// an exponent (Infinity, -Infinity, NaN when not finite), arrays and records as JSON; quoted (with
// doubled quotes) when the text contains the separator, a quote or a line break.
void append_csv_field(std::string& out, const Value& value, char separator);

// A double in the shortest form that reads back the same, with ".0" added to integral values;
// Infinity, -Infinity or NaN when it is not finite.
void append_double(std::string& out, double value);

// Strings without quotes, non-finite doubles as their word (Value::to_text), everything else as
// JSON.
void append_text(std::string& out, const Value& value);

}  // namespace cwf::actors
