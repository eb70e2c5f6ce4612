// Properties of the snapshot encoding over many random values, events and wave tags: what is
// written reads back as the same thing (kinds, bits of doubles, field lists, last flags and
// punctuations included), and every truncation of a valid snapshot is refused with a
// SnapshotError rather than read as something else.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {
namespace {

// Exactly the same value: Value's == finds 2 and 2.0 equal and NaN equal to NaN, which would hide
// an integer read back as a double or a double's bits changed.
::testing::AssertionResult same(const Value& a, const Value& b) {
  if (a.kind() != b.kind())
    return ::testing::AssertionFailure() << a.to_json() << " read back as " << b.to_json();
  switch (a.kind()) {
    case Kind::null:
      return ::testing::AssertionSuccess();
    case Kind::boolean:
      if (a.as_bool() == b.as_bool()) return ::testing::AssertionSuccess();
      break;
    case Kind::integer:
      if (a.as_int() == b.as_int()) return ::testing::AssertionSuccess();
      break;
    case Kind::real:
      if (std::bit_cast<std::uint64_t>(a.as_double()) ==
          std::bit_cast<std::uint64_t>(b.as_double()))
        return ::testing::AssertionSuccess();
      break;
    case Kind::string:
      if (a.as_string() == b.as_string()) return ::testing::AssertionSuccess();
      break;
    case Kind::array:
      if (a.as_array().size() != b.as_array().size()) break;
      for (std::size_t i = 0; i < a.as_array().size(); ++i)
        if (auto r = same(a.as_array()[i], b.as_array()[i]); !r) return r;
      return ::testing::AssertionSuccess();
    case Kind::record:
      if (a.schema() != b.schema()) break;  // interned: the same field list is the same pointer
      for (std::size_t i = 0; i < a.slots().size(); ++i)
        if (auto r = same(a.slots()[i], b.slots()[i]); !r) return r;
      return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << a.to_json() << " read back as " << b.to_json();
}

::testing::AssertionResult same(const WaveTag& a, const WaveTag& b) {
  // to_string shows the root, every index, every last flag and the punctuation mark.
  if (a == b && a.to_string() == b.to_string() && a.depth() == b.depth())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a.to_string() << " read back as " << b.to_string();
}

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  std::uint64_t below(std::uint64_t n) {
    return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(engine_);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(engine_); }
  std::uint64_t bits() { return engine_(); }

  // Small, large and extreme numbers alike.
  std::int64_t integer() {
    switch (below(4)) {
      case 0:
        return static_cast<std::int64_t>(below(200)) - 100;
      case 1:
        return static_cast<std::int64_t>(bits());
      case 2:
        return chance(0.5) ? std::numeric_limits<std::int64_t>::min()
                           : std::numeric_limits<std::int64_t>::max();
      default:
        return static_cast<std::int64_t>(bits() >> below(64));
    }
  }
  double real() {
    switch (below(5)) {
      case 0:
        return std::bit_cast<double>(bits());  // any bit pattern: NaNs, infinities, subnormals
      case 1:
        return std::numeric_limits<double>::quiet_NaN();
      case 2:
        return -0.0;
      default:
        return static_cast<double>(integer()) / 7.0;
    }
  }
  std::string text(std::size_t max_length) {
    std::string out(below(max_length + 1), '\0');
    for (char& c : out)
      c = static_cast<char>(below(256));  // any bytes, not only UTF-8
    return out;
  }
  std::string field_name() {
    static const char* const kCommon[] = {"seg", "speed", "xway", "time", "id", "", "lav"};
    return chance(0.7) ? std::string(kCommon[below(7)]) : text(20);
  }

  Value value(int depth) {
    const int kinds = depth >= 6 ? 5 : 7;  // scalars only beyond a few levels
    switch (below(kinds)) {
      case 0:
        return Value();
      case 1:
        return Value(chance(0.5));
      case 2:
        return Value(integer());
      case 3:
        return Value(real());
      case 4:
        return Value(text(chance(0.1) ? 5000 : 30));  // inline and heap strings
      case 5: {
        std::vector<Value> items(below(6));
        for (Value& item : items)
          item = value(depth + 1);
        return Value::array(std::move(items));
      }
      default: {
        std::vector<std::string> names;
        for (std::uint64_t n = below(6); names.size() < n;) {
          std::string name = field_name();
          if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        }
        std::vector<Value> slots(names.size());
        for (Value& slot : slots)
          slot = value(depth + 1);
        return Value::record(Schema::intern(names), std::move(slots));
      }
    }
  }

  // Inline tags (shallow, small indexes) and spilled ones (deep or wide), with punctuations.
  WaveTag wave_tag() {
    WaveTag wave(integer(), bits() >> below(64));
    const bool spill = chance(0.4);
    const int depth =
        static_cast<int>(spill && chance(0.5) ? below(WaveTag::kMaxDepth + 1) : below(14));
    for (int level = 0; level < depth; ++level) {
      const std::uint32_t index = spill && chance(0.3) ? static_cast<std::uint32_t>(bits())
                                                       : static_cast<std::uint32_t>(1 + below(255));
      wave = wave.child(index, chance(0.5));
    }
    return chance(0.2) ? wave.as_punctuation() : wave;
  }

  Event event() { return Event{value(0), integer(), wave_tag()}; }

 private:
  std::mt19937_64 engine_;
};

TEST(SnapshotRoundTrip, RandomValuesReadBackExactly) {
  Random random(19);
  std::vector<Value> values;
  for (int i = 0; i < 2000; ++i)
    values.push_back(random.value(0));
  SnapshotWriter out;
  for (const Value& value : values)
    out.write_value(value);
  SnapshotReader in(out.bytes());
  for (const Value& value : values)
    ASSERT_TRUE(same(value, in.read_value()));
  EXPECT_TRUE(in.at_end());
}

TEST(SnapshotRoundTrip, DeeplyNestedValuesReadBackExactly) {
  Random random(7);
  Value deep = Value(random.text(40));
  for (int level = 1; level < 256; ++level)  // 256 levels, the most a snapshot holds
    deep = level % 2 ? Value::array({deep, Value(level)})
                     : Value::record({{"inner", deep}, {"level", Value(level)}});
  SnapshotWriter out;
  out.write_value(deep);
  SnapshotReader in(out.bytes());
  EXPECT_TRUE(same(deep, in.read_value()));
}

TEST(SnapshotRoundTrip, RandomWaveTagsReadBackExactly) {
  Random random(42);
  int spilled = 0, punctuations = 0, deepest = 0;
  for (int i = 0; i < 3000; ++i) {
    const WaveTag wave = random.wave_tag();
    bool wide = false;
    for (int level = 1; level <= wave.depth(); ++level)
      wide = wide || wave.index(level) > WaveTag::kInlineIndexLimit;
    spilled += wave.depth() > WaveTag::kInlineLevels || wide;
    punctuations += wave.is_punctuation();
    deepest = std::max(deepest, wave.depth());
    SnapshotWriter out;
    out.write_wave_tag(wave);
    SnapshotReader in(out.bytes());
    ASSERT_TRUE(same(wave, in.read_wave_tag()));
    EXPECT_TRUE(in.at_end());
  }
  // The generator reached what it is meant to.
  EXPECT_GT(spilled, 500);
  EXPECT_GT(punctuations, 300);
  EXPECT_EQ(deepest, WaveTag::kMaxDepth);
}

TEST(SnapshotRoundTrip, RandomEventsInSectionsReadBackExactly) {
  Random random(2026);
  std::vector<std::vector<Event>> actors(20);
  for (auto& events : actors) {
    events.resize(random.below(50));
    for (Event& event : events)
      event = random.event();
  }
  SnapshotWriter out;
  for (std::size_t a = 0; a < actors.size(); ++a) {
    out.begin_section("actor:" + std::to_string(a));
    out.write_u64(actors[a].size());
    for (const Event& event : actors[a])
      out.write_event(event);
    out.end_section();
  }
  SnapshotReader in(out.bytes());
  for (std::size_t a = 0; a < actors.size(); ++a) {
    in.begin_section("actor:" + std::to_string(a));
    ASSERT_EQ(in.read_u64(), actors[a].size());
    for (const Event& event : actors[a]) {
      const Event back = in.read_event();
      ASSERT_TRUE(same(event.token, back.token));
      ASSERT_EQ(event.time, back.time);
      ASSERT_TRUE(same(event.wave, back.wave));
    }
    in.end_section();
  }
  in.expect_end();
}

TEST(SnapshotRoundTrip, PrimitivesReadBackExactly) {
  Random random(5);
  SnapshotWriter out;
  std::vector<std::uint64_t> unsigned_numbers;
  std::vector<std::int64_t> signed_numbers;
  std::vector<double> doubles;
  std::vector<std::string> texts;
  for (int i = 0; i < 500; ++i) {
    unsigned_numbers.push_back(random.bits() >> random.below(64));
    signed_numbers.push_back(random.integer());
    doubles.push_back(random.real());
    texts.push_back(random.text(300));
    out.write_u64(unsigned_numbers.back());
    out.write_i64(signed_numbers.back());
    out.write_double(doubles.back());
    out.write_bool(i % 3 == 0);
    out.write_string(texts.back());
    out.write_bytes(std::vector<std::uint8_t>(texts.back().begin(), texts.back().end()));
  }
  SnapshotReader in(out.bytes());
  for (int i = 0; i < 500; ++i) {
    ASSERT_EQ(in.read_u64(), unsigned_numbers[i]);
    ASSERT_EQ(in.read_i64(), signed_numbers[i]);
    ASSERT_EQ(std::bit_cast<std::uint64_t>(in.read_double()),
              std::bit_cast<std::uint64_t>(doubles[i]));
    ASSERT_EQ(in.read_bool(), i % 3 == 0);
    ASSERT_EQ(in.read_string(), texts[i]);
    ASSERT_EQ(in.read_bytes(), std::vector<std::uint8_t>(texts[i].begin(), texts[i].end()));
  }
  in.expect_end();
}

// A snapshot of two actors, one of them with a nested section, holding a bit of everything.
struct Sample {
  std::vector<Event> events;
  std::vector<std::uint8_t> bytes;
};

Sample sample() {
  Random random(11);
  Sample s;
  for (int i = 0; i < 6; ++i)
    s.events.push_back(random.event());
  s.events.push_back(Event{Value::record({{"seg", 3}, {"speed", 55.5}}), -5,
                           WaveTag(1, 2).child(300, true).as_punctuation()});
  SnapshotWriter out;
  out.begin_section("actor:a");
  out.write_u64(3);
  for (int i = 0; i < 3; ++i)
    out.write_event(s.events[i]);
  out.begin_section("window:in");
  out.write_string("group");
  out.write_double(2.5);
  out.end_section();
  out.end_section();
  out.begin_section("actor:b");
  for (std::size_t i = 3; i < s.events.size(); ++i)
    out.write_event(s.events[i]);
  out.write_bool(true);
  out.end_section();
  s.bytes = out.take_bytes();
  return s;
}

void read_sample(SnapshotReader& in, const Sample& s) {
  in.begin_section("actor:a");
  const std::uint64_t n = in.read_u64();
  for (std::uint64_t i = 0; i < n; ++i)
    in.read_event();
  in.begin_section("window:in");
  in.read_string();
  in.read_double();
  in.end_section();
  in.end_section();
  in.begin_section("actor:b");
  for (std::size_t i = 3; i < s.events.size(); ++i)
    in.read_event();
  in.read_bool();
  in.end_section();
  in.expect_end();
}

TEST(SnapshotTruncation, EveryTruncationIsRefused) {
  const Sample s = sample();
  {
    SnapshotReader whole(s.bytes);
    ASSERT_NO_THROW(read_sample(whole, s));
  }
  for (std::size_t length = 0; length < s.bytes.size(); ++length) {
    const std::span<const std::uint8_t> prefix(s.bytes.data(), length);
    SnapshotReader in(prefix);
    EXPECT_THROW(read_sample(in, s), SnapshotError) << "a prefix of " << length << " bytes";
  }
}

TEST(SnapshotTruncation, EveryTruncationOfAValueOrEventIsRefused) {
  Random random(3);
  for (int i = 0; i < 200; ++i) {
    const Event event = random.event();
    SnapshotWriter out;
    out.write_event(event);
    const std::span<const std::uint8_t> bytes = out.bytes();
    for (std::size_t length = 0; length < bytes.size(); ++length) {
      SnapshotReader in(bytes.first(length));
      EXPECT_THROW(in.read_event(), SnapshotError) << "a prefix of " << length << " bytes";
    }
  }
}

TEST(SnapshotCorruption, EverySingleByteChangeInsideASectionIsFound) {
  const Sample s = sample();
  // A changed byte is found by the checksum of its section, or by a header or name check when it
  // is in one; in no case is the snapshot read as if it were intact.
  for (std::size_t at = 0; at < s.bytes.size(); ++at) {
    std::vector<std::uint8_t> bytes = s.bytes;
    bytes[at] ^= 0x10;
    SnapshotReader in(bytes);
    EXPECT_THROW(read_sample(in, s), SnapshotError) << "byte " << at;
  }
}

}  // namespace
}  // namespace cwf
