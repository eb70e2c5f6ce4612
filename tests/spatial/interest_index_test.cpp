// The interest index against the registration format and, as a property, against a linear scan
// of every region (what the R-tree must be equivalent to).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "actors/spatial/interest_index.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::spatial {
namespace {

Interest interest(std::string_view json) {
  std::string error;
  std::optional<Interest> read = read_interest(parse_json(json), error);
  EXPECT_TRUE(read.has_value()) << error;
  return read.value_or(Interest{});
}

std::string error_of(std::string_view json) {
  std::string error;
  EXPECT_FALSE(read_interest(parse_json(json), error).has_value());
  return error;
}

using Users = std::vector<std::string>;

Users users_at(const InterestIndex& index, SkyPoint point, std::string_view type) {
  std::vector<std::string_view> users = {"left over from before"};  // cleared by users_at
  index.users_at(point, type, users);
  return Users(users.begin(), users.end());
}

TEST(InterestIndex, MatchesTheUsersWhoseRegionHoldsThePointAndTakesTheType) {
  InterestIndex index;
  index.apply(
      interest(R"({"user":"ana","region":"A","box":[10,40,12,42],"types":["annotation"]})"));
  index.apply(interest(R"({"user":"ben","region":"B","box":[11,41,13,43]})"));
  index.apply(interest(R"({"user":"ana","region":"C","box":[11.5,41.5,11.8,41.8]})"));
  EXPECT_EQ(index.size(), 3u);
  EXPECT_EQ(users_at(index, {11.6, 41.6}, "annotation"), (Users{"ana", "ben"}));  // ana once
  EXPECT_EQ(users_at(index, {10.5, 40.5}, "annotation"), (Users{"ana"}));
  EXPECT_EQ(users_at(index, {10.5, 40.5}, "supernova"), Users{});  // A takes annotations only
  EXPECT_EQ(users_at(index, {11.6, 41.6}, "supernova"), (Users{"ana", "ben"}));  // C: every type
  EXPECT_EQ(users_at(index, {12.5, 42.5}, ""), (Users{"ben"}));
  EXPECT_EQ(users_at(index, {20, 0}, "annotation"), Users{});
}

TEST(InterestIndex, EdgesBelongToTheRegion) {
  InterestIndex index;
  index.apply(interest(R"({"user":"ana","region":"A","box":[10,40,12,42]})"));
  EXPECT_EQ(users_at(index, {10, 40}, "x"), (Users{"ana"}));
  EXPECT_EQ(users_at(index, {12, 42}, "x"), (Users{"ana"}));
  EXPECT_EQ(users_at(index, {12.000001, 41}, "x"), Users{});
}

TEST(InterestIndex, ABoxWithRaMinAboveRaMaxCrossesRightAscensionZero) {
  InterestIndex index;
  index.apply(interest(R"({"user":"dara","region":"equinox","box":[350,-5,10,5]})"));
  EXPECT_EQ(users_at(index, {355, 0}, "x"), (Users{"dara"}));
  EXPECT_EQ(users_at(index, {5, 0}, "x"), (Users{"dara"}));
  EXPECT_EQ(users_at(index, {0, 0}, "x"), (Users{"dara"}));
  std::string error;
  EXPECT_EQ(users_at(index, *sky_point(360, 1, error), "x"), (Users{"dara"}));  // 360 is 0
  EXPECT_EQ(users_at(index, *sky_point(-5, 1, error), "x"), (Users{"dara"}));   // -5 is 355
  EXPECT_EQ(users_at(index, {180, 0}, "x"), Users{});
  EXPECT_EQ(users_at(index, {20, 0}, "x"), Users{});
}

TEST(InterestIndex, ARegionRegisteredAgainIsReplacedAndAWithdrawalRemovesIt) {
  InterestIndex index;
  index.apply(interest(R"({"user":"ana","region":"A","box":[10,40,12,42]})"));
  index.apply(interest(R"({"user":"ana","region":"A","box":[100,0,101,1]})"));
  EXPECT_EQ(index.size(), 1u);
  EXPECT_EQ(users_at(index, {11, 41}, "x"), Users{});
  EXPECT_EQ(users_at(index, {100.5, 0.5}, "x"), (Users{"ana"}));
  EXPECT_TRUE(index.apply(interest(R"({"user":"ana","region":"A","remove":true})")));
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(users_at(index, {100.5, 0.5}, "x"), Users{});
  EXPECT_FALSE(index.apply(interest(R"({"user":"ana","region":"A","remove":true})")));
  // The freed place is taken by the next region.
  index.apply(interest(R"({"user":"ben","region":"B","box":[1,1,2,2]})"));
  ASSERT_EQ(index.regions().size(), 1u);
  EXPECT_EQ(index.regions()[0].user, "ben");
  // Listed by user and region, whatever the order they came in.
  index.apply(interest(R"({"user":"ana","region":"Z","box":[1,1,2,2]})"));
  index.apply(interest(R"({"user":"ana","region":"A","box":[1,1,2,2]})"));
  std::vector<std::string> listed;
  for (const Interest& i : index.regions())
    listed.push_back(i.user + "/" + i.region);
  EXPECT_EQ(listed, (std::vector<std::string>{"ana/A", "ana/Z", "ben/B"}));
}

TEST(InterestIndex, ARegistrationRecordReadsBack) {
  const Interest read =
      interest(R"({"user":"ana","region":"A","box":[350,-5,10,5],"types":["galaxy"]})");
  EXPECT_EQ(interest_record(read).to_json(),
            R"({"user":"ana","region":"A","box":[350.0,-5.0,10.0,5.0],"types":["galaxy"]})");
  std::string error;
  const std::optional<Interest> again = read_interest(interest_record(read), error);
  ASSERT_TRUE(again.has_value()) << error;
  EXPECT_EQ(again->box, read.box);
  EXPECT_EQ(again->types, read.types);
}

TEST(InterestIndex, AMalformedRegistrationSaysWhatIsWrong) {
  EXPECT_EQ(error_of(R"([1])"), "a registration must be a record {user, region, box, types}");
  EXPECT_EQ(error_of(R"({"region":"A","box":[1,1,2,2]})"),
            "a registration needs `user`, a non-empty string");
  EXPECT_EQ(error_of(R"({"user":"ana","region":"","box":[1,1,2,2]})"),
            "a registration needs `region`, a non-empty string");
  EXPECT_EQ(error_of(R"({"user":"ana","region":"A","box":[1,1,2]})"),
            "`box` must be [ra_min, dec_min, ra_max, dec_max] in degrees");
  EXPECT_EQ(error_of(R"({"user":"ana","region":"A","box":[1,"1",2,2]})"),
            "`box` must be [ra_min, dec_min, ra_max, dec_max] in degrees");
  EXPECT_EQ(error_of(R"({"user":"ana","region":"A","box":[1,5,2,2]})"),
            "`box` declinations must satisfy -90 <= dec_min <= dec_max <= 90");
  EXPECT_EQ(error_of(R"({"user":"ana","region":"A","box":[1,-91,2,2]})"),
            "`box` declinations must satisfy -90 <= dec_min <= dec_max <= 90");
  EXPECT_EQ(error_of(R"({"user":"ana","region":"A","box":[1,1,361,2]})"),
            "`box` right ascensions must be within [0, 360]");
  EXPECT_EQ(error_of(R"({"user":"ana","region":"A","box":[1,1,2,2],"types":"galaxy"})"),
            "`types` must be a list of event types");
  EXPECT_EQ(error_of(R"({"user":"ana","region":"A","box":[1,1,2,2],"types":[1]})"),
            "`types` must be a list of strings");
  EXPECT_EQ(error_of(R"({"user":"ana","region":"A","remove":"yes"})"),
            "`remove` must be true or false");
}

// Property: the R-tree answers exactly what a scan of every registered region answers, through
// registrations, replacements and withdrawals, boxes across right ascension 0 included.
TEST(InterestIndex, AnswersAsAScanOfEveryRegionDoes) {
  std::mt19937 random(20261128);
  std::uniform_real_distribution<double> ra(0, 360), dec(-90, 90), size(0, 30);
  const std::vector<std::string> types = {"annotation", "supernova", "galaxy"};
  InterestIndex index;
  std::map<std::pair<std::string, std::string>, Interest> live;
  for (int step = 0; step < 3000; ++step) {
    Interest i;
    i.user = "u" + std::to_string(random() % 40);
    i.region = "r" + std::to_string(random() % 5);
    if (random() % 4 == 0) {
      i.remove = true;
      EXPECT_EQ(index.apply(i), live.erase({i.user, i.region}) == 1);
      continue;
    }
    const double a = ra(random), d = dec(random), h = size(random);
    i.box = {a, std::max(-90.0, d - h), std::fmod(a + size(random), 360.0), std::min(90.0, d + h)};
    if (random() % 2 == 0) i.types = {types[random() % 3]};
    index.apply(i);
    live[{i.user, i.region}] = i;
  }
  ASSERT_EQ(index.size(), live.size());
  const auto holds = [](const Interest& i, SkyPoint p) {
    const bool in_ra = i.box[0] <= i.box[2] ? p.ra >= i.box[0] && p.ra <= i.box[2]
                                            : p.ra >= i.box[0] || p.ra <= i.box[2];
    return in_ra && p.dec >= i.box[1] && p.dec <= i.box[3];
  };
  int matched = 0;
  for (int probe = 0; probe < 2000; ++probe) {
    const SkyPoint p{ra(random), dec(random)};
    const std::string& type = types[random() % 3];
    std::set<std::string> expected;
    for (const auto& [key, i] : live)
      if (holds(i, p) && (i.types.empty() || i.types[0] == type)) expected.insert(i.user);
    const Users got = users_at(index, p, type);
    EXPECT_EQ(got, Users(expected.begin(), expected.end())) << p.ra << " " << p.dec;
    matched += !got.empty();
  }
  EXPECT_GT(matched, 200);  // the probes do hit regions
}

}  // namespace
}  // namespace cwf::spatial
