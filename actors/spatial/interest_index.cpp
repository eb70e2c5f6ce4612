#include "actors/spatial/interest_index.hpp"

#include <algorithm>
#include <cmath>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>

namespace cwf::spatial {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

namespace {

using Point = bg::model::point<double, 2, bg::cs::cartesian>;
using Box = bg::model::box<Point>;
using Entry = std::pair<Box, std::size_t>;  // a box and the slot of its region

std::vector<Box> boxes_of(const Interest& interest) {
  const auto [ra_min, dec_min, ra_max, dec_max] = interest.box;
  if (ra_min <= ra_max) return {Box(Point(ra_min, dec_min), Point(ra_max, dec_max))};
  // Across right ascension 0: [ra_min, 360] and [0, ra_max].
  return {Box(Point(ra_min, dec_min), Point(360, dec_max)),
          Box(Point(0, dec_min), Point(ra_max, dec_max))};
}

const Value* field_of(const Value& record, std::string_view name) {
  const Value* value = record.field(name);
  return value != nullptr && !value->is_null() ? value : nullptr;
}

bool read_name(const Value& record, std::string_view name, std::string& out, std::string& error) {
  const Value* value = field_of(record, name);
  if (value == nullptr || !value->is_string() || value->as_string().empty()) {
    error = "a registration needs `" + std::string(name) + "`, a non-empty string";
    return false;
  }
  out = std::string(value->as_string());
  return true;
}

bool read_box(const Value& record, std::array<double, 4>& box, std::string& error) {
  const Value* value = field_of(record, "box");
  const char* expected = "`box` must be [ra_min, dec_min, ra_max, dec_max] in degrees";
  if (value == nullptr || !value->is_array() || value->as_array().size() != 4) {
    error = expected;
    return false;
  }
  for (std::size_t i = 0; i < 4; ++i) {
    const Value& n = value->as_array()[i];
    if (!n.is_number() || !std::isfinite(n.as_double())) {
      error = expected;
      return false;
    }
    box[i] = n.as_double();
  }
  if (box[1] < -90 || box[3] > 90 || box[1] > box[3]) {
    error = "`box` declinations must satisfy -90 <= dec_min <= dec_max <= 90";
    return false;
  }
  if (box[0] < 0 || box[0] > 360 || box[2] < 0 || box[2] > 360) {
    error = "`box` right ascensions must be within [0, 360]";
    return false;
  }
  return true;
}

}  // namespace

std::optional<Interest> read_interest(const Value& record, std::string& error) {
  if (!record.is_record()) {
    error = "a registration must be a record {user, region, box, types}";
    return std::nullopt;
  }
  Interest interest;
  if (!read_name(record, "user", interest.user, error) ||
      !read_name(record, "region", interest.region, error))
    return std::nullopt;
  if (const Value* remove = field_of(record, "remove")) {
    if (!remove->is_bool()) {
      error = "`remove` must be true or false";
      return std::nullopt;
    }
    interest.remove = remove->as_bool();
  }
  if (interest.remove) return interest;
  if (!read_box(record, interest.box, error)) return std::nullopt;
  if (const Value* types = field_of(record, "types")) {
    if (!types->is_array()) {
      error = "`types` must be a list of event types";
      return std::nullopt;
    }
    for (const Value& type : types->as_array()) {
      if (!type.is_string()) {
        error = "`types` must be a list of strings";
        return std::nullopt;
      }
      interest.types.emplace_back(type.as_string());
    }
  }
  return interest;
}

Value interest_record(const Interest& interest) {
  if (interest.remove)
    return Value::record(
        {{"user", interest.user}, {"region", interest.region}, {"remove", Value(true)}});
  std::vector<Value> types(interest.types.begin(), interest.types.end());
  return Value::record(
      {{"user", interest.user},
       {"region", interest.region},
       {"box", Value::array({interest.box[0], interest.box[1], interest.box[2], interest.box[3]})},
       {"types", Value::array(std::move(types))}});
}

struct InterestIndex::Tree {
  bgi::rtree<Entry, bgi::rstar<16>> rtree;
};

InterestIndex::InterestIndex() : tree_(std::make_unique<Tree>()) {}
InterestIndex::~InterestIndex() = default;
InterestIndex::InterestIndex(InterestIndex&&) noexcept = default;
InterestIndex& InterestIndex::operator=(InterestIndex&&) noexcept = default;

bool InterestIndex::apply(const Interest& interest) {
  const auto key = std::make_pair(interest.user, interest.region);
  if (const auto found = slot_of_.find(key); found != slot_of_.end()) {
    const std::size_t slot = found->second;
    for (const Box& box : boxes_of(*slots_[slot]))
      tree_->rtree.remove(Entry(box, slot));
    slots_[slot].reset();
    free_slots_.push_back(slot);
    slot_of_.erase(found);
  } else if (interest.remove) {
    return false;
  }
  if (interest.remove) return true;
  std::size_t slot = slots_.size();
  if (free_slots_.empty()) {
    slots_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  slots_[slot] = interest;
  for (const Box& box : boxes_of(interest))
    tree_->rtree.insert(Entry(box, slot));
  slot_of_.emplace(key, slot);
  return true;
}

void InterestIndex::users_at(SkyPoint point, std::string_view type,
                             std::vector<std::string_view>& users) const {
  users.clear();
  for (auto hit = tree_->rtree.qbegin(bgi::covers(Point(point.ra, point.dec)));
       hit != tree_->rtree.qend(); ++hit) {
    const Interest& interest = *slots_[hit->second];
    if (interest.types.empty() ||
        std::find(interest.types.begin(), interest.types.end(), type) != interest.types.end())
      users.push_back(interest.user);
  }
  std::sort(users.begin(), users.end());
  users.erase(std::unique(users.begin(), users.end()), users.end());
}

std::vector<Interest> InterestIndex::regions() const {
  std::vector<Interest> out;
  out.reserve(slot_of_.size());
  for (const auto& [key, slot] : slot_of_)
    out.push_back(*slots_[slot]);
  return out;
}

}  // namespace cwf::spatial
