// A request about the hosted workflows that is turned down: `status` is the HTTP status that says
// why (404 no such workflow or connection, 409 the name is taken or the workflow is not running,
// 400 a name that cannot be a folder, a predicate that does not compile).
#pragma once

#include <stdexcept>
#include <string>

namespace cwf::cli {

class CatalogError : public std::runtime_error {
 public:
  CatalogError(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

}  // namespace cwf::cli
