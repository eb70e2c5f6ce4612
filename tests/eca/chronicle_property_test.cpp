// Property: on random streams, SEQ and CON detection pairs exactly the occurrences a direct
// model of chronicle consumption pairs (per instance: the oldest unconsumed partner; for SEQ a
// strictly earlier initiator, and a terminator without one is dropped).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>

#include "eca_test_util.hpp"

namespace cwf::eca {
namespace {

using Pairs = std::vector<std::pair<std::int64_t, std::int64_t>>;  // (a's id, b's id)

Pairs model(const std::vector<Value>& stream, bool ordered) {
  struct Held {
    std::vector<Value> a, b;
  };
  std::map<Value, Held> held;
  Pairs out;
  for (const Value& o : stream) {
    Held& h = held[field(o, kInstance)];
    bool is_a = occurrence_type(o) == "REQ(a)";
    std::int64_t id = field(o, kId).as_int();
    if (ordered) {
      if (is_a) {
        h.a.push_back(o);
        continue;
      }
      for (auto it = h.a.begin(); it != h.a.end(); ++it)
        if (occurrence_time(*it) < occurrence_time(o)) {
          out.emplace_back(field(*it, kId).as_int(), id);
          h.a.erase(it);
          break;
        }
    } else {
      auto& other = is_a ? h.b : h.a;
      if (other.empty()) {
        (is_a ? h.a : h.b).push_back(o);
      } else {
        std::int64_t partner = field(other.front(), kId).as_int();
        other.erase(other.begin());
        out.emplace_back(is_a ? id : partner, is_a ? partner : id);
      }
    }
  }
  return out;
}

Pairs detected(const std::vector<Value>& stream, const std::string& expression) {
  testing::Recorder r({expression});
  r.feed(stream);
  Pairs out;
  for (const Value& c : r.occurrences) {
    const auto& parts = field(c, kComponents).as_array();
    out.emplace_back(field(parts[0], kId).as_int(), field(parts[1], kId).as_int());
  }
  return out;
}

TEST(ChronicleProperty, SeqAndConPairLikeTheModelOnRandomStreams) {
  std::mt19937 rng(2024);
  for (int round = 0; round < 200; ++round) {
    int length = 1 + static_cast<int>(rng() % 40);
    std::vector<Value> stream =
        testing::random_stream(rng, length, {"REQ(a)", "REQ(b)"}, "w", 3, /*ties=*/true);
    EXPECT_EQ(detected(stream, "SEQ(REQ(a), REQ(b))"), model(stream, true)) << "round " << round;
    EXPECT_EQ(detected(stream, "CON(REQ(a), REQ(b))"), model(stream, false)) << "round " << round;
  }
}

// The primitive occurrences a composite is made of, as (id, time).
void primitives(const Value& o, std::vector<std::pair<std::int64_t, Timestamp>>& out) {
  const auto& parts = field(o, kComponents).as_array();
  if (parts.empty()) out.emplace_back(field(o, kId).as_int(), occurrence_time(o));
  for (const Value& p : parts)
    primitives(p, out);
}

// Properties of nested and same-type composites on random streams: no detected composite holds
// one primitive occurrence twice; with the same type twice, no occurrence is used by two
// detections;
// every component of a SEQ's initiator precedes every component of its terminator.
TEST(ChronicleProperty, NestedAndSameTypeCompositesUseEachOccurrenceOnceAndInOrder) {
  const std::vector<std::string> expressions = {"CON(REQ(a), REQ(a))",
                                                "CCR(REQ(a), REQ(a))",
                                                "SEQ(REQ(a), REQ(a))",
                                                "SEQ(REQ(a), CON(REQ(b), REQ(c)))",
                                                "SEQ(CON(REQ(b), REQ(c)), REQ(a))",
                                                "CON(REQ(a), SEQ(REQ(a), REQ(b)))"};
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    int length = 1 + static_cast<int>(rng() % 30);
    std::vector<Value> stream =
        testing::random_stream(rng, length, {"REQ(a)", "REQ(b)", "REQ(c)"}, "w", 2, /*ties=*/true);
    for (const std::string& expression : expressions) {
      testing::Recorder r({expression});
      r.feed(stream);
      std::map<std::int64_t, int> uses;
      for (const Value& c : r.occurrences) {
        std::vector<std::pair<std::int64_t, Timestamp>> all;
        primitives(c, all);
        std::map<std::int64_t, int> within;
        for (auto [id, time] : all)
          EXPECT_EQ(++within[id], 1) << expression << " round " << round << ": " << id << " twice";
        if (expression.starts_with("SEQ")) {
          const auto& parts = field(c, kComponents).as_array();
          std::vector<std::pair<std::int64_t, Timestamp>> first, second;
          primitives(parts[0], first);
          primitives(parts[1], second);
          for (auto [i1, t1] : first)
            for (auto [i2, t2] : second)
              EXPECT_LT(t1, t2) << expression << " round " << round;
        }
        // With both arguments of one type, each occurrence is consumed once by the composite.
        bool same_type = expression.ends_with("(REQ(a), REQ(a))");
        for (auto [id, time] : all) {
          int used = ++uses[id];
          if (same_type) {
            EXPECT_EQ(used, 1) << expression << " round " << round << ": " << id;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace cwf::eca
