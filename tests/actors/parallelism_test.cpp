// Actors with `parallelism: N` and connections that share events among their replicas
// (`partition_by`, `broadcast`, replica to replica), under every director and policy: every event
// arrives exactly once (broadcast: once per replica), the events of one key in the order they were
// sent, and a keyed window behind a partition_by edge on its group-by key gives exactly what the
// same workflow gives without parallelism. Mistakes in the file are reported where they are.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "actor_test_util.hpp"
#include "runtime/execution/execution.hpp"
#include "runtime/execution/output_watcher.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::actors {
namespace {

using testing::kEveryDirector;
using testing::read_file;
using testing::temp_path;
using testing::write_file;

// 3,000 records {k, i}: 40 keys drawn at random, i counting from 0.
std::string random_keys_file() {
  std::mt19937 random(7);
  std::string text;
  for (int i = 0; i < 3000; ++i)
    text += "{\"k\": " + std::to_string(random() % 40) + ", \"i\": " + std::to_string(i) + "}\n";
  return write_file("keys.jsonl", text);
}

std::vector<Value> records_in(const std::string& path) {
  std::vector<Value> records;
  std::string text = read_file(path);
  JsonParser parser;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    records.push_back(parser.parse(std::string_view(text).substr(start, end - start)));
    start = end + 1;
  }
  return records;
}

// The records of a JSON-lines file as JSON text, sorted: what replicas wrote, whatever the merge.
std::vector<std::string> sorted_json_lines(const std::string& path) {
  std::vector<std::string> lines;
  for (const Value& r : records_in(path))
    lines.push_back(r.to_json());
  std::sort(lines.begin(), lines.end());
  return lines;
}

const ActorSummary& summary_of(const RunSummary& summary, const std::string& name) {
  for (const ActorSummary& a : summary.actors)
    if (a.name == name) return a;
  throw std::invalid_argument("no actor " + name + " in the run's summary");
}

RunSummary run_yaml(const std::string& yaml, const std::string& director) {
  auto workflow = testing::load(yaml);
  return testing::run_under(*workflow, director);
}

// src (a jsonl_source on `in`) -> copy (a map of `expression` with `parallelism`) -> out (a
// jsonl_sink on `out`), `routing` being the keys of the connection into copy.
RunSummary run_through_copies(const std::string& in, const std::string& out,
                              const std::string& expression, int parallelism,
                              const std::string& routing, const std::string& director) {
  return run_yaml("name: copies\nactors:\n  src: {type: jsonl_source, path: " + in +
                      "}\n  copy: {type: map, expression: \"" + expression + "\", parallelism: " +
                      std::to_string(parallelism) + "}\n  out: {type: jsonl_sink, path: " + out +
                      "}\nconnections:\n  - {from: src, to: copy, " + routing +
                      "}\n  - copy -> out\n",
                  director);
}

// Every event exactly `copies` times, and each key's events in the order of `i`.
void expect_each_once_in_key_order(const std::vector<Value>& records, int copies) {
  std::map<std::int64_t, int> seen;
  std::map<std::int64_t, std::int64_t> last_of_key;
  for (const Value& r : records) {
    ++seen[r.field("i")->as_int()];
    if (copies == 1) {
      std::int64_t key = r.field("k")->as_int();
      auto [it, first] = last_of_key.try_emplace(key, -1);
      EXPECT_LT(it->second, r.field("i")->as_int()) << "key " << key << " out of order";
      it->second = r.field("i")->as_int();
    }
  }
  EXPECT_EQ(seen.size(), 3000u);
  for (const auto& [i, n] : seen)
    ASSERT_EQ(n, copies) << "event " << i;
}

class Parallelism : public ::testing::TestWithParam<std::string> {};

TEST_P(Parallelism, EveryEventOnceAndEachKeyInOrderThroughReplicatedStages) {
  const std::string in = random_keys_file();
  const std::string out = temp_path("out.jsonl");
  RunSummary summary = run_yaml(R"(
name: replicated
actors:
  src: {type: jsonl_source, path: )" +
                                    in + R"(}
  first: {type: map, expression: "{k: /k, i: /i}", parallelism: 3}
  second: {type: filter, where: "true", parallelism: 3}
  third: {type: map, expression: "{k: /k, i: /i}", parallelism: 2}
  out: {type: jsonl_sink, path: )" + out +
                                    R"(}
connections:
  - {from: src, to: first, partition_by: /k}
  - first -> second
  - {from: second, to: third, partition_by: /k}
  - third -> out
)",
                                GetParam());
  EXPECT_EQ(summary.incomplete(), 0u);
  expect_each_once_in_key_order(records_in(out), 1);
}

TEST_P(Parallelism, BroadcastGivesEveryReplicaEveryEvent) {
  const std::string in = random_keys_file();
  const std::string out = temp_path("out.jsonl");
  RunSummary summary =
      run_through_copies(in, out, "{k: /k, i: /i}", 3, "broadcast: true", GetParam());
  EXPECT_EQ(summary.incomplete(), 0u);
  expect_each_once_in_key_order(records_in(out), 3);
}

// Partitioning by the group-by key is invisible in the results: each group lives in one replica.
TEST_P(Parallelism, AKeyedWindowBehindAPartitionGivesTheResultsOfOneActor) {
  const std::string in = random_keys_file();
  auto sums = [&](int parallelism) {
    const std::string out = temp_path("sums" + std::to_string(parallelism) + ".jsonl");
    RunSummary summary =
        run_yaml(R"(
name: keyed
actors:
  src: {type: jsonl_source, path: )" +
                     in + R"(}
  sums: {type: aggregate, function: sum, value: /i, parallelism: )" +
                     std::to_string(parallelism) + R"(}
  out: {type: jsonl_sink, path: )" +
                     out + R"(}
connections:
  - from: src
    to: sums
)" + (parallelism > 1 ? "    partition_by: /k\n" : "") +
                     R"(    window: {size: 3 tokens, step: 2 tokens, group_by: [/k]}
  - sums -> out
)",
                 GetParam());
    EXPECT_EQ(summary.incomplete(), 0u);
    return sorted_json_lines(out);
  };
  const std::vector<std::string> one = sums(1);
  EXPECT_GT(one.size(), 1000u);
  EXPECT_EQ(sums(4), one);
}

// Orders split into items, the items partitioned by key over replicas and joined again by wave
// (CWP3): each order's window after the replicas holds all its items, and a wave window on each
// replica, grouped by the key, what one actor's holds. A replica gets a punctuation for every
// item that went to another, so its waves complete.
TEST_P(Parallelism, WaveWindowsBehindAndAfterAPartitionSeeWholeWaves) {
  std::mt19937 random(11);
  std::string orders;
  for (int order = 0; order < 300; ++order) {
    orders += "{\"order\": " + std::to_string(order) + ", \"items\": [";
    const int items = 1 + static_cast<int>(random() % 6);
    for (int item = 0; item < items; ++item)
      orders += std::string(item ? ", " : "") + "{\"k\": " + std::to_string(random() % 10) +
                ", \"v\": " + std::to_string(random() % 100) + "}";
    orders += "]}\n";
  }
  const std::string in = write_file("orders.jsonl", orders);
  auto run = [&](int parallelism) {
    const std::string whole = temp_path("whole" + std::to_string(parallelism) + ".jsonl");
    const std::string keyed = temp_path("keyed" + std::to_string(parallelism) + ".jsonl");
    const std::string replicas = std::to_string(parallelism);
    const std::string routing = parallelism > 1 ? ", partition_by: /k" : "";
    RunSummary summary = run_yaml(R"(
name: orders
actors:
  src: {type: jsonl_source, path: )" + in +
                                      R"(}
  items: {type: split, path: /items}
  handle: {type: map, expression: "{k: /k, v: /v}", parallelism: )" +
                                      replicas + R"(}
  per_key: {type: aggregate, function: sum, value: /v, parallelism: )" +
                                      replicas + R"(}
  order: {type: aggregate, function: sum, value: /v}
  whole: {type: jsonl_sink, path: )" + whole +
                                      R"(}
  keyed: {type: jsonl_sink, path: )" + keyed +
                                      R"(}
connections:
  - src -> items
  - {from: items, to: handle)" + routing +
                                      R"(}
  - {from: items, to: per_key)" + routing +
                                      R"(, window: {size: 1 wave, step: 1 wave, group_by: [/k]}}
  - {from: handle, to: order, window: {size: 1 wave, step: 1 wave}}
  - order -> whole
  - per_key -> keyed
)",
                                  GetParam());
    EXPECT_EQ(summary.incomplete(), 0u);
    auto sorted = [](const std::string& path) {
      std::vector<std::string> lines;
      for (const Value& r : records_in(path))
        lines.push_back(r.to_json());
      std::sort(lines.begin(), lines.end());
      return lines;
    };
    return std::make_pair(sorted(whole), sorted(keyed));
  };
  const auto one = run(1);
  EXPECT_EQ(one.first.size(), 300u);  // a window per order
  const auto three = run(3);
  EXPECT_EQ(three.first, one.first);
  EXPECT_EQ(three.second, one.second);
}

// The partition actor itself, with `how: modulo` and `broadcast_when`: output j gets exactly the
// input's events whose key is j modulo 4 and every control event, in input order.
TEST_P(Parallelism, ModuloPartitionAndBroadcastEventsInTheirPlace) {
  std::string text;
  for (int i = 0; i < 2000; ++i)
    text += i % 50 == 0
                ? "{\"control\": true, \"i\": " + std::to_string(i) + "}\n"
                : "{\"k\": " + std::to_string(i % 7 - 3) + ", \"i\": " + std::to_string(i) + "}\n";
  const std::string in = write_file("mixed.jsonl", text);
  std::string sinks, connections;
  for (int j = 0; j < 4; ++j) {
    sinks += "  out" + std::to_string(j) +
             ": {type: jsonl_sink, path: " + temp_path("out" + std::to_string(j) + ".jsonl") +
             "}\n";
    connections += "  - p.out" + std::to_string(j) + " -> out" + std::to_string(j) + "\n";
  }
  RunSummary summary = run_yaml(R"(
name: modulo
actors:
  src: {type: jsonl_source, path: )" +
                                    in + R"(}
  p: {type: partition, by: /k, outputs: 4, how: modulo, broadcast_when: "/control == true"}
)" + sinks + "connections:\n  - src -> p\n" +
                                    connections,
                                GetParam());
  EXPECT_EQ(summary.incomplete(), 0u);
  const std::vector<Value> input = records_in(in);
  for (int j = 0; j < 4; ++j) {
    std::vector<std::int64_t> expected, actual;
    for (const Value& r : input) {
      const Value* key = r.field("k");
      if (!key || ((key->as_int() % 4) + 4) % 4 == j) expected.push_back(r.field("i")->as_int());
    }
    for (const Value& r : records_in(temp_path("out" + std::to_string(j) + ".jsonl")))
      actual.push_back(r.field("i")->as_int());
    EXPECT_EQ(actual, expected) << "output " << j;
  }
}

// The same through the loader: `partitioning: modulo` and `broadcast_when` on a connection into
// replicas. Each keyed event arrives once, each key in order; each control event once per replica.
TEST_P(Parallelism, ControlEventsReachEveryReplica) {
  std::string text;
  for (int i = 0; i < 3000; ++i)
    text += "{\"k\": " + std::to_string(i % 40) + ", \"i\": " + std::to_string(i) +
            (i % 100 == 0 ? ", \"control\": true" : "") + "}\n";
  const std::string in = write_file("control.jsonl", text);
  const std::string out = temp_path("out.jsonl");
  RunSummary summary = run_through_copies(
      in, out, "{k: /k, i: /i, control: /control}", 3,
      "partition_by: /k, partitioning: modulo, broadcast_when: \"/control == true\"", GetParam());
  EXPECT_EQ(summary.incomplete(), 0u);
  std::map<std::int64_t, int> seen;
  std::map<std::int64_t, std::int64_t> last_of_key;
  for (const Value& r : records_in(out)) {
    const std::int64_t i = r.field("i")->as_int();
    ++seen[i];
    const std::int64_t key = r.field("k")->as_int();
    if (i % 100 == 0) continue;
    auto [it, first] = last_of_key.try_emplace(key, -1);
    EXPECT_LT(it->second, i) << "key " << key << " out of order";
    it->second = i;
  }
  ASSERT_EQ(seen.size(), 3000u);
  for (const auto& [i, n] : seen)
    ASSERT_EQ(n, i % 100 == 0 ? 3 : 1) << "event " << i;
}

// A key that cannot pick a replica (modulo of a string) is the sender's error, counted, and the
// event goes to no replica; the others arrive.
TEST_P(Parallelism, AnEventWhoseKeyPicksNoReplicaIsCountedAtTheSender) {
  std::string text;
  for (int i = 0; i < 300; ++i)
    text += "{\"k\": " + (i % 30 == 0 ? "\"x\"" : std::to_string(i)) +
            ", \"i\": " + std::to_string(i) + "}\n";
  const std::string in = write_file("bad_keys.jsonl", text);
  const std::string out = temp_path("out.jsonl");
  RunSummary summary =
      run_through_copies(in, out, "/i", 2, "partition_by: /k, partitioning: modulo", GetParam());
  EXPECT_EQ(summary.incomplete(), 10u);
  EXPECT_EQ(summary_of(summary, "src").rejected, 10u);
  EXPECT_EQ(records_in(out).size(), 290u);
}

// A view of one connection into a replica (a live view, docs/server.md) sees exactly the events
// that went into that replica; a view of the sender's whole port sees every event.
TEST_P(Parallelism, AViewOfAPartitionedConnectionSeesWhatWentIntoItsReplica) {
  struct Seen final : OutputWatcher {
    std::mutex mutex;
    std::vector<std::int64_t> keys;
    void seen(const Event& event) noexcept override {
      std::lock_guard lock(mutex);
      keys.push_back(event.token.field("k")->as_int());
    }
  };
  const std::string in = random_keys_file();
  auto workflow = testing::load(R"(
name: views
actors:
  src: {type: jsonl_source, path: )" +
                                in + R"(}
  copy: {type: map, expression: "/k", parallelism: 3}
  out: {type: jsonl_sink, path: )" +
                                temp_path("out.jsonl") + R"(}
connections:
  - {from: src, to: copy, partition_by: /k, partitioning: modulo}
  - copy -> out
)");
  std::vector<std::shared_ptr<Seen>> views;
  for (int i = 0; i < 4; ++i)
    views.push_back(std::make_shared<Seen>());
  RunOptions options;
  options.on_execution = [&](Execution* execution, Director*) {
    if (!execution) return;
    ActorCell& src = execution->cell(*execution->workflow().find("src"));
    for (int i = 0; i < 3; ++i) {
      ActorId copy = *execution->workflow().find("copy[" + std::to_string(i) + "]");
      src.watch(0, views[static_cast<std::size_t>(i)], execution->cell(copy).receiver(0));
    }
    src.watch(0, views[3]);
  };
  RunSummary summary = testing::run_under(*workflow, GetParam(), options);
  EXPECT_EQ(summary.incomplete(), 0u);
  // A view sees from when it is attached. The scheduled directors start firing in run(), after
  // the views are attached; the threaded director's threads start with the director, so its
  // source may have sent some events before, or all of them.
  const bool from_the_start = GetParam() != "threaded";
  std::size_t total = 0;
  for (int i = 0; i < 3; ++i) {
    const auto& keys = views[static_cast<std::size_t>(i)]->keys;
    if (from_the_start) {
      EXPECT_FALSE(keys.empty());
    }
    for (std::int64_t key : keys)
      ASSERT_EQ(key % 3, i) << "replica " << i;
    total += keys.size();
  }
  if (from_the_start) {
    EXPECT_EQ(total, 3000u);
    EXPECT_EQ(views[3]->keys.size(), 3000u);
  } else {
    EXPECT_LE(total, 3000u);
    EXPECT_LE(views[3]->keys.size(), 3000u);
  }
}

TEST_P(Parallelism, ARetractionGoesToTheReplicaTheOutputItRetractsWentTo) {
  // Orders 1 to 4 are reserved; once order 4's reservation is out, order 2 is cancelled (so
  // under every director after its reservation was made) and that reservation is retracted. The
  // record {"retracted": ...} has no /order of its own: it is routed by the key of the output it
  // retracts, so it reaches replica 0 (2 mod 2), where that output went.
  const std::string items =
      write_file("items.jsonl", "{\"order\": 1}\n{\"order\": 2}\n{\"order\": 3}\n{\"order\": 4}\n");
  const std::string out = temp_path("out.jsonl");
  RunSummary summary = run_yaml(R"(
name: retractions
actors:
  items: {type: jsonl_source, path: )" +
                                    items + R"(}
  reserve: {type: map, expression: "{order: /order}"}
  last: {type: filter, where: "/order == 4"}
  second: {type: map, expression: "{order: 2}"}
  cancel: {type: cancel, key: /order, scope: [reserve], retract: [reserve]}
  copy: {type: map, expression: "/", parallelism: 2}
  out: {type: jsonl_sink, path: )" + out +
                                    R"(}
connections:
  - items -> reserve
  - reserve -> last
  - last -> second
  - second -> cancel
  - {from: reserve, to: copy, partition_by: /order, partitioning: modulo}
  - copy -> out
)",
                                GetParam());
  EXPECT_EQ(summary.incomplete(), 0u);
  EXPECT_EQ(sorted_json_lines(out),
            (std::vector<std::string>{R"({"order":1})", R"({"order":2})", R"({"order":3})",
                                      R"({"order":4})", R"({"retracted":{"order":2}})"}));
  EXPECT_EQ(summary_of(summary, "copy[0]").events_in, 3u);  // orders 2 and 4, the retraction of 2
  EXPECT_EQ(summary_of(summary, "copy[1]").events_in, 2u);
}

INSTANTIATE_TEST_SUITE_P(Directors, Parallelism, ::testing::ValuesIn(kEveryDirector),
                         [](const auto& info) { return testing::director_label(info.param); });

std::string load_error(const std::string& yaml) {
  try {
    testing::load(yaml);
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

TEST(ParallelismInTheFile, MistakesAreReportedWhereTheyAre) {
  const std::string in = random_keys_file();
  const std::string head = "name: w\nactors:\n  src: {type: jsonl_source, path: " + in + "}\n";
  EXPECT_EQ(load_error(head + "  m: {type: map, expression: /i, parallelism: 2}\n"
                              "connections:\n  - src -> m\n"),
            "test.yaml:6:5: 'm' runs as 2 replicas: say how they share the events of 'src': "
            "partition_by: KEY (each key to one replica) or broadcast: true (every event to "
            "every replica)");
  EXPECT_EQ(load_error(head + "  m: {type: map, expression: /i}\n"
                              "connections:\n  - {from: src, to: m, partition_by: /k}\n"),
            "test.yaml:6:24: 'm' runs as one actor: partition_by and broadcast share events "
            "among the replicas of an actor with parallelism");
  EXPECT_EQ(load_error(head + "  m: {type: map, expression: /i, parallelism: 0}\n"),
            "test.yaml:4:47: expected a positive int for 'parallelism', got '0'");
  EXPECT_EQ(load_error("name: w\nactors:\n  src: {type: jsonl_source, path: " + in +
                       ", parallelism: 2}\n"),
            "test.yaml:3:" + std::to_string(50 + in.size()) +
                ": actor 'src' is a source (jsonl_source): its replicas would each emit the "
                "whole input; give parallelism to the actors it feeds");
  EXPECT_EQ(load_error(head + "  m: {type: map, expression: /i, parallelism: 2}\n"
                              "connections:\n  - {from: src, to: m, partition_by: /k, "
                              "broadcast: true}\n"),
            "test.yaml:6:42: a connection either partitions (partition_by) or broadcasts, not "
            "both");
  EXPECT_EQ(load_error(head + "  m: {type: map, expression: /i, parallelism: 2}\n"
                              "connections:\n  - {from: src, to: m, broadcast_when: /c}\n"),
            "test.yaml:6:24: broadcast_when sends some of the events a partition_by connection "
            "shares to every replica: it needs partition_by (or broadcast: true for all of them)");
  EXPECT_EQ(load_error(head + "  m: {type: map, expression: /i, parallelism: 2}\n"
                              "connections:\n  - {from: src, to: m, partitioning: modulo}\n"),
            "test.yaml:6:24: partitioning says how partition_by's key picks a replica: it needs "
            "partition_by");
  EXPECT_NE(load_error(head + "  m: {type: map, expression: /i, parallelism: 2}\n"
                              "connections:\n  - {from: src, to: m, partition_by: /k, "
                              "partitioning: random}\n")
                .find("invalid 'partitioning' of the connection src -> m: expected hash or "
                      "modulo, got 'random'"),
            std::string::npos);
}

}  // namespace
}  // namespace cwf::actors
