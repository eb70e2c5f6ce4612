// catalog_match in a workflow: the nearest object within the radius joined in `as` with its
// separation (replacing a field of that name), the others passed on as unmatched, errors named;
// and its parameters checked when the workflow is loaded.
#include <gtest/gtest.h>

#include "actors/spatial/catalog_match.hpp"
#include "tests/actors/actor_test_util.hpp"
#include "tests/spatial/spatial_test_util.hpp"

namespace cwf::spatial {
namespace {

using actors::testing::Arrivals;
using actors::testing::Collect;
using actors::testing::Harness;
using actors::testing::write_file;

const char* const kCatalog = R"({"name": "M31", "ra": 10.6847, "dec": 41.2690})"
                             "\n"
                             R"({"name": "UGC 12914", "ra": 0.0275, "dec": 0.5})"
                             "\n";

std::map<std::string, Value> with_catalog(std::map<std::string, Value> values) {
  values.emplace("catalog", Value(write_file("catalog.jsonl", kCatalog)));
  return values;
}

std::unique_ptr<Actor> catalog_match(std::map<std::string, Value> values) {
  return testing::build(catalog_match_type(), std::move(values));
}

std::string param_error(std::map<std::string, Value> values) {
  return testing::param_error(catalog_match_type(), std::move(values));
}

TEST(CatalogMatch, JoinsTheNearestObjectWithinTheRadiusAndPassesTheOthersOn) {
  Harness h;
  h.add("events",
        std::make_unique<Arrivals>(std::vector<Arrivals::Item>{
            {0, 0, Value::record({{"id", "a"}, {"ra", 10.6847}, {"dec", 41.2690}})},
            // 0.0776 degree from UGC 12914, across right ascension 0.
            {1, 1, Value::record({{"id", "b"}, {"ra", 359.95}, {"dec", 0.5}, {"host", 1}})},
            {2, 2, Value::record({{"id", "c"}, {"ra", 120.0}, {"dec", -30.0}})},
            {3, 3, Value::record({{"id", "d"}, {"ra", 1.0}, {"dec", -91.0}})},
            {4, 4, Value::array({1, 2})}}));
  h.add("match", catalog_match(with_catalog({{"radius", 0.1}, {"as", Value("host")}})));
  h.connect("events", "match");
  Collect& out = h.collect("match", "out");
  Collect& unmatched = h.collect("match", "unmatched");
  const RunSummary summary = h.run();
  ASSERT_EQ(out.seen.size(), 2u);
  EXPECT_EQ(
      out.seen[0].token.to_json(),
      R"({"id":"a","ra":10.6847,"dec":41.269,"host":{"name":"M31","ra":10.6847,"dec":41.269,"separation":0.0}})");
  const Value& b = out.seen[1].token;
  EXPECT_EQ(b.field("host")->field("name")->as_string(), "UGC 12914");  // replaced the old `host`
  EXPECT_NEAR(b.field("host")->field("separation")->as_double(), 0.0775, 1e-4);
  EXPECT_EQ(unmatched.json(), std::vector<std::string>{R"({"id":"c","ra":120.0,"dec":-30.0})"});
  EXPECT_EQ(Harness::errors(summary, "match"), 2u);  // beyond the pole, not a record
}

TEST(CatalogMatch, ItsParametersAreCheckedWhenTheWorkflowIsLoaded) {
  EXPECT_EQ(param_error(with_catalog({{"radius", 181.0}})),
            "radius: radius must be between 0 and 180 degrees");
  EXPECT_EQ(param_error(with_catalog({{"radius", -1.0}})),
            "radius: radius must be between 0 and 180 degrees");
  EXPECT_EQ(param_error(with_catalog({{"radius", 1.0}, {"as", Value("")}})),
            "as: `as` must name a field");
  const std::string bad = write_file("bad.jsonl", "{\"name\": \"x\", \"ra\": 1}\n");
  EXPECT_EQ(param_error({{"catalog", Value(bad)}, {"radius", 1.0}}),
            "catalog: " + bad + ":1: a catalog object needs numbers `ra` and `dec` (degrees)");
  EXPECT_EQ(param_error({{"catalog", Value(bad + ".missing")}, {"radius", 1.0}}),
            "catalog: cannot open '" + bad + ".missing'");
}

}  // namespace
}  // namespace cwf::spatial
