// A port's window reshaped while it runs (WindowedReceiver::reshape; the administrator of seed 002
// changes a window's period while the workflow runs, l.547-556): every group keeps its queue, the
// window being formed keeps its place and takes the new size, the windows after it follow the new
// step; what left does not come back. Exact windows by hand for each kind of step, and properties
// over random streams: reshaping to the same shape at any point changes no window; a checkpoint
// taken before a change resumes into the changed workflow exactly as the running one changed;
// nothing is lost across random changes.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/windows/window_spec.hpp"
#include "tests/sanitizer_build.hpp"
#include "window_harness.hpp"
#include "window_streams.hpp"

namespace cwf {
namespace {

using testing::apply;
using testing::build;
using testing::every_kind;
using testing::Ints;
using testing::ints;
using testing::Kind;
using testing::Op;
using testing::random_stream;
using testing::Recorder;
using testing::restore_from;
using testing::show;
using testing::snapshot_of;
using testing::window;
using testing::WindowHarness;

// ---- by hand --------------------------------------------------------------------------------

// Tumbling 3 tokens becomes tumbling 2: the window being formed started at token 3, and still
// does; it holds 2 tokens now, and windows step by 2 from there.
TEST(WindowReshape, TheWindowBeingFormedKeepsItsStartAndTakesTheNewSize) {
  WindowHarness w(window("3 tokens", "3 tokens"));
  w.push_range(0, 5);
  EXPECT_EQ(ints(w.at(4)), (Ints{{0, 1, 2}}));
  w.reshape(window("2 tokens", "2 tokens"));
  EXPECT_EQ(ints(w.at(4)), (Ints{{3, 4}}));  // complete as soon as it is 2 tokens
  w.push_range(5, 8);
  EXPECT_EQ(ints(w.at(7)), (Ints{{5, 6}}));
  EXPECT_EQ(ints(w.end()), (Ints{{7}}));
  // Used and not deleted, each event expires once no later window can hold it.
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
}

// Sliding 3 by 1 becomes sliding 2 by 1: what the smaller windows no longer reach leaves, oldest
// first.
TEST(WindowReshape, ASlidingWindowShrinks) {
  WindowHarness w(window("3 tokens", "1 token"));
  w.push_range(0, 4);
  EXPECT_EQ(ints(w.at(3)), (Ints{{0, 1, 2}, {1, 2, 3}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 1}));
  w.reshape(window("2 tokens", "1 token"));
  EXPECT_EQ(ints(w.at(3)), (Ints{{2, 3}}));
  w.push(4, 4);
  EXPECT_EQ(ints(w.at(4)), (Ints{{3, 4}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 1, 2, 3}));
}

// The out-of-stock pattern (seed 002 l.547-556): no step, a window of the last T2 on every event.
// T2 grows from 10 to 100: the next window reaches back 100 over what is still queued (0 had left
// already and does not come back); it shrinks to 10 again: the events it no longer reaches leave,
// oldest first.
TEST(WindowReshape, TheOutOfStockPeriodChangesWhileItRuns) {
  WindowHarness w(window("10 ns", ""));
  w.push(0, 0);
  w.push(5, 5);
  w.push(12, 12);
  EXPECT_EQ(ints(w.at(12)), (Ints{{0}, {0, 5}, {5, 12}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0}));
  w.reshape(window("100 ns", ""));
  w.push(30, 30);
  EXPECT_EQ(ints(w.at(30)), (Ints{{5, 12, 30}}));  // with 10 ns it would be {30}
  w.reshape(window("10 ns", ""));
  w.push(31, 31);
  EXPECT_EQ(ints(w.at(31)), (Ints{{30, 31}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 5, 12}));
}

// Tumbling 10 becomes tumbling 5: the grid restarts at the period being formed, [10, 15).
TEST(WindowReshape, ATimeGridRestartsAtThePeriodBeingFormed) {
  WindowHarness w(window("10 ns", "10 ns"));
  w.push(1, 1);
  w.push(4, 4);
  w.push(12, 12);
  EXPECT_EQ(ints(w.at(12)), (Ints{{1, 4}}));
  w.reshape(window("5 ns", "5 ns"));
  w.push(17, 17);
  EXPECT_EQ(ints(w.at(17)), (Ints{{12}}));
  w.push(26, 26);
  EXPECT_EQ(ints(w.at(26)), (Ints{{17}, {}}));  // [20, 25) is empty, and shown
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 15, 20, 25}));
}

// A window that was ready but not handed to the actor yet is formed again by the new shape.
TEST(WindowReshape, AReadyWindowNotHandedOutTakesTheNewShape) {
  WindowHarness w(window("3 tokens", "3 tokens"));
  w.push_range(0, 6);
  w.advance(5, false);
  ASSERT_TRUE(w.has_window());
  EXPECT_EQ(w.front_window().events.size(), 3u);  // {0, 1, 2}
  w.finish_window(true, true);
  ASSERT_TRUE(w.has_window());  // {3, 4, 5}, not handed out
  w.reshape(window("2 tokens", "2 tokens"));
  EXPECT_EQ(ints(w.take()), (Ints{{3, 4}}));
  w.push(6, 6);
  EXPECT_EQ(ints(w.at(6)), (Ints{{5, 6}}));
}

// Windows that look back (the last 10 ns, every 2 tokens): the window being formed keeps the
// event it ends at (token 4); the new step counts on from there.
TEST(WindowReshape, AWindowThatLooksBackKeepsTheEventItEndsAt) {
  WindowHarness w(window("10 ns", "2 tokens"));
  w.push_range(0, 3);
  EXPECT_EQ(ints(w.at(2)), (Ints{{0}, {0, 1, 2}}));
  w.reshape(window("10 ns", "3 tokens"));
  w.push_range(3, 5);
  EXPECT_EQ(ints(w.at(4)), (Ints{{0, 1, 2, 3, 4}}));
  w.push_range(5, 8);
  EXPECT_EQ(ints(w.at(7)), (Ints{{0, 1, 2, 3, 4, 5, 6, 7}}));
}

// Each group keeps its own place.
TEST(WindowReshape, GroupsKeepTheirPlaces) {
  WindowSpec spec = window("2 tokens", "2 tokens");
  spec.group_by = {"/k"};
  WindowHarness w(spec);
  auto push = [&w](const char* k, int v) { w.push(Value::record({{"k", k}, {"v", v}}), v); };
  push("a", 1);
  push("a", 2);
  push("a", 3);
  push("b", 1);
  EXPECT_EQ(show(w.at(3)), (std::vector<std::string>{"a:1,2"}));
  WindowSpec larger = window("3 tokens", "3 tokens");
  larger.group_by = {"/k"};
  w.reshape(larger);
  push("a", 4);
  push("b", 2);
  EXPECT_TRUE(w.at(4).empty());
  push("a", 5);
  push("b", 3);
  // b's window ends earlier (its last event is at 3): it comes first.
  EXPECT_EQ(show(w.at(5)), (std::vector<std::string>{"b:1,2,3", "a:3,4,5"}));
}

// Step 2 waves becomes step 1 wave: the window being formed starts with wave 2 as before.
TEST(WindowReshape, AWaveStepCountsOnFromTheWaveItStartsWith) {
  WindowHarness w(window("2 waves", "2 waves"));
  for (int i = 0; i < 3; ++i)
    w.push(i, i, WaveTag(i, static_cast<std::uint64_t>(i + 1)));
  EXPECT_EQ(ints(w.at(2)), (Ints{{0, 1}}));
  w.reshape(window("1 wave", "1 wave"));
  EXPECT_EQ(ints(w.at(2)), (Ints{{2}}));
  w.push(3, 3, WaveTag(3, 4));
  EXPECT_EQ(ints(w.at(3)), (Ints{{3}}));
}

// A longer formation timeout moves the deadline the receiver asks to be woken at.
TEST(WindowReshape, TheFormationTimeoutChanges) {
  WindowHarness w(window("10 ns", "10 ns"));
  w.push(1, 1);
  EXPECT_TRUE(w.at(1).empty());
  EXPECT_EQ(w.wakeups.back(), 20);  // [0, 10) times out at 10 + 1 x 10
  WindowSpec patient = window("10 ns", "10 ns");
  patient.timeout = 3;
  w.reshape(patient);
  EXPECT_TRUE(w.at(2).empty());
  EXPECT_EQ(w.wakeups.back(), 40);
  EXPECT_TRUE(w.at(39).empty());
  EXPECT_EQ(ints(w.at(40)), (Ints{{1}}));
}

TEST(WindowReshape, OnlyAmountsAndTheTimeoutCanChange) {
  auto refusal = [](const WindowSpec& from, const WindowSpec& to) {
    return reshape_refusal(from, to).value_or("allowed");
  };
  WindowSpec grouped = window("5 tokens", "1 token");
  grouped.group_by = {"/k"};
  WindowSpec deleting = window("5 tokens", "1 token");
  deleting.delete_used = true;
  EXPECT_EQ(refusal(window("5 tokens", "1 token"), window("2 tokens", "3 tokens")), "allowed");
  EXPECT_EQ(refusal(window("5 tokens", "1 token"), window("5 s", "1 token")),
            "the size is counted in tokens: it cannot become 5 s");
  EXPECT_EQ(refusal(window("5 s", "1 s"), window("5 s", "2 waves")),
            "the step is a duration: it cannot become 2 waves");
  EXPECT_EQ(refusal(window("5 s", ""), window("5 s", "1 s")),
            "the window has no step: it cannot get one (1 s)");
  EXPECT_EQ(refusal(window("5 s", "1 s"), window("", "1 s")),
            "the window's size cannot be taken away");
  EXPECT_EQ(refusal(window("5 tokens", "1 token"), grouped), "group_by cannot change");
  EXPECT_EQ(refusal(window("5 tokens", "1 token"), deleting), "delete_used cannot change");
  WindowHarness w(window("5 tokens", "1 token"));
  EXPECT_THROW(w.reshape(window("5 s", "1 token")), std::invalid_argument);
}

// ---- properties over random streams ---------------------------------------------------------

// The windows of the log, group by group ("window g3 ..." lines, in order within each group).
// An empty window's first arrival number (where the queue stood when it was formed) depends on
// when it was evaluated, as between directors: it is left out.
// With `idle`, groups of a key come and go and a new group takes the slot of whichever ended
// first: slot numbers and the arrival numbers that go on from the slot's depend on when windows
// were formed; the windows of each key, in order, do not. They are compared by key, without
// those numbers.
std::vector<std::string> windows_by_group(const std::vector<std::string>& log,
                                          bool by_key = false) {
  static const std::regex kFirst(" first [0-9]+");
  static const std::regex kSlot("^window g[0-9]+");
  static const std::regex kArrival("(@[^ ]*)#[0-9]+( |$)");
  static const std::regex kKey("key (\\S+)");
  std::map<std::string, std::vector<std::string>> groups;
  for (const std::string& line : log) {
    if (!line.starts_with("window g")) continue;
    if (by_key) {
      std::smatch key;
      std::regex_search(line, key, kKey);
      std::string bare = std::regex_replace(line, kSlot, "window");
      bare = std::regex_replace(bare, kFirst, "");
      groups[key[1]].push_back(std::regex_replace(bare, kArrival, "$1$2"));
      continue;
    }
    // Slot numbers padded: the map keeps them in numeric order.
    std::string slot = std::to_string(std::stoi(line.substr(8)));
    groups[std::string(8 - slot.size(), '0') + slot].push_back(
        line.ends_with("no wave") ? std::regex_replace(line, kFirst, "") : line);
  }
  std::vector<std::string> out;
  for (auto& [g, lines] : groups)
    out.insert(out.end(), lines.begin(), lines.end());
  return out;
}

// "" when the logs are equal, else where they first differ.
std::string first_difference(const std::vector<std::string>& got,
                             const std::vector<std::string>& expected) {
  for (std::size_t i = 0; i < std::max(got.size(), expected.size()); ++i) {
    const std::string a = i < got.size() ? got[i] : "(nothing)";
    const std::string b = i < expected.size() ? expected[i] : "(nothing)";
    if (a != b) return "line " + std::to_string(i) + ": got " + a + "\n expected " + b;
  }
  return "";
}

// The fold of every step is exact: reshaped to its own shape at any point of any stream, every
// group hands out the very windows it would have. (Windows of different groups ready at the same
// time may come in another order: those not handed out are formed again. Whether an event that
// no window can hold any more expires or counts as late may differ: a time grid restarted at its
// period forgets the periods before it.)
TEST(WindowReshape, ReshapingToTheSameShapeChangesNoWindowAtAnyCut) {
  // Under the sanitizers one stream per kind and every third cut (tests/sanitizer_build.hpp).
  const std::uint32_t seeds = testing::kSanitizerBuild ? 1 : 3;
  std::size_t compared = 0, round = 0;
  for (const Kind& kind : every_kind()) {
    for (std::uint32_t seed = 1; seed <= seeds; ++seed, ++round) {
      std::vector<Op> ops = random_stream(seed, kind.spec().uses_waves(), kind.two_producers);
      auto whole = build(kind);
      for (const Op& op : ops)
        apply(*whole, op);
      const bool by_key = kind.idle > 0;
      const std::vector<std::string> expected = windows_by_group(whole->log, by_key);
      for (std::size_t cut : testing::sampled_positions(round, ops.size())) {
        auto reshaped = build(kind);
        for (std::size_t i = 0; i < ops.size(); ++i) {
          if (i == cut) reshaped->reshape(kind.spec());
          apply(*reshaped, ops[i]);
        }
        ASSERT_EQ(first_difference(windows_by_group(reshaped->log, by_key), expected), "")
            << kind.name() << ", seed " << seed << ", cut " << cut;
        compared += expected.size();
      }
    }
  }
  EXPECT_GT(compared, 100000u * seeds / testing::kSampleStride);
}

// Another shape of the same units: amounts halved or doubled (at least 1).
WindowSpec resized(const Kind& kind, std::uint32_t seed) {
  WindowSpec spec = kind.spec();
  auto change = [seed](std::optional<WindowExtent>& extent) {
    if (!extent) return;
    extent->amount = seed % 2 ? extent->amount * 2 : std::max<std::int64_t>(1, extent->amount / 2);
  };
  change(spec.size);
  change(spec.step);
  spec.timeout = seed % 3 == 0 ? 0.0 : 2.0;
  return spec;
}

// A checkpoint taken before the window changed, resumed into the workflow as changed (its
// settings), continues exactly as the running port did when it was reshaped at that point.
TEST(WindowReshape, ACheckpointFromBeforeAChangeResumesAsTheChangedPort) {
  const std::uint32_t seeds = testing::kSanitizerBuild ? 1 : 2;
  for (const Kind& kind : every_kind()) {
    for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
      std::vector<Op> ops = random_stream(seed, kind.spec().uses_waves(), kind.two_producers);
      const WindowSpec changed = resized(kind, seed);
      for (std::size_t cut = 0; cut <= ops.size(); cut += 3) {
        const std::string context =
            kind.name() + " to " + changed.describe() + ", cut " + std::to_string(cut);
        auto running = build(kind);
        for (std::size_t i = 0; i < cut; ++i)
          apply(*running, ops[i]);
        std::vector<std::uint8_t> bytes = snapshot_of(*running);
        const std::size_t logged = running->log.size();
        running->reshape(changed);
        auto resumed = std::make_unique<Recorder>(changed);
        if (kind.two_producers) {
          resumed->set_carried_sources(0, {0});
          resumed->set_carried_sources(1, {0});
        }
        restore_from(*resumed, bytes);
        ASSERT_EQ(snapshot_of(*resumed), snapshot_of(*running)) << context;
        // What the reshape said (expiries, wake-ups), the restored one says when next used.
        std::vector<std::string> expected(
            running->log.begin() + static_cast<std::ptrdiff_t>(logged), running->log.end());
        resumed->log.clear();
        running->log.clear();
        for (std::size_t i = cut; i < ops.size(); ++i) {
          apply(*running, ops[i]);
          apply(*resumed, ops[i]);
        }
        expected.insert(expected.end(), running->log.begin(), running->log.end());
        ASSERT_EQ(first_difference(resumed->log, expected), "") << context;
      }
    }
  }
}

// Changed at random points to other amounts, a port loses nothing: every event it was given is
// in a window, expired, counted late or still queued, and none expires twice.
TEST(WindowReshape, NothingIsLostAcrossRandomChanges) {
  const std::regex value(R"("v":(\d+))");
  std::size_t changes = 0;
  for (const Kind& kind : every_kind()) {
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
      std::vector<Op> ops = random_stream(seed, kind.spec().uses_waves(), kind.two_producers);
      auto r = build(kind);
      std::set<int> given;
      std::uint32_t shape = seed;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        if (i % 17 == 16) {
          r->reshape(i % 34 == 33 ? kind.spec() : resized(kind, ++shape));
          ++changes;
        }
        if (ops[i].kind == Op::push && !ops[i].event.wave.is_punctuation())
          given.insert(static_cast<int>(ops[i].event.token.field("v")->as_int()));
        apply(*r, ops[i]);
      }
      std::set<int> windowed;
      std::map<int, int> expired;
      std::size_t late = 0;
      for (const std::string& line : r->log) {
        late += line == "late";
        for (auto m = std::sregex_iterator(line.begin(), line.end(), value);
             m != std::sregex_iterator(); ++m) {
          int v = std::stoi((*m)[1]);
          if (line.starts_with("expired"))
            ++expired[v];
          else
            windowed.insert(v);
        }
      }
      std::size_t missing = 0;
      for (int v : given)
        missing += !windowed.count(v) && !expired.count(v);
      const std::string context = kind.name() + ", seed " + std::to_string(seed);
      // Late events never reach a window; what is neither late nor seen is still queued.
      EXPECT_GE(missing, late) << context;
      EXPECT_LE(missing - late, r->buffered()) << context;
      for (const auto& [v, times] : expired)
        EXPECT_EQ(times, 1) << context << ": " << v << " expired " << times << " times";
    }
  }
  EXPECT_GT(changes, 500u);
}

}  // namespace
}  // namespace cwf
