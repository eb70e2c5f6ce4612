// KeyedStates (the table of `fold` and `lookup`) against a plain map: after any sequence of
// states set, keys forgotten by a null state and keys forgotten as time moves past
// `forget_after`, the same keys hold the same states; a checkpoint restores the same table.
#include "actors/keyed_states.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {
namespace {

// Keys of three shapes: integers, strings and arrays (as `[/xway, /dir, /seg]` makes them).
Value key_of(std::uint64_t n) {
  switch (n % 3) {
    case 0:
      return Value(static_cast<std::int64_t>(n));
    case 1:
      return Value("car " + std::to_string(n));
    default:
      return Value::array(
          {Value(static_cast<std::int64_t>(n / 10)), Value(static_cast<std::int64_t>(n % 10))});
  }
}

struct Expected {
  Value state;
  Timestamp latest;
};

void expect_same(KeyedStates& table, const std::map<std::uint64_t, Expected>& expected,
                 std::uint64_t keys, const std::string& where) {
  ASSERT_EQ(table.size(), expected.size()) << where;
  for (std::uint64_t n = 0; n < keys; ++n) {
    KeyedStates::Entry* entry = table.find(key_of(n));
    auto it = expected.find(n);
    if (it == expected.end()) {
      ASSERT_EQ(entry, nullptr) << where << ", key " << n;
    } else {
      ASSERT_NE(entry, nullptr) << where << ", key " << n;
      ASSERT_EQ(entry->state, it->second.state) << where << ", key " << n;
      ASSERT_EQ(entry->latest, it->second.latest) << where << ", key " << n;
    }
  }
}

TEST(KeyedStates, HoldsWhatAPlainMapHoldsAfterAnySetsForgetsAndTime) {
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    std::mt19937_64 rng(seed);
    const std::uint64_t keys = seed % 2 ? 40 : 3000;  // dense reuse of slots, or many keys
    const Duration forget_after = seed % 3 == 0 ? 0 : 50;
    KeyedStates table(forget_after);
    std::map<std::uint64_t, Expected> expected;
    Timestamp now = 0;
    for (int op = 0; op < 6000; ++op) {
      now += static_cast<Timestamp>(rng() % 3);
      table.advance(now);
      if (forget_after > 0)
        std::erase_if(expected,
                      [&](const auto& entry) { return entry.second.latest <= now - forget_after; });
      const std::uint64_t n = rng() % keys;
      const Value key = key_of(n);
      KeyedStates::Entry* entry = table.find(key);
      auto it = expected.find(n);
      ASSERT_EQ(entry != nullptr, it != expected.end()) << "seed " << seed << ", op " << op;
      if (rng() % 5 == 0) {
        table.set(key, Value(), now, entry);  // a null state forgets the key
        expected.erase(n);
      } else {
        Value state(static_cast<std::int64_t>(rng() % 1000));
        table.set(key, state, now, entry);
        expected[n] = {state, now};
      }
      if (op % 211 == 0) expect_same(table, expected, keys, "seed " + std::to_string(seed));
    }
    expect_same(table, expected, keys, "seed " + std::to_string(seed));

    SnapshotWriter out;
    table.save(out);
    KeyedStates restored(forget_after);
    SnapshotReader in(out.bytes());
    restored.restore(in);
    expect_same(restored, expected, keys, "restored, seed " + std::to_string(seed));
    // Saved again, the restored table writes the same bytes.
    SnapshotWriter again;
    restored.save(again);
    EXPECT_EQ(again.take_bytes(), out.take_bytes());
  }
}

TEST(KeyedStates, ACheckpointWithAKeyWrittenTwiceIsRefused) {
  SnapshotWriter out;
  out.write_bool(true);
  out.write_timestamp(5);
  out.write_u64(2);
  for (int i = 0; i < 2; ++i) {
    out.write_value(Value(7));
    out.write_value(Value(i));
    out.write_timestamp(5);
  }
  KeyedStates table;
  SnapshotReader in(out.bytes());
  EXPECT_THROW(table.restore(in), SnapshotError);
}

}  // namespace
}  // namespace cwf::actors
