#include "actors/eca/history_query.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "actors/eca/occurrence.hpp"
#include "eca_test_util.hpp"

namespace cwf::eca {
namespace {

using testing::occ;

std::string history_of(std::vector<Value> occurrences) {
  std::string text;
  for (const Value& o : occurrences)
    text += o.to_json() + "\n";
  return text;
}

std::vector<std::string> types(const std::vector<Value>& found) {
  std::vector<std::string> out;
  for (const Value& o : found)
    out.emplace_back(occurrence_type(o));
  return out;
}

const std::string kHistory =
    history_of({occ("REQ(HIC)", "c1", 0), occ("REQ(HIC)", 2, 0), occ("REQ(HandleHIC)", "c1", 0),
                occ("RPL(HandleHIC.Done)", 2, 60), occ("RPL(HandleHIC.Done)", "c1", 60),
                // recorded late, happened earlier: the query orders by time
                occ("REQ(HandleHIC)", 2, 0), occ("REQ(LogClaim)", "c1", 60)});

TEST(HistoryQuery, SelectsOneInstanceInTheOrderThingsHappened) {
  std::istringstream in(kHistory);
  EXPECT_EQ(types(query_history(in, "h.jsonl", {"c1", {}})),
            (std::vector<std::string>{"REQ(HIC)", "REQ(HandleHIC)", "RPL(HandleHIC.Done)",
                                      "REQ(LogClaim)"}));
  std::istringstream again(kHistory);
  EXPECT_EQ(types(query_history(again, "h.jsonl", {"2", {}})),
            (std::vector<std::string>{"REQ(HIC)", "REQ(HandleHIC)", "RPL(HandleHIC.Done)"}));
}

TEST(HistoryQuery, SelectsByTypeAcrossOrWithinInstances) {
  std::istringstream in(kHistory);
  auto found = query_history(in, "h.jsonl", {{}, "RPL(HandleHIC.Done)"});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(field(found[0], kInstance), Value(2));
  EXPECT_EQ(field(found[1], kInstance), Value("c1"));
  std::istringstream again(kHistory);
  EXPECT_EQ(query_history(again, "h.jsonl", {"c1", "REQ(PrepAccept)"}).size(), 0u);
}

TEST(HistoryQuery, ReportsMalformedLinesWithFileAndLine) {
  std::istringstream bad_json(kHistory + "\n{\"type\": \"REQ(a)\",}\n");
  try {
    query_history(bad_json, "h.jsonl", {});
    FAIL() << "no error";
  } catch (const HistoryError& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 34), "h.jsonl:9: invalid JSON: column 19");
  }
  std::istringstream not_an_event("{\"kind\": 1}\n");
  try {
    query_history(not_an_event, "h.jsonl", {});
    FAIL() << "no error";
  } catch (const HistoryError& e) {
    EXPECT_STREQ(e.what(),
                 "h.jsonl:1: expected an event occurrence (a JSON object with a string 'type'), "
                 "got {\"kind\": 1}");
  }
  EXPECT_THROW(query_history_file("/nonexistent/h.jsonl", {}), HistoryError);
}

TEST(HistoryQuery, ReportsFieldsOfTheWrongKindWithFileAndLine) {
  // Every occurrence key present (so the record matches the occurrence schema), kinds wrong.
  const std::string keys =
      R"j("site":"s1","id":1,"service":null,"request":null,"instance":"c1","broker":null,)j"
      R"j("components":[],"params":{},"assigned":null)j";
  auto error_of = [](const std::string& text, const HistoryFilter& filter) -> std::string {
    std::istringstream in(text);
    try {
      query_history(in, "h.jsonl", filter);
    } catch (const HistoryError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of(R"j({"type":5,"time":0,)j" + keys + "}\n", {std::nullopt, "REQ(A)"}),
            "h.jsonl:1: expected an event occurrence (a JSON object with a string 'type'), got " +
                (R"j({"type":5,"time":0,)j" + keys + "}").substr(0, 80));
  EXPECT_EQ(error_of(kHistory + "\n" + R"j({"type":"REQ(A)","time":1.5,)j" + keys + "}\n", {}),
            "h.jsonl:9: 'time' must be an int (nanoseconds), got 1.5");
  EXPECT_EQ(error_of(R"j({"type":"REQ(A)","params":3})j"
                     "\n",
                     {}),
            "h.jsonl:1: 'params' must be a record, got 3");
  EXPECT_EQ(error_of(R"j({"type":"REQ(A)","components":[{"type":"REQ(B)","id":"x"}]})j"
                     "\n",
                     {}),
            "h.jsonl:1: 'id' must be an int, got \"x\"");
}

}  // namespace
}  // namespace cwf::eca
