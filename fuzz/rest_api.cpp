// Fuzzes the REST API of `cwf serve` (cli/server/rest_api.hpp) behind its HTTP layer: the input is
// "METHOD TARGET\nAUTHORIZATION\nBODY", handed to RestApi::handle over a catalog with a state
// folder of its own (registered workflows are started, then stopped when the input is done). An
// answer must be JSON with a status that says what happened (or the metrics text); a crash,
// undefined behaviour, a leak, a hang or an exception escaping the handler is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "cli/server/rest_api.hpp"
#include "runtime/values/value_json.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path& folder() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("cwf-fuzz-rest-api-" + std::to_string(getpid()));
    fs::create_directories(d / "cwd");
    // Workflows registered without a base folder read and write here.
    fs::current_path(d / "cwd");
    return d;
  }();
  return dir;
}

std::string_view take_line(std::string_view& text) {
  std::size_t end = text.find('\n');
  std::string_view line = text.substr(0, end);
  text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  cwf::cli::ApiRequest request;
  std::string_view first = take_line(text);
  std::size_t space = first.find(' ');
  request.method = std::string(first.substr(0, space));
  request.target = space == std::string_view::npos ? "/" : std::string(first.substr(space + 1));
  request.authorization = std::string(take_line(text));
  request.body = std::string(text);
  const fs::path state = folder() / "state";
  fs::remove_all(state);
  cwf::cli::ApiResponse response;
  {
    cwf::cli::WorkflowCatalog catalog(state, 100 * cwf::kMillisecond);
    cwf::cli::RestApi api(catalog, std::nullopt);
    api.set_ready();
    response = api.handle(request);
  }
  if (response.status < 200 || response.status > 599) {
    std::fprintf(stderr, "status %d\n", response.status);
    std::abort();
  }
  if (response.content_type == "application/json") {
    try {
      cwf::parse_json(response.body);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "an answer that is not JSON (%s): %s\n", e.what(),
                   response.body.c_str());
      std::abort();
    }
  }
  return 0;
}
