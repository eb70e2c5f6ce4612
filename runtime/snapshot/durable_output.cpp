#include "runtime/snapshot/durable_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cwf {

std::string make_durable(int fd) {
  // EINVAL: a pipe or a terminal, nothing to make durable.
  if (::fdatasync(fd) != 0 && errno != EINVAL) return std::strerror(errno);
  return "";
}

std::string cut_back(int fd, std::uint64_t size, std::uint64_t bytes) {
  if (size < bytes)
    return "it has " + std::to_string(size) + " bytes, fewer than the " + std::to_string(bytes) +
           " written before the checkpoint";
  // Opened to append, every write goes to the end: once cut, that is `bytes`.
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) return std::strerror(errno);
  return "";
}

}  // namespace cwf
