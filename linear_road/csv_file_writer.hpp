// Writes lines of comma-separated integers, the format of every Linear Road file, through one
// large buffer with std::to_chars: formatting millions of lines field by field through iostreams
// would dominate the time to generate a dataset.
#pragma once

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>

#include "linear_road/records.hpp"

namespace cwf::lr {

class CsvFileWriter {
 public:
  // Opens (truncates) `path`; check ok() afterwards.
  explicit CsvFileWriter(const std::string& path);
  ~CsvFileWriter();
  CsvFileWriter(const CsvFileWriter&) = delete;
  CsvFileWriter& operator=(const CsvFileWriter&) = delete;

  void line(std::initializer_list<std::int64_t> fields);
  // The 15 fields of an input line, in the order of FORMAT.md.
  void line(const InputRecord& record);

  // Writes out the buffer and closes the file; false if anything failed since opening.
  bool close();
  bool ok() const { return ok_; }

 private:
  void field(std::int64_t value);
  void end_line();

  std::FILE* file_ = nullptr;
  bool ok_ = false;
  char* buffer_;
  std::size_t used_ = 0;
};

}  // namespace cwf::lr
