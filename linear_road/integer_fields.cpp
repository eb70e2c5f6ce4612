#include "linear_road/integer_fields.hpp"

#include <charconv>

namespace cwf::lr {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

int split_integers(std::string_view line, std::int64_t* fields, int capacity) {
  int count = 0;
  while (true) {
    std::size_t comma = line.find(',');
    std::string_view field = trimmed(line.substr(0, comma));
    if (count == capacity || field.empty()) return -1;
    const char* end = field.data() + field.size();
    auto [ptr, ec] = std::from_chars(field.data(), end, fields[count]);
    if (ec != std::errc() || ptr != end) return -1;
    ++count;
    if (comma == std::string_view::npos) return count;
    line.remove_prefix(comma + 1);
  }
}

}  // namespace cwf::lr
