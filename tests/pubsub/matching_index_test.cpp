// The matching index finds exactly the filters a linear scan finds, through additions and
// removals, for every operator and kind of value.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "actors/pubsub/matching_index.hpp"

namespace cwf::pubsub {
namespace {

Value random_operand(std::mt19937& rng, bool numbers_or_strings) {
  switch (rng() % (numbers_or_strings ? 3 : 4)) {
    case 0:
      return Value(static_cast<int>(rng() % 6));
    case 1:
      return Value(static_cast<int>(rng() % 12) * 0.5);
    case 2: {
      static const char* kStrings[] = {"", "A", "AB", "ABC", "B", "BA"};
      return Value(kStrings[rng() % std::size(kStrings)]);
    }
    default:
      return Value(rng() % 2 == 0);
  }
}

Filter random_filter(std::mt19937& rng) {
  static const char* kOps[] = {"=", "=", "!=", "<", "<=", ">", ">=", "prefix", "exists", "between"};
  static const char* kAttributes[] = {"a", "b", "c"};
  std::vector<Value> predicates;
  int count = std::uniform_int_distribution<int>(0, 3)(rng);
  while (static_cast<int>(predicates.size()) < count) {
    Value attribute(kAttributes[rng() % 3]);
    std::string op = kOps[rng() % std::size(kOps)];
    if (op == "exists") {
      predicates.push_back(Value::array({attribute, Value(op)}));
    } else if (op == "between") {
      Value lo = random_operand(rng, true), hi = random_operand(rng, true);
      if (lo.is_string() == hi.is_string())
        predicates.push_back(Value::array({attribute, Value(op), lo, hi}));
    } else if (op == "prefix") {
      Value s = random_operand(rng, true);
      if (s.is_string()) predicates.push_back(Value::array({attribute, Value(op), s}));
    } else {
      Value v = random_operand(rng, op != "=" && op != "!=");
      predicates.push_back(Value::array({attribute, Value(op), v}));
    }
  }
  return Filter::parse(Value::array(std::move(predicates)));
}

Value random_publication(std::mt19937& rng) {
  std::vector<std::pair<std::string_view, Value>> fields;
  for (std::string_view name : {"a", "b", "c", "d"})
    if (rng() % 4 != 0) fields.emplace_back(name, random_operand(rng, false));
  if (rng() % 8 == 0) fields.emplace_back("a2", Value());
  // Records with the same fields in different orders have different schemas.
  std::shuffle(fields.begin(), fields.end(), rng);
  std::vector<std::string> names;
  std::vector<Value> values;
  for (auto& [n, v] : fields) {
    names.emplace_back(n);
    values.push_back(v);
  }
  return Value::record(Schema::intern(names), std::move(values));
}

TEST(MatchingIndex, FindsExactlyWhatAScanFinds) {
  std::mt19937 rng(7);
  MatchingIndex index;
  std::map<MatchingIndex::Id, Filter> live;
  MatchingIndex::Id next = 0;
  std::size_t matches_seen = 0;
  for (int step = 0; step < 3000; ++step) {
    unsigned what = rng() % 10;
    if (what < 4 || live.empty()) {
      Filter f = random_filter(rng);
      index.add(next, f);
      live.emplace(next++, std::move(f));
    } else if (what < 6) {
      auto at = live.begin();
      std::advance(at, rng() % live.size());
      index.remove(at->first);
      live.erase(at);
    } else {
      Value publication = random_publication(rng);
      std::vector<MatchingIndex::Id> found, expected;
      index.match(publication, found);
      for (const auto& [id, f] : live)
        if (f.matches(publication)) expected.push_back(id);
      std::sort(found.begin(), found.end());
      ASSERT_EQ(found, expected) << publication.to_json();
      matches_seen += found.size();
    }
    ASSERT_EQ(index.size(), live.size());
  }
  EXPECT_GT(matches_seen, 1000u);  // the workload matches often enough to mean something
}

TEST(MatchingIndex, RangesAtTheEndsOfTheNumberLine) {
  MatchingIndex index;
  auto parse = [](std::string_view op, Value v) {
    return Filter::parse(Value::array({Value::array({Value("x"), Value(op), std::move(v)})}));
  };
  double inf = std::numeric_limits<double>::infinity();
  index.add(1, parse(">", 5));
  index.add(2, parse("<", -inf));  // matches nothing
  index.add(3, parse("<=", inf));
  index.add(4, parse(">", inf));  // only NaN, which the engine orders above every number
  auto match = [&](Value x) {
    std::vector<MatchingIndex::Id> out;
    index.match(Value::record({{"x", std::move(x)}}), out);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(match(6), (std::vector<MatchingIndex::Id>{1, 3}));
  EXPECT_EQ(match(-inf), (std::vector<MatchingIndex::Id>{3}));
  EXPECT_EQ(match(std::nan("")), (std::vector<MatchingIndex::Id>{1, 4}));
  EXPECT_EQ(match("6"), (std::vector<MatchingIndex::Id>{}));
  index.remove(1);
  EXPECT_EQ(match(6), (std::vector<MatchingIndex::Id>{3}));
  EXPECT_THROW(index.add(3, Filter()), std::invalid_argument);
}

}  // namespace
}  // namespace cwf::pubsub
