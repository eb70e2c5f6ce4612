#include "runtime/windows/window_size_time.hpp"

#include "runtime/windows/window_group.hpp"

namespace cwf {

void WindowSizeTime::select_back(const WindowGroup& group, std::size_t stepping,
                                 const WindowCursor& cursor, WindowSelection& out) const {
  const Timestamp end = cursor.trigger_time;
  out.interval = WindowInterval{end - d_, end, true};
  for (std::size_t i = 0; i <= stepping; ++i) {
    Timestamp t = group.event(i).time;
    if (!group.gone(i) && t <= end && t > end - d_) out.indexes.push_back(i);
  }
}

void WindowSizeTime::leaving_back(const WindowGroup& group, const WindowCursor& cursor,
                                  std::uint64_t next_stepping,
                                  std::vector<std::size_t>& leaving) const {
  // Later windows end at later events: they reach back no further than this one did.
  for (std::size_t i = group.queued(); i-- > 0;) {
    if (group.gone(i) || group.seq(i) >= next_stepping) continue;
    if (group.event(i).time <= cursor.trigger_time - d_) leaving.push_back(i);
  }
}

}  // namespace cwf
