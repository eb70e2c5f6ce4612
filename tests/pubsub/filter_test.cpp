// Filters: parsing and its errors, matching with the Value semantics (type mismatch and absence
// never match), and exact covering and overlap, checked against brute force over sample records.
#include <gtest/gtest.h>

#include <random>

#include "actors/pubsub/filter.hpp"
#include "runtime/values/value.hpp"

namespace cwf::pubsub {
namespace {

Value pred(std::string_view attribute, std::string_view op, Value operand) {
  return Value::array({Value(attribute), Value(op), std::move(operand)});
}

Filter filter(std::initializer_list<Value> predicates) {
  return Filter::parse(Value::array(predicates));
}

std::string parse_error(const Value& spec) {
  try {
    Filter::parse(spec);
  } catch (const FilterError& e) {
    return e.what();
  }
  return "";
}

TEST(Filter, MatchesWithValueSemantics) {
  Filter f = filter({pred("price", "<", 10), pred("symbol", "prefix", "AB")});
  EXPECT_TRUE(f.matches(Value::record({{"price", 9.5}, {"symbol", "ABC"}})));
  EXPECT_TRUE(f.matches(Value::record({{"price", 3}, {"symbol", "AB"}, {"extra", true}})));
  EXPECT_FALSE(f.matches(Value::record({{"price", 10}, {"symbol", "ABC"}})));
  EXPECT_FALSE(f.matches(Value::record({{"price", 1}, {"symbol", "AC"}})));
  EXPECT_FALSE(f.matches(Value::record({{"symbol", "ABC"}})));                     // absent
  EXPECT_FALSE(f.matches(Value::record({{"price", "1"}, {"symbol", "ABC"}})));     // a string
  EXPECT_FALSE(f.matches(Value::record({{"price", Value()}, {"symbol", "AB"}})));  // null
  EXPECT_FALSE(f.matches(Value(3)));                                               // not a record

  Filter ne = filter({pred("x", "!=", 5)});
  EXPECT_TRUE(ne.matches(Value::record({{"x", 6}})));
  EXPECT_TRUE(ne.matches(Value::record({{"x", 5.5}})));
  EXPECT_FALSE(ne.matches(Value::record({{"x", 5.0}})));  // 5.0 == 5
  EXPECT_FALSE(ne.matches(Value::record({{"x", "a"}})));
  EXPECT_FALSE(ne.matches(Value::record({{"y", 1}})));

  Filter between = Filter::parse(
      Value::array({Value::array({Value("q"), Value("between"), Value(1), Value(5)})}));
  EXPECT_TRUE(between.matches(Value::record({{"q", 1}})));
  EXPECT_TRUE(between.matches(Value::record({{"q", 5.0}})));
  EXPECT_FALSE(between.matches(Value::record({{"q", 5.01}})));
  EXPECT_EQ(between, Filter::parse(Value::array({pred("q", "between", Value::array({1, 5}))})));

  Filter exists = Filter::parse(Value::array({Value::array({Value("note"), Value("exists")})}));
  EXPECT_TRUE(exists.matches(Value::record({{"note", Value::array({1})}})));
  EXPECT_FALSE(exists.matches(Value::record({{"note", Value()}})));
  EXPECT_TRUE(Filter().matches(Value::record({{"any", 1}})));
}

TEST(Filter, ParsesAliasesAndPrintsTheCanonicalForm) {
  Filter f =
      filter({pred("a", "==", 1), pred("b", "\xE2\x89\xA0", "x"), pred("c", "\xE2\x89\xA4", 2),
              pred("d", "\xE2\x89\xA5", 3), pred("e", "<>", true)});
  EXPECT_EQ(f.to_string(),
            R"([["a","=",1],["b","!=","x"],["c","<=",2],["d",">=",3],["e","!=",true]])");
  EXPECT_EQ(Filter::parse(f.to_value()), f);
}

TEST(Filter, ErrorsNameThePredicateAndWhatWasExpected) {
  EXPECT_EQ(parse_error(Value(3)),
            "expected a filter, a list of predicates [[attribute, operator, value], ...], got 3");
  EXPECT_EQ(
      parse_error(Value::array({pred("p", "<", 1), pred("s", "like", "A")})),
      R"(predicate 2 ["s","like","A"]: unknown operator 'like'; expected one of =, !=, <, <=, >, >=, prefix, exists, between)");
  EXPECT_EQ(parse_error(Value::array({Value::array({Value("p"), Value("<")})})),
            R"(predicate 1 ["p","<"]: '<' expects one value)");
  EXPECT_EQ(parse_error(Value::array({pred("p", "<", true)})),
            R"(predicate 1 ["p","<",true]: '<' expects a number or a string, got true)");
  EXPECT_EQ(parse_error(Value::array({pred("p", "prefix", 1)})),
            R"(predicate 1 ["p","prefix",1]: 'prefix' expects a string, got 1)");
  EXPECT_EQ(parse_error(Value::array({pred("p", "=", Value())})),
            R"(predicate 1 ["p","=",null]: '=' expects a boolean, a number or a string, got null)");
  EXPECT_EQ(
      parse_error(Value::array({pred("p", "between", 1)})),
      R"(predicate 1 ["p","between",1]: 'between' expects two bounds: [attribute, between, low, high])");
  EXPECT_EQ(parse_error(
                Value::array({Value::array({Value("p"), Value("between"), Value(1), Value("z")})})),
            R"(predicate 1 ["p","between",1,"z"]: the bounds of 'between' must be of one kind)");
  EXPECT_EQ(parse_error(Value::array({Value::array({Value("p"), Value("exists"), Value(1)})})),
            R"(predicate 1 ["p","exists",1]: 'exists' takes no value)");
  EXPECT_EQ(parse_error(Value::array({pred("", "=", 1)})),
            R"(predicate 1 ["","=",1]: the attribute must be a non-empty string, got "")");
  EXPECT_EQ(parse_error(Value::array({Value("p")})),
            R"(predicate 1 expected a predicate [attribute, operator, value], got "p")");
}

TEST(Filter, CoveringExamples) {
  EXPECT_TRUE(filter({pred("price", "<", 10)}).covers(filter({pred("price", "<", 5)})));
  EXPECT_FALSE(filter({pred("price", "<", 5)}).covers(filter({pred("price", "<", 10)})));
  EXPECT_TRUE(filter({pred("price", "<", 10)})
                  .covers(filter({pred("price", "<", 10), pred("symbol", "prefix", "AB")})));
  EXPECT_FALSE(filter({pred("price", "<", 10), pred("symbol", "prefix", "AB")})
                   .covers(filter({pred("price", "<", 10)})));
  EXPECT_TRUE(filter({pred("s", "prefix", "A")}).covers(filter({pred("s", "prefix", "AB")})));
  EXPECT_TRUE(filter({pred("s", "prefix", "AB")}).covers(filter({pred("s", "=", "ABC")})));
  EXPECT_TRUE(filter({pred("s", "prefix", "AB")})
                  .covers(filter({pred("s", ">=", "AB"), pred("s", "<", "AC")})));
  EXPECT_FALSE(filter({pred("s", "prefix", "AB")})
                   .covers(filter({pred("s", ">=", "AB"), pred("s", "<=", "AC")})));
  EXPECT_TRUE(filter({pred("x", "!=", 5)}).covers(filter({pred("x", ">", 5)})));
  EXPECT_FALSE(filter({pred("x", "!=", 5)}).covers(filter({pred("x", ">=", 5)})));
  EXPECT_TRUE(filter({pred("x", "!=", 5)})
                  .covers(filter({pred("x", "<", 5)}).predicates().empty()
                              ? Filter()
                              : filter({pred("x", "<", 5)})));
  // != 5 admits no string: it does not cover `exists`, which admits x = "a".
  Filter exists = Filter::parse(Value::array({Value::array({Value("x"), Value("exists")})}));
  EXPECT_FALSE(filter({pred("x", "!=", 5)}).covers(exists));
  EXPECT_TRUE(exists.covers(filter({pred("x", "=", 3)})));
  EXPECT_TRUE(Filter().covers(exists));
  EXPECT_FALSE(exists.covers(Filter()));
  // Integers and doubles are one number line.
  EXPECT_TRUE(filter({pred("x", "<=", 2)}).covers(filter({pred("x", "=", 2.0)})));
  EXPECT_TRUE(filter({pred("x", "between", Value::array({1, 3}))})
                  .covers(filter({pred("x", ">=", 1), pred("x", "<=", 2.5)})));
  // `!=` twice leaves a hole that a range does not fill.
  EXPECT_FALSE(
      filter({pred("x", "!=", 1), pred("x", "!=", 2)}).covers(filter({pred("x", "<", 3)})));
  // An unsatisfiable filter is covered by everything and covers nothing satisfiable.
  Filter none = filter({pred("x", "<", 1), pred("x", ">", 2)});
  EXPECT_FALSE(none.satisfiable());
  EXPECT_TRUE(filter({pred("y", "=", 0)}).covers(none));
  EXPECT_FALSE(none.covers(filter({pred("y", "=", 0)})));
}

TEST(Filter, OverlapExamples) {
  EXPECT_TRUE(filter({pred("x", ">", 1)}).overlaps(filter({pred("x", "<", 2)})));
  EXPECT_FALSE(filter({pred("x", "<", 1)}).overlaps(filter({pred("x", ">=", 1)})));
  EXPECT_TRUE(filter({pred("x", "<=", 1)}).overlaps(filter({pred("x", ">=", 1)})));
  EXPECT_FALSE(filter({pred("x", "=", 1)}).overlaps(filter({pred("x", "=", "1")})));
  EXPECT_TRUE(filter({pred("x", "=", 1)}).overlaps(filter({pred("y", "=", 2)})));
  EXPECT_FALSE(filter({pred("s", "prefix", "AB")}).overlaps(filter({pred("s", "prefix", "AC")})));
  EXPECT_TRUE(filter({pred("s", "prefix", "AB")}).overlaps(filter({pred("s", "<", "ABA")})));
  EXPECT_FALSE(filter({pred("s", "prefix", "AB")}).overlaps(filter({pred("s", "<", "AB")})));
  // No string lies strictly between "A" and "A\0"; no double strictly between 1 and its successor.
  EXPECT_FALSE(filter({pred("s", ">", "A"), pred("s", "<", std::string("A\0", 2))}).satisfiable());
  EXPECT_FALSE(
      filter({pred("x", ">", 1.0), pred("x", "<", std::nextafter(1.0, 2.0))}).satisfiable());
  EXPECT_TRUE(
      filter({pred("x", ">", 1.0), pred("x", "<=", std::nextafter(1.0, 2.0))}).satisfiable());
  EXPECT_FALSE(filter({pred("b", "=", true)}).overlaps(filter({pred("b", "!=", true)})));
}

// ---- brute force over sample records ----

struct Universe {
  std::vector<Value> values;  // candidate attribute values, absence added separately
  std::vector<Value> operands;
};

Universe small_universe() {
  Universe u;
  for (int i = -1; i <= 5; ++i) {
    u.values.push_back(Value(i));
    u.values.push_back(Value(i + 0.5));
  }
  std::vector<std::string> strings{""};
  std::string alphabet("\0ABC", 4);
  for (int length = 1; length <= 3; ++length) {
    std::size_t before = strings.size();
    for (std::size_t i = 0; i < before; ++i)
      if (strings[i].size() == static_cast<std::size_t>(length - 1))
        for (char c : alphabet)
          strings.push_back(strings[i] + c);
  }
  for (const auto& s : strings)
    u.values.push_back(Value(s));
  u.values.push_back(Value(true));
  u.values.push_back(Value(false));
  u.values.push_back(Value::array({1}));
  for (int i = 0; i <= 4; ++i)
    u.operands.push_back(Value(i));
  for (const char* s : {"", "A", "AB", "B", "BC"})
    u.operands.push_back(Value(s));
  u.operands.push_back(Value(true));
  return u;
}

Filter random_filter(std::mt19937& rng, const Universe& u) {
  static const char* kOps[] = {"=", "!=", "<", "<=", ">", ">=", "prefix", "exists", "between"};
  std::vector<Value> predicates;
  int count = std::uniform_int_distribution<int>(0, 3)(rng);
  for (int i = 0; i < count; ++i) {
    std::string attribute = rng() % 2 ? "a" : "b";
    std::string op = kOps[rng() % std::size(kOps)];
    auto operand = [&](bool strings_only, bool no_bool) {
      for (;;) {
        const Value& v = u.operands[rng() % u.operands.size()];
        if (strings_only && !v.is_string()) continue;
        if (no_bool && v.is_bool()) continue;
        return v;
      }
    };
    if (op == "exists") {
      predicates.push_back(Value::array({Value(attribute), Value(op)}));
    } else if (op == "between") {
      Value lo = operand(false, true), hi = operand(false, true);
      if (lo.is_string() != hi.is_string()) continue;
      predicates.push_back(Value::array({Value(attribute), Value(op), lo, hi}));
    } else {
      bool ordering = op != "=" && op != "!=";
      predicates.push_back(
          Value::array({Value(attribute), Value(op), operand(op == "prefix", ordering)}));
    }
  }
  return Filter::parse(Value::array(std::move(predicates)));
}

std::vector<Value> sample_records(const Universe& u) {
  std::vector<Value> records;
  std::vector<const Value*> choices{nullptr};
  for (const Value& v : u.values)
    choices.push_back(&v);
  for (const Value* a : choices)
    for (const Value* b : choices) {
      if (a && b)
        records.push_back(Value::record({{"a", *a}, {"b", *b}}));
      else if (a)
        records.push_back(Value::record({{"a", *a}}));
      else if (b)
        records.push_back(Value::record({{"b", *b}}));
      else
        records.push_back(Value::record({{"c", 0}}));
    }
  return records;
}

TEST(FilterProperty, CoveringAndOverlapAreExactOnSampleRecords) {
  Universe u = small_universe();
  std::vector<Value> records = sample_records(u);
  std::mt19937 rng(20261122);
  int covering_pairs = 0, overlapping_pairs = 0;
  for (int round = 0; round < 150; ++round) {
    Filter f1 = random_filter(rng, u), f2 = random_filter(rng, u);
    bool some_in_f2_not_f1 = false, some_in_both = false, some_in_f1 = false;
    for (const Value& r : records) {
      bool m1 = f1.matches(r), m2 = f2.matches(r);
      // The per-attribute sets agree with evaluating the predicates.
      bool by_sets = true;
      for (const auto& [name, values] : f1.constraints())
        by_sets = by_sets && values.contains(r.field(name));
      ASSERT_EQ(m1, by_sets) << f1.to_string() << " on " << r.to_json();
      some_in_f1 |= m1;
      some_in_f2_not_f1 |= m2 && !m1;
      some_in_both |= m1 && m2;
    }
    ASSERT_EQ(f1.satisfiable(), some_in_f1) << f1.to_string();
    ASSERT_EQ(f1.covers(f2), !some_in_f2_not_f1) << f1.to_string() << " covers " << f2.to_string();
    ASSERT_EQ(f1.overlaps(f2), some_in_both) << f1.to_string() << " overlaps " << f2.to_string();
    ASSERT_EQ(f1.overlaps(f2), f2.overlaps(f1));
    covering_pairs += f1.covers(f2);
    overlapping_pairs += f1.overlaps(f2);
  }
  // The generator must exercise both answers of both relations.
  EXPECT_GT(covering_pairs, 10);
  EXPECT_LT(covering_pairs, 140);
  EXPECT_GT(overlapping_pairs, 10);
  EXPECT_LT(overlapping_pairs, 140);
}

}  // namespace
}  // namespace cwf::pubsub
