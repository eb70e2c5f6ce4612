// Buffered output for the sinks, and the text formats they share.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "actors/write_behind.hpp"
#include "runtime/actor/actor_context.hpp"
#include "runtime/values/value.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::actors {

// Appends go to an in-memory buffer that is handed to a WriteBehind when it passes `capacity` and
// on flush(): one write call per buffer-full instead of one per event, made on the write-behind's
// thread, not in the firing.
class BufferedWriter {
 public:
  // A hand-over wakes the writing thread: at 64 KiB a file copied through jsonl_source and
  // jsonl_sink ran 8 % slower than writing in the firing; at 256 KiB as fast (docs/performance.md).
  static constexpr std::size_t kCapacity = 1 << 18;

  BufferedWriter() = default;
  ~BufferedWriter() { close(); }
  BufferedWriter(const BufferedWriter&) = delete;
  BufferedWriter& operator=(const BufferedWriter&) = delete;

  // truncate: emptied; append: written after what it holds (also a resumed run's output, cut
  // back to a checkpoint's size with truncate_to before anything is written).
  enum class Mode { truncate, append };
  // Opens a file (created if missing); throws std::runtime_error when it cannot.
  void open(const std::string& path, Mode mode = Mode::truncate);
  // Writes to a stream the writer does not own (stdout).
  void attach(std::FILE* stream);
  bool is_open() const { return stream_ != nullptr; }

  std::string& buffer() { return buffer_; }
  // One more event's text is in the buffer. Events count as written once their text is, and as
  // lost when the write that should have written them failed, or after a failure.
  void count_event(std::uint64_t n = 1) { pending_ += n; }
  void maybe_flush() {
    if (buffer_.size() >= kCapacity) flush();
  }
  // Hands the buffer over to be written (soon, on the write-behind's thread). False after a
  // write error known so far (see error()).
  bool flush();
  // Hands the buffer over and waits until it is written: lines a user watches come out now, in
  // the order the firings made them.
  bool write_now();
  // Writes everything out and makes it durable (fdatasync on an owned file): a checkpoint that
  // says how much was written must not survive a crash that this data does not.
  bool sync();
  // Bytes in the file as written through this writer (after sync or close; the size it had when
  // opened to append or resume counts).
  std::uint64_t size() const { return size_; }
  // A resumed run, the file opened to append: cuts an owned file back to `bytes` (what a
  // checkpoint said was written), so that writing goes on from there. False with error() set when
  // the file is shorter, or cannot be cut.
  bool truncate_to(std::uint64_t bytes);
  // Writes everything out, then closes an owned file.
  bool close();
  // The first write error known so far (flush, sync, close and take_lost bring it up to date).
  const std::string& error() const { return error_; }
  // Events lost to write errors and not yet reported (reporting takes them).
  std::uint64_t take_lost() {
    if (behind_ && behind_->failed()) collect();
    return std::exchange(lost_, 0);
  }

 private:
  // Takes what the write-behind's writes came to.
  void collect();

  std::FILE* stream_ = nullptr;
  bool owned_ = false;
  std::unique_ptr<WriteBehind> behind_;  // while open
  std::string buffer_;
  std::string error_;
  std::uint64_t pending_ = 0;  // counted events whose text was not handed over yet
  std::uint64_t lost_ = 0;
  std::uint64_t base_size_ = 0;  // the file's size before this writer wrote to it
  std::uint64_t size_ = 0;
};

// What a sink does after writing: reports the events that a write error lost (as soon as the
// error is known, and what was lost after it at the end), so that the run says they may be lost.
void report_write_losses(ActorContext& context, BufferedWriter& writer, std::string_view output);

// A sink's output in a checkpoint. save_output makes what was written durable and writes its size;
// restore_output (a resumed run, the file opened with Mode::append) cuts the file back to that
// size, so that what the resumed run writes again follows it: no line lost, none twice. A stream
// the writer does not own (stdout) cannot be cut: what was written after the checkpoint is
// written again (at least once). Both throw std::runtime_error naming `output` on failure.
void save_output(BufferedWriter& writer, SnapshotWriter& out, std::string_view output);
void restore_output(BufferedWriter& writer, SnapshotReader& in, std::string_view output);

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
