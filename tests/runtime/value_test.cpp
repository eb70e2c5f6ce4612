#include "runtime/values/value.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <unordered_set>
#include <vector>

namespace cwf {
namespace {

TEST(Value, ScalarsKeepTheirKindAndValue) {
  EXPECT_TRUE(Value().is_null());
  EXPECT_EQ(Value(true).as_bool(), true);
  EXPECT_EQ(Value(42).as_int(), 42);
  EXPECT_EQ(Value(std::int64_t{1} << 60).as_int(), std::int64_t{1} << 60);
  EXPECT_DOUBLE_EQ(Value(2.5).as_double(), 2.5);
  EXPECT_DOUBLE_EQ(Value(3).as_double(), 3.0);  // ints widen
  EXPECT_THROW((void)Value(2.5).as_int(), TypeError);
  EXPECT_THROW((void)Value("x").as_bool(), TypeError);
}

TEST(Value, ShortAndLongStringsBehaveTheSame) {
  Value small("fourteen chars");  // exactly the inline capacity
  Value large("a string that is longer than the inline capacity");
  EXPECT_EQ(small.as_string(), "fourteen chars");
  EXPECT_EQ(large.as_string(), "a string that is longer than the inline capacity");
  Value copy = large;
  EXPECT_EQ(copy.as_string().data(), large.as_string().data());  // shared, not copied
  EXPECT_EQ(Value("").as_string(), "");
  EXPECT_FALSE(Value("").truthy());
}

TEST(Value, ArraysAndRecordsShareTheirPayload) {
  Value a = Value::array({1, "two", 3.0});
  ASSERT_EQ(a.as_array().size(), 3u);
  EXPECT_EQ(a.as_array()[1].as_string(), "two");
  Value r = Value::record({{"seg", 12}, {"speed", 55.5}});
  ASSERT_NE(r.field("speed"), nullptr);
  EXPECT_DOUBLE_EQ(r.field("speed")->as_double(), 55.5);
  EXPECT_EQ(r.field("missing"), nullptr);
  EXPECT_EQ(r.schema()->slot("seg"), 0);
  Value r2 = Value::record({{"seg", 1}, {"speed", 2}});
  EXPECT_EQ(r.schema(), r2.schema());  // interned
}

TEST(Value, MovedFromIsNullAndCopiesSurviveTheOriginal) {
  Value copy;
  {
    Value a = Value::array({Value("a long string that lives on the heap"), 2});
    copy = a;
    Value moved = std::move(a);
    EXPECT_TRUE(a.is_null());  // NOLINT(bugprone-use-after-move): documented behaviour
  }
  EXPECT_EQ(copy.as_array()[0].as_string(), "a long string that lives on the heap");
}

TEST(Value, ASoleOwnerChangesARecordInPlaceASharerGetsItsOwnCopy) {
  Value owned = Value::record({{"seg", 1}, {"lav", -1}});
  const Value* before = owned.slots().data();
  owned.mutable_slots()[1] = Value(55);
  EXPECT_EQ(owned.slots().data(), before);  // no copy: nobody else could see the change
  EXPECT_EQ(owned.field("lav")->as_int(), 55);

  Value shared = owned;
  shared.mutable_slots()[1] = Value(60);
  EXPECT_NE(shared.slots().data(), owned.slots().data());
  EXPECT_EQ(owned.field("lav")->as_int(), 55);  // the other holder keeps the old slots
  EXPECT_EQ(shared.field("lav")->as_int(), 60);
  EXPECT_EQ(shared.schema(), owned.schema());
  EXPECT_THROW((void)Value(3).mutable_slots(), TypeError);
}

// borrowing_array (an expression actor's `window`): the items' counts are not touched, so a sole
// owner of an item still changes it in place while it is borrowed; a copy made during the borrow
// keeps the items once the borrow ends, after their owners are gone (checked under the
// sanitizers); a borrow nobody copied is freed without touching them.
TEST(Value, ABorrowingArrayTakesNoReferenceAndItsCopiesOutliveWhatItBorrowed) {
  Value copy;
  {
    Value first = Value::record({{"seg", 1}, {"lav", -1}});
    Value second("a long string that lives on the heap");
    const Value* items[] = {&first, &second, &first};
    Value borrowed = Value::borrowing_array(items);
    ASSERT_EQ(borrowed.as_array().size(), 3u);
    EXPECT_EQ(borrowed.as_array()[0], first);
    EXPECT_EQ(borrowed.as_array()[1].as_string(), "a long string that lives on the heap");
    const Value* slots = first.slots().data();
    first.mutable_slots()[1] = Value(40);  // still its sole owner: changed in place
    EXPECT_EQ(first.slots().data(), slots);
    EXPECT_EQ(borrowed.as_array()[2].field("lav")->as_int(), 40);
    copy = borrowed;
    borrowed.end_borrow();
    EXPECT_TRUE(borrowed.is_null());
  }
  ASSERT_EQ(copy.as_array().size(), 3u);
  EXPECT_EQ(copy.as_array()[0].field("lav")->as_int(), 40);
  EXPECT_EQ(copy.as_array()[1].as_string(), "a long string that lives on the heap");

  Value item = Value::record({{"seg", 2}});
  const Value* one[] = {&item};
  Value alone = Value::borrowing_array(one);
  alone.end_borrow();
  const Value* slots = item.slots().data();
  item.mutable_slots()[0] = Value(3);  // still its sole owner
  EXPECT_EQ(item.slots().data(), slots);
  Value none = Value::borrowing_array({});
  EXPECT_TRUE(none.as_array().empty());
  none.end_borrow();
}

// record_made and array_made (what expressions build records and arrays with) make each slot in
// place, in order; a slot that cannot be made releases the ones made before it (a leak or a
// double free here is reported under the sanitizers).
TEST(Value, RecordsAndArraysMadeInPlaceHoldWhatWasMadeAndReleaseItOnAnError) {
  const Schema* schema = Schema::intern({"a", "b", "c"});
  std::vector<std::size_t> order;
  Value record = Value::record_made(schema, [&](std::size_t i) {
    order.push_back(i);
    return i == 1 ? Value("a long string that lives on the heap") : Value(static_cast<int>(i));
  });
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(record.schema(), schema);
  EXPECT_EQ(record.to_json(), "{\"a\":0,\"b\":\"a long string that lives on the heap\",\"c\":2}");
  EXPECT_EQ(record,
            Value::record({{"a", 0}, {"b", "a long string that lives on the heap"}, {"c", 2}}));

  Value array = Value::array_made(2, [&](std::size_t i) {
    return Value::array({record, Value(int(i))});
  });
  EXPECT_EQ(array.to_json(), "[[" + record.to_json() + ",0],[" + record.to_json() + ",1]]");
  EXPECT_TRUE(Value::array_made(0, [](std::size_t) { return Value(1); }).as_array().empty());

  // The two copies made before the throw are released: `kept` is its payload's sole owner again,
  // so it changes its slots in place (a payload still shared would be copied first).
  Value kept = Value::record({{"n", 1}});
  const Value* slots = kept.slots().data();
  EXPECT_THROW(Value::record_made(schema,
                                  [&](std::size_t i) {
                                    if (i == 2) throw std::runtime_error("cannot make c");
                                    return kept;
                                  }),
               std::runtime_error);
  EXPECT_EQ(kept.mutable_slots().data(), slots);
}

TEST(Value, OrderIsTotalAndNumericAcrossIntAndDouble) {
  EXPECT_EQ(Value(2), Value(2.0));
  EXPECT_EQ(Value(2).hash(), Value(2.0).hash());
  EXPECT_LT(Value(1), Value(1.5));
  EXPECT_LT(Value(), Value(false));
  EXPECT_LT(Value(false), Value(0));
  EXPECT_LT(Value(99), Value("a"));
  EXPECT_LT(Value("a"), Value::array({}));
  EXPECT_LT(Value::array({1, 2}), Value::array({1, 3}));
  EXPECT_LT(Value::array({1}), Value::array({1, 0}));
  // Records with the same fields in another order are equal and hash equally.
  Value ab = Value::record({{"a", 1}, {"b", 2}});
  Value ba = Value::record({{"b", 2}, {"a", 1}});
  EXPECT_EQ(ab, ba);
  EXPECT_EQ(ab.hash(), ba.hash());
  std::unordered_set<Value, ValueHash> set{Value(1), Value(1.0), Value("1")};
  EXPECT_EQ(set.size(), 2u);
}

TEST(Value, JsonText) {
  Value r =
      Value::record({{"name", "a\"b"}, {"xs", Value::array({1, 2.5, nullptr, true})}, {"d", 3.0}});
  EXPECT_EQ(r.to_json(), R"({"name":"a\"b","xs":[1,2.5,null,true],"d":3.0})");
  EXPECT_EQ(Value(0.1).to_json(), "0.1");
  EXPECT_EQ(Value("plain").to_text(), "plain");
}

}  // namespace
}  // namespace cwf

namespace cwf {
namespace {

TEST(Value, DoublesPrintInShortestRoundTripForm) {
  EXPECT_EQ(Value(1000.0).to_json(), "1000.0");
  EXPECT_EQ(Value(20.0).to_json(), "20.0");
  EXPECT_EQ(Value(-0.5).to_json(), "-0.5");
  EXPECT_EQ(Value(1e21).to_json(), "1e+21");
  EXPECT_EQ(Value(1.0 / 3.0).to_json(), "0.3333333333333333");
}

}  // namespace
}  // namespace cwf

namespace cwf {
namespace {

TEST(Value, AnArraysHashCanBeComputedFromItsItems) {
  std::vector<Value> items{1, "two", 3.5, Value::array({4})};
  EXPECT_EQ(Value::hash_of_array(items), Value::array(items).hash());
  EXPECT_EQ(Value::hash_of_array({}), Value::array(std::vector<Value>{}).hash());
}

}  // namespace
}  // namespace cwf
