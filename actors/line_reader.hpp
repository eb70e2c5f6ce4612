// Reads a file line by line through one large buffer: a line is a view into the buffer, valid
// until the next call, so reading allocates nothing per line. Lines end at '\n'; a '\r' before
// it is dropped; a last line without a terminator is still a line. A file in the .xz format
// (recognised by its header magic, or by a name ending in ".xz") is decompressed on the fly.
//
// In follow mode (tail -f) the end of the file is only where the writer has got to: a last line
// without its newline is not a line yet, and next() finds what was appended since.
//
// An actor reads ahead (read_ahead): a thread of its own reads the file, so that its firings
// never wait for a disk, a pipe or decompression.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "actors/read_ahead.hpp"
#include "runtime/actor/external_wake.hpp"
#include "runtime/time/clock.hpp"

namespace cwf::actors {

class XzDecoder;

class LineReader {
 public:
  static constexpr std::size_t kBufferSize = 1 << 20;

  LineReader();
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // False (with errno set) when the file cannot be opened.
  bool open(const std::string& path);
  void close();
  bool is_open() const { return fd_ >= 0 || ahead_ != nullptr; }
  bool is_compressed() const { return compressed_; }

  // The next line; false at the end of the file or on a read error (see error()).
  bool next(std::string_view& line);
  // Whether next() would return a line now (in follow mode: a whole one).
  bool has_line();

  // ---- reading ahead (actors that read in firings) ----
  // From the first read on, a thread of its own reads the file (ReadAhead): next() and
  // has_line() never wait for it. When what they need has not come yet they return false with
  // waiting() true, and `wake` is woken once more has come. Followed, the thread also looks at
  // the end again every `poll` and notices a file truncated or replaced at `path` (take_change).
  void read_ahead(ExternalWake wake, Duration poll, std::string path);
  bool waiting() const { return waiting_; }

  // ---- follow mode (plain files) ----
  // The end of the file is only where the writer has got to: a last line without its newline is
  // not a line yet.
  void set_follow(bool follow) { follow_ = follow; }
  using Change = FileChange;
  // Following, after next() found nothing: whether the file was truncated or replaced at `path`,
  // once (reading ahead, as the thread found it); the reading then starts again from the start of
  // the (new) text, and what was read of a last unfinished line is dropped. Replaced by a path
  // that cannot be opened yet (between a rename and the new file): none, for now.
  Change take_change(const std::string& path);

  // ---- going back within what is read (a record spanning lines) ----
  // Remembers where the reading stands (the next line); rewind() goes back there once, so that
  // the lines read after it are read again: the text from the mark on stays in the buffer.
  void mark();
  void rewind();

  // 1-based number of the line last returned.
  std::uint64_t line_number() const { return line_number_; }
  // Bytes of the (decompressed) text before the next line: where the reading stands.
  std::uint64_t position() const { return consumed_ + begin_; }
  // Goes back to where position() was `offset`, after line `line_number` (a resumed run): a seek
  // in a plain file, decompressing and skipping in an .xz one. False with error() set when the
  // text is shorter than that, or (reading ahead) when what the thread read would be skipped:
  // seek before the first read.
  bool seek(std::uint64_t offset, std::uint64_t line_number);
  // Non-empty after a read error.
  const std::string& error() const { return error_; }

 private:
  bool fill();
  // Where the next line ends in the buffer (reading more as needed); false when no line is
  // there (the end of the text, or in follow mode a line without its newline yet).
  bool find_line_end(std::size_t& stop);
  long read_some(char* out, std::size_t capacity);
  // Reading ahead: what fill() reads comes from the thread's pieces.
  bool fill_ahead();
  // Starts the reading from the start of the text again (a followed file truncated or replaced).
  void reset_text();
  void stop_reading_ahead();

  int fd_ = -1;
  std::unique_ptr<XzDecoder> xz_;  // set while reading an .xz file (and not reading ahead)
  bool compressed_ = false;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  bool follow_ = false;
  std::uint64_t line_number_ = 0;
  std::uint64_t consumed_ = 0;  // bytes of text moved out of the buffer's front so far
  std::string error_;

  bool marked_ = false;
  std::size_t mark_begin_ = 0;  // where the marked line starts in the buffer
  std::uint64_t mark_line_ = 0;

  bool reading_ahead_ = false;  // read_ahead() was called
  ExternalWake wake_;
  Duration poll_ = 0;
  std::string path_;
  std::unique_ptr<ReadAhead> ahead_;  // started by the first fill()
  std::vector<char> piece_;           // a data piece taken from ahead_, not all copied yet
  std::size_t piece_used_ = 0;
  bool waiting_ = false;
  Change change_ = Change::none;  // handed over by ahead_, not taken yet
};

}  // namespace cwf::actors
