#include "linear_road/integer_file.hpp"

#include <filesystem>

namespace cwf::lr {

std::optional<std::string> find_data_file(const std::string& dir, const std::string& name) {
  std::error_code ignored;
  for (std::string candidate : {dir + "/" + name, dir + "/" + name + ".xz"})
    if (std::filesystem::is_regular_file(candidate, ignored)) return candidate;
  return std::nullopt;
}

}  // namespace cwf::lr
