#include <gtest/gtest.h>

#include "actor_test_util.hpp"

namespace cwf::actors {
namespace {

using testing::Harness;
using testing::make;
using testing::param_error;
using testing::write_file;

// Runs a csv_source over `content` and returns the records as JSON.
struct CsvRun {
  std::vector<std::string> out;
  std::vector<std::string> errors;
  std::uint64_t error_count = 0;
};

CsvRun run_csv(const std::string& content, std::map<std::string, Value> params = {}) {
  params["path"] = Value(write_file("in.csv", content));
  Harness h;
  h.add("src", "csv_source", params);
  auto& out = h.collect("src");
  auto& errors = h.collect("src", "errors");
  RunSummary summary = h.run();
  return {out.json(), errors.json(), Harness::errors(summary, "src")};
}

using Lines = std::vector<std::string>;

TEST(CsvSource, HeaderNamesTheFieldsAndTypesAreInferred) {
  CsvRun r = run_csv("id,name,price,code\n1,apple,0.5,007\n-2,pear,1.5e-1,x1\n3,,4,\n");
  EXPECT_EQ(r.out, (Lines{R"({"id":1,"name":"apple","price":0.5,"code":7})",
                          R"({"id":-2,"name":"pear","price":0.15,"code":"x1"})",
                          R"({"id":3,"name":null,"price":4,"code":null})"}));
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.error_count, 0u);
}

TEST(CsvSource, InferenceKeepsNonNumbersAsStrings) {
  CsvRun r = run_csv(
      "a,b,c,d,e,f\n"
      "+5,1.2.3,-,nan,inf,99999999999999999999\n");
  EXPECT_EQ(r.out, (Lines{R"({"a":5,"b":"1.2.3","c":"-","d":"nan","e":"inf","f":1e+20})"}));
}

TEST(CsvSource, WithoutHeaderFieldsAreNamedByColumnsOrNumbered) {
  EXPECT_EQ(run_csv("1,x\n2,y\n", {{"header", Value(false)}}).out,
            (Lines{R"({"c0":1,"c1":"x"})", R"({"c0":2,"c1":"y"})"}));
  EXPECT_EQ(
      run_csv("1,x\n2,y\n", {{"header", Value(false)}, {"columns", Value::array({"n", "s"})}}).out,
      (Lines{R"({"n":1,"s":"x"})", R"({"n":2,"s":"y"})"}));
}

TEST(CsvSource, ColumnsRenameTheHeader) {
  EXPECT_EQ(run_csv("a,b\n1,2\n", {{"columns", Value::array({"x", "y"})}}).out,
            (Lines{R"({"x":1,"y":2})"}));
  EXPECT_EQ(param_error("csv_source", {{"path", Value(write_file("in.csv", "a,b\n"))},
                                       {"columns", Value::array({"x"})}}),
            "columns: the header has 2 columns but `columns` names 1");
}

TEST(CsvSource, QuotedFieldsHoldSeparatorsQuotesAndNewlines) {
  CsvRun r = run_csv(
      "id,text\n"
      "1,\"a, b\"\n"
      "2,\"say \"\"hi\"\"\"\n"
      "3,\"two\nlines\"\n"
      "4,\"\"\n"
      "5,\"12\"\n");
  EXPECT_EQ(r.out, (Lines{R"({"id":1,"text":"a, b"})", R"({"id":2,"text":"say \"hi\""})",
                          R"({"id":3,"text":"two\nlines"})", R"({"id":4,"text":""})",
                          R"({"id":5,"text":12})"}));
  EXPECT_EQ(r.error_count, 0u);
}

TEST(CsvSource, MalformedLinesAreCountedAndSentToErrorsWithTheirLineNumbers) {
  std::string content =
      "a,b\n"
      "1,2\n"
      "1,2,3\n"
      "\n"
      "4\n"
      "\"x\"y,1\n"
      "5,6\r\n";
  std::string path = write_file("in.csv", content);
  CsvRun r = run_csv(content);
  EXPECT_EQ(r.out, (Lines{R"({"a":1,"b":2})", R"({"a":5,"b":6})"}));
  // Sent to the connected `errors` port, the lines are the workflow's to handle: not rejected.
  EXPECT_EQ(r.error_count, 0u);
  EXPECT_EQ(
      r.errors,
      (Lines{
          R"({"file":")" + path +
              R"(","line":3,"text":"1,2,3","error":"expected 2 fields, found 3"})",
          R"({"file":")" + path + R"(","line":5,"text":"4","error":"expected 2 fields, found 1"})",
          R"({"file":")" + path +
              R"(","line":6,"text":"\"x\"y,1","error":"unexpected character after a closing quote"})"}));
}

TEST(CsvSource, MillisecondTimesUnderSecondsHintAtTheUnit) {
  std::string content = "ts,v\n1700000000000,1\n1700000000250,2\n";
  std::string path = write_file("in.csv", content);
  CsvRun r = run_csv(content, {{"time", Value("/ts")}});
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(r.error_count, 0u);  // sent to the connected `errors` port
  EXPECT_EQ(
      r.errors,
      (Lines{
          R"({"file":")" + path +
              R"(","line":2,"text":"1700000000000,1","error":"time: 1700000000000 is out of range in seconds; if the times count milliseconds, set `time_unit: ms`"})",
          R"({"file":")" + path +
              R"(","line":3,"text":"1700000000250,2","error":"time: out of range"})"}));
  CsvRun fixed = run_csv(content, {{"time", Value("/ts")}, {"time_unit", Value("ms")}});
  EXPECT_EQ(fixed.error_count, 0u);
  EXPECT_EQ(fixed.out.size(), 2u);
}

TEST(CsvSource, AnUnterminatedQuoteIsAnError) {
  CsvRun r = run_csv("a,b\n1,\"open\n");
  EXPECT_TRUE(r.out.empty());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find(R"("line":2,"text":"1,\"open","error":"unterminated quoted field")"),
            std::string::npos)
      << r.errors[0];
}

TEST(CsvSource, ExplicitSchemaConvertsAndRejects) {
  CsvRun r = run_csv(
      "id,zip,ok,v\n1,01234,true,2\nx,1,false,3\n3,2,maybe,4\n4,5,0,\n",
      {{"schema",
        Value::record({{"id", "int"}, {"zip", "string"}, {"ok", "bool"}, {"v", "double"}})}});
  EXPECT_EQ(r.out, (Lines{R"({"id":1,"zip":"01234","ok":true,"v":2.0})",
                          R"({"id":4,"zip":"5","ok":false,"v":null})"}));
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_NE(
      r.errors[0].find(R"("line":3,"text":"x,1,false,3","error":"column 'id': 'x' is not an int")"),
      std::string::npos)
      << r.errors[0];
  EXPECT_NE(r.errors[1].find(R"("error":"column 'ok': 'maybe' is not a bool")"), std::string::npos)
      << r.errors[1];
}

TEST(CsvSource, TypesStringsKeepsEveryFieldAString) {
  EXPECT_EQ(run_csv("a,b\n1,\n", {{"types", Value("strings")}}).out,
            (Lines{R"({"a":"1","b":null})"}));
}

TEST(CsvSource, SchemaKeysNameTheColumnsWithoutHeader) {
  EXPECT_EQ(run_csv("7,x\n", {{"header", Value(false)},
                              {"schema", Value::record({{"n", "int"}, {"s", "string"}})}})
                .out,
            (Lines{R"({"n":7,"s":"x"})"}));
}

TEST(CsvSource, SeparatorTabAndByteOrderMark) {
  EXPECT_EQ(run_csv("\xEF\xBB\xBF"
                    "a\tb\n1\tx y\n",
                    {{"separator", Value("\t")}})
                .out,
            (Lines{R"({"a":1,"b":"x y"})"}));
  EXPECT_EQ(run_csv("a;b\n1;2\n", {{"separator", Value(";")}}).out, (Lines{R"({"a":1,"b":2})"}));
}

TEST(CsvSource, LimitStopsEarly) {
  EXPECT_EQ(run_csv("a\n1\n2\n3\n", {{"limit", Value(2)}}).out,
            (Lines{R"({"a":1})", R"({"a":2})"}));
}

TEST(CsvSource, EmptyFileGivesNoEvents) {
  EXPECT_TRUE(run_csv("").out.empty());
  EXPECT_TRUE(run_csv("a,b\n").out.empty());
}

TEST(CsvSource, ManyLinesAcrossBuffersAndBatches) {
  std::string content = "i,s\n";
  constexpr int kLines = 100000;
  for (int i = 0; i < kLines; ++i)
    content += std::to_string(i) + ",some text " + std::to_string(i) + "\n";
  Harness h;
  h.add("src", "csv_source", {{"path", Value(write_file("big.csv", content))}});
  auto& out = h.collect("src");
  h.run();
  ASSERT_EQ(out.seen.size(), static_cast<std::size_t>(kLines));
  for (int i = 0; i < kLines; i += 997) {
    const Value& v = out.seen[static_cast<std::size_t>(i)].token;
    ASSERT_EQ(v.field("i")->as_int(), i);
    ASSERT_EQ(v.field("s")->as_string(), "some text " + std::to_string(i));
  }
}

TEST(CsvSource, ParameterErrors) {
  std::string ok = write_file("ok.csv", "a,b\n1,2\n");
  EXPECT_EQ(param_error("csv_source", {{"path", Value(ok)}}), "");
  EXPECT_EQ(param_error("csv_source", {{"path", Value(ok + ".missing")}}),
            "path: cannot open '" + ok + ".missing': No such file or directory");
  EXPECT_EQ(param_error("csv_source", {{"path", Value(::testing::TempDir())}}).substr(0, 6),
            "path: ");
  EXPECT_EQ(param_error("csv_source", {{"path", Value(ok)}, {"separator", Value("ab")}}),
            "separator: invalid separator 'ab' (expected one character other than a quote)");
  EXPECT_EQ(param_error("csv_source", {{"path", Value(ok)}, {"types", Value("guess")}}),
            "types: unknown types 'guess' (expected infer or strings)");
  EXPECT_EQ(
      param_error("csv_source", {{"path", Value(ok)}, {"schema", Value::record({{"zz", "int"}})}}),
      "schema: no column 'zz'");
  EXPECT_EQ(param_error("csv_source",
                        {{"path", Value(ok)}, {"schema", Value::record({{"a", "float128"}})}}),
            "schema: unknown column type 'float128' (expected int, double, string, bool or "
            "infer)");
  EXPECT_EQ(param_error("csv_source", {{"path", Value(write_file("dup.csv", "a,a\n"))}}),
            "path: duplicate column name 'a'");
  EXPECT_EQ(param_error("csv_source", {{"path", Value(ok)}, {"time", Value("/a +")}}).substr(0, 13),
            "time: column ");
  EXPECT_EQ(param_error("csv_source", {{"path", Value(ok)}, {"pace", Value("real")}}),
            "pace: pacing needs the event times: set `time`");
  EXPECT_EQ(param_error("csv_source",
                        {{"path", Value(ok)}, {"time", Value("/a")}, {"pace", Value("fastest")}}),
            "pace: invalid pace 'fastest' (expected fast, real or a speed-up such as 10x)");
  EXPECT_EQ(param_error("csv_source", {{"path", Value(ok)}, {"time_unit", Value("h")}}),
            "time_unit: unknown time unit 'h' (expected s, ms, us or ns)");
  EXPECT_EQ(param_error("csv_source", {}), "path: missing required parameter 'path'");
}

}  // namespace
}  // namespace cwf::actors
