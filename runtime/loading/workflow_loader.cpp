#include "runtime/loading/workflow_loader.hpp"

#include <filesystem>

#include "runtime/loading/workflow_parser.hpp"

namespace cwf {

namespace fs = std::filesystem;
using loader_detail::identity_of;
using loader_detail::Loader;
using loader_detail::read_text_file;

std::unique_ptr<Workflow> load_workflow_text(std::string_view yaml,
                                             const std::string& file_for_errors,
                                             const std::string& base_dir,
                                             const LoadContext& context,
                                             const std::vector<ParamOverride>& overrides) {
  std::string identity =
      file_for_errors.empty()
          ? std::string()
          : identity_of(fs::path(base_dir) / fs::path(file_for_errors).filename());
  Loader loader(context, overrides);
  return loader.load(yaml, file_for_errors, base_dir, identity, /*sub=*/false).workflow;
}

std::unique_ptr<Workflow> load_workflow_file(const std::string& path, const LoadContext& context,
                                             const std::vector<ParamOverride>& overrides) {
  std::string error;
  std::optional<std::string> text = read_text_file(path, error);
  if (!text) throw LoadError(SourceLocation{path, 0, 0}, "cannot read workflow file: " + error);
  return load_workflow_text(*text, path, fs::path(path).parent_path().string(), context, overrides);
}

}  // namespace cwf
