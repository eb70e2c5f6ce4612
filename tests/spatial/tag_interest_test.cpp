// tag_interest in a workflow: events tagged with the interested users or passed on as unwatched,
// one event per user as sub-waves, registrations and withdrawals arriving while it runs, errors
// named; the same output under every director.
#include <gtest/gtest.h>

#include "actors/spatial/tag_interest.hpp"
#include "runtime/actor/actor_context.hpp"
#include "runtime/execution/execution.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/time/clock.hpp"
#include "runtime/values/value_json.hpp"
#include "tests/actors/actor_test_util.hpp"
#include "tests/spatial/spatial_test_util.hpp"

namespace cwf::spatial {
namespace {

using actors::testing::Arrivals;
using actors::testing::Collect;
using actors::testing::Harness;
using actors::testing::write_file;

std::unique_ptr<Actor> tag_interest(std::map<std::string, Value> values) {
  return testing::build(tag_interest_type(), std::move(values));
}

std::string param_error(std::map<std::string, Value> values) {
  return testing::param_error(tag_interest_type(), std::move(values));
}

Value report(std::string id, std::string type, double ra, double dec) {
  return Value::record({{"id", Value(id)}, {"type", Value(type)}, {"ra", ra}, {"dec", dec}});
}

constexpr Timestamp kSecond = 1'000'000'000;

const char* const kInterests =
    R"({"user": "ana", "region": "Andromeda", "box": [9.5, 40, 12, 42.5], "types": ["annotation"]})"
    "\n"
    R"({"user": "ben", "region": "Andromeda", "box": [10, 40.5, 11.5, 42]})"
    "\n\n"
    R"({"user": "dara", "region": "Equinox", "box": [355, -5, 5, 5]})"
    "\n";

std::vector<std::string> sorted(std::vector<std::string> lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

class TagInterestUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

TEST_P(TagInterestUnderEveryDirector, TagsEventsWithTheInterestedUsersAndPassesTheOthersOn) {
  Harness h;
  std::vector<Arrivals::Item> items;
  const std::vector<Value> reports = {
      report("a1", "annotation", 10.68, 41.27), report("s1", "supernova", 10.68, 41.27),
      report("g1", "galaxy", 359.95, 0.51), report("n1", "annotation", 114.5, 38.9)};
  for (std::size_t i = 0; i < reports.size(); ++i)
    items.push_back(
        {static_cast<Timestamp>(i) * kSecond, static_cast<Timestamp>(i) * kSecond, reports[i]});
  h.add("reports", std::make_unique<Arrivals>(items));
  h.add("tag", tag_interest({{"interests", Value(write_file("interests.jsonl", kInterests))}}));
  h.connect("reports", "tag");
  Collect& out = h.collect("tag", "out");
  Collect& unwatched = h.collect("tag", "unwatched");
  const RunSummary summary = h.run_under(GetParam());
  EXPECT_EQ(Harness::errors(summary, "tag"), 0u);
  EXPECT_EQ(
      sorted(out.json()),
      sorted({R"({"id":"a1","type":"annotation","ra":10.68,"dec":41.27,"users":["ana","ben"]})",
              R"({"id":"s1","type":"supernova","ra":10.68,"dec":41.27,"users":["ben"]})",
              R"({"id":"g1","type":"galaxy","ra":359.95,"dec":0.51,"users":["dara"]})"}));
  EXPECT_EQ(unwatched.json(),
            std::vector<std::string>{R"({"id":"n1","type":"annotation","ra":114.5,"dec":38.9})"});
}

INSTANTIATE_TEST_SUITE_P(Directors, TagInterestUnderEveryDirector,
                         ::testing::ValuesIn(actors::testing::kEveryDirector),
                         [](const auto& info) {
                           return actors::testing::director_label(info.param);
                         });

TEST(TagInterest, PerUserEmitsOneEventPerUserAsSubWavesOfTheEvent) {
  Harness h;
  h.add("reports", std::make_unique<Arrivals>(std::vector<Arrivals::Item>{
                       {0, 0, report("a1", "annotation", 10.68, 41.27)}}));
  h.add("tag", tag_interest({{"interests", Value(write_file("interests.jsonl", kInterests))},
                             {"per_user", Value(true)}}));
  h.connect("reports", "tag");
  Collect& out = h.collect("tag", "out");
  h.run();
  ASSERT_EQ(out.seen.size(), 2u);
  EXPECT_EQ(out.seen[0].token.to_json(),
            R"({"id":"a1","type":"annotation","ra":10.68,"dec":41.27,"user":"ana"})");
  EXPECT_EQ(out.seen[1].token.to_json(),
            R"({"id":"a1","type":"annotation","ra":10.68,"dec":41.27,"user":"ben"})");
  EXPECT_EQ(out.seen[0].wave, "0#1.1");   // the first event of source 0, its first child
  EXPECT_EQ(out.seen[1].wave, "0#1.2*");  // the second and last
}

TEST(TagInterest, RegistrationsAndWithdrawalsOnThePortApplyToTheEventsAfterThem) {
  Harness h;
  h.add("interests",
        std::make_unique<Arrivals>(std::vector<Arrivals::Item>{
            {1 * kSecond, 1 * kSecond,
             parse_json(R"({"user": "eli", "region": "Virgo", "box": [184, 9, 191, 16]})")},
            {3 * kSecond, 3 * kSecond,
             parse_json(R"({"user": "eli", "region": "Virgo", "remove": true})")},
            {5 * kSecond, 5 * kSecond,
             parse_json(R"({"user": "eli", "region": "Orion", "remove": true})")},
            {5 * kSecond, 5 * kSecond, parse_json(R"({"user": "eli", "box": [1, 2, 3, 4]})")}}));
  h.add("reports", std::make_unique<Arrivals>(std::vector<Arrivals::Item>{
                       {0, 0, report("s0", "supernova", 187.7, 12.4)},
                       {2 * kSecond, 2 * kSecond, report("s1", "supernova", 187.7, 12.4)},
                       {4 * kSecond, 4 * kSecond, report("s2", "supernova", 187.7, 12.4)},
                       {6 * kSecond, 6 * kSecond, Value::record({{"id", "bad"}, {"ra", 1}})}}));
  h.add("tag", tag_interest({}));
  h.connect("interests", "out", "tag", "interests");
  h.connect("reports", "out", "tag", "in");
  Collect& out = h.collect("tag", "out");
  Collect& unwatched = h.collect("tag", "unwatched");
  const RunSummary summary = h.run();
  EXPECT_EQ(out.json(),
            std::vector<std::string>{
                R"({"id":"s1","type":"supernova","ra":187.7,"dec":12.4,"users":["eli"]})"});
  EXPECT_EQ(unwatched.json(),
            (std::vector<std::string>{R"({"id":"s0","type":"supernova","ra":187.7,"dec":12.4})",
                                      R"({"id":"s2","type":"supernova","ra":187.7,"dec":12.4})"}));
  // The registration without a region and the event without a declination; withdrawing a
  // region that is not there is a warning.
  EXPECT_EQ(Harness::errors(summary, "tag"), 2u);
}

TEST(TagInterest, AnInterestsFileLineThatIsNotARegistrationIsALoadErrorNamingItsLine) {
  const std::string path =
      write_file("bad.jsonl", std::string(kInterests) + R"({"user": "fay", "region": "X"})"
                                                        "\n");
  EXPECT_EQ(
      param_error({{"interests", Value(path)}}),
      "interests: " + path + ":5: `box` must be [ra_min, dec_min, ra_max, dec_max] in degrees");
  const std::string json = write_file("json.jsonl", "{\"user\": \n");
  EXPECT_EQ(param_error({{"interests", Value(json)}}),
            "interests: " + json + ":1: column 10: unexpected end of input");
  EXPECT_EQ(param_error({{"interests", Value(json + ".missing")}}),
            "interests: cannot open '" + json + ".missing'");
}

// The regions registered are saved (in an order of their own), and a restore replaces what the
// restored actor had from its file: a fresh actor saves the same bytes again.
TEST(TagInterest, ItsRegionsSurviveACheckpointAndReplaceTheFilesOnRestore) {
  const std::string file = write_file("interests.jsonl", kInterests);
  Workflow workflow("checkpoint");
  workflow.add("tag", tag_interest({{"interests", Value(file)}}));
  workflow.add("fresh", tag_interest({{"interests", Value(file)}}));
  VirtualClock clock;
  Execution execution(workflow, clock);
  execution.initialize();
  auto& tag = static_cast<TagInterest&>(execution.cell(0).actor());
  auto& fresh = static_cast<TagInterest&>(execution.cell(1).actor());
  ActorContext context(execution.cell(0)), fresh_context(execution.cell(1));
  EXPECT_EQ(tag.checkpointing(), Actor::Checkpointing::own);
  const auto saved = [&](TagInterest& actor, ActorContext& c) {
    SnapshotWriter out;
    actor.save_state(out, c);
    return out.take_bytes();
  };
  const auto restore = [&](const std::vector<std::uint8_t>& bytes) {
    SnapshotReader in(bytes);
    fresh.restore_state(in, fresh_context);
    in.expect_end();
  };
  const std::vector<std::uint8_t> bytes = saved(tag, context);
  restore(bytes);
  EXPECT_EQ(saved(fresh, fresh_context), bytes);

  // A state of one region, other than the file's three: the file's are gone after the restore.
  SnapshotWriter one;
  one.write_u64(1);
  one.write_value(parse_json(
      R"({"user": "eli", "region": "Virgo", "box": [184.5, 9.5, 191.5, 16.5], "types": []})"));  // doubles, as a save writes them
  const std::vector<std::uint8_t> one_bytes = one.take_bytes();
  restore(one_bytes);
  EXPECT_EQ(saved(fresh, fresh_context), one_bytes);

  // What a save never writes is refused, naming it.
  const auto refusal = [&](std::vector<Value> records) {
    SnapshotWriter out;
    out.write_u64(records.size());
    for (const Value& r : records)
      out.write_value(r);
    const std::vector<std::uint8_t> damaged = out.take_bytes();
    SnapshotReader in(damaged);
    try {
      fresh.restore_state(in, fresh_context);
    } catch (const SnapshotError& e) {
      return std::string(e.what());
    }
    return std::string("restored");
  };
  const Value region = parse_json(R"({"user": "ana", "region": "A", "box": [1, 2, 3, 4]})");
  EXPECT_NE(refusal({parse_json(R"({"user": "ana", "region": "A", "box": [1, 2]})")})
                .find("a registered region"),
            std::string::npos);
  EXPECT_NE(refusal({parse_json(R"({"user": "ana", "region": "A", "remove": true})")})
                .find("a withdrawal, not a region"),
            std::string::npos);
  EXPECT_NE(refusal({region, region}).find("ana's region 'A' twice"), std::string::npos);
}

}  // namespace
}  // namespace cwf::spatial
