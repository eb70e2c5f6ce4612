// What a snapshot reader or a checkpoint file reports when its input is not what was written:
// which item it was reading, at which byte offset, in which section. Thrown instead of ever
// trusting a damaged input (no out-of-bounds read, no allocation sized by a length the input does
// not hold).
#pragma once

#include <stdexcept>
#include <string>

namespace cwf {

class SnapshotError : public std::runtime_error {
 public:
  explicit SnapshotError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace cwf
