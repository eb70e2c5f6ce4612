// The layers of docs/architecture.md, checked on the sources: no file includes a header of a
// layer above its own, between the libraries and between the runtime's subsystem folders.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = CWF_SOURCE_DIR;

// The runtime's folders, lowest first: a folder may include its own headers and those of the
// folders before it.
const std::vector<std::string> kRuntimeLayers = {"values", "time",      "expressions",
                                                 "actor",  "snapshot",  "windows",
                                                 "graph",  "execution", "loading"};

// Which libraries each library may include (besides itself).
const std::map<std::string, std::set<std::string>> kAllowed = {
    {"runtime", {}},
    {"schedulers", {"runtime"}},
    {"actors", {"runtime"}},
    {"actors/pubsub", {"actors", "runtime"}},
    {"actors/eca", {"actors", "runtime"}},
    {"actors/guards", {"actors", "runtime"}},
    {"actors/gsm", {"actors/pubsub", "actors", "runtime"}},
    {"linear_road", {"actors", "runtime"}},
    {"experiments", {"linear_road", "schedulers", "actors", "runtime"}},
    {"cli",
     {"experiments", "linear_road", "schedulers", "actors/gsm", "actors/guards", "actors/eca",
      "actors/pubsub", "actors", "runtime"}},
};

// The library a repository path belongs to: its top folder, or actors/FAMILY.
std::string library_of(const std::string& path) {
  const std::size_t slash = path.find('/');
  const std::string top = path.substr(0, slash);
  if (top == "actors" && slash != std::string::npos) {
    const std::size_t second = path.find('/', slash + 1);
    if (second != std::string::npos) return path.substr(0, second);
  }
  return top;
}

struct Include {
  std::string file;    // relative to the repository
  std::string target;  // the included path, as written
};

std::vector<Include> project_includes(const std::string& folder) {
  static const std::regex include_line(R"re(^\s*#\s*include\s+"([^"]+)")re");
  std::vector<Include> found;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(kSource / folder)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".hpp" && ext != ".cpp") continue;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      std::smatch match;
      if (std::regex_search(line, match, include_line)) {
        found.push_back({fs::relative(entry.path(), kSource).string(), match[1].str()});
      }
    }
  }
  return found;
}

std::size_t runtime_layer(const std::string& path) {
  // runtime/FOLDER/file
  const std::string folder = path.substr(8, path.find('/', 8) - 8);
  for (std::size_t i = 0; i < kRuntimeLayers.size(); ++i) {
    if (kRuntimeLayers[i] == folder) return i;
  }
  return kRuntimeLayers.size();
}

TEST(Layering, EveryRuntimeFileIsInASubsystemFolder) {
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(kSource / "runtime")) {
    if (!entry.is_regular_file()) continue;
    const std::string path = fs::relative(entry.path(), kSource).string();
    EXPECT_LT(runtime_layer(path), kRuntimeLayers.size())
        << path << " is not in one of the runtime's folders";
  }
}

TEST(Layering, NoRuntimeFolderIncludesALaterOne) {
  std::size_t checked = 0;
  for (const Include& include : project_includes("runtime")) {
    if (include.target.rfind("runtime/", 0) != 0) continue;
    ++checked;
    EXPECT_LE(runtime_layer(include.target), runtime_layer(include.file))
        << include.file << " includes " << include.target << ", a layer above its own";
  }
  EXPECT_GT(checked, 100u);  // the scan found the runtime's includes
}

TEST(Layering, NoLibraryIncludesOneAboveIt) {
  std::size_t checked = 0;
  for (const auto& [library, allowed] : kAllowed) {
    for (const Include& include : project_includes(library)) {
      if (library_of(include.file) != library) continue;  // a family's own folder is checked alone
      if (include.target.find('/') == std::string::npos) continue;  // a header beside the file
      const std::string target = library_of(include.target);
      if (!kAllowed.contains(target)) continue;  // e.g. a test helper's own path
      ++checked;
      EXPECT_TRUE(target == library || allowed.contains(target))
          << include.file << " includes " << include.target << ": " << library
          << " may not depend on " << target;
    }
  }
  EXPECT_GT(checked, 500u);
}

}  // namespace
