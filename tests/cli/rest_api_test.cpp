// The REST API of `cwf serve` in process (cli/server/rest_api.hpp over a WorkflowCatalog with a
// state folder of its own): routing, statuses and error bodies, the token, names, and the state
// folder a workflow leaves behind. The server as a process is tested in tests/e2e/server_test.cpp.
#include "cli/server/rest_api.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <thread>

#include "runtime/values/value_json.hpp"
#include "tests/eventually.hpp"
#include "tests/runtime/scratch_folder_test_base.hpp"

namespace cwf::cli {
namespace {

namespace fs = std::filesystem;

using testing::eventually;

class RestApiTest : public testing::ScratchFolderTest {
 protected:
  RestApiTest() : ScratchFolderTest("cwf-rest-api") {}
  void SetUp() override {
    ScratchFolderTest::SetUp();
    catalog_ = std::make_unique<WorkflowCatalog>(dir_ / "state", 50 * kMillisecond);
    api_ = std::make_unique<RestApi>(*catalog_, std::nullopt);
    api_->set_ready();
  }
  void TearDown() override {
    api_.reset();
    catalog_.reset();
    ScratchFolderTest::TearDown();
  }
  ApiResponse call(const std::string& method, const std::string& target,
                   const std::string& body = "") {
    return api_->handle({method, target, body, ""});
  }
  std::string error_of(const ApiResponse& response) {
    return std::string(parse_json(response.body).field("error")->as_string());
  }
  // A workflow of `count` numbers into a file of the scratch folder.
  std::string registration(const std::string& name, int count) {
    const std::string yaml = "name: " + name +
                             "\nactors:\n  n: {type: generator, count: " + std::to_string(count) +
                             ", value: i}\n  out: {type: jsonl_sink, " + "path: " + name +
                             ".jsonl}\nconnections:\n  - n -> out\n";
    return Value::record({{"yaml", Value(yaml)},
                          {"file", Value(name + ".yaml")},
                          {"base", Value(dir_.string())}})
        .to_json();
  }
  // Registers `yaml`, its relative paths in the scratch folder.
  ApiResponse register_yaml(const std::string& yaml) {
    return call("POST", "/api/v1/workflows",
                Value::record({{"yaml", Value(yaml)}, {"base", Value(dir_.string())}}).to_json());
  }
  std::string state_of(const std::string& name) {
    ApiResponse answer = call("GET", "/api/v1/workflows/" + name);
    if (answer.status != 200) return "status " + std::to_string(answer.status);
    return std::string(parse_json(answer.body).field("workflow")->field("state")->as_string());
  }

  // A server restart: a new catalog on the same state folder (with `workers` shared workers)
  // starts the saved workflows. Returns what it logged.
  std::string restart(unsigned workers = 0) {
    api_.reset();
    catalog_ = std::make_unique<WorkflowCatalog>(dir_ / "state", 50 * kMillisecond, workers);
    api_ = std::make_unique<RestApi>(*catalog_, std::nullopt);
    std::ostringstream log;
    catalog_->start_saved(log);
    api_->set_ready();
    return log.str();
  }

  std::unique_ptr<WorkflowCatalog> catalog_;
  std::unique_ptr<RestApi> api_;
};

TEST_F(RestApiTest, UnknownPathsMethodsAndActionsAreAnsweredWithWhatIsWrong) {
  EXPECT_EQ(call("GET", "/healthz").status, 200);
  EXPECT_EQ(call("GET", "/readyz").status, 200);
  EXPECT_EQ(call("GET", "/nowhere").status, 404);
  EXPECT_EQ(call("GET", "/api/v1/workflowsX").status, 404);
  EXPECT_EQ(call("GET", "/api/v1/workflows/a/b/c").status, 404);
  EXPECT_EQ(call("PUT", "/api/v1/workflows").status, 405);
  EXPECT_EQ(call("POST", "/metrics").status, 405);
  EXPECT_EQ(call("GET", "/api/v1/workflows/none").status, 404);
  EXPECT_EQ(error_of(call("POST", "/api/v1/workflows/none/pause")),
            "no workflow named 'none' is registered");
  EXPECT_EQ(call("GET", "/api/v1/workflows/none/pause").status, 405);
  EXPECT_EQ(call("GET", "/api/v1/workflows?state=running").status, 200);
}

TEST_F(RestApiTest, ARegistrationIsCheckedBeforeAnythingIsKept) {
  EXPECT_EQ(error_of(call("POST", "/api/v1/workflows", "[1]")),
            "the body must be a JSON object: {\"yaml\": \"...\", ...}");
  EXPECT_EQ(error_of(call("POST", "/api/v1/workflows", "{}")),
            "'yaml' (the workflow file) is missing");
  EXPECT_EQ(error_of(call("POST", "/api/v1/workflows", "{\"yaml\": 3}")),
            "'yaml' must be a string");
  ApiResponse named = call("POST", "/api/v1/workflows",
                           "{\"yaml\": \"name: x\\nactors: {}\\n\", \"name\": \"../up\"}");
  EXPECT_EQ(named.status, 400);
  EXPECT_NE(error_of(named).find("'../up' cannot be used"), std::string::npos);
  ApiResponse priority =
      call("POST", "/api/v1/workflows", "{\"yaml\": \"name: x\\n\", \"priority\": \"high\"}");
  EXPECT_EQ(error_of(priority), "'priority' must be a whole number");
  EXPECT_TRUE(fs::is_empty(dir_ / "state" / "workflows")) << "nothing refused is kept";
}

TEST_F(RestApiTest, AFiniteWorkflowFinishesAndIsMarkedEndedInTheStateFolder) {
  ApiResponse created = call("POST", "/api/v1/workflows", registration("numbers", 1000));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.headers.at(0),
            (std::pair<std::string, std::string>{"Location", "/api/v1/workflows/numbers"}));
  ASSERT_TRUE(eventually([&] { return state_of("numbers") == "finished"; }));
  Value details = parse_json(call("GET", "/api/v1/workflows/numbers").body);
  EXPECT_EQ(details.field("workflow")->field("events_from_sources")->as_int(), 1000);
  EXPECT_EQ(details.field("graph")->field("connections")->as_array()[0].field("from")->as_string(),
            "n.out");
  std::ifstream meta_file(dir_ / "state" / "workflows" / "numbers" / "meta.json");
  std::string meta_text((std::istreambuf_iterator<char>(meta_file)), {});
  Value meta = parse_json(meta_text);
  EXPECT_EQ(meta.field("ended")->as_string(), "finished");
  EXPECT_EQ(call("POST", "/api/v1/workflows", registration("numbers", 5)).status, 409);
}

TEST_F(RestApiTest, ARemovedNameCanBeRegisteredAgainOnceItsFolderIsGone) {
  ASSERT_EQ(call("POST", "/api/v1/workflows", registration("again", 1'000'000'000)).status, 201);
  ApiResponse removed = call("DELETE", "/api/v1/workflows/again");
  EXPECT_EQ(removed.status, 202);
  EXPECT_EQ(call("GET", "/api/v1/workflows/again").status, 404);
  ASSERT_TRUE(eventually(
      [&] { return call("POST", "/api/v1/workflows", registration("again", 10)).status == 201; }));
  EXPECT_TRUE(eventually([&] { return state_of("again") == "finished"; }));
}

// A saved workflow whose file no longer loads (an actor type gone, a file edited by hand) is
// listed as failed with the reason, and can be removed; a stop is recorded as soon as it is
// asked for.
TEST_F(RestApiTest, ASavedWorkflowThatNoLongerLoadsIsListedAsFailedAndCanBeRemoved) {
  ASSERT_EQ(call("POST", "/api/v1/workflows", registration("endless", 1'000'000'000)).status, 201);
  ASSERT_EQ(call("POST", "/api/v1/workflows/endless/stop").status, 202);
  ASSERT_EQ(call("POST", "/api/v1/workflows", registration("broken", 1'000'000'000)).status, 201);
  api_.reset();
  catalog_.reset();  // a server stopped
  const fs::path stopped_meta = dir_ / "state" / "workflows" / "endless" / "meta.json";
  std::ifstream stopped_file(stopped_meta);
  std::string stopped_text((std::istreambuf_iterator<char>(stopped_file)), {});
  EXPECT_EQ(parse_json(stopped_text).field("ended")->as_string(), "stopped");
  std::ofstream(dir_ / "state" / "workflows" / "broken" / "workflow.yaml")
      << "name: broken\nactors:\n  n: {type: no_such_type}\n";
  const std::string log = restart();
  EXPECT_NE(log.find("broken: cannot start again"), std::string::npos) << log;
  EXPECT_EQ(state_of("endless"), "stopped");
  EXPECT_EQ(state_of("broken"), "failed");
  Value details = parse_json(call("GET", "/api/v1/workflows/broken").body);
  EXPECT_NE(std::string(details.field("error")->as_string()).find("no_such_type"),
            std::string::npos);
  EXPECT_EQ(call("DELETE", "/api/v1/workflows/broken").status, 202);
  EXPECT_TRUE(eventually([&] { return !fs::exists(dir_ / "state" / "workflows" / "broken"); }));
}

// The events a view stream sends, as (type, data) pairs, until `enough` of them are plain
// messages or it ends.
std::vector<std::pair<std::string, Value>> read_stream(ApiStream& stream, std::string text,
                                                       std::size_t enough) {
  std::vector<std::pair<std::string, Value>> events;
  std::size_t messages = 0;
  bool ended = false;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (messages < enough && std::chrono::steady_clock::now() < give_up) {
    std::size_t end;
    while ((end = text.find("\n\n")) != std::string::npos) {
      std::string one = text.substr(0, end);
      text.erase(0, end + 2);
      std::string type;
      if (one.rfind("event: ", 0) == 0) {
        type = one.substr(7, one.find('\n') - 7);
        one.erase(0, one.find('\n') + 1);
      }
      EXPECT_EQ(one.rfind("data: ", 0), 0u) << one;
      events.emplace_back(type, parse_json(one.substr(6)));
      if (type.empty()) ++messages;
    }
    if (ended) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    text += stream.next(ended);
  }
  return events;
}

// A view sees every matching event its connection carries from the moment it opens, tagged with
// where it came from; the workflow goes on untouched, and the view ends with the run.
TEST_F(RestApiTest, AViewStreamsEveryMatchingEventOfItsConnectionUntilTheRunEnds) {
  const std::string yaml =
      "name: numbers\nactors:\n"
      "  n: {type: generator, interval: 1 ms, value: \"{n: i}\"}\n"
      "  odd: {type: filter, where: \"/n % 2 == 1\"}\n"
      "  out: {type: jsonl_sink, path: numbers.jsonl}\n"
      "connections:\n  - n -> odd\n  - odd -> out\n";
  ASSERT_EQ(register_yaml(yaml).status, 201);
  ApiResponse opened = call(
      "GET", "/api/v1/workflows/numbers/view?from=odd&to=out.in&where=%2Fn%20%25%203%20%3D%3D%200");
  ASSERT_EQ(opened.status, 200) << opened.body;
  EXPECT_EQ(opened.content_type, "text/event-stream");
  ASSERT_TRUE(opened.stream);
  auto events = read_stream(*opened.stream, opened.body, 10);
  ASSERT_GE(events.size(), 11u);
  EXPECT_EQ(events[0].first, "open");
  EXPECT_EQ(events[0].second.to_json(),
            R"({"workflow":"numbers","from":"odd.out","to":"out.in","where":"/n % 3 == 0"})");
  // Odd multiples of 3, each one after the other (none missed): n, n + 6, n + 12...
  std::int64_t previous = -1;
  for (std::size_t i = 1; i < events.size(); ++i) {
    ASSERT_EQ(events[i].first, "") << events[i].second.to_json();
    const Value& line = events[i].second;
    EXPECT_EQ(line.field("actor")->as_string(), "odd");
    EXPECT_EQ(line.field("port")->as_string(), "out");
    EXPECT_EQ(line.field("to")->as_string(), "out.in");
    const std::int64_t n = line.field("value")->field("n")->as_int();
    EXPECT_EQ(n % 6, 3) << n;
    if (previous >= 0) {
      EXPECT_EQ(n, previous + 6);
    }
    previous = n;
    // The wave of the generator's event n (the source's sequence numbers start at 1), one level
    // down through the filter.
    EXPECT_EQ(std::string(line.field("wave")->as_string())
                  .substr(std::string(line.field("wave")->as_string()).find('#')),
              "#" + std::to_string(n + 1) + ".1*");
  }
  EXPECT_EQ(catalog_->get("numbers")->views_open(), 1u);
  ASSERT_EQ(call("POST", "/api/v1/workflows/numbers/stop").status, 202);
  auto rest = read_stream(*opened.stream, "", std::numeric_limits<std::size_t>::max());
  ASSERT_FALSE(rest.empty());
  EXPECT_EQ(rest.back().first, "end");
  EXPECT_EQ(catalog_->get("numbers")->views_open(), 0u);
  EXPECT_EQ(call("GET", "/api/v1/workflows/numbers/view?from=n&to=odd").status, 409)
      << "a stopped workflow has nothing to view";
}

TEST_F(RestApiTest, AViewOfAConnectionThatIsNotThereOrAmbiguousIsRefusedWithTheConnections) {
  const std::string yaml =
      "name: fork\nactors:\n"
      "  n: {type: generator, interval: 1 s, value: \"{n: i}\"}\n"
      "  both: {type: tap, where: \"/n > 0\"}\n"
      "  out: {type: jsonl_sink, path: fork.jsonl}\n"
      "connections:\n  - n -> both\n  - both.out -> out\n  - both.tap -> out\n";
  ApiResponse registered = register_yaml(yaml);
  ASSERT_EQ(registered.status, 201) << registered.body;
  const std::string view = "/api/v1/workflows/fork/view";
  ApiResponse none = call("GET", view + "?from=out&to=n");
  EXPECT_EQ(none.status, 404);
  EXPECT_EQ(error_of(none),
            "workflow 'fork' has no connection out -> n; its connections:\n  n.out -> both.in\n"
            "  both.out -> out.in\n  both.tap -> out.in");
  ApiResponse two = call("GET", view + "?from=both&to=out");
  EXPECT_EQ(two.status, 400);
  EXPECT_EQ(error_of(two),
            "both -> out is more than one connection of workflow 'fork' (name the ports):\n"
            "  both.out -> out.in\n  both.tap -> out.in");
  EXPECT_EQ(call("GET", view + "?from=both.tap&to=out").status, 200);
  EXPECT_EQ(call("GET", view + "?from=n").status, 400);
  EXPECT_EQ(call("GET", view + "?from=n&to=both&colour=red").status, 400);
  EXPECT_EQ(call("GET", view + "?from=n&to=both&where=%2Fn%20%3E").status, 400);
  EXPECT_EQ(call("GET", view + "?from=n&to=both&where=%zz").status, 400);
  EXPECT_EQ(call("POST", view + "?from=n&to=both").status, 405);
  EXPECT_EQ(call("GET", "/api/v1/workflows/nothing/view?from=n&to=both").status, 404);
  // Every stream above was dropped without being sent: no view stays behind.
  EXPECT_EQ(catalog_->get("fork")->views_open(), 0u);
}

TEST_F(RestApiTest, ACancellationNamesACaseOfTheKindItsCancelActorCancels) {
  auto workflow = [&](const std::string& name, const std::string& cancel) {
    const std::string yaml = "name: " + name +
                             "\nactors:\n"
                             "  n: {type: generator, interval: 1 s, value: \"{order: i}\"}\n"
                             "  none: {type: filter, where: \"false\"}\n"
                             "  cancel: {type: cancel, scope: [out]" +
                             cancel + "}\n  out: {type: jsonl_sink, path: " + name +
                             ".jsonl}\nconnections:\n  - n -> out\n  - n -> none\n"
                             "  - none -> cancel\n";
    ASSERT_EQ(register_yaml(yaml).status, 201);
  };
  workflow("keys", ", key: /order");
  workflow("waves", "");
  const std::string keys = "/api/v1/workflows/keys/cancel";
  const std::string waves = "/api/v1/workflows/waves/cancel";
  ApiResponse done = call("POST", keys, R"({"key": 7})");
  EXPECT_EQ(done.status, 200) << done.body;
  EXPECT_EQ(parse_json(done.body).to_json(), R"({"name":"keys","cancelled":"key 7"})");
  EXPECT_EQ(parse_json(call("POST", waves, R"({"wave": "1700000000#4.1*"})").body).to_json(),
            R"({"name":"waves","cancelled":"wave 1700000000#4"})");
  EXPECT_EQ(call("POST", keys, R"({"key": 7, "actor": "cancel"})").status, 200);
  EXPECT_EQ(error_of(call("POST", keys, R"({"wave": "1#2"})")),
            "'cancel' cancels cases by key: give the key (not null)");
  EXPECT_EQ(error_of(call("POST", keys, R"({"key": null})")),
            "'cancel' cancels cases by key: give the key (not null)");
  EXPECT_EQ(error_of(call("POST", waves, R"({"key": 1})")),
            "'cancel' cancels waves: give the wave (TIME#SEQUENCE)");
  EXPECT_EQ(call("POST", waves, R"({"wave": "4#"})").status, 400);
  EXPECT_EQ(call("POST", waves, R"({"wave": "x#4"})").status, 400);
  EXPECT_EQ(error_of(call("POST", keys, R"({"key": 1, "actor": "out"})")),
            "'out' is not a cancel actor (type jsonl_sink)");
  EXPECT_EQ(call("POST", keys, R"({"key": 1, "actor": "nope"})").status, 404);
  EXPECT_EQ(call("POST", keys, R"({"key": 1, "colour": 2})").status, 400);
  EXPECT_EQ(call("POST", keys, "[1]").status, 400);
  EXPECT_EQ(call("POST", keys, "{").status, 400);
  ASSERT_EQ(call("POST", "/api/v1/workflows/keys/stop").status, 202);
  ASSERT_TRUE(eventually([&] { return state_of("keys") == "stopped"; }));
  EXPECT_EQ(call("POST", keys, R"({"key": 7})").status, 409);
}

// A parameter the actor's type declares changeable changes while the workflow runs: from one
// event on, the filter passes what its new condition says; the server keeps the setting.
TEST_F(RestApiTest, AChangeableParameterChangesWhileTheWorkflowRunsAndIsKept) {
  ASSERT_EQ(register_yaml("name: parity\nactors:\n"
                          "  n: {type: generator, interval: 1 ms, value: \"{n: i}\"}\n"
                          "  f: {type: filter, where: \"/n % 2 == 0\"}\n"
                          "  out: {type: jsonl_sink, path: parity.jsonl}\n"
                          "connections:\n  - n -> f\n  - f -> out\n")
                .status,
            201);
  ApiResponse opened = call("GET", "/api/v1/workflows/parity/view?from=f&to=out");
  ASSERT_EQ(opened.status, 200) << opened.body;
  auto before = read_stream(*opened.stream, opened.body, 5);
  const std::string path = "/api/v1/workflows/parity/set";
  ApiResponse set = call("POST", path, R"({"set": "f.where=/n % 2 == 1"})");
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(parse_json(set.body).to_json(),
            R"({"name":"parity","set":"f.where=/n % 2 == 1","applied":true})");
  auto after = read_stream(*opened.stream, "", 30);
  // Even numbers, then (from the change on) odd ones only, none left out.
  std::vector<std::int64_t> seen;
  for (const auto& events : {before, after})
    for (const auto& [type, line] : events)
      if (type.empty()) seen.push_back(line.field("value")->field("n")->as_int());
  std::size_t first_odd = 0;
  while (first_odd < seen.size() && seen[first_odd] % 2 == 0)
    ++first_odd;
  ASSERT_GE(first_odd, 5u);
  ASSERT_LT(first_odd + 20, seen.size());
  for (std::size_t i = first_odd; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i] % 2, 1) << seen[i];
    if (i > first_odd) {
      EXPECT_EQ(seen[i], seen[i - 1] + 2);
    }
  }
  Value details = parse_json(call("GET", "/api/v1/workflows/parity").body);
  EXPECT_EQ(details.field("settings")->to_json(), R"(["f.where=/n % 2 == 1"])");
  std::ifstream meta_file(dir_ / "state" / "workflows" / "parity" / "meta.json");
  const std::string meta((std::istreambuf_iterator<char>(meta_file)), {});
  EXPECT_NE(meta.find(R"("settings":["f.where=/n % 2 == 1"])"), std::string::npos) << meta;

  EXPECT_EQ(error_of(call("POST", path, R"({"set": "n.interval=5 ms"})")),
            "'interval' of generator cannot be changed while the workflow runs (none of its "
            "parameters can): remove it and register it again");
  EXPECT_EQ(call("POST", path, R"({"set": "n.interval=5 ms"})").status, 409);
  EXPECT_EQ(call("POST", path, R"({"set": "f.nope=1"})").status, 400);
  EXPECT_EQ(call("POST", path, R"({"set": "f.where=/n >"})").status, 400);
  EXPECT_EQ(call("POST", path, R"({"set": "nothing"})").status, 400);
  EXPECT_EQ(call("POST", path, R"({"set": "ghost.where=1"})").status, 400);
  EXPECT_EQ(call("POST", path, R"({"value": 1})").status, 400);

  // Started again (a server restart), the workflow is loaded with the setting.
  opened.stream.reset();
  const std::string log = restart();
  ApiResponse again = call("GET", "/api/v1/workflows/parity/view?from=f&to=out");
  ASSERT_EQ(again.status, 200) << again.body << log;
  for (const auto& [type, line] : read_stream(*again.stream, again.body, 5))
    if (type.empty()) {
      EXPECT_EQ(line.field("value")->field("n")->as_int() % 2, 1);
    }
}

// The second scheduling level: the list says how many workers the workflows share, a priority
// changes while the workflow runs and is kept for the next start.
TEST_F(RestApiTest, APriorityChangesWhileTheWorkflowRunsAndIsKept) {
  ASSERT_EQ(call("POST", "/api/v1/workflows", registration("urgent", 1'000'000'000)).status, 201);
  Value list = parse_json(call("GET", "/api/v1/workflows").body);
  EXPECT_GE(list.field("workers")->field("shared")->as_int(), 1);
  EXPECT_EQ(list.field("workflows")->as_array()[0].field("priority")->as_int(), 0);
  const std::string path = "/api/v1/workflows/urgent/priority";
  ApiResponse changed = call("POST", path, R"({"priority": 7})");
  ASSERT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(parse_json(changed.body).field("priority")->as_int(), 7);
  EXPECT_EQ(call("POST", path, R"({"priority": "high"})").status, 400);
  EXPECT_EQ(call("POST", path, R"({"priority": 1.5})").status, 400);
  EXPECT_EQ(call("POST", path, R"({"priority": 2147483648})").status, 400);
  EXPECT_EQ(call("POST", path, R"({"priority": 1, "more": 2})").status, 400);
  EXPECT_EQ(call("POST", path, "7").status, 400);
  EXPECT_EQ(call("POST", "/api/v1/workflows/ghost/priority", R"({"priority": 1})").status, 404);
  EXPECT_EQ(call("GET", path).status, 405);
  std::ifstream meta_file(dir_ / "state" / "workflows" / "urgent" / "meta.json");
  const std::string meta((std::istreambuf_iterator<char>(meta_file)), {});
  EXPECT_NE(meta.find(R"("priority":7)"), std::string::npos) << meta;

  const std::string log = restart(3);
  list = parse_json(call("GET", "/api/v1/workflows").body);
  EXPECT_EQ(list.field("workers")->field("shared")->as_int(), 3);
  EXPECT_EQ(list.field("workflows")->as_array()[0].field("priority")->as_int(), 7);
}

// The thesis's administrator retunes the scheduling of a running workflow: its policy's
// parameters, or another policy, kept for the next start.
TEST_F(RestApiTest, TheSchedulingPolicyChangesWhileTheWorkflowRunsAndIsKept) {
  ASSERT_EQ(register_yaml("name: tuned\ndirector: {type: scheduled, scheduler: qbs, workers: 2, "
                          "basic_quantum_us: 300}\nactors:\n"
                          "  n: {type: generator, interval: 1 ms, value: i}\n"
                          "  out: {type: jsonl_sink, path: tuned.jsonl}\n"
                          "connections:\n  - n -> out\n")
                .status,
            201);
  const std::string path = "/api/v1/workflows/tuned/set";
  auto director = [&] {
    return parse_json(call("GET", "/api/v1/workflows/tuned").body).field("director")->to_json();
  };
  EXPECT_EQ(director(), R"({"type":"scheduled","scheduler":"qbs","workers":2,)"
                        R"("parameters":{"basic_quantum_us":300}})");
  ApiResponse batch = call("POST", path, R"({"set": "director.batch=8"})");
  ASSERT_EQ(batch.status, 200) << batch.body;
  EXPECT_EQ(director(), R"({"type":"scheduled","scheduler":"qbs","workers":2,)"
                        R"("parameters":{"basic_quantum_us":300,"batch":8}})");
  ApiResponse rr = call("POST", path, R"({"set": "director.scheduler=rr"})");
  ASSERT_EQ(rr.status, 200) << rr.body;
  EXPECT_EQ(director(), R"({"type":"scheduled","scheduler":"rr","workers":2,"parameters":{}})");
  // And it goes on under it.
  const auto written = fs::file_size(dir_ / "tuned.jsonl");
  EXPECT_TRUE(eventually([&] { return fs::file_size(dir_ / "tuned.jsonl") > written + 100; }));

  EXPECT_EQ(call("POST", path, R"({"set": "director.workers=4"})").status, 409);
  EXPECT_EQ(call("POST", path, R"({"set": "director.type=threaded"})").status, 409);
  ApiResponse zero = call("POST", path, R"({"set": "director.slice_us=0"})");
  EXPECT_EQ(zero.status, 400);
  EXPECT_NE(error_of(zero).find("slice_us"), std::string::npos) << zero.body;
  EXPECT_EQ(call("POST", path, R"({"set": "director.basic_quantum_us=5"})").status, 400);
  EXPECT_EQ(call("POST", path, R"({"set": "director.scheduler=nope"})").status, 400);

  // Started again (a server restart), it runs under the policy as changed.
  const std::string log = restart();
  EXPECT_EQ(director(), R"({"type":"scheduled","scheduler":"rr","workers":2,"parameters":{}})")
      << log;
  EXPECT_EQ(state_of("tuned"), "running");
}

TEST_F(RestApiTest, AThreadedWorkflowHasNoPolicyToChange) {
  ASSERT_EQ(register_yaml("name: threads\ndirector: {type: threaded}\nactors:\n"
                          "  n: {type: generator, interval: 1 ms, value: i}\n"
                          "  out: {type: jsonl_sink, path: threads.jsonl}\n"
                          "connections:\n  - n -> out\n")
                .status,
            201);
  ApiResponse refused =
      call("POST", "/api/v1/workflows/threads/set", R"({"set": "director.scheduler=qbs"})");
  EXPECT_EQ(refused.status, 409) << refused.body;
}

// The JSON lines of a file of the scratch folder (those complete so far).
std::vector<Value> json_lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<Value> lines;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && !in.eof()) lines.push_back(parse_json(line));
  return lines;
}

// The administrator of seed 002 (l.547-556) changes a window while the workflow runs: from
// tumbling windows of 5 tokens to windows of 10, without losing or repeating an event; the
// graph shows the window as it is, and the server keeps the setting.
TEST_F(RestApiTest, AWindowChangesWhileTheWorkflowRunsAndIsKept) {
  ASSERT_EQ(register_yaml("name: batches\nactors:\n"
                          "  n: {type: generator, interval: 1 ms, value: \"{n: i}\"}\n"
                          "  total: {type: aggregate, function: sum, value: /n, as: sum}\n"
                          "  out: {type: jsonl_sink, path: batches.jsonl}\n"
                          "connections:\n"
                          "  - {from: n, to: total, window: {size: 5 tokens, step: 5 tokens}}\n"
                          "  - total -> out\n")
                .status,
            201);
  const fs::path written = dir_ / "batches.jsonl";
  ASSERT_TRUE(eventually([&] { return json_lines(written).size() >= 5; }));
  const std::string path = "/api/v1/workflows/batches/set";
  for (const char* setting : {"total.in.window.size=10 tokens", "total.in.window.step=10 tokens"}) {
    ApiResponse set = call("POST", path, std::string(R"({"set": ")") + setting + "\"}");
    ASSERT_EQ(set.status, 200) << set.body;
    EXPECT_EQ(parse_json(set.body).field("applied")->to_json(), "true");
  }
  const std::size_t changed = json_lines(written).size();
  ASSERT_TRUE(eventually([&] { return json_lines(written).size() >= changed + 20; }));
  // Every window holds consecutive events: 5 of them, then 10 (one window of 10 may overlap the
  // next while the size is 10 and the step still 5); their sums say which.
  std::vector<std::pair<std::int64_t, std::int64_t>> windows;  // count, sum
  for (const Value& line : json_lines(written))
    windows.emplace_back(line.field("count")->as_int(), line.field("sum")->as_int());
  std::size_t first_ten = 0;
  while (first_ten < windows.size() && windows[first_ten].first == 5)
    ++first_ten;
  ASSERT_GE(first_ten, 5u);
  ASSERT_LT(first_ten + 10, windows.size());
  for (std::size_t i = first_ten; i < windows.size(); ++i)
    EXPECT_EQ(windows[i].first, 10) << i;
  // Consecutive windows of 5 consecutive events: their sums step by 25. The window being formed
  // at the change keeps its start (5 after the last window of 5) and takes 10 events; the
  // windows after it step by 5 while the step is still 5 (sums 50 apart), then by 10 (100).
  for (std::size_t i = 1; i < first_ten; ++i)
    EXPECT_EQ(windows[i].second - windows[i - 1].second, 25) << i;
  EXPECT_EQ(windows[first_ten].second, 2 * windows[first_ten - 1].second + 75);
  bool stepping_by_ten = false;
  for (std::size_t i = first_ten + 1; i < windows.size(); ++i) {
    const std::int64_t step = windows[i].second - windows[i - 1].second;
    EXPECT_TRUE(step == 100 || (step == 50 && !stepping_by_ten)) << i << ": " << step;
    stepping_by_ten = stepping_by_ten || step == 100;
  }
  EXPECT_TRUE(stepping_by_ten);
  Value details = parse_json(call("GET", "/api/v1/workflows/batches").body);
  EXPECT_EQ(details.field("graph")->field("windows")->to_json(),
            R"js([{"port":"total.in","window":"window(size: 10 tokens, step: 10 tokens)"}])js");
  EXPECT_EQ(details.field("settings")->to_json(),
            R"(["total.in.window.size=10 tokens","total.in.window.step=10 tokens"])");

  ApiResponse unit = call("POST", path, R"({"set": "total.in.window.size=1 s"})");
  EXPECT_EQ(unit.status, 409);
  EXPECT_EQ(error_of(unit),
            "the window on total.in cannot change that way while the workflow runs (the size is "
            "counted in tokens: it cannot become 1 s): remove it and register it again");
  EXPECT_EQ(call("POST", path, R"({"set": "total.in.window.size=0 tokens"})").status, 400);
  EXPECT_EQ(call("POST", path, R"({"set": "out.in.window.size=2 tokens"})").status, 400);
  EXPECT_EQ(call("POST", path, R"({"set": "total.in.window.group_by=/n"})").status, 400);

  // Started again (a server restart), the workflow is loaded with the window as changed.
  const std::string log = restart();
  details = parse_json(call("GET", "/api/v1/workflows/batches").body);
  EXPECT_EQ(details.field("graph")->field("windows")->to_json(),
            R"js([{"port":"total.in","window":"window(size: 10 tokens, step: 10 tokens)"}])js")
      << log;
}

// CWP5's "for another workflow": a view of a running workflow's connection feeds a second
// workflow, registered before the first is, every matching event in order.
TEST_F(RestApiTest, AViewOfOneWorkflowFeedsAnother) {
  ASSERT_EQ(register_yaml("name: evens\nactors:\n"
                          "  seen: {type: workflow_view, of: numbers, from: n, to: out,"
                          " where: \"/n % 2 == 0\", poll: 2 ms}\n"
                          "  out: {type: jsonl_sink, path: evens.jsonl}\n"
                          "connections:\n  - seen -> out\n")
                .status,
            201);
  // Nothing to view yet: it waits.
  EXPECT_EQ(state_of("evens"), "running");
  ASSERT_EQ(register_yaml("name: numbers\nactors:\n"
                          "  n: {type: generator, interval: 1 ms, value: \"{n: i}\"}\n"
                          "  out: {type: jsonl_sink, path: numbers.jsonl}\n"
                          "connections:\n  - n -> out\n")
                .status,
            201);
  ASSERT_TRUE(eventually([&] { return json_lines(dir_ / "evens.jsonl").size() >= 40; }));
  std::vector<Value> seen = json_lines(dir_ / "evens.jsonl");
  for (std::size_t i = 0; i < seen.size(); ++i) {
    const std::int64_t n = seen[i].field("n")->as_int();
    EXPECT_EQ(n % 2, 0) << n;
    if (i > 0) {
      EXPECT_EQ(n, seen[i - 1].field("n")->as_int() + 2) << "none left out, none twice";
    }
  }
  EXPECT_EQ(parse_json(call("GET", "/api/v1/workflows/numbers").body).field("views_open")->as_int(),
            1);
  // A view of a connection the workflow does not have says so, and the run goes on.
  ASSERT_EQ(register_yaml("name: astray\nactors:\n"
                          "  seen: {type: workflow_view, of: numbers, from: n, to: nowhere}\n"
                          "  out: {type: jsonl_sink, path: astray.jsonl}\n"
                          "connections:\n  - seen -> out\n")
                .status,
            201);
  ASSERT_TRUE(eventually([&] {
    Value details = parse_json(call("GET", "/api/v1/workflows/astray").body);
    return details.field("workflow")->field("problems")->as_int() >= 1;
  }));
  EXPECT_EQ(state_of("astray"), "running");

  // The viewed workflow stopped, and listed as stopped by a server started again: the viewer
  // waits, without a problem.
  ASSERT_EQ(call("POST", "/api/v1/workflows/numbers/stop").status, 202);
  ASSERT_TRUE(eventually([&] { return state_of("numbers") == "stopped"; }));
  restart();
  EXPECT_EQ(state_of("numbers"), "stopped");
  std::this_thread::sleep_for(std::chrono::seconds(1));  // the viewer tries every 200 ms
  Value evens = parse_json(call("GET", "/api/v1/workflows/evens").body);
  EXPECT_EQ(evens.field("workflow")->field("state")->as_string(), "running");
  EXPECT_EQ(evens.field("workflow")->field("problems")->as_int(), 0) << evens.to_json();
}

TEST(RestApiToken, EveryRequestButTheHealthChecksNeedsIt) {
  const fs::path state = fs::temp_directory_path() / ("cwf-rest-token-" + std::to_string(getpid()));
  {
    WorkflowCatalog catalog(state, kSecond);
    RestApi api(catalog, std::string("0123456789abcdef"));
    EXPECT_EQ(api.handle({"GET", "/healthz", "", ""}).status, 200);
    EXPECT_EQ(api.handle({"GET", "/readyz", "", ""}).status, 503) << "not ready yet";
    EXPECT_EQ(api.handle({"GET", "/metrics", "", ""}).status, 401);
    EXPECT_EQ(api.handle({"GET", "/api/v1/workflows", "", "Bearer 0123456789abcdeX"}).status, 401);
    EXPECT_EQ(api.handle({"GET", "/api/v1/workflows", "", "Bearer 0123456789abcde"}).status, 401);
    EXPECT_EQ(api.handle({"GET", "/api/v1/workflows", "", "Bearer 0123456789abcdef"}).status, 503)
        << "the API waits for the saved workflows";
    api.set_ready();
    EXPECT_EQ(api.handle({"GET", "/api/v1/workflows", "", "Bearer 0123456789abcdef"}).status, 200);
  }
  fs::remove_all(state);
}

}  // namespace
}  // namespace cwf::cli
