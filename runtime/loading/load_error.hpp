// The error the workflow loader throws: where in which file, and what was expected there.
#pragma once

#include <stdexcept>
#include <string>

#include "runtime/graph/workflow.hpp"

namespace cwf {

// what() is "file:line:column: message" (1-based line and column; both left out when unknown).
class LoadError : public std::runtime_error {
 public:
  LoadError(SourceLocation location, std::string message);
  const SourceLocation& location() const { return location_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation location_;
  std::string message_;
};

// Something the loader found that does not stop the workflow from loading, but would stop it
// from running (an input file that cannot be read while the workflow is only checked).
struct LoadWarning {
  SourceLocation location;
  std::string message;
  std::string actor;  // the actor it is about, if any (with parallelism: every replica)
  // "file:line:column: warning: message"
  std::string text() const { return location.to_string() + ": warning: " + message; }
};

}  // namespace cwf
