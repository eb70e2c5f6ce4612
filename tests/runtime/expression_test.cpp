#include "runtime/expressions/expression.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace cwf {
namespace {

Value sample() {
  return Value::record({
      {"a", Value::record({{"b", 7}, {"c", "text"}})},
      {"items", Value::array({10, 20, 30})},
      {"x", 6},
      {"y", 4},
      {"name", "Ada"},
      {"ratio", 2.5},
      {"flag", true},
      {"nothing", Value()},
      {"tags", Value::array({"b", "a", "b", "c"})},
      {"big", std::numeric_limits<std::int64_t>::max()},
  });
}

// The result as JSON text, which tells 3 from 3.0.
std::string eval(std::string_view source, const Value& input = sample()) {
  return Expression::compile(source).evaluate(input).to_json();
}

Value value(std::string_view source, const Value& input = sample()) {
  return Expression::compile(source).evaluate(input);
}

std::string compile_error(std::string_view source, const ExprEnvironment& env = {}) {
  try {
    Expression::compile(source, env);
  } catch (const ExprError& e) {
    return e.what();
  }
  return "no error";
}

std::string eval_error(std::string_view source, const Value& input = sample()) {
  Expression e = Expression::compile(source);
  try {
    e.evaluate(input);
  } catch (const ExprError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Expression, Literals) {
  EXPECT_EQ(eval("42"), "42");
  EXPECT_EQ(eval("1.5"), "1.5");
  EXPECT_EQ(value("1e3"), Value(1000.0));
  EXPECT_TRUE(value("1e3").is_double());
  EXPECT_EQ(eval("2.5E-1"), "0.25");
  EXPECT_EQ(eval("\"double \\\"quoted\\\"\""), "\"double \\\"quoted\\\"\"");
  EXPECT_EQ(eval("'single \\'quoted\\' \"x\"'"), "\"single 'quoted' \\\"x\\\"\"");
  EXPECT_EQ(eval("'tab\\there\\nnewline\\\\'"), "\"tab\\there\\nnewline\\\\\"");
  EXPECT_EQ(Expression::compile("'\\u00e9\\ud83d\\ude00'").evaluate({}).as_string(),
            "\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(eval("true"), "true");
  EXPECT_EQ(eval("false"), "false");
  EXPECT_EQ(eval("null"), "null");
  EXPECT_EQ(eval("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(eval("9223372036854775807"), "9223372036854775807");
}

TEST(Expression, PathsReadNestedRecordsAndArrays) {
  EXPECT_EQ(eval("/a/b"), "7");
  EXPECT_EQ(eval("/a/c"), "\"text\"");
  EXPECT_EQ(eval("/a"), "{\"b\":7,\"c\":\"text\"}");
  EXPECT_EQ(eval("/items[0]"), "10");
  EXPECT_EQ(eval("/items[2]"), "30");
  EXPECT_EQ(eval("/items[-1]"), "30");
  EXPECT_EQ(eval("/items[-3]"), "10");
  EXPECT_EQ(eval("/items[ /y - 3 ]"), "20");
  EXPECT_EQ(eval("/a[\"b\"]"), "7");
  EXPECT_EQ(eval("/\"a\"/'c'"), "\"text\"");
  EXPECT_EQ(eval("/name[0]"), "\"A\"");
  EXPECT_EQ(eval("/name[-1]"), "\"a\"");
  EXPECT_EQ(eval("/name[1][0]"), "\"d\"");
  EXPECT_EQ(eval("keys(/a)[-1][0]"), "\"c\"");
  EXPECT_EQ(eval("'abc'[-1]"), "\"c\"");
  EXPECT_EQ(eval("/"), sample().to_json());
  EXPECT_EQ(eval("/[0]", Value::array({"first"})), "\"first\"");
  EXPECT_EQ(eval("/and", Value::record({{"and", 1}})), "1");  // keywords are fine as field names
  Value nested =
      Value::record({{"rows", Value::array({Value::record({{"cells", Value::array({1, 2})}}),
                                            Value::record({{"cells", Value::array({3, 4})}})})}});
  EXPECT_EQ(eval("/rows[1]/cells[-1]", nested), "4");
  EXPECT_EQ(eval("/rows[-2]/cells[0]", nested), "1");
  EXPECT_EQ(eval("[10, 20, 30][1]"), "20");
  EXPECT_EQ(eval("{k: [5, 6]}/k[-1]"), "6");
  EXPECT_EQ(eval("(/a)/b"), "7");
  EXPECT_EQ(eval("keys(/a)[1]"), "\"c\"");
}

TEST(Expression, MissingFieldsAndOutOfRangeIndexesAreNull) {
  EXPECT_EQ(eval("/missing"), "null");
  EXPECT_EQ(eval("/a/missing/deeper"), "null");
  EXPECT_EQ(eval("/missing[0]"), "null");
  EXPECT_EQ(eval("/items[3]"), "null");
  EXPECT_EQ(eval("/items[-4]"), "null");
  EXPECT_EQ(eval("/items[/missing]"), "null");
  EXPECT_EQ(eval("/x/y"), "null");   // a field of an int
  EXPECT_EQ(eval("/x[0]"), "null");  // an element of an int
  EXPECT_EQ(eval("/name[3]"), "null");
  EXPECT_EQ(eval("/a[\"zz\"]"), "null");
  EXPECT_EQ(eval("/a/b", Value()), "null");
  EXPECT_EQ(eval("/a/b", Value(5)), "null");
}

// Paths of one field (`/x`, `state/cars`) and constant integer indexes (`window[-4]`) are read
// without walking the general steps: the same values, nulls and errors as the general walk.
TEST(Expression, OneFieldPathsAndConstantIndexesReadLikeEveryOtherPath) {
  ExprEnvironment env{"state", "window"};
  Value window = Value::array(
      {Value::record({{"pos", 1}}), Value::record({{"pos", 2}}), Value::record({{"pos", 3}})});
  auto with = [&](std::string_view source, Value state) {
    std::array<Value, 2> vars{std::move(state), window};
    return Expression::compile(source, env).evaluate(sample(), vars).to_json();
  };
  EXPECT_EQ(with("state/cars", Value()), "null");
  EXPECT_EQ(with("state/cars", Value(5)), "null");
  EXPECT_EQ(with("state/cars", Value::record({{"cars", 7}})), "7");
  EXPECT_EQ(with("state/cars", Value::record({{"sum", 7}})), "null");
  EXPECT_EQ(with("window[0]/pos + window[-1]/pos + window[-3]/pos", Value()), "5");
  EXPECT_EQ(with("[window[3], window[-4], state[0], state[-1]]", Value()), "[null,null,null,null]");
  EXPECT_EQ(with("state[1]", Value::array({4, 5})), "5");
  EXPECT_EQ(with("state[-2]", Value("xyz")), "\"y\"");
  EXPECT_EQ(with("state[0]", Value(true)), "null");
  try {
    with("state[0]", Value::record({{"cars", 7}}));
    ADD_FAILURE() << "an int index into a record";
  } catch (const ExprError& e) {
    EXPECT_EQ(std::string(e.what()), "column 6: record index must be a string, got int");
  }
  // A record or an array whose slot fails to evaluate: the error (what was made before it is
  // released: a leak shows under the sanitizers).
  EXPECT_EQ(eval_error("{a: /a, b: /name * 2}"), eval_error("/name * 2").replace(7, 1, "18"));
  EXPECT_EQ(eval_error("[/a, /tags, /name * 2]"), eval_error("/name * 2").replace(7, 1, "19"));
  // Two integers, each operator on both sides of equality (/x is 6, /y is 4).
  EXPECT_EQ(eval("[/x < 7, /x < 6, /x <= 6, /x <= 5, /x > 5, /x > 6, /x >= 6, /x >= 7]"),
            "[true,false,true,false,true,false,true,false]");
  EXPECT_EQ(eval("[/x == 6, /x == 7, /x != 6, /x != 7, 6 == /x, /y > /x, /x > /y, /y < /x]"),
            "[true,false,false,true,true,false,true,true]");
}

TEST(Expression, SlashIsAPathStepOnlyWhenItTouchesBothSides) {
  EXPECT_EQ(eval("/x/y"), "null");  // field y of field x
  EXPECT_EQ(eval("/x / /y"), "1");  // 6 / 4
  EXPECT_EQ(eval("/x/ /y"), "1");
  EXPECT_EQ(eval("/x/2"), "3");  // a number is no field name
  EXPECT_EQ(eval("/x / 2"), "3");
  EXPECT_EQ(eval("/items[1]/2"), "10");
  EXPECT_EQ(eval("/x//y"), "1");  // (/x) / (/y)
  // In operator position '/' always divides, so a path after it needs its own '/'.
  EXPECT_EQ(compile_error("/x /y"),
            "column 5: unknown name 'y'; paths into the input start with '/', as in /y");
  EXPECT_EQ(eval("6/4"), "1");
  EXPECT_EQ(eval("(/x)/(/y)"), "1");
  EXPECT_EQ(eval("/ratio*2/ /y"), "1.25");
  EXPECT_EQ(compile_error("10/x"),
            "column 3: cannot read field 'x' of int; to divide, put spaces around '/'");

  ExprEnvironment env{"total"};
  Expression field = Expression::compile("/x/total", env);
  Expression division = Expression::compile("/x / total", env);
  std::array<Value, 1> vars{Value(3)};
  EXPECT_EQ(field.evaluate(sample(), vars).to_json(), "null");
  EXPECT_EQ(division.evaluate(sample(), vars).to_json(), "2");
}

TEST(Expression, Arithmetic) {
  EXPECT_EQ(eval("1 + 2 * 3"), "7");
  EXPECT_EQ(eval("(1 + 2) * 3"), "9");
  EXPECT_EQ(eval("2 - 3 - 4"), "-5");
  EXPECT_EQ(eval("/x * /y"), "24");
  EXPECT_EQ(eval("/x - /y"), "2");
  EXPECT_EQ(eval("/x + /ratio"), "8.5");
  EXPECT_EQ(eval("/ratio * 2"), "5.0");
  EXPECT_EQ(eval("7 / 2"), "3");
  EXPECT_EQ(eval("-7 / 2"), "-3");  // truncates toward zero
  EXPECT_EQ(eval("7.0 / 2"), "3.5");
  EXPECT_EQ(eval("7 % 3"), "1");
  EXPECT_EQ(eval("-7 % 3"), "-1");
  EXPECT_EQ(eval("7 % -3"), "1");
  EXPECT_EQ(eval("7.5 % 2"), "1.5");
  EXPECT_EQ(eval("/x / 0"), "null");
  EXPECT_EQ(eval("/x % 0"), "null");
  EXPECT_EQ(eval("/ratio / 0.0"), "null");
  EXPECT_EQ(eval("-/x"), "-6");
  EXPECT_EQ(eval("- -3"), "3");
  EXPECT_EQ(eval("-/ratio"), "-2.5");
  EXPECT_EQ(eval("-2 * 3"), "-6");
  EXPECT_EQ(eval("'ab' + \"cd\""), "\"abcd\"");
  EXPECT_EQ(eval("/name + '!'"), "\"Ada!\"");
  EXPECT_EQ(eval("[1] + [2, /x]"), "[1,2,6]");
  EXPECT_EQ(eval("/nothing + 1"), "null");
  EXPECT_EQ(eval("/missing * /x"), "null");
  EXPECT_EQ(eval("-/missing"), "null");
  EXPECT_EQ(eval("-9223372036854775807 - 1"), "-9223372036854775808");
}

TEST(Expression, Comparison) {
  EXPECT_EQ(eval("2 == 2.0"), "true");
  EXPECT_EQ(eval("/x == 6"), "true");
  EXPECT_EQ(eval("/x != 6"), "false");
  EXPECT_EQ(eval("1 < 2"), "true");
  EXPECT_EQ(eval("2 <= 2"), "true");
  EXPECT_EQ(eval("3 > 2"), "true");
  EXPECT_EQ(eval("3 >= 4"), "false");
  EXPECT_EQ(eval("'a' < 'b'"), "true");
  EXPECT_EQ(eval("/name == 'Ada'"), "true");
  EXPECT_EQ(eval("[1, 2] == [1, 2.0]"), "true");
  EXPECT_EQ(eval("{a: 1, b: 2} == {b: 2, a: 1}"), "true");
  EXPECT_EQ(eval("/missing == null"), "true");
  EXPECT_EQ(eval("'1' == 1"), "false");
  EXPECT_EQ(eval("1 + 1 == 2"), "true");  // arithmetic binds tighter
}

// The `/celsius` readings of a sensor, for the type traps below.
Value reading(Value celsius) {
  return Value::record({{"celsius", std::move(celsius)}});
}

TEST(Expression, OrderingOperatorsOrderValuesOfOneKind) {
  EXPECT_EQ(eval("2.5 > 2"), "true");
  EXPECT_EQ(eval("/ratio <= 2.5"), "true");
  EXPECT_EQ(eval("'b' > 'a'"), "true");
  EXPECT_EQ(eval("'B' < 'a'"), "true");  // bytewise
  EXPECT_EQ(eval("true > false"), "true");
  EXPECT_EQ(eval("[1, 2] < [1, 3]"), "true");
  EXPECT_EQ(eval("[1] < [1, 0]"), "true");  // a prefix comes first
  EXPECT_EQ(eval("[1, 'b'] >= [1, 'a']"), "true");
  EXPECT_EQ(eval("/tags > ['b', 'a']"), "true");
}

TEST(Expression, OrderingAcrossKindsIsAnErrorNamingBothOperands) {
  // A number compared with a string never silently matches nothing (or everything).
  EXPECT_EQ(eval_error("/celsius > '30'", reading(31)),
            "column 10: cannot compare int 31 > string '30'");
  EXPECT_EQ(eval_error("/celsius > 30", reading("n/a")),
            "column 10: cannot compare string 'n/a' > int 30");
  EXPECT_EQ(eval_error("30 < /celsius", reading("n/a")),
            "column 4: cannot compare int 30 < string 'n/a'");
  EXPECT_EQ(eval_error("/celsius >= /limit",
                       Value::record({{"celsius", 20.5}, {"limit", "it's \"hot\""}})),
            "column 10: cannot compare double 20.5 >= string 'it\\'s \"hot\"'");
  EXPECT_EQ(eval_error("/flag > 0"), "column 7: cannot compare bool true > int 0");
  EXPECT_EQ(eval_error("/items <= 10"), "column 8: cannot compare array [10,20,30] <= int 10");
  EXPECT_EQ(eval_error("/a < /a"),
            "column 4: cannot compare record {\"b\":7,\"c\":\"text\"} < record "
            "{\"b\":7,\"c\":\"text\"} (records have no order)");
  // Arrays order element by element with the same rule.
  EXPECT_EQ(eval_error("/items > [10, 'x']"),
            "column 8: cannot compare array [10,20,30] > array [10,\"x\"]");
  // Long operands are shortened.
  EXPECT_EQ(eval_error("/celsius < 1", reading(std::string(60, 'x'))),
            "column 10: cannot compare string '" + std::string(39, 'x') + "... < int 1");

  // A filter's test throws too, instead of passing or dropping the event.
  Expression hot = Expression::compile("/celsius > 30");
  EXPECT_TRUE(hot.matches(reading(31)));
  EXPECT_FALSE(hot.matches(reading(30.0)));
  EXPECT_THROW(hot.matches(reading("n/a")), ExprError);
  EXPECT_THROW(Expression::compile("/celsius > '30'").matches(reading(25)), ExprError);

  // Arithmetic with such operands is an error as well.
  EXPECT_EQ(eval_error("/celsius + 1", reading("n/a")),
            "column 10: cannot apply '+' to string and int");
  EXPECT_EQ(eval_error("/celsius * 1.8", reading(true)),
            "column 10: cannot apply '*' to bool and double");
}

TEST(Expression, OrderingErrorsKnownWhileCompilingAreCompileErrors) {
  EXPECT_EQ(compile_error("1 < 'a'"), "column 3: cannot compare int 1 < string 'a'");
  EXPECT_EQ(compile_error("len(/s) > '3'"), "column 9: cannot compare int > string");
  EXPECT_EQ(compile_error("/a > {b: 1}"),
            "column 4: cannot apply '>' to a record (records have no order)");
  EXPECT_EQ(compile_error("/a < null"),
            "column 4: '<' with null is always false; test with exists(...)");
  EXPECT_EQ(compile_error("null >= 1"),
            "column 6: '>=' with null is always false; test with exists(...)");
  // Equality takes every pair of kinds.
  EXPECT_EQ(compile_error("len(/s) == '3'"), "no error");
  EXPECT_EQ(compile_error("/a == null"), "no error");
}

TEST(Expression, OrderingWithNullIsFalse) {
  // Missing data does not match a range, whichever side of it the test is on.
  EXPECT_EQ(eval("/missing < 0"), "false");
  EXPECT_EQ(eval("/missing >= 0"), "false");
  EXPECT_EQ(eval("0 > /nothing"), "false");
  EXPECT_EQ(eval("/missing <= /missing"), "false");
  EXPECT_EQ(eval("/a/b/c > 3"), "false");
  EXPECT_EQ(eval("not (/missing < 0)"), "true");
  // In arrays, a null in the position that decides leaves the arrays unordered.
  EXPECT_EQ(eval("[1, /missing] < [1, 2]"), "false");
  EXPECT_EQ(eval("[0, /missing] < [1, 2]"), "true");
  EXPECT_EQ(eval("/celsius > 30", reading(Value())), "false");
}

TEST(Expression, EqualityAcrossKindsIsFalseExceptBetweenNumbers) {
  EXPECT_EQ(eval("/x == 6.0"), "true");
  EXPECT_EQ(eval("'6' == /x"), "false");
  EXPECT_EQ(eval("'6' != /x"), "true");
  EXPECT_EQ(eval("true == 1"), "false");
  EXPECT_EQ(eval("false == null"), "false");
  EXPECT_EQ(eval("0 == null"), "false");
  EXPECT_EQ(eval("/missing != 3"), "true");
  EXPECT_EQ(eval("null == null"), "true");
  EXPECT_EQ(eval("[1] == 1"), "false");
  EXPECT_EQ(eval("{a: 1} == [1]"), "false");
}

TEST(Expression, MinAndMaxOrderLikeTheOperators) {
  EXPECT_EQ(eval("max([1, 2.5, null, 2])"), "2.5");
  EXPECT_EQ(eval("min(['b', 'a'])"), "\"a\"");
  EXPECT_EQ(eval_error("max([/celsius, 30])", reading("n/a")),
            "column 1: max(): cannot compare string 'n/a' with int 30");
  EXPECT_EQ(eval_error("min(/x, /name)"),
            "column 1: min(): cannot compare int 6 with string 'Ada'");
  EXPECT_EQ(eval_error("max([/a, /a])"),
            "column 1: max(): cannot compare record {\"b\":7,\"c\":\"text\"} with record "
            "{\"b\":7,\"c\":\"text\"}");
  EXPECT_EQ(compile_error("min(1, 'a')"), "column 1: min(): cannot compare int 1 with string 'a'");
}

TEST(Expression, BooleanOperatorsShortCircuit) {
  EXPECT_EQ(eval("true and false"), "false");
  EXPECT_EQ(eval("true && true"), "true");
  EXPECT_EQ(eval("false or true"), "true");
  EXPECT_EQ(eval("false || false"), "false");
  EXPECT_EQ(eval("not true"), "false");
  EXPECT_EQ(eval("!false"), "true");
  EXPECT_EQ(eval("not 0"), "true");
  EXPECT_EQ(eval("!''"), "true");
  EXPECT_EQ(eval("not /missing"), "true");
  EXPECT_EQ(eval("/x and /name"), "true");  // results are booleans
  EXPECT_EQ(eval("/x > 1 and /y > 1 or false"), "true");
  EXPECT_EQ(eval("false and true or true"), "true");  // and binds tighter than or
  EXPECT_EQ(eval("not (/x == 6)"), "false");

  // /name * 2 fails at run time (name is a string); the right operand must not be evaluated.
  EXPECT_EQ(eval("/x > 100 and /name * 2 > 1"), "false");
  EXPECT_EQ(eval("/x > 1 or /name * 2 > 1"), "true");
  EXPECT_EQ(eval_error("/x > 1 and /name * 2 > 1"),
            "column 18: cannot apply '*' to string and int");
  EXPECT_EQ(eval("false and 1 / 0"), "false");
  EXPECT_EQ(eval("if(/flag, 'yes', /name * 2)"), "\"yes\"");
  EXPECT_EQ(eval("/flag ? 'yes' : /name * 2"), "\"yes\"");
  EXPECT_EQ(eval("not /flag ? /name * 2 : 'no'"), "\"no\"");
}

TEST(Expression, Conditionals) {
  EXPECT_EQ(eval("if(/x > 5, 'big', 'small')"), "\"big\"");
  EXPECT_EQ(eval("if(/x > 50, 'big', 'small')"), "\"small\"");
  EXPECT_EQ(eval("/x > 10 ? 'a' : /x > 5 ? 'b' : 'c'"), "\"b\"");
  EXPECT_EQ(eval("/missing ? 1 : 2"), "2");
  EXPECT_EQ(eval("true ? /a/b : 0"), "7");
  EXPECT_EQ(eval("1 + (/flag ? 1 : 2) * 10"), "11");
}

TEST(Expression, RecordAndArrayConstruction) {
  EXPECT_EQ(eval("{item: /name, count: 3}"), "{\"item\":\"Ada\",\"count\":3}");
  EXPECT_EQ(eval("{'with space': 1, \"and\": 2, not: 3}"),
            "{\"with space\":1,\"and\":2,\"not\":3}");
  EXPECT_EQ(eval("{}"), "{}");
  EXPECT_EQ(eval("[1, /x, 's', [/y]]"), "[1,6,\"s\",[4]]");
  EXPECT_EQ(eval("[]"), "[]");
  EXPECT_EQ(eval("{outer: {inner: /items[-1]}}/outer/inner"), "30");

  Expression e = Expression::compile("{item: /name, count: len(/items)}");
  Value first = e.evaluate(sample());
  Value second = e.evaluate(Value::record({{"name", "Bob"}, {"items", Value::array({})}}));
  EXPECT_EQ(first.schema(), Schema::intern({"item", "count"}));
  EXPECT_EQ(first.schema(), second.schema());
  EXPECT_EQ(second.to_json(), "{\"item\":\"Bob\",\"count\":0}");

  EXPECT_EQ(compile_error("{a: 1, a: 2}"), "column 8: duplicate field 'a'");
  EXPECT_EQ(compile_error("{a 1}"), "column 4: expected ':' but found '1'");
  EXPECT_EQ(compile_error("[1, 2"), "column 6: expected ']' but found end of expression");
}

TEST(Expression, Functions) {
  EXPECT_EQ(eval("len('hello')"), "5");
  EXPECT_EQ(eval("len(/items)"), "3");
  EXPECT_EQ(eval("len(/a)"), "2");
  EXPECT_EQ(eval("len(/missing)"), "null");

  EXPECT_EQ(eval("sum(/items)"), "60");
  EXPECT_EQ(eval("sum([1, 2.5, null])"), "3.5");
  EXPECT_EQ(eval("sum([])"), "0");
  EXPECT_EQ(value("avg(/items)"), Value(20.0));
  EXPECT_TRUE(value("avg(/items)").is_double());
  EXPECT_EQ(eval("avg([1, 2, null])"), "1.5");
  EXPECT_EQ(eval("avg([])"), "null");
  EXPECT_EQ(eval("min(/items)"), "10");
  EXPECT_EQ(eval("max(/items)"), "30");
  EXPECT_EQ(eval("min(/x, /y, 5)"), "4");
  EXPECT_EQ(eval("max(/x, /ratio)"), "6");
  EXPECT_EQ(eval("min(3, null, 2.5)"), "2.5");
  EXPECT_EQ(eval("max(['b', 'c', 'a'])"), "\"c\"");
  EXPECT_EQ(eval("min([])"), "null");
  EXPECT_EQ(eval("min(7)"), "7");

  EXPECT_EQ(eval("as_set(/tags)"), "[\"a\",\"b\",\"c\"]");
  EXPECT_EQ(eval("as_set([3, 1, 3.0, 2, 1])"), "[1,2,3]");
  EXPECT_EQ(eval("as_set(['x', 'y']) == as_set(['y', 'x', 'y'])"), "true");

  EXPECT_EQ(eval("contains(/items, 20)"), "true");
  EXPECT_EQ(eval("contains(/items, 20.0)"), "true");
  EXPECT_EQ(eval("contains(/items, 21)"), "false");
  EXPECT_EQ(eval("contains(/name, 'd')"), "true");
  EXPECT_EQ(eval("contains(/name, 'x')"), "false");
  EXPECT_EQ(eval("contains(/a, 'b')"), "true");
  EXPECT_EQ(eval("contains(/missing, 1)"), "null");

  EXPECT_EQ(eval("abs(-3)"), "3");
  EXPECT_EQ(eval("abs(-2.5)"), "2.5");
  EXPECT_EQ(eval("floor(2.7)"), "2.0");
  EXPECT_EQ(eval("floor(-2.5)"), "-3.0");
  EXPECT_EQ(eval("floor(7)"), "7");
  EXPECT_EQ(eval("ceil(2.1)"), "3.0");
  EXPECT_EQ(eval("round(2.5)"), "3.0");
  EXPECT_EQ(eval("round(-2.5)"), "-3.0");
  EXPECT_EQ(eval("round(2.4)"), "2.0");
  EXPECT_EQ(eval("abs(/missing)"), "null");

  EXPECT_EQ(eval("lower('MiXeD 1')"), "\"mixed 1\"");
  EXPECT_EQ(eval("upper(/name)"), "\"ADA\"");
  EXPECT_EQ(eval("starts_with(/name, 'Ad')"), "true");
  EXPECT_EQ(eval("starts_with(/name, 'da')"), "false");
  EXPECT_EQ(eval("ends_with(/name, 'da')"), "true");
  EXPECT_EQ(eval("ends_with(/name, 'Ad')"), "false");
  EXPECT_EQ(eval("substr('workflow', 4)"), "\"flow\"");
  EXPECT_EQ(eval("substr('workflow', 0, 4)"), "\"work\"");
  EXPECT_EQ(eval("substr('workflow', -4, 2)"), "\"fl\"");
  EXPECT_EQ(eval("substr('workflow', 6, 10)"), "\"ow\"");
  EXPECT_EQ(eval("substr('workflow', 20)"), "\"\"");
  EXPECT_EQ(eval("concat('a', 1, null, 2.5, true, [1])"), "\"a12.5true[1]\"");
  EXPECT_EQ(eval("concat()"), "\"\"");
  EXPECT_EQ(eval("str(42)"), "\"42\"");
  EXPECT_EQ(eval("str('s')"), "\"s\"");
  EXPECT_EQ(eval("str(/items)"), "\"[10,20,30]\"");
  EXPECT_EQ(eval("str(null)"), "\"null\"");
  // 64-bit FNV-1a of the text, top 63 bits (the published offset basis and prime).
  EXPECT_EQ(eval("hash('')"), "7347990519673328018");
  EXPECT_EQ(eval("hash('a')"), "6319093600277820998");
  EXPECT_EQ(eval("hash(lower(/name))"), "8324305830599487645");
  EXPECT_EQ(eval("hash(1) == hash('1')"), "true");
  EXPECT_EQ(eval("hash(2) == hash(2.0)"), "false");

  EXPECT_EQ(eval("int('42')"), "42");
  EXPECT_EQ(eval("int(' -7 ')"), "-7");
  EXPECT_EQ(eval("int('3.9')"), "3");
  EXPECT_EQ(eval("int(-3.9)"), "-3");
  EXPECT_EQ(eval("int(true)"), "1");
  EXPECT_EQ(eval("int('abc')"), "null");
  EXPECT_EQ(eval("int(1e30)"), "null");
  EXPECT_EQ(eval("double(3)"), "3.0");
  EXPECT_EQ(eval("double('2.5')"), "2.5");
  EXPECT_EQ(eval("double('x')"), "null");
  EXPECT_EQ(eval("double(false)"), "0.0");

  EXPECT_EQ(eval("exists(/a/b)"), "true");
  EXPECT_EQ(eval("exists(/a/zz)"), "false");
  EXPECT_EQ(eval("exists(/nothing)"), "false");
  EXPECT_EQ(eval("keys(/a)"), "[\"b\",\"c\"]");
  EXPECT_EQ(eval("keys(/missing)"), "null");
  EXPECT_EQ(eval("type(/ratio)"), "\"double\"");
  EXPECT_EQ(eval("type(/a)"), "\"record\"");
}

TEST(Expression, Variables) {
  ExprEnvironment env{"window", "event"};
  EXPECT_EQ(env.index_of("event"), 1);
  EXPECT_EQ(env.index_of("nope"), -1);
  Value window =
      Value::array({Value::record({{"item", "first"}}), Value::record({{"item", "second"}})});
  Value event = Value::record({{"seg", 12}});
  std::array<Value, 2> vars{window, event};

  Expression item = Expression::compile("window[0]/item", env);
  EXPECT_EQ(item.evaluate(Value(), vars).to_json(), "\"first\"");
  EXPECT_EQ(Expression::compile("window[-1]/item", env).evaluate(Value(), vars).to_json(),
            "\"second\"");
  EXPECT_EQ(Expression::compile("event/seg + len(window)", env).evaluate(Value(), vars).to_json(),
            "14");
  EXPECT_EQ(Expression::compile("event/seg == /seg", env).evaluate(event, vars).to_json(), "true");
  EXPECT_EQ(Expression::compile("event", env).evaluate(Value(), {Value(), Value(5)}).to_json(),
            "5");

  // Only the variables up to the highest one used must be passed.
  Expression first_only = Expression::compile("len(window)", env);
  EXPECT_EQ(first_only.variables_needed(), 1u);
  EXPECT_EQ(first_only.evaluate(Value(), {window}).to_json(), "2");
  EXPECT_EQ(Expression::compile("event/seg", env).variables_needed(), 2u);

  try {
    item.evaluate(Value());
    FAIL() << "expected an error";
  } catch (const ExprError& e) {
    EXPECT_EQ(e.column, 0);
    EXPECT_EQ(std::string(e.what()),
              "expression 'window[0]/item' needs 1 variable values but was given 0");
  }

  EXPECT_EQ(compile_error("evnt/seg", env),
            "column 1: unknown variable 'evnt'; did you mean 'event'?");
  // A name close to no variable is most likely a field without its '/'.
  EXPECT_EQ(compile_error("1 + zzz", env),
            "column 5: unknown name 'zzz'; paths into the input start with '/', as in /zzz");
  EXPECT_EQ(compile_error("speed > 3"),
            "column 1: unknown name 'speed'; paths into the input start with '/', as in /speed");
  EXPECT_EQ(compile_error("len + 1", env), "column 1: 'len' is a function; call it as len(...)");
  EXPECT_THROW(ExprEnvironment({"not"}), ExprError);
  EXPECT_THROW(ExprEnvironment({"1x"}), ExprError);
}

TEST(Expression, SyntaxErrorsNameTheColumn) {
  EXPECT_EQ(compile_error("(1 + 2 x"), "column 8: expected ')' but found 'x'");
  EXPECT_EQ(compile_error("len(/a"), "column 7: expected ')' but found end of expression");
  EXPECT_EQ(compile_error(""), "column 1: expected an expression but found end of expression");
  EXPECT_EQ(compile_error("1 2"), "column 3: expected end of expression but found '2'");
  EXPECT_EQ(compile_error("/a +"), "column 5: expected an expression but found end of expression");
  EXPECT_EQ(compile_error("/a and or /b"), "column 8: expected an expression but found 'or'");
  EXPECT_EQ(compile_error("/a = 1"), "column 4: unexpected '='; use '==' to compare");
  EXPECT_EQ(compile_error("/a # 1"), "column 4: unexpected character '#'");
  EXPECT_EQ(compile_error("/a & /b"), "column 4: unexpected '&'; use '&&' or 'and'");
  EXPECT_EQ(compile_error("'abc"), "column 1: unterminated string");
  EXPECT_EQ(compile_error("'a\\qb'"), "column 3: unknown escape '\\q'");
  EXPECT_EQ(compile_error("1.e5"), "column 2: expected a digit after the decimal point");
  EXPECT_EQ(compile_error("12abc"), "column 1: invalid number");
  EXPECT_EQ(compile_error("9223372036854775808"), "column 1: integer literal out of range");
  EXPECT_EQ(compile_error("1 < /x < 3"),
            "column 8: comparisons do not chain; combine them with 'and'");
  EXPECT_EQ(compile_error("/x ? 1"), "column 7: expected ':' but found end of expression");
  EXPECT_EQ(compile_error("/items[0"), "column 9: expected ']' but found end of expression");
  EXPECT_EQ(compile_error(std::string(1000, '(') + "1" + std::string(1000, ')')),
            "column 201: expression is nested too deeply");
  std::string chain = "/x";
  for (int i = 0; i < 1000; ++i)
    chain += " + /x";
  EXPECT_EQ(compile_error(chain), "column 1996: expression is nested too deeply");
  std::string long_chain = "/x";
  for (int i = 0; i < 300; ++i)
    long_chain += " + /x";
  EXPECT_EQ(eval(long_chain), "1806");
}

TEST(Expression, UnknownFunctionsSuggestTheClosestName) {
  EXPECT_EQ(compile_error("lenght(/a)"),
            "column 1: unknown function 'lenght'; did you mean 'len'?");
  EXPECT_EQ(compile_error("/x + uper(/name)"),
            "column 6: unknown function 'uper'; did you mean 'upper'?");
  EXPECT_EQ(compile_error("startswith(/a, 'x')"),
            "column 1: unknown function 'startswith'; did you mean 'starts_with'?");
  EXPECT_EQ(compile_error("frobnicate(1)"), "column 1: unknown function 'frobnicate'");
  EXPECT_EQ(compile_error("len(1, 2)"), "column 1: len() takes 1 argument but was given 2");
  EXPECT_EQ(compile_error("substr('a')"),
            "column 1: substr() takes 2 to 3 arguments but was given 1");
  EXPECT_EQ(compile_error("min()"), "column 1: min() takes at least 1 argument but was given 0");
  EXPECT_EQ(compile_error("if(/a, 1)"), "column 1: if() takes 3 arguments but was given 2");
}

TEST(Expression, TypeErrors) {
  // Literal operands: found while compiling.
  EXPECT_EQ(compile_error("1 + \"a\" * 2"), "column 9: cannot apply '*' to string and int");
  EXPECT_EQ(compile_error("true + 1"), "column 6: cannot apply '+' to bool and int");
  EXPECT_EQ(compile_error("-'x'"), "column 1: cannot apply '-' to string");
  EXPECT_EQ(compile_error("len(5)"), "column 1: len() expects a string, array or record, got int");
  EXPECT_EQ(compile_error("[1, 2]['a']"), "column 7: array index must be an int, got string");
  EXPECT_EQ(compile_error("9223372036854775807 + 1"), "column 21: integer overflow in '+'");
  // One operand of known kind that no operand on the other side could make valid.
  EXPECT_EQ(compile_error("/x * 'a'"),
            "column 4: cannot apply '*' to a right operand of kind string");
  EXPECT_EQ(compile_error("len(/x) + 'a'"), "column 9: cannot apply '+' to int and string");
  EXPECT_EQ(compile_error("'a' * /x"),
            "column 5: cannot apply '*' to a left operand of kind string");
  EXPECT_EQ(compile_error("(/a > 1) - 1"), "column 10: cannot apply '-' to bool and int");
  // Constant subexpressions in a branch that is never taken are still checked.
  EXPECT_EQ(compile_error("false and 'a' * 2"), "column 15: cannot apply '*' to string and int");

  // Kinds known only at run time: the operator or function's column.
  EXPECT_EQ(eval_error("1 + /name * 2"), "column 11: cannot apply '*' to string and int");
  EXPECT_EQ(eval_error("/name - /x"), "column 7: cannot apply '-' to string and int");
  EXPECT_EQ(eval_error("/flag + 1"), "column 7: cannot apply '+' to bool and int");
  EXPECT_EQ(eval_error("-/name"), "column 1: cannot apply '-' to string");
  EXPECT_EQ(eval_error("/big + 1"), "column 6: integer overflow in '+'");
  EXPECT_EQ(eval_error("2 * len(/x)"),
            "column 5: len() expects a string, array or record, got int");
  EXPECT_EQ(eval_error("sum(/tags)"),
            "column 1: sum() expects an array of numbers, got an element of kind string");
  EXPECT_EQ(eval_error("/items[/name]"), "column 7: array index must be an int, got string");
  EXPECT_EQ(eval_error("/a[0]"), "column 3: record index must be a string, got int");
  EXPECT_EQ(eval_error("substr(/name, 0, -1)"),
            "column 1: substr() length must not be negative, got -1");
  EXPECT_EQ(eval_error("contains(/name, 1)"),
            "column 1: contains() looks for a string in a string, got int");

  try {
    Expression::compile("(1 + 2 x");
    FAIL() << "expected an error";
  } catch (const ExprError& e) {
    EXPECT_EQ(e.column, 8);
    EXPECT_EQ(e.message, "expected ')' but found 'x'");
  }
}

TEST(Expression, PathCacheFollowsChangingSchemas) {
  Expression e = Expression::compile("/a/b");
  Value r1 = Value::record({{"a", Value::record({{"b", 1}})}});
  Value r2 = Value::record({{"z", 0}, {"a", Value::record({{"q", 5}, {"b", 2}})}});
  Value r3 = Value::record({{"a", 5}});
  Value r4 = Value::record({{"b", 1}});
  Value r5 = Value::record({{"a", Value::record({{"c", 1}, {"d", 1}, {"b", 3}})}, {"e", 0}});
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(e.evaluate(r1).to_json(), "1");
    EXPECT_EQ(e.evaluate(r1).to_json(), "1");
    EXPECT_EQ(e.evaluate(r2).to_json(), "2");
    EXPECT_EQ(e.evaluate(r3).to_json(), "null");
    EXPECT_EQ(e.evaluate(r4).to_json(), "null");
    EXPECT_EQ(e.evaluate(r5).to_json(), "3");
    EXPECT_EQ(e.evaluate(r2).to_json(), "2");
  }
  // A constant record key takes the cached route too.
  Expression keyed = Expression::compile("/a['b']");
  EXPECT_EQ(keyed.evaluate(r2).to_json(), "2");
  EXPECT_EQ(keyed.evaluate(r5).to_json(), "3");
  EXPECT_EQ(keyed.evaluate(r1).to_json(), "1");
}

TEST(Expression, ConcurrentEvaluationWithMixedSchemas) {
  Expression e = Expression::compile("/v * 2 + len(/pad)");
  std::vector<Value> inputs;
  for (int i = 0; i < 8; ++i) {
    std::vector<std::string> fields;
    std::vector<Value> slots;
    for (int j = 0; j < i; ++j) {
      fields.push_back("f" + std::to_string(j));
      slots.emplace_back(j);
    }
    fields.push_back("v");
    slots.emplace_back(i);
    fields.push_back("pad");
    slots.emplace_back(std::string(static_cast<std::size_t>(i), 'x'));
    inputs.push_back(Value::record(Schema::intern(fields), std::move(slots)));
  }
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int n = 0; n < 20000; ++n) {
        int i = (n + t) % 8;
        if (e.evaluate(inputs[static_cast<std::size_t>(i)]).as_int() != 3 * i) ++wrong;
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(Expression, MatchesConstantsAndSource) {
  Expression filter = Expression::compile("/x > 5 and contains(/tags, 'c')");
  EXPECT_TRUE(filter.matches(sample()));
  EXPECT_FALSE(filter.matches(Value::record({{"x", 1}})));
  EXPECT_EQ(filter.source(), "/x > 5 and contains(/tags, 'c')");
  EXPECT_FALSE(filter.is_constant());

  Expression folded = Expression::compile("upper('a' + 'b') + str(1 + 2 * 3)");
  EXPECT_TRUE(folded.is_constant());
  EXPECT_EQ(folded.evaluate(Value()).to_json(), "\"AB7\"");

  Expression none;
  EXPECT_TRUE(none.evaluate(sample()).is_null());

  Expression copy = filter;  // copies share the compiled tree
  EXPECT_TRUE(copy.matches(sample()));
}

}  // namespace
}  // namespace cwf
