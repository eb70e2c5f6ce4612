#include "actors/spatial/catalog_index.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>

#include "runtime/values/value_json.hpp"

namespace cwf::spatial {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

namespace {

using Point = bg::model::point<double, 3, bg::cs::cartesian>;
using Entry = std::pair<Point, std::size_t>;  // a unit vector and the object's index

Point point_of(SkyPoint position) {
  const auto v = unit_vector(position);
  return Point(v[0], v[1], v[2]);
}

}  // namespace

struct CatalogIndex::Tree {
  bgi::rtree<Entry, bgi::rstar<16>> rtree;
};

CatalogIndex::CatalogIndex() : tree_(std::make_unique<Tree>()) {}

CatalogIndex::CatalogIndex(std::vector<CatalogObject> objects)
    : objects_(std::move(objects)), tree_(std::make_unique<Tree>()) {
  std::vector<Entry> entries;
  entries.reserve(objects_.size());
  for (std::size_t i = 0; i < objects_.size(); ++i)
    entries.emplace_back(point_of(objects_[i].position), i);
  tree_->rtree = decltype(tree_->rtree)(entries.begin(), entries.end());  // packed
}

CatalogIndex::~CatalogIndex() = default;
CatalogIndex::CatalogIndex(CatalogIndex&&) noexcept = default;
CatalogIndex& CatalogIndex::operator=(CatalogIndex&&) noexcept = default;

std::optional<NearestObject> CatalogIndex::nearest(SkyPoint point, double max_degrees) const {
  std::vector<Entry> hit;
  tree_->rtree.query(bgi::nearest(point_of(point), 1), std::back_inserter(hit));
  if (hit.empty()) return std::nullopt;
  const CatalogObject& object = objects_[hit.front().second];
  const double separation = separation_degrees(point, object.position);
  if (separation > max_degrees) return std::nullopt;
  return NearestObject{&object, separation};
}

std::vector<CatalogObject> read_catalog(const std::string& path, const std::string& ra_field,
                                        const std::string& dec_field) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open '" + path + "'");
  std::vector<CatalogObject> objects;
  JsonParser parser;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto fail = [&](const std::string& what) {
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + what);
    };
    Value record;
    try {
      record = parser.parse(line);
    } catch (const JsonError& e) {
      fail(e.what());
    }
    const Value* ra = record.field(ra_field);
    const Value* dec = record.field(dec_field);
    if (ra == nullptr || dec == nullptr || !ra->is_number() || !dec->is_number())
      fail("a catalog object needs numbers `" + ra_field + "` and `" + dec_field + "` (degrees)");
    std::string error;
    const std::optional<SkyPoint> position = sky_point(ra->as_double(), dec->as_double(), error);
    if (!position) fail(error);
    objects.push_back({*position, std::move(record)});
  }
  return objects;
}

}  // namespace cwf::spatial
