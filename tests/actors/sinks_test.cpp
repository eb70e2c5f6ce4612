#include <gtest/gtest.h>

#include <cstdio>

#include "actor_test_util.hpp"
#include "actors/stdout_sink.hpp"

namespace cwf::actors {
namespace {

using testing::Harness;
using testing::param_error;
using testing::read_file;
using testing::temp_path;

constexpr const char* kRecords =
    "if(i == 0, {id: 1, name: \"plain\", x: 1.5, ok: true, tags: [\"a\", \"b\"]}, "
    "if(i == 1, {id: 2, name: \"a, \\\"quoted\\\" one\", x: 2.0, ok: false, tags: []}, "
    "{name: \"no id\", extra: 1, id: null}))";

TEST(CsvSink, ColumnsFromTheFirstRecordWithHeaderAndQuoting) {
  std::string path = temp_path("out.csv");
  Harness h;
  h.add("src", "generator", {{"count", Value(3)}, {"value", Value(kRecords)}});
  h.add("sink", "csv_sink", {{"path", Value(path)}});
  h.connect("src", "sink");
  h.run();
  EXPECT_EQ(read_file(path),
            "id,name,x,ok,tags\n"
            "1,plain,1.5,true,\"[\"\"a\"\",\"\"b\"\"]\"\n"
            "2,\"a, \"\"quoted\"\" one\",2.0,false,[]\n"
            ",no id,,,\n");
}

TEST(CsvSink, GivenColumnsWithoutHeaderAndASeparator) {
  std::string path = temp_path("out.csv");
  Harness h;
  h.add("src", "generator", {{"count", Value(3)}, {"value", Value(kRecords)}});
  h.add("sink", "csv_sink",
        {{"path", Value(path)},
         {"columns", Value::array({"name", "id", "missing"})},
         {"header", Value(false)},
         {"separator", Value(";")}});
  h.connect("src", "sink");
  h.run();
  EXPECT_EQ(read_file(path), "plain;1;\n\"a, \"\"quoted\"\" one\";2;\nno id;;\n");
}

TEST(CsvSink, NonRecordTokensFillTheFirstColumn) {
  std::string path = temp_path("out.csv");
  Harness h;
  h.add("src", "generator", {{"count", Value(3)}, {"value", Value("i * 1.5")}});
  h.add("sink", "csv_sink", {{"path", Value(path)}});
  h.connect("src", "sink");
  h.run();
  EXPECT_EQ(read_file(path), "value\n0.0\n1.5\n3.0\n");
}

TEST(CsvSink, ExplicitColumnsWriteAHeaderEvenWithoutEvents) {
  std::string path = temp_path("out.csv");
  Harness h;
  h.add("src", "generator", {{"count", Value(0)}});
  h.add("sink", "csv_sink", {{"path", Value(path)}, {"columns", Value::array({"a", "b"})}});
  h.connect("src", "sink");
  h.run();
  EXPECT_EQ(read_file(path), "a,b\n");
}

TEST(CsvSink, LargeOutputIsComplete) {
  std::string path = temp_path("big.csv");
  Harness h;
  h.add("src", "generator", {{"count", Value(50000)}, {"value", Value("{i: i, s: \"row\"}")}});
  h.add("sink", "csv_sink", {{"path", Value(path)}});
  h.connect("src", "sink");
  h.run();
  std::string expected = "i,s\n";
  for (int i = 0; i < 50000; ++i)
    expected += std::to_string(i) + ",row\n";
  EXPECT_EQ(read_file(path), expected);
}

TEST(CsvSink, RoundTripsThroughCsvSource) {
  std::string path = temp_path("round.csv");
  {
    Harness h;
    h.add("src", "generator", {{"count", Value(3)}, {"value", Value(kRecords)}});
    h.add("sink", "csv_sink", {{"path", Value(path)}, {"columns", Value::array({"id", "name"})}});
    h.connect("src", "sink");
    h.run();
  }
  Harness h;
  h.add("src", "csv_source", {{"path", Value(path)}});
  auto& out = h.collect("src");
  h.run();
  EXPECT_EQ(out.json(), (std::vector<std::string>{R"({"id":1,"name":"plain"})",
                                                  R"({"id":2,"name":"a, \"quoted\" one"})",
                                                  R"({"id":null,"name":"no id"})"}));
}

TEST(JsonlSink, OneJsonLinePerToken) {
  std::string path = temp_path("out.jsonl");
  Harness h;
  h.add("src", "generator", {{"count", Value(3)}, {"value", Value(kRecords)}});
  h.add("sink", "jsonl_sink", {{"path", Value(path)}});
  h.connect("src", "sink");
  h.run();
  EXPECT_EQ(read_file(path),
            "{\"id\":1,\"name\":\"plain\",\"x\":1.5,\"ok\":true,\"tags\":[\"a\",\"b\"]}\n"
            "{\"id\":2,\"name\":\"a, \\\"quoted\\\" one\",\"x\":2.0,\"ok\":false,\"tags\":[]}\n"
            "{\"name\":\"no id\",\"extra\":1,\"id\":null}\n");
}

TEST(JsonlSink, RoundTripsThroughJsonlSource) {
  std::string in = testing::write_file(
      "in.jsonl", "{\"a\":{\"b\":[1,2.5,\"x\",null,true]},\"c\":\"\\u00e9\\n\"}\n{\"a\":1}\n");
  std::string out = temp_path("out.jsonl");
  Harness h;
  h.add("src", "jsonl_source", {{"path", Value(in)}});
  h.add("sink", "jsonl_sink", {{"path", Value(out)}});
  h.connect("src", "sink");
  h.run();
  EXPECT_EQ(read_file(out),
            "{\"a\":{\"b\":[1,2.5,\"x\",null,true]},\"c\":\"\xC3\xA9\\n\"}\n{\"a\":1}\n");
}

TEST(Sinks, AFolderThatDoesNotExistIsAParamError) {
  EXPECT_EQ(param_error("csv_sink", {{"path", Value("/nonexistent/dir/out.csv")}}),
            "path: no folder '/nonexistent/dir'");
  EXPECT_EQ(param_error("jsonl_sink", {{"path", Value("/nonexistent/dir/out.jsonl")}}),
            "path: no folder '/nonexistent/dir'");
  EXPECT_EQ(param_error("stdout", {{"format", Value("xml")}}),
            "format: unknown format 'xml' (expected json, text or csv)");
}

// Runs a stdout sink writing to a temporary file and returns what it wrote.
std::string run_stdout(StdoutOptions options, const std::string& value, int count = 2) {
  std::FILE* stream = std::tmpfile();
  Harness h;
  h.add("src", "generator",
        {{"count", Value(count)},
         {"value", Value(value)},
         {"interval", Value(kSecond)},
         {"start_time", Value(1000)}});
  h.add("sink", std::make_unique<StdoutSink>(options, stream));
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

TEST(Stdout, Formats) {
  const std::string value = "{n: i, s: if(i == 0, \"a,b\", \"c\")}";
  EXPECT_EQ(run_stdout({TextFormat::json, false, false}, value),
            "{\"n\":0,\"s\":\"a,b\"}\n{\"n\":1,\"s\":\"c\"}\n");
  EXPECT_EQ(run_stdout({TextFormat::csv, false, false}, value), "0,\"a,b\"\n1,c\n");
  EXPECT_EQ(run_stdout({TextFormat::text, false, false}, "concat(\"line \", str(i))"),
            "line 0\nline 1\n");
  EXPECT_EQ(run_stdout({TextFormat::text, false, false}, value),
            "{\"n\":0,\"s\":\"a,b\"}\n{\"n\":1,\"s\":\"c\"}\n");
}

TEST(Stdout, TimeAndWavePrefixes) {
  std::string out = run_stdout({TextFormat::json, true, false}, "i");
  EXPECT_EQ(out, "1000 0\n1000001000 1\n");
  out = run_stdout({TextFormat::json, true, true}, "i", 1);
  // "<time> <wave> <token>": the wave of a source event is its root "time#sequence".
  EXPECT_EQ(out.substr(0, 10), "1000 1000#");
  EXPECT_EQ(out.substr(out.size() - 3), " 0\n");
}

// Two stdout sinks share one stream that is not a terminal. By default each writes its lines in
// blocks (here: all at the end, the output under 256 KiB), so a reader sees nothing until then;
// line-buffered, each firing's lines are written at once, so the two interleave as they fire.
std::string two_sinks_on_one_stream() {
  std::FILE* stream = std::tmpfile();
  Harness h;
  h.add("src", "generator",
        {{"count", Value(3)}, {"value", Value("i")}, {"interval", Value(kSecond)}});
  h.add("plain",
        std::make_unique<StdoutSink>(StdoutOptions{TextFormat::json, false, false}, stream));
  h.add("timed",
        std::make_unique<StdoutSink>(StdoutOptions{TextFormat::json, true, false}, stream));
  h.connect("src", "plain");
  h.connect("src", "timed");
  h.run();
  std::rewind(stream);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, stream))
    out.append(buf, n);
  std::fclose(stream);
  return out;
}

TEST(Stdout, BlockBufferedUnlessTheProcessAsksForLines) {
  EXPECT_EQ(two_sinks_on_one_stream(), "0\n1\n2\n0 0\n1000000000 1\n2000000000 2\n");
  set_stdout_line_buffered(true);
  std::string interleaved = two_sinks_on_one_stream();
  set_stdout_line_buffered(false);
  EXPECT_EQ(interleaved, "0\n0 0\n1\n1000000000 1\n2\n2000000000 2\n");
}

}  // namespace
}  // namespace cwf::actors
