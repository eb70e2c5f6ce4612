#include "linear_road/malformed_lines.hpp"

namespace cwf::lr {

void MalformedLines::add(const std::string& file, std::uint64_t line, std::string_view text,
                         std::string reason) {
  ++count_;
  if (first_.size() >= keep_) return;
  constexpr std::size_t kLongest = 120;
  std::string shown(text.substr(0, kLongest));
  if (text.size() > kLongest) shown += "...";
  first_.push_back({file, line, std::move(shown), std::move(reason)});
}

}  // namespace cwf::lr
