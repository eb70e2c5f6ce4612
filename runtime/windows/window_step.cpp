#include "runtime/windows/window_step.hpp"

#include "runtime/windows/window_group.hpp"

namespace cwf {

Timestamp WindowStep::start_time(const WindowGroup& group, const WindowPlace& place) const {
  return group.event(place.first).time;
}

std::optional<std::uint64_t> WindowStep::first_wave(const WindowGroup& group,
                                                    const WindowPlace& place) const {
  if (place.missing_first || place.first >= group.queued()) return std::nullopt;
  return group.wave(place.first);
}

}  // namespace cwf
