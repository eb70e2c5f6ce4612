#include <gtest/gtest.h>

#include <set>

#include "actor_test_util.hpp"
#include "runtime/execution/threaded_director.hpp"

namespace cwf::actors {
namespace {

using testing::registry;

TEST(Registry, EveryTypeIsRegistered) {
  EXPECT_EQ(
      registry().names(),
      (std::vector<std::string>{
          "aggregate",  "cancel",       "correlate", "counter",      "csv_sink",      "csv_source",
          "expression", "filter",       "fold",      "generator",    "interval_join", "join",
          "jsonl_sink", "jsonl_source", "lookup",    "map",          "merge",         "partition",
          "split",      "stdout",       "tap",       "workflow_view"}));
}

TEST(Registry, EveryTypeIsDocumentedWithItsParametersAndPorts) {
  for (const ActorType* type : registry().list()) {
    SCOPED_TRACE(type->name);
    EXPECT_FALSE(type->doc.empty());
    EXPECT_TRUE(type->factory);
    std::set<std::string> names;
    for (const ParamSpec& p : type->params) {
      EXPECT_FALSE(p.doc.empty()) << p.name;
      EXPECT_TRUE(names.insert(p.name).second) << "duplicate " << p.name;
    }
    for (const PortSpec& port : type->ports.inputs)
      EXPECT_FALSE(port.doc.empty()) << port.name;
    for (const PortSpec& port : type->ports.outputs)
      EXPECT_FALSE(port.doc.empty()) << port.name;
    EXPECT_FALSE(type->ports.inputs.empty() && type->ports.outputs.empty());
  }
}

// name: type, default ("required" or the default's JSON) for every parameter of a type.
std::vector<std::string> signature(const std::string& type) {
  std::vector<std::string> out;
  for (const ParamSpec& p : registry().find(type)->params)
    out.push_back(p.name + ": " + std::string(param_type_name(p.type)) + " = " +
                  (p.default_value ? p.default_value->to_json() : "required"));
  return out;
}

using Sig = std::vector<std::string>;

TEST(Registry, ParameterSchemas) {
  const Sig file_source{"path: string = required",   "time: expression = null",
                        "time_unit: string = \"s\"", "pace: string = \"fast\"",
                        "batch: int = 64",           "limit: int = null",
                        "follow: bool = false",      "poll: duration = 200000000"};
  Sig csv = file_source;
  csv.insert(csv.end(),
             {"header: bool = true", "columns: list of strings = null", "types: string = \"infer\"",
              "schema: any = null", "separator: string = \",\""});
  EXPECT_EQ(signature("csv_source"), csv);
  EXPECT_EQ(signature("jsonl_source"), file_source);
  EXPECT_EQ(signature("generator"),
            (Sig{"value: expression = \"i\"", "count: int = null", "interval: duration = 0",
                 "start_time: duration = null", "batch: int = 64"}));
  EXPECT_EQ(signature("filter"), (Sig{"where: expression = required"}));
  EXPECT_EQ(signature("map"), (Sig{"expression: expression = required"}));
  EXPECT_EQ(signature("split"), (Sig{"path: expression = null", "each: expression = null"}));
  EXPECT_EQ(signature("merge"), (Sig{"inputs: int = 2"}));
  EXPECT_EQ(signature("counter"), (Sig{}));
  EXPECT_EQ(signature("cancel"),
            (Sig{"scope: list of strings = required", "retract: list of strings = null",
                 "remember: int = 1000", "key: expression = null", "match: expression = null"}));
  EXPECT_EQ(signature("tap"), (Sig{"where: expression = null"}));
  EXPECT_EQ(signature("csv_sink"),
            (Sig{"path: string = required", "columns: list of strings = null",
                 "header: bool = true", "separator: string = \",\""}));
  EXPECT_EQ(signature("jsonl_sink"), (Sig{"path: string = required"}));
  EXPECT_EQ(signature("stdout"), (Sig{"format: string = \"json\"", "with_time: bool = false",
                                      "with_wave: bool = false"}));
}

TEST(Registry, DeclaredPortsMatchTheInstances) {
  std::string csv = testing::write_file("in.csv", "a\n1\n");
  std::string out = testing::temp_path("out");
  std::map<std::string, std::map<std::string, Value>> args = {
      {"csv_source", {{"path", Value(csv)}}},
      {"jsonl_source", {{"path", Value(csv)}}},
      {"generator", {}},
      {"filter", {{"where", Value("true")}}},
      {"map", {{"expression", Value("/")}}},
      {"split", {}},
      {"merge", {}},
      {"partition", {{"by", Value("/k")}}},
      {"counter", {}},
      {"fold", {{"key", Value("/k")}, {"update", Value("state")}}},
      {"lookup", {{"key", Value("/k")}, {"probe", Value("/k")}, {"emit", Value("found")}}},
      {"aggregate", {{"function", Value("count")}}},
      {"tap", {}},
      {"expression", {{"emit", Value("len(window)")}}},
      {"join", {}},
      {"interval_join", {{"key", Value("/id")}, {"upper", Value("1 min")}}},
      {"correlate", {{"key", Value("/id")}, {"timeout", Value("1 min")}}},
      {"cancel", {{"scope", Value("x")}}},
      {"csv_sink", {{"path", Value(out)}}},
      {"jsonl_sink", {{"path", Value(out)}}},
      {"stdout", {}},
      {"workflow_view", {{"of", Value("w")}, {"from", Value("a")}, {"to", Value("b")}}},
  };
  for (const ActorType* type : registry().list()) {
    SCOPED_TRACE(type->name);
    ASSERT_TRUE(args.count(type->name));
    auto actor = testing::make(type->name, args[type->name]);
    EXPECT_EQ(type->ports.mismatch(actor->inputs(), actor->outputs()), "");
  }
}

TEST(Registry, AWholePipelineUnderTheThreadedDirector) {
  std::string content = "id,v\n";
  for (int i = 0; i < 2000; ++i)
    content += std::to_string(i) + "," + std::to_string(i % 7) + "\n";
  content += "bad line,1,2\n";
  std::string in = testing::write_file("in.csv", content);
  std::string out = testing::temp_path("out.jsonl");
  testing::Harness h;
  h.add("src", "csv_source", {{"path", Value(in)}});
  h.add("keep", "filter", {{"where", Value("/v == 3")}});
  h.add("shape", "map", {{"expression", Value("{id: /id}")}});
  h.add("sink", "jsonl_sink", {{"path", Value(out)}});
  h.connect("src", "keep");
  h.connect("keep", "shape");
  h.connect("shape", "sink");
  auto& errors = h.collect("src", "errors");
  VirtualClock clock;
  ThreadedDirector director;
  RunSummary summary = run_workflow(h.workflow(), director, clock);
  std::string expected;
  for (int i = 3; i < 2000; i += 7)
    expected += "{\"id\":" + std::to_string(i) + "}\n";
  EXPECT_EQ(testing::read_file(out), expected);
  EXPECT_EQ(summary.incomplete(), 0u);  // the bad line went to `errors`
  ASSERT_EQ(errors.seen.size(), 1u);
  EXPECT_EQ(*errors.seen[0].token.field("line"), Value(2002));
}

}  // namespace
}  // namespace cwf::actors
