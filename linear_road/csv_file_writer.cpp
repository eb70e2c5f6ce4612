#include "linear_road/csv_file_writer.hpp"

#include <charconv>

namespace cwf::lr {

namespace {
constexpr std::size_t kBufferBytes = 1 << 20;
// The longest line: 15 fields of up to 20 characters and their separators.
constexpr std::size_t kLongestLine = 16 * 21;
}  // namespace

CsvFileWriter::CsvFileWriter(const std::string& path) : buffer_(new char[kBufferBytes]) {
  file_ = std::fopen(path.c_str(), "wb");
  ok_ = file_ != nullptr;
}

CsvFileWriter::~CsvFileWriter() {
  close();
  delete[] buffer_;
}

void CsvFileWriter::field(std::int64_t value) {
  auto result = std::to_chars(buffer_ + used_, buffer_ + kBufferBytes, value);
  used_ = static_cast<std::size_t>(result.ptr - buffer_);
  buffer_[used_++] = ',';
}

void CsvFileWriter::end_line() {
  buffer_[used_ - 1] = '\n';  // the last field's separator
  if (used_ + kLongestLine <= kBufferBytes) return;
  if (file_ && std::fwrite(buffer_, 1, used_, file_) != used_) ok_ = false;
  used_ = 0;
}

void CsvFileWriter::line(std::initializer_list<std::int64_t> fields) {
  for (std::int64_t value : fields)
    field(value);
  end_line();
}

void CsvFileWriter::line(const InputRecord& r) {
  line({r.type, r.time, r.carid, r.speed, r.xway, r.lane, r.dir, r.seg, r.pos, r.qid, r.sinit,
        r.send, r.dow, r.tod, r.day});
}

bool CsvFileWriter::close() {
  if (!file_) return ok_;
  if (used_ > 0 && std::fwrite(buffer_, 1, used_, file_) != used_) ok_ = false;
  used_ = 0;
  if (std::fclose(file_) != 0) ok_ = false;
  file_ = nullptr;
  return ok_;
}

}  // namespace cwf::lr
