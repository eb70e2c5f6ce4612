// The exact bytes of the snapshot encoding (runtime/snapshot/snapshot_format.hpp), so that the
// format of checkpoint files cannot drift unnoticed, and what a reader says about bytes that are
// not what a writer wrote.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes written(const std::function<void(SnapshotWriter&)>& write) {
  SnapshotWriter out;
  write(out);
  const auto bytes = out.bytes();
  return {bytes.begin(), bytes.end()};
}

// The message of the SnapshotError that `read` throws on `bytes`, or "" if it throws none.
std::string error_reading(const Bytes& bytes, const std::function<void(SnapshotReader&)>& read) {
  SnapshotReader in(bytes);
  try {
    read(in);
  } catch (const SnapshotError& e) {
    return e.what();
  }
  return "";
}

TEST(SnapshotEncoding, UnsignedIntegersAreShortestFormVarints) {
  EXPECT_EQ(written([](auto& w) { w.write_u64(0); }), (Bytes{0x00}));
  EXPECT_EQ(written([](auto& w) { w.write_u64(127); }), (Bytes{0x7f}));
  EXPECT_EQ(written([](auto& w) { w.write_u64(128); }), (Bytes{0x80, 0x01}));
  EXPECT_EQ(written([](auto& w) { w.write_u64(300); }), (Bytes{0xac, 0x02}));
  EXPECT_EQ(written([](auto& w) { w.write_u64(std::numeric_limits<std::uint64_t>::max()); }),
            (Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
}

TEST(SnapshotEncoding, SignedIntegersAreZigzagVarints) {
  EXPECT_EQ(written([](auto& w) { w.write_i64(0); }), (Bytes{0x00}));
  EXPECT_EQ(written([](auto& w) { w.write_i64(-1); }), (Bytes{0x01}));
  EXPECT_EQ(written([](auto& w) { w.write_i64(1); }), (Bytes{0x02}));
  EXPECT_EQ(written([](auto& w) { w.write_i64(-64); }), (Bytes{0x7f}));
  EXPECT_EQ(written([](auto& w) { w.write_i64(64); }), (Bytes{0x80, 0x01}));
  EXPECT_EQ(written([](auto& w) { w.write_i64(std::numeric_limits<std::int64_t>::min()); }),
            (Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
  EXPECT_EQ(written([](auto& w) { w.write_timestamp(100); }), (Bytes{0xc8, 0x01}));
}

TEST(SnapshotEncoding, DoublesBoolsStringsAndBlobs) {
  EXPECT_EQ(written([](auto& w) { w.write_double(1.0); }),
            (Bytes{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f}));
  EXPECT_EQ(written([](auto& w) { w.write_double(-0.0); }),
            (Bytes{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80}));
  EXPECT_EQ(written([](auto& w) { w.write_bool(true); }), (Bytes{0x01}));
  EXPECT_EQ(written([](auto& w) { w.write_bool(false); }), (Bytes{0x00}));
  EXPECT_EQ(written([](auto& w) { w.write_string("ab"); }), (Bytes{0x02, 'a', 'b'}));
  EXPECT_EQ(written([](auto& w) { w.write_bytes(Bytes{0x00, 0xff}); }), (Bytes{0x02, 0x00, 0xff}));
}

TEST(SnapshotEncoding, ValuesAreATagThenTheirContent) {
  EXPECT_EQ(written([](auto& w) { w.write_value(Value()); }), (Bytes{0x00}));
  EXPECT_EQ(written([](auto& w) { w.write_value(Value(false)); }), (Bytes{0x01}));
  EXPECT_EQ(written([](auto& w) { w.write_value(Value(true)); }), (Bytes{0x02}));
  EXPECT_EQ(written([](auto& w) { w.write_value(Value(5)); }), (Bytes{0x03, 0x0a}));
  EXPECT_EQ(written([](auto& w) { w.write_value(Value(0.5)); }),
            (Bytes{0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe0, 0x3f}));
  EXPECT_EQ(written([](auto& w) { w.write_value(Value("hi")); }), (Bytes{0x05, 0x02, 'h', 'i'}));
  EXPECT_EQ(written([](auto& w) {
              w.write_value(Value::array({1, "x"}));
            }),
            (Bytes{0x06, 0x02, 0x03, 0x02, 0x05, 0x01, 'x'}));
}

TEST(SnapshotEncoding, ARecordDefinesItsFieldListOnceAScope) {
  const Bytes bytes = written([](SnapshotWriter& w) {
    w.write_value(Value::record({{"a", 1}, {"b", Value()}}));
    w.write_value(Value::record({{"a", 2}, {"b", true}}));  // the same field list: its number
  });
  EXPECT_EQ(bytes, (Bytes{0x07, 0x02, 0x01, 'a', 0x01, 'b', 0x03, 0x02, 0x00,  //
                          0x08, 0x00, 0x03, 0x04, 0x02}));
}

TEST(SnapshotEncoding, AWaveTagIsItsRootFlagsAndLevels) {
  const WaveTag wave = WaveTag(100, 3).child(2, false).child(1, true);
  EXPECT_EQ(written([&](auto& w) { w.write_wave_tag(wave); }),
            (Bytes{0xc8, 0x01, 0x03, 0x00, 0x02, 0x04, 0x03}));
  EXPECT_EQ(written([&](auto& w) { w.write_wave_tag(wave.as_punctuation()); }),
            (Bytes{0xc8, 0x01, 0x03, 0x01, 0x02, 0x04, 0x03}));
  // A spilled tag (an index beyond what fits inline) is written the same way.
  EXPECT_EQ(written([](auto& w) { w.write_wave_tag(WaveTag(0, 1).child(300, true)); }),
            (Bytes{0x00, 0x01, 0x00, 0x01, 0xd9, 0x04}));
}

TEST(SnapshotEncoding, AnEventIsItsTokenTimeAndWave) {
  const Event event{Value(7), 100, WaveTag(100, 1)};
  EXPECT_EQ(written([&](auto& w) { w.write_event(event); }),
            (Bytes{0x03, 0x0e, 0xc8, 0x01, 0xc8, 0x01, 0x01, 0x00, 0x00}));
}

TEST(SnapshotEncoding, ASectionIsItsNameLengthChecksumAndBody) {
  const Bytes bytes = written([](SnapshotWriter& w) {
    w.begin_section("s");
    w.write_u64(7);
    w.end_section();
  });
  // CRC-32 of the body {0x07} is 0x4c667a2e.
  EXPECT_EQ(bytes, (Bytes{0x01, 's', 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //
                          0x2e, 0x7a, 0x66, 0x4c, 0x07}));
}

TEST(SnapshotEncoding, ASectionHasItsOwnFieldLists) {
  const Value record = Value::record({{"a", 1}});
  const Bytes bytes = written([&](SnapshotWriter& w) {
    w.write_value(record);
    w.begin_section("s");
    w.write_value(record);  // defined again: the section can be read without what precedes it
    w.end_section();
    w.write_value(record);  // the stream's definition again
  });
  const Bytes record_new = {0x07, 0x01, 0x01, 'a', 0x03, 0x02};
  Bytes expected = record_new;
  expected.insert(expected.end(), {0x01, 's', 0x06, 0, 0, 0, 0, 0, 0, 0});
  expected.insert(expected.end(), 4, 0);  // the checksum, checked by the reader below
  expected.insert(expected.end(), record_new.begin(), record_new.end());
  expected.insert(expected.end(), {0x08, 0x00, 0x03, 0x02});
  ASSERT_EQ(bytes.size(), expected.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i >= 16 && i < 20) continue;
    EXPECT_EQ(bytes[i], expected[i]) << "byte " << i;
  }
  SnapshotReader in(bytes);
  EXPECT_EQ(in.read_value(), record);
  in.begin_section("s");
  EXPECT_EQ(in.read_value(), record);
  in.end_section();
  EXPECT_EQ(in.read_value(), record);
  EXPECT_TRUE(in.at_end());
}

TEST(SnapshotEncoding, TheWriterRefusesAValueTheReaderWouldRefuse) {
  Value deep = Value(1);
  for (int i = 1; i < 256; ++i)
    deep = Value::array({deep});
  SnapshotWriter fits;
  fits.write_value(deep);  // 256 levels
  SnapshotReader in(fits.bytes());
  EXPECT_EQ(in.read_value(), deep);
  SnapshotWriter too_deep;
  EXPECT_THROW(too_deep.write_value(Value::array({deep})), SnapshotError);
}

TEST(SnapshotEncoding, TheBytesOfAnOpenSectionAreNotHandedOut) {
  SnapshotWriter out;
  out.begin_section("s");
  EXPECT_THROW((void)out.bytes(), std::logic_error);
  out.end_section();
  EXPECT_EQ(out.bytes().size(), 14u);
}

// ---- what the reader says about damaged bytes ----

TEST(SnapshotReaderErrors, ALengthBeyondTheBytesLeftNamesTheItemAndOffset) {
  EXPECT_EQ(error_reading({0x05, 0x05, 'a'}, [](auto& r) { r.read_value("the token"); }),
            "snapshot: cannot read the token at byte 1: it says 5 bytes, 1 byte is left");
  // A count of items is checked before anything is allocated for them.
  EXPECT_EQ(error_reading({0x06, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00},
                          [](auto& r) { r.read_value("the window"); }),
            "snapshot: cannot read the window at byte 1: it says 4294967295 items, 1 byte is left");
  EXPECT_EQ(error_reading({0x00, 0x00}, [](auto& r) { r.read_double("the rate"); }),
            "snapshot: cannot read the rate at byte 0: needs 8 bytes, 2 are left");
}

TEST(SnapshotReaderErrors, MalformedItemsAreRefused) {
  EXPECT_EQ(error_reading({0x80, 0x00}, [](auto& r) { r.read_u64("the count"); }),
            "snapshot: cannot read the count at byte 0: its varint is not in its shortest form");
  EXPECT_EQ(error_reading({0x80}, [](auto& r) { r.read_u64("the count"); }),
            "snapshot: cannot read the count at byte 0: the bytes end inside its varint");
  EXPECT_EQ(error_reading({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},
                          [](auto& r) { r.read_u64("the count"); }),
            "snapshot: cannot read the count at byte 0: its varint is larger than 64 bits");
  EXPECT_EQ(error_reading({0x02}, [](auto& r) { r.read_bool("the flag"); }),
            "snapshot: cannot read the flag at byte 0: a bool is 0 or 1, found 2");
  EXPECT_EQ(error_reading({0x09}, [](auto& r) { r.read_value(); }),
            "snapshot: cannot read a value at byte 0: unknown value tag 9");
  EXPECT_EQ(error_reading({0x08, 0x00, 0x00}, [](auto& r) { r.read_value(); }),
            "snapshot: cannot read a value at byte 1: it refers to field list 0, 0 are defined in "
            "this scope");
  EXPECT_EQ(error_reading({0x07, 0x02, 0x01, 'a', 0x01, 'a', 0x00, 0x00},
                          [](auto& r) { r.read_value(); }),
            "snapshot: cannot read a value at byte 0: a record cannot have two fields named 'a'");
  EXPECT_EQ(
      error_reading({0x07, 0x01, 0x01, 'a', 0x00, 0x07, 0x01, 0x01, 'a', 0x00},
                    [](auto& r) {
                      r.read_value();
                      r.read_value();
                    }),
      "snapshot: cannot read a value at byte 5: its field list is defined twice in one scope");
}

TEST(SnapshotReaderErrors, WaveTagsOutsideTheirLimitsAreRefused) {
  EXPECT_EQ(error_reading({0x00, 0x01, 0x02, 0x00}, [](auto& r) { r.read_wave_tag("the wave"); }),
            "snapshot: cannot read the wave at byte 2: unknown wave tag flags 2");
  EXPECT_EQ(error_reading({0x00, 0x01, 0x00, 0x41}, [](auto& r) { r.read_wave_tag("the wave"); }),
            "snapshot: cannot read the wave at byte 3: its depth 65 is beyond 64");
  EXPECT_EQ(error_reading({0x00, 0x01, 0x00, 0x01, 0x80, 0x80, 0x80, 0x80, 0x20},
                          [](auto& r) { r.read_wave_tag("the wave"); }),
            "snapshot: cannot read the wave at byte 4: a sub-wave index is larger than 32 bits");
}

TEST(SnapshotReaderErrors, ValuesNestedTooDeeplyAreRefused) {
  Bytes bytes;
  for (int i = 0; i < 257; ++i)
    bytes.insert(bytes.end(), {0x06, 0x01});
  bytes.push_back(0x00);
  EXPECT_EQ(error_reading(bytes, [](auto& r) { r.read_value(); }),
            "snapshot: cannot read a value at byte 512: values nest deeper than 256 levels");
}

Bytes two_sections() {
  return written([](SnapshotWriter& w) {
    w.begin_section("actor:tolls");
    w.begin_section("window:in");
    w.write_string("abc");
    w.end_section();
    w.end_section();
    w.begin_section("actor:sink");
    w.write_u64(42);
    w.end_section();
  });
}

TEST(SnapshotReaderErrors, AnErrorInsideASectionNamesTheSectionPath) {
  EXPECT_EQ(error_reading(two_sections(),
                          [](auto& r) {
                            r.begin_section("actor:tolls");
                            r.begin_section("window:in");
                            r.read_double("the rate");
                          }),
            "snapshot: cannot read the rate at byte 46 in section 'actor:tolls/window:in': needs 8 "
            "bytes, 4 are left");
}

TEST(SnapshotReaderErrors, ADamagedSectionIsNamedAndCanBeSkipped) {
  Bytes bytes = two_sections();
  bytes[47] ^= 0x01;  // the 'a' of "abc" in actor:tolls/window:in
  SnapshotReader in(bytes);
  try {
    // The checksum of a section covers the sections inside it: the outermost damaged one is named.
    in.begin_section("actor:tolls");
    FAIL() << "a damaged section was entered";
  } catch (const SnapshotError& e) {
    EXPECT_STREQ(e.what(),
                 "snapshot: cannot read section 'actor:tolls' at byte 24: its body does not match "
                 "its checksum");
  }
  EXPECT_EQ(in.skip_section(), "actor:tolls");
  // The damage of one actor's state does not touch the next one's.
  EXPECT_EQ(in.begin_any_section(), "actor:sink");
  EXPECT_EQ(in.read_u64(), 42u);
  in.end_section();
  in.expect_end();
}

TEST(SnapshotReaderErrors, ASectionThatDoesNotReadAsExpectedCanBeGivenUp) {
  const Bytes bytes = two_sections();
  SnapshotReader in(bytes);
  in.begin_section("actor:tolls");
  in.begin_section("window:in");
  EXPECT_THROW(in.read_double(), SnapshotError);  // the section holds a string
  in.abandon_section();
  in.abandon_section();
  EXPECT_EQ(in.open_sections(), 0);
  in.begin_section("actor:sink");
  EXPECT_EQ(in.read_u64(), 42u);
  in.end_section();
  in.expect_end();
}

TEST(SnapshotReaderErrors, ASectionOfAnotherNameOrNotReadToItsEndIsRefused) {
  EXPECT_EQ(error_reading(two_sections(), [](auto& r) { r.begin_section("actor:sink"); }),
            "snapshot: cannot read section 'actor:sink' at byte 0: found section 'actor:tolls' "
            "instead");
  EXPECT_EQ(error_reading(two_sections(),
                          [](auto& r) {
                            r.begin_section("actor:tolls");
                            r.end_section();
                          }),
            "snapshot: cannot read the end of section 'actor:tolls' at byte 24 in section "
            "'actor:tolls': 26 bytes of it were not read");
  EXPECT_EQ(error_reading(two_sections(), [](auto& r) { r.expect_end(); }),
            "snapshot: cannot read the end of the snapshot at byte 0: 74 bytes were not read");
}

TEST(SnapshotReaderErrors, ASectionLongerThanTheBytesLeftIsRefused) {
  Bytes bytes = two_sections();
  bytes.resize(30);
  EXPECT_EQ(error_reading(bytes, [](auto& r) { r.skip_section(); }),
            "snapshot: cannot read section 'actor:tolls' at byte 12: it says 26 bytes, 6 are left");
}

}  // namespace
}  // namespace cwf
