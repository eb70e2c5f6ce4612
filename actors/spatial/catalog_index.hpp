// A catalog of sky objects (a JSON-lines file, one record with `ra` and `dec` in degrees per
// line) in a Boost.Geometry R-tree over unit vectors: the catalog object nearest to a position,
// if it lies within a given angle. Unit vectors make the answer exact at the poles and across
// right ascension 0, where nearness in (ra, dec) misleads.
#pragma once

#include <cstddef>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "actors/spatial/sky_point.hpp"
#include "runtime/values/value.hpp"

namespace cwf::spatial {

struct CatalogObject {
  SkyPoint position;
  Value record;  // the catalog's line, as read
};

struct NearestObject {
  const CatalogObject* object;
  double separation;  // degrees
};

class CatalogIndex {
 public:
  CatalogIndex();
  explicit CatalogIndex(std::vector<CatalogObject> objects);  // bulk-loaded (packed) tree
  ~CatalogIndex();
  // A moved-from index may only be assigned to or destroyed.
  CatalogIndex(CatalogIndex&&) noexcept;
  CatalogIndex& operator=(CatalogIndex&&) noexcept;
  // The object nearest to `point`, when it is at most `max_degrees` away.
  std::optional<NearestObject> nearest(SkyPoint point, double max_degrees) const;
  std::size_t size() const { return objects_.size(); }

 private:
  struct Tree;  // the R-tree (Boost.Geometry stays out of this header: it is slow to compile)
  std::vector<CatalogObject> objects_;
  std::unique_ptr<Tree> tree_;
};

// Reads a JSON-lines catalog (`name`: the file, for messages) whose positions are the fields
// `ra_field` and `dec_field`. Throws std::runtime_error "<name>:<line>: <what is wrong>" for a
// line that is not such a record.
std::vector<CatalogObject> read_catalog(std::istream& in, const std::string& name,
                                        const std::string& ra_field, const std::string& dec_field);

}  // namespace cwf::spatial
