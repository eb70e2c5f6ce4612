// The sky-annotation application (workflows/sky_annotation/, seed 002 §4.7.2) through the `cwf`
// binary under every director: reports are routed to exactly the users interested in their
// region and type (supernovae with their host galaxy, the rest with the nearest catalog object),
// a report no one watches is set aside, and the consensus loop (a cycle in the graph) goes round
// until each report's opinions converge, then ends. The expected values follow from the data by
// hand (the users' leanings are hash(concat(user, ' on ', id)) % 100 / 100, see the workflow).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "process.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::testing {
namespace {

const std::string kApp = std::string(CWF_SOURCE_DIR) + "/workflows/sky_annotation/";

std::vector<std::string> sorted(std::vector<std::string> lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

// One notification as (report, round, user, what it was joined with).
using Notification = std::tuple<std::string, std::int64_t, std::string, std::string>;

std::vector<Notification> notifications_in(const std::string& text) {
  std::vector<Notification> out;
  for (const std::string& line : lines_of(text)) {
    const Value n = parse_json(line);
    const Value* round = n.field("round");
    const Value* catalog = n.field("catalog");
    const Value* host = n.field("host");
    std::string joined = "-";
    if (catalog != nullptr) joined = "catalog " + std::string(catalog->field("name")->as_string());
    if (host != nullptr && host->is_string()) joined = "host " + std::string(host->as_string());
    out.emplace_back(std::string(n.field("id")->as_string()),
                     round != nullptr && round->is_int() ? round->as_int() : 0,
                     std::string(n.field("user")->as_string()), joined);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Each report's users, asked once per round until the round its opinions converged in.
std::vector<Notification> expected_notifications() {
  struct Report {
    std::string id;
    std::vector<std::string> users;
    std::int64_t rounds;
    std::string joined;             // round 0
    std::string joined_afterwards;  // the consensus annotations, from round 1 on
  };
  const std::vector<Report> reports = {
      {"a1", {"ana", "ben", "chen"}, 2, "catalog M31", "catalog M31"},
      {"a8", {"ana", "ben"}, 3, "catalog M32", "catalog M32"},
      {"a6", {"ana", "ben", "chen"}, 1, "catalog M31", "catalog M31"},
      // A consensus is an annotation: it goes to the catalog, which has nothing near M87.
      {"s1", {"chen", "eli"}, 2, "host M87", "-"},
      // 0.078 degree from UGC 12914, across right ascension 0.
      {"g1", {"dara", "fay"}, 2, "catalog UGC 12914", "catalog UGC 12914"},
  };
  std::vector<Notification> out;
  for (const Report& r : reports)
    for (std::int64_t round = 0; round < r.rounds; ++round)
      for (const std::string& user : r.users)
        out.emplace_back(r.id, round, user, round == 0 ? r.joined : r.joined_afterwards);
  std::sort(out.begin(), out.end());
  return out;
}

class SkyAnnotation : public ::testing::TestWithParam<std::string> {};

TEST_P(SkyAnnotation, RoutesReportsToTheInterestedUsersAndLoopsUntilOpinionsConverge) {
  const std::string prefix = ::testing::TempDir() + "cwf_sky_annotation_" +
                             std::to_string(::getpid()) + "_" + director_label(GetParam()) + "_";
  const std::string notify = prefix + "notifications.jsonl", unwatched = prefix + "unwatched.jsonl",
                    verdicts = prefix + "verdicts.jsonl";
  for (const std::string& file : {notify, unwatched, verdicts})
    std::remove(file.c_str());
  std::vector<std::string> args = {
      "run",   kApp + "sky_annotation.yaml",  "--set", "notify.path=" + notify,
      "--set", "unwatched.path=" + unwatched, "--set", "verdicts.path=" + verdicts};
  for (const std::string& a : director_args(GetParam()))
    args.push_back(a);
  const ProcessResult result = run_cwf(args);
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(sorted(lines_of(read_file(verdicts))),
            lines_of(read_file(kApp + "expected/verdicts.jsonl")));
  EXPECT_EQ(read_file(unwatched), read_file(kApp + "expected/unwatched.jsonl"));
  EXPECT_EQ(notifications_in(read_file(notify)), expected_notifications());
}

INSTANTIATE_TEST_SUITE_P(EveryDirector, SkyAnnotation, ::testing::ValuesIn(kEveryDirector),
                         [](const auto& info) { return director_label(info.param); });

}  // namespace
}  // namespace cwf::testing
