// Size N waves: window k holds the events at or past its step's lower bound of N consecutive waves
// starting with the lower bound's wave (see WindowStep::first_wave); it is complete when those
// waves are (or at the end of input). Looking back (no step): the events of the waves of the
// last N up to the stepping event's.
#pragma once

#include <cstdint>

#include "runtime/windows/window_size.hpp"

namespace cwf {

class WindowSizeWaves final : public WindowSize {
 public:
  explicit WindowSizeWaves(std::int64_t n) : n_(static_cast<std::uint64_t>(n)) {}

  bool select(const WindowGroup& group, const WindowStep& step, const WindowPlace& place,
              const WindowProgress& progress, WindowSelection& out,
              Timestamp* deadline) const override;
  void select_back(const WindowGroup& group, std::size_t stepping, const WindowCursor& cursor,
                   WindowSelection& out) const override;
  void leaving_back(const WindowGroup& group, const WindowCursor& cursor,
                    std::uint64_t next_stepping, std::vector<std::size_t>& leaving) const override;

 private:
  std::uint64_t n_;
};

}  // namespace cwf
