// The query string of request targets (actors/net/query_string.hpp): percent-decoding as browsers
// encode, and the client's encoding back.
#include "actors/net/query_string.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace cwf::net {
namespace {

TEST(QueryString, NamesAndValuesArePercentDecoded) {
  auto query = parse_query("/v?from=a.out&where=%2Fspeed+%3E%2050&flag&to=b");
  EXPECT_EQ(query.size(), 4u);
  EXPECT_EQ(query["from"], "a.out");
  EXPECT_EQ(query["where"], "/speed > 50");
  EXPECT_EQ(query["flag"], "");
  EXPECT_EQ(query["to"], "b");
  EXPECT_TRUE(parse_query("/v").empty());
  EXPECT_TRUE(parse_query("/v?").empty());
  EXPECT_THROW(parse_query("/v?a=%4"), std::invalid_argument);
  EXPECT_THROW(parse_query("/v?a=%zz"), std::invalid_argument);
  EXPECT_THROW(parse_query("/v?a=1&a=2"), std::invalid_argument);
}

TEST(QueryString, EncodingThenDecodingGivesEveryByteBack) {
  std::string all;
  for (int c = 0; c < 256; ++c)
    all += static_cast<char>(c);
  EXPECT_EQ(parse_query("/?x=" + percent_encode(all))["x"], all);
  EXPECT_EQ(percent_encode("a.b-c_d~e f/"), "a.b-c_d~e%20f%2F");
}

}  // namespace
}  // namespace cwf::net
