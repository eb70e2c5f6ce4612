#include "runtime/graph/queue_limits.hpp"

namespace cwf {

std::string_view overload_name(Overload overload) {
  switch (overload) {
    case Overload::block:
      return "block";
    case Overload::drop_newest:
      return "drop_newest";
    case Overload::drop_oldest:
      return "drop_oldest";
    case Overload::sample:
      return "sample";
  }
  return "block";
}

std::optional<Overload> parse_overload(std::string_view text) {
  for (Overload o :
       {Overload::block, Overload::drop_newest, Overload::drop_oldest, Overload::sample})
    if (overload_name(o) == text) return o;
  return std::nullopt;
}

}  // namespace cwf
