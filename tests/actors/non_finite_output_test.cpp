// Doubles that are not finite (infinity, -infinity, NaN) are written the same way by every output
// (docs/actors.md, "Sinks"): the words Infinity, -Infinity and NaN, bare in CSV and text, as JSON
// strings in JSON, so that the JSON stays valid; and they read back as those doubles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "actor_test_util.hpp"
#include "actors/stdout_sink.hpp"
#include "runtime/expressions/expression.hpp"

namespace cwf::actors {
namespace {

using testing::Harness;
using testing::read_file;
using testing::temp_path;
using testing::write_file;

constexpr const char* kSpecial =
    "{x: 1.5, up: double('inf'), down: -double('inf'), nan: "
    "double('nan')}";

void run_into(const std::string& sink_type, const std::string& path) {
  Harness h;
  h.add("src", "generator", {{"count", Value(1)}, {"value", Value(kSpecial)}});
  h.add("sink", sink_type, {{"path", Value(path)}});
  h.connect("src", "sink");
  h.run();
}

std::string run_stdout(TextFormat format, const std::string& value) {
  std::FILE* stream = std::tmpfile();
  Harness h;
  h.add("src", "generator", {{"count", Value(1)}, {"value", Value(value)}});
  h.add("sink", std::make_unique<StdoutSink>(StdoutOptions{format, false, false}, stream));
  h.connect("src", "sink");
  h.run();
  std::rewind(stream);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, stream))
    out.append(buf, n);
  std::fclose(stream);
  return out;
}

TEST(NonFiniteDoubles, JsonWritesThemAsStringsSoTheLineStaysValidJson) {
  EXPECT_EQ(Value(std::numeric_limits<double>::infinity()).to_json(), "\"Infinity\"");
  EXPECT_EQ(Value(-std::numeric_limits<double>::infinity()).to_json(), "\"-Infinity\"");
  EXPECT_EQ(Value(std::numeric_limits<double>::quiet_NaN()).to_json(), "\"NaN\"");
  EXPECT_EQ(Value(std::numeric_limits<double>::infinity()).to_text(), "Infinity");

  std::string path = temp_path("special.jsonl");
  run_into("jsonl_sink", path);
  EXPECT_EQ(read_file(path), R"({"x":1.5,"up":"Infinity","down":"-Infinity","nan":"NaN"})"
                             "\n");
}

TEST(NonFiniteDoubles, CsvWritesTheSameWordsBare) {
  std::string path = temp_path("special.csv");
  run_into("csv_sink", path);
  EXPECT_EQ(read_file(path), "x,up,down,nan\n1.5,Infinity,-Infinity,NaN\n");
}

TEST(NonFiniteDoubles, StdoutWritesTheSameInEveryFormat) {
  EXPECT_EQ(run_stdout(TextFormat::json, kSpecial),
            R"({"x":1.5,"up":"Infinity","down":"-Infinity","nan":"NaN"})"
            "\n");
  EXPECT_EQ(run_stdout(TextFormat::csv, kSpecial), "1.5,Infinity,-Infinity,NaN\n");
  EXPECT_EQ(run_stdout(TextFormat::text, "-double('inf')"), "-Infinity\n");
  EXPECT_EQ(run_stdout(TextFormat::json, "-double('inf')"), "\"-Infinity\"\n");
}

TEST(NonFiniteDoubles, CsvReadsTheWordsBackAsDoubles) {
  std::string path = temp_path("special_round.csv");
  run_into("csv_sink", path);
  Harness h;
  h.add("src", "csv_source", {{"path", Value(path)}});
  auto& out = h.collect("src");
  h.run();
  ASSERT_EQ(out.seen.size(), 1u);
  const Value& r = out.seen[0].token;
  EXPECT_EQ(r.field("up")->as_double(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.field("down")->as_double(), -std::numeric_limits<double>::infinity());
  ASSERT_TRUE(r.field("nan")->is_double());
  EXPECT_TRUE(std::isnan(r.field("nan")->as_double()));
}

TEST(NonFiniteDoubles, ACsvColumnDeclaredDoubleTakesTheOtherSpellingsToo) {
  std::string path = write_file("spellings.csv", "a,b\ninf,-INF\nnan,x\n");
  Harness h;
  h.add("src", "csv_source",
        {{"path", Value(path)}, {"schema", Value::record({{"a", "double"}, {"b", "double"}})}});
  auto& out = h.collect("src");
  auto& errors = h.collect("src", "errors");
  h.run();
  ASSERT_EQ(out.seen.size(), 1u);
  EXPECT_EQ(out.json()[0], R"({"a":"Infinity","b":"-Infinity"})");
  EXPECT_EQ(errors.seen.size(), 1u);  // "x" is no double
  // Inferred columns keep them as strings: only the exact words the sinks write are doubles.
  Harness inferred;
  inferred.add("src", "csv_source", {{"path", Value(path)}});
  auto& strings = inferred.collect("src");
  inferred.run();
  ASSERT_EQ(strings.seen.size(), 2u);
  EXPECT_EQ(strings.json()[0], R"({"a":"inf","b":"-INF"})");
}

TEST(NonFiniteDoubles, ExpressionsWriteTheWordsAndReadThemBack) {
  EXPECT_EQ(Expression::compile("str(double('inf'))").evaluate(Value()), Value("Infinity"));
  EXPECT_EQ(Expression::compile("concat('x=', -double('inf'))").evaluate(Value()),
            Value("x=-Infinity"));
  // A field written as the JSON string "Infinity" is a double again through double().
  Expression e = Expression::compile("double(/up) > 1e308 and type(double(/nan)) == 'double'");
  EXPECT_TRUE(e.matches(Value::record({{"up", "Infinity"}, {"nan", "NaN"}})));
}

}  // namespace
}  // namespace cwf::actors
