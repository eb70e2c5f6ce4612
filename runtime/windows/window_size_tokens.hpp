// Size N tokens: window k holds the first N events at or past its step's lower bound (with a time
// step, of those before the period's end); it is complete with N events, or when its step closes
// it (a time step's period ends; the end of input). Looking back (no step): the last N events up
// to the stepping one.
#pragma once

#include <cstdint>

#include "runtime/windows/window_size.hpp"

namespace cwf {

class WindowSizeTokens final : public WindowSize {
 public:
  explicit WindowSizeTokens(std::int64_t n) : n_(static_cast<std::size_t>(n)) {}

  bool select(const WindowGroup& group, const WindowStep& step, const WindowPlace& place,
              const WindowProgress& progress, WindowSelection& out,
              Timestamp* deadline) const override;
  void select_back(const WindowGroup& group, std::size_t stepping, const WindowCursor& cursor,
                   WindowSelection& out) const override;
  void leaving_back(const WindowGroup& group, const WindowCursor& cursor,
                    std::uint64_t next_stepping, std::vector<std::size_t>& leaving) const override;

 private:
  std::size_t n_;
};

}  // namespace cwf
