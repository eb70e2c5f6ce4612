#include "actors/spatial/catalog_index.hpp"

#include <stdexcept>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>

#include "runtime/values/json_lines.hpp"

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
  Entry hit;
  if (tree_->rtree.query(bgi::nearest(point_of(point), 1), &hit) == 0) return std::nullopt;
  const CatalogObject& object = objects_[hit.second];
  const double separation = separation_degrees(point, object.position);
  if (separation > max_degrees) return std::nullopt;
  return NearestObject{&object, separation};
}

std::vector<CatalogObject> read_catalog(std::istream& in, const std::string& name,
                                        const std::string& ra_field, const std::string& dec_field) {
  std::vector<CatalogObject> objects;
  JsonLinesReader lines(in);
  Value record;
  std::string error;
  while (lines.next(record, error)) {
    const auto fail = [&](const std::string& what) {
      throw std::runtime_error(lines.where(name) + what);
    };
    if (!error.empty()) fail(error);
    const Value* ra = record.field(ra_field);
    const Value* dec = record.field(dec_field);
    if (ra == nullptr || dec == nullptr || !ra->is_number() || !dec->is_number())
      fail("a catalog object needs numbers `" + ra_field + "` and `" + dec_field + "` (degrees)");
    const std::optional<SkyPoint> position = sky_point(ra->as_double(), dec->as_double(), error);
    if (!position) fail(error);
    objects.push_back({*position, std::move(record)});
  }
  return objects;
}

}  // namespace cwf::spatial
