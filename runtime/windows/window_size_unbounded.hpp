// No size: window k holds everything still queued before its step's next bound (window k + 1's
// lower bound); it is complete once everything up to that bound has arrived (or its step closes
// it). Events leave only when used. Looking back (no step either): everything still queued up to
// the stepping event.
#pragma once

#include <cstdint>

#include "runtime/windows/window_size.hpp"

namespace cwf {

class WindowSizeUnbounded final : public WindowSize {
 public:
  bool select(const WindowGroup& group, const WindowStep& step, const WindowPlace& place,
              const WindowProgress& progress, WindowSelection& out,
              Timestamp* deadline) const override;
  void select_back(const WindowGroup& group, std::size_t stepping, const WindowCursor& cursor,
                   WindowSelection& out) const override;
  void leaving_back(const WindowGroup&, const WindowCursor&, std::uint64_t,
                    std::vector<std::size_t>&) const override {}
  bool bounded() const override { return false; }
};

}  // namespace cwf
