// The fixture of the tests of `cwf serve` as a process: a real server on a free loopback port
// with a state folder in the test's scratch folder, its client commands and API calls.
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "cli/server/http_client.hpp"
#include "process.hpp"
#include "runtime/values/value_json.hpp"
#include "tests/eventually.hpp"
#include "tests/runtime/scratch_folder_test_base.hpp"

namespace cwf::testing {

namespace fs = std::filesystem;
using cli::ApiResponse;
using cli::http_call;

class Server : public ScratchFolderTest {
 protected:
  Server() : ScratchFolderTest("cwf-server") {}

  // Starts `cwf serve` on a free loopback port with the state folder `state` (default: in the
  // scratch folder) and waits until it is ready.
  // `stdout_to`: a file the server's standard output is appended to (else the test's).
  void start(std::vector<std::string> more = {}, const std::string& state = "",
             const fs::path& stdout_to = {}) {
    const fs::path port_file = dir_ / "port";
    fs::remove(port_file);
    std::vector<std::string> argv = {
        CWF_EXE,       "serve",           "--listen",
        "127.0.0.1:0", "--state",         state.empty() ? (dir_ / "state").string() : state,
        "--port-file", port_file.string()};
    argv.insert(argv.end(), more.begin(), more.end());
    if (!stdout_to.empty())
      argv.insert(argv.begin(), {"/bin/sh", "-c", "exec \"$0\" \"$@\" >> " + stdout_to.string()});
    server_.emplace(argv);
    ASSERT_TRUE(eventually([&] { return fs::exists(port_file) && fs::file_size(port_file) > 0; }))
        << "the server wrote no port";
    url_ = "http://127.0.0.1:" + lines_of(read_file(port_file.string())).at(0);
    ASSERT_TRUE(eventually([&] {
      try {
        return http_call(url_, "GET", "/readyz").status == 200;
      } catch (const cli::ServerUnreachable&) {
        return false;
      }
    }));
  }
  int stop() { return server_->stop(std::chrono::seconds(30)); }

  // A workflow writing one line every 10 ms into `output` in the scratch folder, endless.
  std::string ticking_workflow(const std::string& name, const std::string& output) {
    const fs::path file = dir_ / (name + ".yaml");
    std::ofstream(file) << "name: " << name << "\nactors:\n"
                        << "  ticks: {type: generator, interval: 10 ms, value: \"{tick: i}\"}\n"
                        << "  out: {type: jsonl_sink, path: " << output << "}\n"
                        << "connections:\n  - ticks -> out\n";
    return file.string();
  }

  ProcessResult client(std::vector<std::string> args) {
    args.insert(args.end(), {"--server", url_});
    return run_cwf(args);
  }
  Value get(const std::string& target) {
    ApiResponse answer = http_call(url_, "GET", target);
    EXPECT_EQ(answer.status, 200) << target << ": " << answer.body;
    return parse_json(answer.body);
  }
  std::string state_of(const std::string& name) {
    return std::string(
        get("/api/v1/workflows/" + name).field("workflow")->field("state")->as_string());
  }
  std::int64_t ticks_of(const std::string& name) {
    return get("/api/v1/workflows/" + name)
        .field("workflow")
        ->field("events_from_sources")
        ->as_int();
  }

  std::optional<ChildProcess> server_;
  std::string url_;
};

}  // namespace cwf::testing
