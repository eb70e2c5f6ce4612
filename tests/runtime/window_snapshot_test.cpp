// Window state in checkpoints: a windowed receiver fed the first part of a stream, snapshotted
// and restored into a receiver freshly built from the same spec, hands out exactly the windows
// (events, time, interval, group, arrival numbers), expiries, late counts and wake-up requests
// that the original does on the rest of the stream — for every kind of step and size, group-by,
// delete_used, the formation timeout, suppress_empty and late events, at every cut point of
// random streams. Damaged snapshots are refused with a SnapshotError.
#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "runtime/execution/receiver.hpp"
#include "runtime/execution/windowed_receiver.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "tests/sanitizer_build.hpp"
#include "window_harness.hpp"
#include "window_streams.hpp"

namespace cwf {
namespace {

using testing::apply;
using testing::build;
using testing::describe;
using testing::every_kind;
using testing::Ints;
using testing::ints;
using testing::Kind;
using testing::Op;
using testing::random_stream;
using testing::Recorder;
using testing::restore_from;
using testing::snapshot_of;
using testing::window;
using testing::WindowHarness;

// Runs `ops` through one receiver, and through another that is snapshotted after `cut` ops and
// restored into a third; the original and the restored one then get the rest.
void check_cut(const Kind& kind, const std::vector<Op>& ops, std::size_t cut,
               const std::string& context) {
  auto original = build(kind);
  for (std::size_t i = 0; i < cut; ++i)
    apply(*original, ops[i]);
  std::vector<std::uint8_t> bytes = snapshot_of(*original);
  auto restored = build(kind);
  restore_from(*restored, bytes);
  ASSERT_EQ(snapshot_of(*restored), bytes) << context << ": restoring is not exact";
  ASSERT_EQ(restored->buffered(), original->buffered()) << context;
  original->log.clear();
  for (std::size_t i = cut; i < ops.size(); ++i) {
    apply(*original, ops[i]);
    apply(*restored, ops[i]);
  }
  ASSERT_EQ(restored->log, original->log) << context;
  ASSERT_EQ(snapshot_of(*restored), snapshot_of(*original)) << context;
}

TEST(WindowSnapshot, RestoredReceiversContinueExactlyAsTheOriginalAtEveryCut) {
  // Every cut of every stream is a restore and a replay: quadratic, so one stream per kind and
  // every third cut under the sanitizers (every cut of one stream per kind took 76 s under
  // AddressSanitizer), six streams and every cut in the regular build.
  const std::uint32_t seeds = testing::kSanitizerBuild ? 1 : 6;
  std::size_t windows = 0, round = 0;
  for (const Kind& kind : every_kind()) {
    const bool waves = kind.spec().uses_waves();
    for (std::uint32_t seed = 1; seed <= seeds; ++seed, ++round) {
      std::vector<Op> ops = random_stream(seed, waves, kind.two_producers);
      for (std::size_t cut : testing::sampled_positions(round, ops.size())) {
        check_cut(kind, ops, cut,
                  kind.name() + ", seed " + std::to_string(seed) + ", cut " + std::to_string(cut));
        if (::testing::Test::HasFatalFailure()) return;
      }
      auto whole = build(kind);
      for (const Op& op : ops)
        apply(*whole, op);
      for (const std::string& line : whole->log)
        windows += line.starts_with("window");
    }
  }
  // The streams make windows (the property is not checked on nothing): over a thousand a stream.
  EXPECT_GT(windows, 1000u * seeds);
}

// The streams reach the states the property is about: windows ready at the cut, deadlines
// pending, late events, expiries, events deleted as used.
TEST(WindowSnapshot, TheRandomStreamsReachEveryKindOfState) {
  int late = 0, expired = 0, wakes = 0, ready_at_cut = 0;
  for (const Kind& kind : every_kind()) {
    std::vector<Op> ops = random_stream(3, kind.spec().uses_waves(), kind.two_producers);
    auto r = build(kind);
    for (const Op& op : ops) {
      if (op.kind == Op::take && r->has_window()) ++ready_at_cut;
      apply(*r, op);
    }
    for (const std::string& line : r->log) {
      late += line == "late";
      expired += line.starts_with("expired");
      wakes += line.starts_with("wake");
    }
  }
  EXPECT_GT(late, 50);
  EXPECT_GT(expired, 200);
  EXPECT_GT(wakes, 50);
  EXPECT_GT(ready_at_cut, 200);
}

// ---- by hand: the windows after a restore, with the values the window tests expect ----------

constexpr Timestamp kMin = 60 * kSecond;

std::unique_ptr<WindowHarness> restored_copy(const WindowHarness& from) {
  auto to = std::make_unique<WindowHarness>(from.spec());
  restore_from(*to, snapshot_of(from));
  return to;
}

// The seed's Figure 9 (window_time_test): size 5 min, step 1 min, delete used, "at least two
// events"; a at 0, b at 6, c at 8. Cut after b arrived, before the receiver advanced.
TEST(WindowSnapshot, Figure9AcrossARestore) {
  WindowSpec spec = window("5 min", "1 min");
  spec.delete_used = true;
  WindowHarness before(spec);
  before.push("a", 0);
  before.advance(0, false);
  before.advance(1 * kMin, false);
  before.push("b", 6 * kMin);
  auto w = restored_copy(before);
  auto two_or_more = [](std::span<const Event> events) { return events.size() >= 2; };
  EXPECT_EQ(w->at(6 * kMin, false, two_or_more), (std::vector<std::vector<Value>>{{"a"}, {}}));
  EXPECT_EQ(w->expired_tokens(), (std::vector<Value>{"a"}));
  w->push("c", 8 * kMin);
  EXPECT_EQ(w->at(8 * kMin, false, two_or_more), (std::vector<std::vector<Value>>{{"b"}, {"b"}}));
  // [4, 9) = {b, c} closes at its formation timeout, 9 + 5 min, with no event after it: the
  // clock offset learned before the cut still holds.
  EXPECT_TRUE(w->at(13 * kMin, false, two_or_more).empty());
  EXPECT_EQ(w->at(14 * kMin, false, two_or_more).front(), (std::vector<Value>{"b", "c"}));
}

// A deadline armed before the cut closes the window after it, without a new event.
TEST(WindowSnapshot, AFormationTimeoutArmedBeforeTheCutFiresAfterIt) {
  WindowHarness before(window("10 ns", "10 ns"));
  before.push(1, 1);
  before.push(3, 3);
  EXPECT_TRUE(before.at(3).empty());
  auto w = restored_copy(before);
  EXPECT_TRUE(w->at(19).empty());  // the window [0, 10) closes at 10 + 10 on the clock
  EXPECT_EQ(ints(w->at(20)), (Ints{{1, 3}}));
  EXPECT_EQ(w->times, (std::vector<Timestamp>{10}));
}

// Order 1 has three items; two arrived before the cut (one of them through a punctuation).
TEST(WindowSnapshot, AWaveHalfDeliveredAtTheCutCompletesAfterIt) {
  WindowHarness before(window("1 wave", "1 wave"));
  WaveTag order(1, 1);
  before.push(11, 1, order.child(1, false));
  before.push(Value(), 1, order.child(2, false).as_punctuation());
  before.push(21, 2, WaveTag(2, 2).child(1, true));  // order 2 is complete, but after order 1
  EXPECT_TRUE(before.at(2).empty());
  EXPECT_EQ(before.open_waves(), 2u);
  auto w = restored_copy(before);
  EXPECT_EQ(w->open_waves(), 2u);
  w->push(13, 1, order.child(3, true));
  EXPECT_EQ(ints(w->at(3)), (Ints{{11, 13}, {21}}));
  EXPECT_EQ(w->open_waves(), 0u);
  EXPECT_EQ(w->wave_records(), 0u);
}

// Groups keep their indexes and keys; a new key after the restore gets the next index.
TEST(WindowSnapshot, GroupsKeepTheirIndexesAndKeys) {
  WindowSpec spec = window("2 tokens", "2 tokens");
  spec.group_by = {"/k"};
  Recorder before(spec);
  before.push(Event{Value::record({{"k", "x"}, {"v", 1}}), 1, WaveTag(1, 1)});
  before.push(Event{Value::record({{"k", "y"}, {"v", 2}}), 2, WaveTag(2, 2)});
  before.push(Event{Value::record({{"k", "x"}, {"v", 3}}), 3, WaveTag(3, 3)});
  before.advance(3, false);  // x's window is ready and waits at the cut
  Recorder after(spec);
  restore_from(after, snapshot_of(before));
  after.push(Event{Value::record({{"k", "z"}, {"v", 5}}), 4, WaveTag(4, 4)});
  after.push(Event{Value::record({{"k", "y"}, {"v", 4}}), 5, WaveTag(5, 5)});
  after.push(Event{Value::record({{"k", "z"}, {"v", 6}}), 6, WaveTag(6, 6)});
  after.advance(6, false);
  after.take();
  // Each window is used, not deleted: its events leave as expired after it.
  EXPECT_EQ(after.log, (std::vector<std::string>{
                           R"(window g0 key "x" t3 first 0 contiguous wave 3#3 )"
                           R"({"k":"x","v":1}@1/1#1#0 {"k":"x","v":3}@3/3#3#1)",
                           R"(expired {"k":"x","v":1}@1/1#1)",
                           R"(expired {"k":"x","v":3}@3/3#3)",
                           R"(window g1 key "y" t5 first 0 contiguous wave 5#5 )"
                           R"({"k":"y","v":2}@2/2#2#0 {"k":"y","v":4}@5/5#5#1)",
                           R"(expired {"k":"y","v":2}@2/2#2)",
                           R"(expired {"k":"y","v":4}@5/5#5)",
                           R"(window g2 key "z" t6 first 0 contiguous wave 6#6 )"
                           R"({"k":"z","v":5}@4/4#4#0 {"k":"z","v":6}@6/6#6#1)",
                           R"(expired {"k":"z","v":5}@4/4#4)",
                           R"(expired {"k":"z","v":6}@6/6#6)",
                       }));
  EXPECT_EQ(after.groups(), 3u);
}

// Late bounds survive: an event behind a window that closed before the cut is late after it.
TEST(WindowSnapshot, LateBoundsSurvive) {
  WindowHarness before(window("10 ns", "10 ns"));
  before.push(1, 1);
  before.push(12, 12);
  EXPECT_EQ(ints(before.at(12)), (Ints{{1}}));
  auto w = restored_copy(before);
  w->push(5, 5);
  EXPECT_EQ(w->late, 1);
  w->push(15, 15);
  EXPECT_EQ(ints(w->end()), (Ints{{12, 15}}));
}

// delete_used and expiry across the cut: used events never come back, expired ones leave once.
TEST(WindowSnapshot, UsedEventsStayDeletedAndExpiredOnesLeaveOnce) {
  WindowSpec spec = window("3 tokens", "1 token");
  spec.delete_used = true;
  WindowHarness before(spec);
  before.push_range(0, 4);
  auto odd_first = [](std::span<const Event> events) { return events.front().token.as_int() % 2; };
  // {0, 1, 2} is declined, {1, 2, 3} used up; 0 can be in no later window.
  EXPECT_EQ(ints(before.at(0, false, odd_first)), (Ints{{0, 1, 2}, {1, 2, 3}}));
  EXPECT_EQ(ints(before.expired_tokens()), (std::vector<int>{0}));
  auto w = restored_copy(before);
  w->push_range(4, 6);
  // Windows 2, 3 and 4 start at arrivals 2, 3 and 4: each holds what is left of them, 4 and 5,
  // which is not three tokens before the end.
  EXPECT_TRUE(w->at(0, false, odd_first).empty());
  EXPECT_EQ(ints(w->end(odd_first)), (Ints{{4, 5}, {4, 5}, {4, 5}, {5}}));
  EXPECT_EQ(ints(w->expired_tokens()), (std::vector<int>{4}));  // 0 left before the cut
}

// ---- FIFO receivers -----------------------------------------------------------------------

// Fed through a producer's handle and drained, as a cell does.
class FifoRecorder {
 public:
  void push(Event event) {
    receiver.enqueue(std::move(event), *producer);
    receiver.drain();
  }
  std::vector<std::string> take() {
    std::vector<std::string> out;
    while (receiver.has_window()) {
      Window w = receiver.front_window();
      out.push_back(describe(w.events[0]) + "#" + std::to_string(w.first_seq));
      receiver.finish_window(true, true);
    }
    return out;
  }

  FifoReceiver receiver;
  std::unique_ptr<ReceiverProducer> producer = receiver.make_producer();
};

TEST(WindowSnapshot, AFifoReceiverKeepsItsEventsAndArrivalNumbers) {
  FifoRecorder before;
  for (int i = 0; i < 5; ++i)
    before.push(Event{i, i, WaveTag(i, static_cast<std::uint64_t>(i) + 1)});
  EXPECT_EQ(before.take().size(), 5u);
  before.push(Event{5, 5, WaveTag(5, 6)});
  before.push(Event{6, 6, WaveTag(6, 7)});
  FifoRecorder after;
  restore_from(after.receiver, snapshot_of(before.receiver));
  EXPECT_EQ(after.receiver.buffered(), 2u);
  after.push(Event{7, 7, WaveTag(7, 8)});
  EXPECT_EQ(after.take(), (std::vector<std::string>{"5@5/5#6#5", "6@6/6#7#6", "7@7/7#8#7"}));
}

// Wave windows drain their producers in turn, starting with a different one each time: where
// the next drain starts is state too, and only fits a port with as many producers.
TEST(WindowSnapshot, TheProducerDrainedFirstIsKeptAndMustExist) {
  // A drain cut short by its budget (here a FIFO queue that takes in one event beyond what it
  // holds) starts the next one after the producer it stopped at.
  auto wired = [](int producers) {
    auto r = std::make_unique<FifoReceiver>();
    r->set_intake_limit(1);
    std::vector<std::unique_ptr<ReceiverProducer>> handles;
    for (int i = 0; i < producers; ++i)
      handles.push_back(r->make_producer());
    return std::make_pair(std::move(r), std::move(handles));
  };
  auto [before, before_handles] = wired(3);
  before->enqueue(Event{0, 1, WaveTag(1, 1)}, *before_handles[0]);
  before->enqueue(Event{1, 1, WaveTag(1, 2)}, *before_handles[1]);
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(before->drain(), 1u);
    before->front_window();
    before->finish_window(true, true);
  }
  // The second drain took producer 1's event and stopped at its budget: the next starts with 2.
  std::vector<std::uint8_t> bytes = snapshot_of(*before);
  auto [after, after_handles] = wired(3);
  restore_from(*after, bytes);
  EXPECT_EQ(snapshot_of(*after), bytes);
  auto [fewer, fewer_handles] = wired(2);
  EXPECT_THROW(restore_from(*fewer, bytes), SnapshotError);
  // Events still in the inbox would be lost: no snapshot then.
  before->enqueue(Event{1, 1, WaveTag(1, 1)}, *before_handles[0]);
  SnapshotWriter out;
  EXPECT_THROW(before->snapshot(out), std::logic_error);
}

// ---- damage ------------------------------------------------------------------------------------

// A receiver whose snapshot holds every part: groups with keys, a ready window, deadlines,
// waves in progress from two producers.
std::vector<std::uint8_t> rich_state(const Kind& kind) {
  auto r = build(kind);
  std::vector<Op> ops = random_stream(7, kind.spec().uses_waves(), kind.two_producers);
  for (std::size_t i = 0; i < ops.size() / 2; ++i)
    apply(*r, ops[i]);
  r->advance(ops[ops.size() / 2].now, false);  // windows ready, not taken
  SnapshotWriter out;
  r->snapshot(out);
  return out.take_bytes();
}

TEST(WindowSnapshot, ATruncatedStateIsASnapshotError) {
  for (const Kind& kind : {Kind{"2 waves", "1 wave", {"/k"}, false, 1.0, false, true},
                           Kind{"10 ns", "5 ns", {"/k"}, true}, Kind{"3 tokens", ""}}) {
    std::vector<std::uint8_t> bytes = rich_state(kind);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      std::span<const std::uint8_t> part(bytes.data(), n);
      SnapshotReader in(part);
      auto r = build(kind);
      EXPECT_THROW(r->restore(in), SnapshotError) << kind.name() << ", " << n << " bytes";
    }
  }
}

// Any single changed byte is either refused with a SnapshotError or read as some other state the
// receiver can be in; it never crashes the reader or throws anything else.
TEST(WindowSnapshot, AChangedByteIsRefusedOrReadNeverACrash) {
  int refused = 0;
  for (const Kind& kind : {Kind{"2 waves", "1 wave", {"/k"}, false, 1.0, false, true},
                           Kind{"10 ns", "5 ns", {"/k"}, true}, Kind{"3 tokens", "", {"/k"}}}) {
    std::vector<std::uint8_t> bytes = rich_state(kind);
    for (std::size_t at = 0; at < bytes.size(); ++at)
      for (std::uint8_t flip : {0x01, 0x80, 0xff}) {
        std::vector<std::uint8_t> damaged = bytes;
        damaged[at] ^= flip;
        SnapshotReader in(damaged);
        auto r = build(kind);
        try {
          r->restore(in);
          in.expect_end();
        } catch (const SnapshotError&) {
          ++refused;
        }
      }
  }
  EXPECT_GT(refused, 0);
}

TEST(WindowSnapshot, ADamagedSectionIsASnapshotError) {
  Kind kind{"1 wave", "1 wave"};
  auto r = build(kind);
  for (const Op& op : random_stream(2, true, false))
    apply(*r, op);
  std::vector<std::uint8_t> bytes = snapshot_of(*r);
  bytes[bytes.size() - 2] ^= 0x10;  // inside the body: the checksum does not match
  EXPECT_THROW(restore_from(*build(kind), bytes), SnapshotError);
  bytes.resize(bytes.size() - 3);  // cut short
  EXPECT_THROW(restore_from(*build(kind), bytes), SnapshotError);
}

// What does not fit is refused even with a valid checksum: a ready window in a group that has
// none, a wave ordinal without its record.
TEST(WindowSnapshot, AStateThatCannotBeIsASnapshotError) {
  WindowHarness w(window("1 wave", "1 wave"));
  w.push(11, 1, WaveTag(1, 1).child(1, true));
  SnapshotWriter good;
  w.snapshot(good);
  std::vector<std::uint8_t> bytes = good.take_bytes();
  // The wave record count is the byte before the record (time 1 -> zigzag 2, sequence 1,
  // complete): find "01 02 01 01" and say there are no records.
  bool changed = false;
  for (std::size_t i = 0; i + 4 <= bytes.size() && !changed; ++i)
    if (bytes[i] == 1 && bytes[i + 1] == 2 && bytes[i + 2] == 1 && bytes[i + 3] == 1 &&
        i + 4 < bytes.size()) {
      // [count=1][time=2][seq=1][complete=1] -> the entry before it is the base ordinal 0.
      if (i > 0 && bytes[i - 1] == 0) {
        bytes[i] = 0;
        bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                    bytes.begin() + static_cast<std::ptrdiff_t>(i) + 4);
        changed = true;
      }
    }
  ASSERT_TRUE(changed);
  SnapshotReader in(bytes);
  WindowHarness r(window("1 wave", "1 wave"));
  try {
    r.restore(in);
    FAIL() << "restored a queued event without its wave";
  } catch (const SnapshotError& e) {
    EXPECT_NE(std::string(e.what()).find("has no wave record"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cwf
