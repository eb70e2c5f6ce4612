#include "runtime/loading/load_error.hpp"

namespace cwf {

LoadError::LoadError(SourceLocation location, std::string message)
    : std::runtime_error(location.to_string() + ": " + message),
      location_(std::move(location)),
      message_(std::move(message)) {}

}  // namespace cwf
