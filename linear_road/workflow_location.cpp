#include "linear_road/workflow_location.hpp"

#include <filesystem>

namespace cwf::lr {

std::string find_linear_road_workflow() {
  namespace fs = std::filesystem;
  const fs::path relative = fs::path("workflows") / "linear_road.yaml";
  std::error_code error;
  if (fs::is_regular_file(relative, error)) return fs::absolute(relative).string();
  fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error)
    for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
         dir = dir.parent_path())
      if (fs::is_regular_file(dir / relative, error)) return (dir / relative).string();
  return "";
}

}  // namespace cwf::lr
