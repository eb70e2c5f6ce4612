// correlate: requests wait for their replies from outside the workflow and go on in their own
// wave, so that a wave window downstream (CWP3) synchronises an order's items again although each
// item was answered by a new external event; requests without a reply expire in their wave,
// replies without a request leave as unmatched; the same outcome under every director.
#include <gtest/gtest.h>

#include <algorithm>

#include "actor_test_util.hpp"
#include "actors/correlate.hpp"

namespace cwf::actors {
namespace {

using testing::collect;
using testing::param_error;
using Lines = std::vector<std::string>;

// Orders split into items; each item waits in `work` for the warehouse's reply (replies.jsonl,
// each an external event of its own). Item 3e never gets one and expires after 10 minutes; the
// reply for 9z has no request. The notices join each order's items again by wave.
std::unique_ptr<Workflow> orders_answered_from_outside() {
  std::string orders =
      testing::write_file("orders.jsonl",
                          "{\"order\":1,\"min\":0,\"items\":[{\"id\":\"1a\",\"order\":1},{\"id\":"
                          "\"1b\",\"order\":1}]}\n"
                          "{\"order\":2,\"min\":1,\"items\":[{\"id\":\"2c\",\"order\":2}]}\n"
                          "{\"order\":3,\"min\":2,\"items\":[{\"id\":\"3d\",\"order\":3},{\"id\":"
                          "\"3e\",\"order\":3}]}\n");
  std::string replies =
      testing::write_file("replies.jsonl",
                          "{\"id\":\"2c\",\"status\":\"shipped\",\"min\":3}\n"
                          "{\"id\":\"1b\",\"status\":\"out_of_stock\",\"min\":4}\n"
                          "{\"id\":\"1a\",\"status\":\"shipped\",\"min\":5}\n"
                          "{\"id\":\"9z\",\"status\":\"shipped\",\"min\":6}\n"
                          "{\"id\":\"3d\",\"status\":\"shipped\",\"min\":7}\n");
  return testing::load(R"(
name: orders-answered
actors:
  orders: {type: jsonl_source, path: )" +
                       orders + R"(, time: /min * 60}
  replies: {type: jsonl_source, path: )" +
                       replies + R"(, time: /min * 60}
  items: {type: split, path: /items}
  work:
    type: correlate
    key: /id
    timeout: 10 min
    emit: "{order: request/order, id: request/id, status: reply/status}"
  overdue: {type: map, expression: "{order: /order, id: /id, status: 'expired'}"}
  notice:
    type: expression
    emit: >-
      {order: window[0]/order,
       items: as_set([window[0]/id, window[-1]/id]),
       statuses: as_set([window[0]/status, window[-1]/status]), count: len(window)}
connections:
  - orders -> items
  - items -> work.request
  - replies -> work.reply
  - {from: work.out, to: notice, window: {size: 1 wave, step: 1 wave, delete_used: true}}
  - work.expired -> overdue
  - overdue -> notice
)");
}

class CorrelateUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

TEST_P(CorrelateUnderEveryDirector, RepliesFromOutsideCompleteTheRequestsWaves) {
  auto workflow = orders_answered_from_outside();
  auto& notices = collect(*workflow, "notice");
  auto& unmatched = collect(*workflow, "work", "unmatched");
  RunSummary summary = testing::run_under(*workflow, GetParam());
  // One notice per order, each with all its items: answered, out of stock, or expired. (They
  // come in the order each order's first answer reached the notice, which depends on the
  // director: the answers are a stream of their own.)
  Lines got = notices.json();
  std::sort(got.begin(), got.end());
  EXPECT_EQ(
      got,
      (Lines{R"({"order":1,"items":["1a","1b"],"statuses":["out_of_stock","shipped"],"count":2})",
             R"({"order":2,"items":["2c"],"statuses":["shipped"],"count":1})",
             R"({"order":3,"items":["3d","3e"],"statuses":["expired","shipped"],"count":2})"}));
  // Each notice is a child of its order's wave (the orders source's first, second, third).
  ASSERT_EQ(notices.seen.size(), 3u);
  for (const testing::Seen& notice : notices.seen) {
    std::string order = std::to_string(notice.token.field("order")->as_int());
    EXPECT_EQ(notice.wave.substr(notice.wave.find('#'), order.size() + 2), "#" + order + ".")
        << notice.wave;
  }
  EXPECT_EQ(unmatched.json(), (Lines{R"({"id":"9z","status":"shipped","min":6})"}));
  EXPECT_EQ(testing::Harness::errors(summary, "work"), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, CorrelateUnderEveryDirector,
                         ::testing::ValuesIn(testing::kEveryDirector),
                         [](const auto& info) { return testing::director_label(info.param); });

// A request that finds its reply already waiting goes on at once; replies for one key answer
// its requests oldest first.
TEST(Correlate, AReplyThatCameFirstWaitsForItsRequestAndRepliesAnswerTheOldestRequest) {
  std::string requests = testing::write_file("requests.jsonl",
                                             "{\"id\":7,\"n\":1,\"min\":5}\n"
                                             "{\"id\":8,\"n\":2,\"min\":6}\n"
                                             "{\"id\":8,\"n\":3,\"min\":7}\n");
  std::string replies = testing::write_file("replies.jsonl",
                                            "{\"id\":7,\"ok\":\"early\",\"min\":1}\n"
                                            "{\"id\":8,\"ok\":\"first\",\"min\":8}\n"
                                            "{\"id\":8,\"ok\":\"second\",\"min\":9}\n");
  auto workflow = testing::load(R"(
name: early-replies
actors:
  requests: {type: jsonl_source, path: )" +
                                requests + R"(, time: /min * 60}
  replies: {type: jsonl_source, path: )" +
                                replies + R"(, time: /min * 60}
  work: {type: correlate, key: /id, timeout: 10 min, emit: "{n: request/n, ok: reply/ok}"}
connections:
  - requests -> work.request
  - replies -> work.reply
)");
  auto& out = collect(*workflow, "work");
  auto& expired = collect(*workflow, "work", "expired");
  testing::run_under(*workflow, "fifo/1");
  Lines got = out.json();
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (Lines{R"({"n":1,"ok":"early"})", R"({"n":2,"ok":"first"})",
                        R"({"n":3,"ok":"second"})"}));
  EXPECT_TRUE(expired.json().empty());
}

TEST(Correlate, NullOrFailingKeysAreRejectedAndParametersAreChecked) {
  std::string requests =
      testing::write_file("requests.jsonl", "{\"min\":1}\n{\"id\":\"x\",\"min\":2}\n");
  std::string replies = testing::write_file("replies.jsonl", "{\"id\":\"x\",\"min\":3}\n");
  auto workflow = testing::load(R"(
name: keys
actors:
  requests: {type: jsonl_source, path: )" +
                                requests + R"(, time: /min * 60}
  replies: {type: jsonl_source, path: )" +
                                replies + R"(, time: /min * 60}
  work: {type: correlate, key: /id, timeout: 1 min}
connections:
  - requests -> work.request
  - replies -> work.reply
)");
  auto& out = collect(*workflow, "work");
  RunSummary summary = testing::run_under(*workflow, "fifo/1");
  EXPECT_EQ(out.json(), (Lines{R"({"request":{"id":"x","min":2},"reply":{"id":"x","min":3}})"}));
  EXPECT_EQ(testing::Harness::errors(summary, "work"), 1u);

  EXPECT_EQ(param_error("correlate", {{"timeout", Value("1 min")}}),
            "request_key: no key for this side: set key, or request_key");
  EXPECT_EQ(param_error("correlate", {{"key", Value("/id")}, {"timeout", Value("0 s")}}),
            "timeout: the timeout must be above 0");
  EXPECT_EQ(
      param_error("correlate",
                  {{"key", Value("/id")}, {"timeout", Value("1 s")}, {"emit", Value("request/")}})
          .substr(0, 6),
      "emit: ");
}

}  // namespace
}  // namespace cwf::actors
