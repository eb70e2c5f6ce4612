// How a client presents a server's token (actors/net/credentials.hpp, server_access.hpp): the
// Authorization header's scheme in any case (RFC 9110 §11.1), and ?token= percent-decoded as a
// browser or a client library encodes it.
#include "actors/net/credentials.hpp"

#include <gtest/gtest.h>

#include <boost/beast/http.hpp>

#include "actors/net/server_access.hpp"

namespace cwf::net {
namespace {

namespace http = boost::beast::http;

TEST(BearerToken, TheSchemeIsCaseInsensitiveAndTheTokenFollowsItsSpaces) {
  EXPECT_EQ(bearer_token("Bearer abc"), "abc");
  EXPECT_EQ(bearer_token("bearer abc"), "abc");
  EXPECT_EQ(bearer_token("BEARER   abc"), "abc");
  EXPECT_EQ(bearer_token("Basic YWxhZGRpbjpvcGVuc2VzYW1l"), std::nullopt);
  EXPECT_EQ(bearer_token("Bearerabc"), std::nullopt);
  EXPECT_EQ(bearer_token("Bearer"), std::nullopt);
  EXPECT_EQ(bearer_token(""), std::nullopt);
}

TEST(SameSecret, EqualOnlyWhenEveryByteIs) {
  EXPECT_TRUE(same_secret("s3cret", "s3cret"));
  EXPECT_FALSE(same_secret("s3creT", "s3cret"));
  EXPECT_FALSE(same_secret("s3cre", "s3cret"));
  EXPECT_FALSE(same_secret("", "s3cret"));
}

http::request_header<> request(const std::string& target, const std::string& authorization = "") {
  http::request_header<> r;
  r.method(http::verb::get);
  r.target(target);
  if (!authorization.empty()) r.set(http::field::authorization, authorization);
  return r;
}

TEST(PresentsToken, InTheHeaderOrPercentEncodedInTheUrl) {
  const std::string token = "a+b c/d";
  EXPECT_TRUE(presents_token(request("/", "bearer a+b c/d"), token));
  EXPECT_TRUE(presents_token(request("/?token=a%2Bb%20c%2Fd"), token));
  EXPECT_TRUE(presents_token(request("/events?x=1&token=a%2Bb+c%2Fd"), token));
  EXPECT_FALSE(presents_token(request("/?token=a+b+c/d"), token));  // '+' is a space in a query
  EXPECT_FALSE(presents_token(request("/?token=a%2Bb%20c%2Fd%zz"), token));       // malformed
  EXPECT_FALSE(presents_token(request("/?token=a%2Bb%20c%2Fd&token=x"), token));  // given twice
  EXPECT_FALSE(presents_token(request("/", "Bearer a+b c/e"), token));
  EXPECT_FALSE(presents_token(request("/"), token));
  EXPECT_TRUE(presents_token(request("/"), ""));  // none required
}

}  // namespace
}  // namespace cwf::net
