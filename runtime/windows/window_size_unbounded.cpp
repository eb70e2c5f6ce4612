#include "runtime/windows/window_size_unbounded.hpp"

#include "runtime/windows/window_group.hpp"

namespace cwf {

void WindowSizeUnbounded::select_back(const WindowGroup& group, std::size_t stepping,
                                      const WindowCursor&, WindowSelection& out) const {
  for (std::size_t i = 0; i <= stepping; ++i)
    if (!group.gone(i)) out.indexes.push_back(i);
}

}  // namespace cwf
