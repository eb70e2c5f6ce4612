#include "runtime/windows/window_size_tokens.hpp"

#include <algorithm>

#include "runtime/windows/window_group.hpp"

namespace cwf {

void WindowSizeTokens::select_back(const WindowGroup& group, std::size_t stepping,
                                   const WindowCursor&, WindowSelection& out) const {
  for (std::size_t i = stepping + 1; i-- > 0 && out.indexes.size() < n_;)
    if (!group.gone(i)) out.indexes.push_back(i);
  std::reverse(out.indexes.begin(), out.indexes.end());
}

void WindowSizeTokens::leaving_back(const WindowGroup& group, const WindowCursor&,
                                    std::uint64_t next_stepping,
                                    std::vector<std::size_t>& leaving) const {
  // The next window holds the stepping event and the N - 1 before it at most.
  std::size_t kept = 0;
  for (std::size_t i = group.queued(); i-- > 0;) {
    if (group.gone(i) || group.seq(i) >= next_stepping) continue;
    if (++kept >= n_) leaving.push_back(i);
  }
}

}  // namespace cwf
