// Lines of a data file that could not be read as what they should be. They are counted and the
// first few kept with file name and line number, so a damaged file is reported, never fatal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cwf::lr {

struct MalformedLine {
  std::string file;
  std::uint64_t line = 0;
  std::string text;  // the line, shortened when long
  std::string reason;
};

class MalformedLines {
 public:
  explicit MalformedLines(std::size_t keep = 10) : keep_(keep) {}

  void add(const std::string& file, std::uint64_t line, std::string_view text, std::string reason);

  std::uint64_t count() const { return count_; }
  const std::vector<MalformedLine>& first() const { return first_; }

 private:
  std::size_t keep_;
  std::uint64_t count_ = 0;
  std::vector<MalformedLine> first_;
};

}  // namespace cwf::lr
