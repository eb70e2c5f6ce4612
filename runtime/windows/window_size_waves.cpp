#include "runtime/windows/window_size_waves.hpp"

#include "runtime/windows/window_group.hpp"

namespace cwf {

void WindowSizeWaves::select_back(const WindowGroup& group, std::size_t stepping,
                                  const WindowCursor& cursor, WindowSelection& out) const {
  const std::uint64_t last = cursor.trigger_wave;
  for (std::size_t i = 0; i <= stepping; ++i)
    if (!group.gone(i) && group.wave(i) <= last && group.wave(i) + n_ > last)
      out.indexes.push_back(i);
}

void WindowSizeWaves::leaving_back(const WindowGroup& group, const WindowCursor& cursor,
                                   std::uint64_t next_stepping,
                                   std::vector<std::size_t>& leaving) const {
  for (std::size_t i = group.queued(); i-- > 0;) {
    if (group.gone(i) || group.seq(i) >= next_stepping) continue;
    if (group.wave(i) + n_ <= cursor.trigger_wave) leaving.push_back(i);
  }
}

}  // namespace cwf
