// Reads a file line by line through one large buffer: a line is a view into the buffer, valid
// until the next call, so reading allocates nothing per line. Lines end at '\n'; a '\r' before
// it is dropped; a last line without a terminator is still a line. A file in the .xz format
// (recognised by its header magic, or by a name ending in ".xz") is decompressed on the fly.
//
// In follow mode (tail -f) the end of the file is only where the writer has got to: a last line
// without its newline is not a line yet, and next() finds what was appended since.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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
  bool is_open() const { return fd_ >= 0; }
  bool is_compressed() const { return xz_ != nullptr; }

  // The next line; false at the end of the file or on a read error (see error()).
  bool next(std::string_view& line);
  // Whether next() would return a line now (in follow mode: a whole one).
  bool has_line();

  // ---- follow mode (plain files) ----
  void set_follow(bool follow) { follow_ = follow; }
  enum class Change { none, truncated, replaced };
  // After next() found nothing: whether the file at `path` is still the one open and as long as
  // what was read (truncated: shorter; replaced: another file there now, e.g. a log rotated).
  Change change(const std::string& path) const;
  // Reads the open file again from its start (after it was truncated).
  void restart();
  // 1-based number of the line last returned.
  std::uint64_t line_number() const { return line_number_; }
  // Bytes of the (decompressed) text before the next line: where the reading stands.
  std::uint64_t position() const { return consumed_ + begin_; }
  // Goes back to where position() was `offset`, after line `line_number` (a resumed run): a seek
  // in a plain file, decompressing and skipping in an .xz one. False with error() set when the
  // text is shorter than that.
  bool seek(std::uint64_t offset, std::uint64_t line_number);
  // Non-empty after a read error.
  const std::string& error() const { return error_; }

 private:
  bool fill();
  // Where the next line ends in the buffer (reading more as needed); false when no line is
  // there (the end of the text, or in follow mode a line without its newline yet).
  bool find_line_end(std::size_t& stop);
  long read_some(char* out, std::size_t capacity);

  int fd_ = -1;
  std::unique_ptr<XzDecoder> xz_;  // set while reading an .xz file
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  bool follow_ = false;
  std::uint64_t line_number_ = 0;
  std::uint64_t consumed_ = 0;  // bytes of text moved out of the buffer's front so far
  std::string error_;
};

}  // namespace cwf::actors
