// The catalog index: nearest objects by true angular distance (across right ascension 0 and at
// the poles, where nearness in coordinates misleads), against a scan as a property, and the
// catalog file's errors.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "actors/spatial/catalog_index.hpp"

namespace cwf::spatial {
namespace {

CatalogObject object(std::string name, double ra, double dec) {
  return {{ra, dec}, Value::record({{"name", Value(name)}})};
}

std::string name_of(const std::optional<NearestObject>& match) {
  return match ? std::string(match->object->record.field("name")->as_string()) : "none";
}

TEST(SkyPoint, SeparationsAreAnglesOnTheSphere) {
  EXPECT_DOUBLE_EQ(separation_degrees({0, 0}, {1, 0}), 1.0);
  EXPECT_DOUBLE_EQ(separation_degrees({0, 0}, {0, 90}), 90.0);
  EXPECT_NEAR(separation_degrees({359.5, 0}, {0.5, 0}), 1.0, 1e-12);
  EXPECT_NEAR(separation_degrees({0, 89}, {180, 89}), 2.0, 1e-12);  // over the pole
  EXPECT_NEAR(separation_degrees({0, 60}, {1, 60}), 0.5, 1e-4);     // cos(60) shrinks ra
  std::string error;
  EXPECT_FALSE(sky_point(0, 90.5, error).has_value());
  EXPECT_EQ(error, "declination 90.500000 is outside [-90, 90]");
  EXPECT_DOUBLE_EQ(sky_point(-90, 0, error)->ra, 270.0);
}

TEST(CatalogIndex, FindsTheNearestObjectWithinTheRadius) {
  const CatalogIndex index({object("M31", 10.6847, 41.2690), object("M32", 10.6743, 40.8652),
                            object("M87", 187.7059, 12.3911)});
  EXPECT_EQ(name_of(index.nearest({10.68, 41.2}, 0.5)), "M31");
  EXPECT_EQ(name_of(index.nearest({10.68, 40.9}, 0.5)), "M32");
  const auto m87 = index.nearest({187.7106, 12.3911}, 0.05);
  EXPECT_EQ(name_of(m87), "M87");
  EXPECT_NEAR(m87->separation, 0.0047 * std::cos(12.3911 * kRadiansPerDegree), 1e-6);
  EXPECT_EQ(name_of(index.nearest({187.7106, 12.3911}, 0.004)), "none");  // beyond the radius
  EXPECT_EQ(name_of(CatalogIndex().nearest({0, 0}, 180)), "none");        // an empty catalog
}

TEST(CatalogIndex, NearnessIsTheAngleAcrossRightAscensionZeroAndThePoles) {
  // 0.1 degree east of the event across ra 0, against 0.5 degree west in coordinates.
  const CatalogIndex across({object("east", 0.05, 0), object("west", 359.45, 0)});
  EXPECT_EQ(name_of(across.nearest({359.95, 0}, 1)), "east");
  // Near the pole: the object on the other side (0.02 degree over the pole) is nearer than the
  // one at the event's own right ascension (0.09 degree down).
  const CatalogIndex polar({object("over", 190, 89.99), object("below", 10, 89.9)});
  EXPECT_EQ(name_of(polar.nearest({10, 89.99}, 1)), "over");
}

// Property: the nearest object is the one a scan of the catalog finds nearest.
TEST(CatalogIndex, FindsWhatAScanFinds) {
  std::mt19937 random(20261128);
  std::uniform_real_distribution<double> ra(0, 360), z(-1, 1);
  const auto random_point = [&] {  // uniform on the sphere
    return SkyPoint{ra(random), std::asin(z(random)) / kRadiansPerDegree};
  };
  std::vector<CatalogObject> objects;
  for (int i = 0; i < 3000; ++i)
    objects.push_back(object("o" + std::to_string(i), random_point().ra, random_point().dec));
  const CatalogIndex index(objects);
  for (int probe = 0; probe < 1000; ++probe) {
    const SkyPoint p = random_point();
    double best = 1e9;
    for (const CatalogObject& o : objects)
      best = std::min(best, separation_degrees(p, o.position));
    const auto match = index.nearest(p, 180);
    ASSERT_TRUE(match.has_value());
    EXPECT_NEAR(match->separation, best, 1e-9);
  }
}

// A file that cannot be opened is catalog_match's to report (catalog_match_test.cpp).
TEST(CatalogIndex, ACatalogLineThatIsNotAnObjectWithAPositionNamesItsLine) {
  const auto error_of = [](const std::string& text) {
    std::istringstream in(text);
    try {
      read_catalog(in, "sky.jsonl", "ra", "dec");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("{\"ra\": 1, \"dec\": 2}\n\n{\"ra\": 1}\n"),
            "sky.jsonl:3: a catalog object needs numbers `ra` and `dec` (degrees)");
  EXPECT_EQ(error_of("{\"ra\": 1, \"dec\": 91}\r\n"),
            "sky.jsonl:1: declination 91.000000 is outside [-90, 90]");
  EXPECT_EQ(error_of("{\"ra\": 1,\n"),
            "sky.jsonl:1: column 10: expected a key string but found end of input");
  std::istringstream two("{\"ra\": 1, \"dec\": 2}\r\n \t\n{\"ra\": 3, \"dec\": 4}\n");
  EXPECT_EQ(read_catalog(two, "sky.jsonl", "ra", "dec").size(), 2u);
}

}  // namespace
}  // namespace cwf::spatial
