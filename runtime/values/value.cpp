#include "runtime/values/value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <unordered_map>

namespace cwf {

namespace detail {

// The elements follow the header in the same allocation (one allocation per payload), aligned.
static_assert(sizeof(Payload) % alignof(Value) == 0);

namespace {
Payload* allocate(std::size_t extra_bytes) {
  void* memory = ::operator new(sizeof(Payload) + extra_bytes);
  return new (memory) Payload();
}
}  // namespace

}  // namespace detail

using detail::Payload;

std::string_view kind_name(Kind kind) {
  switch (kind) {
    case Kind::null:
      return "null";
    case Kind::boolean:
      return "bool";
    case Kind::integer:
      return "int";
    case Kind::real:
      return "double";
    case Kind::string:
      return "string";
    case Kind::array:
      return "array";
    case Kind::record:
      return "record";
  }
  return "?";
}

Value::Value(std::string_view s) {
  if (s.size() <= kInlineChars) {
    set_tag(Tag::short_string);
    bits_.small.len = static_cast<std::uint8_t>(s.size());
    std::memcpy(bits_.small.chars, s.data(), s.size());
    return;
  }
  Payload* p = detail::allocate(s.size());
  p->size = static_cast<std::uint32_t>(s.size());
  std::memcpy(p->chars(), s.data(), s.size());
  set_tag(Tag::heap_string);
  bits_.scalar.p = p;
}

namespace {
template <typename Fill>
Payload* make_values_payload(std::size_t n, Fill&& fill) {
  Payload* p = detail::allocate(n * sizeof(Value));
  p->size = static_cast<std::uint32_t>(n);
  Value* out = p->values();
  for (std::size_t i = 0; i < n; ++i)
    new (out + i) Value(fill(i));
  return p;
}
}  // namespace

Value Value::array(std::span<const Value> items) {
  Value v;
  v.bits_.scalar.p = make_values_payload(items.size(), [&](std::size_t i) { return items[i]; });
  v.set_tag(Tag::array);
  return v;
}

Value Value::array(std::vector<Value>&& items) {
  Value v;
  v.bits_.scalar.p =
      make_values_payload(items.size(), [&](std::size_t i) { return std::move(items[i]); });
  v.set_tag(Tag::array);
  return v;
}

Value Value::borrowing_array(std::span<const Value* const> items) {
  Payload* p = detail::allocate(items.size() * sizeof(Value));
  p->size = static_cast<std::uint32_t>(items.size());
  Value* values = p->values();
  for (std::size_t i = 0; i < items.size(); ++i) {
    Value* slot = new (&values[i]) Value();
    slot->bits_ = items[i]->bits_;  // the same value, no reference taken
  }
  Value v;
  v.bits_.scalar.p = p;
  v.set_tag(Tag::array);
  return v;
}

void Value::end_borrow() noexcept {
  Payload* p = bits_.scalar.p;
  // Only holders of a reference can add one: a count of 1 is this Value alone.
  if (p->refs.load(std::memory_order_acquire) == 1) {
    p->~Payload();
    ::operator delete(p);
  } else {
    Value* values = p->values();
    for (std::uint32_t i = 0; i < p->size; ++i)
      values[i].retain();
    release();
  }
  bits_ = Bits{};
  set_tag(Tag::null);
}

Value Value::record(const Schema* schema, std::span<const Value> slots) {
  if (slots.size() != schema->size()) throw TypeError("record: slot count does not match schema");
  Value v;
  Payload* p = make_values_payload(slots.size(), [&](std::size_t i) { return slots[i]; });
  p->schema = schema;
  v.bits_.scalar.p = p;
  v.set_tag(Tag::record);
  return v;
}

Value Value::record(const Schema* schema, std::vector<Value>&& slots) {
  if (slots.size() != schema->size()) throw TypeError("record: slot count does not match schema");
  Value v;
  Payload* p =
      make_values_payload(slots.size(), [&](std::size_t i) { return std::move(slots[i]); });
  p->schema = schema;
  v.bits_.scalar.p = p;
  v.set_tag(Tag::record);
  return v;
}

Value Value::nulls(Tag tag, std::size_t n, const Schema* schema) {
  Value v;
  Payload* p = make_values_payload(n, [](std::size_t) { return Value(); });
  p->schema = schema;
  v.bits_.scalar.p = p;
  v.set_tag(tag);
  return v;
}

Value Value::record(std::initializer_list<std::pair<std::string_view, Value>> fields) {
  std::vector<std::string> names;
  std::vector<Value> slots;
  names.reserve(fields.size());
  slots.reserve(fields.size());
  for (const auto& [name, value] : fields) {
    names.emplace_back(name);
    slots.push_back(value);
  }
  return record(Schema::intern(names), std::move(slots));
}

std::span<Value> Value::mutable_slots() {
  if (!is_record()) type_error(Kind::record);
  Payload* p = bits_.scalar.p;
  // Only holders of a reference can add one, so a count of 1 stays 1 while we write.
  if (p->refs.load(std::memory_order_acquire) != 1) {
    Value* from = p->values();
    Payload* copy = make_values_payload(p->size, [&](std::size_t i) { return from[i]; });
    copy->schema = p->schema;
    release();
    bits_.scalar.p = copy;
    p = copy;
  }
  return {p->values(), p->size};
}

void Value::destroy_payload() noexcept {
  Payload* p = bits_.scalar.p;
  if (tag() != Tag::heap_string) {
    Value* values = p->values();
    for (std::uint32_t i = 0; i < p->size; ++i)
      values[i].~Value();
  }
  p->~Payload();
  ::operator delete(p);
}

Kind Value::kind() const noexcept {
  switch (tag()) {
    case Tag::null:
      return Kind::null;
    case Tag::boolean:
      return Kind::boolean;
    case Tag::integer:
      return Kind::integer;
    case Tag::real:
      return Kind::real;
    case Tag::short_string:
    case Tag::heap_string:
      return Kind::string;
    case Tag::array:
      return Kind::array;
    case Tag::record:
      return Kind::record;
  }
  return Kind::null;
}

void Value::type_error(Kind wanted) const {
  throw TypeError("expected " + std::string(kind_name(wanted)) + ", got " +
                  std::string(kind_name(kind())));
}

const Value* Value::field(std::string_view name) const noexcept {
  if (!is_record()) return nullptr;
  int slot = bits_.scalar.p->schema->slot(name);
  return slot < 0 ? nullptr : bits_.scalar.p->values() + slot;
}

bool Value::truthy_otherwise() const noexcept {
  switch (tag()) {
    case Tag::null:
      return false;
    case Tag::boolean:
      return bits_.scalar.b;
    case Tag::integer:
      return bits_.scalar.i != 0;
    case Tag::real:
      return bits_.scalar.d != 0.0;
    case Tag::short_string:
      return bits_.small.len != 0;
    case Tag::heap_string:
      return true;
    case Tag::array:
      return bits_.scalar.p->size != 0;
    case Tag::record:
      return true;
  }
  return false;
}

namespace {
int kind_rank(Kind k) {
  switch (k) {
    case Kind::null:
      return 0;
    case Kind::boolean:
      return 1;
    case Kind::integer:
    case Kind::real:
      return 2;
    case Kind::string:
      return 3;
    case Kind::array:
      return 4;
    case Kind::record:
      return 5;
  }
  return 6;
}

std::strong_ordering compare_doubles(double a, double b) {
  // NaN sorts after every number and equal to itself, so the order stays total.
  bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb)
    return na == nb ? std::strong_ordering::equal
                    : (na ? std::strong_ordering::greater : std::strong_ordering::less);
  if (a < b) return std::strong_ordering::less;
  if (a > b) return std::strong_ordering::greater;
  return std::strong_ordering::equal;
}

std::strong_ordering compare_numbers(const Value& a, const Value& b) {
  if (a.is_int() && b.is_int()) return a.as_int() <=> b.as_int();
  return compare_doubles(a.as_double(), b.as_double());
}

template <typename Range>
std::strong_ordering compare_sequences(const Range& a, const Range& b) {
  std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    // Keys are mostly arrays of integers: those compare here, without the call.
    auto c = a[i].is_int() && b[i].is_int() ? a[i].as_int() <=> b[i].as_int() : compare(a[i], b[i]);
    if (c != std::strong_ordering::equal) return c;
  }
  return a.size() <=> b.size();
}

// Records with different schemas compare as maps sorted by field name.
std::vector<std::pair<std::string_view, const Value*>> sorted_fields(const Value& r) {
  std::vector<std::pair<std::string_view, const Value*>> out;
  auto names = r.schema()->fields();
  auto slots = r.slots();
  for (std::size_t i = 0; i < names.size(); ++i)
    out.emplace_back(names[i], &slots[i]);
  std::sort(out.begin(), out.end(), [](auto& x, auto& y) { return x.first < y.first; });
  return out;
}
}  // namespace

std::strong_ordering compare(const Value& a, const Value& b) noexcept {
  if (a.is_int() && b.is_int()) return a.bits_.scalar.i <=> b.bits_.scalar.i;
  Kind ka = a.kind(), kb = b.kind();
  int ra = kind_rank(ka), rb = kind_rank(kb);
  if (ra != rb) return ra <=> rb;
  switch (ka) {
    case Kind::null:
      return std::strong_ordering::equal;
    case Kind::boolean:
      return a.as_bool() <=> b.as_bool();
    case Kind::integer:
    case Kind::real:
      return compare_numbers(a, b);
    case Kind::string:
      return a.as_string().compare(b.as_string()) <=> 0;
    case Kind::array:
      return compare_sequences(a.as_array(), b.as_array());
    case Kind::record: {
      if (a.schema() == b.schema()) return compare_sequences(a.slots(), b.slots());
      auto fa = sorted_fields(a), fb = sorted_fields(b);
      std::size_t n = std::min(fa.size(), fb.size());
      for (std::size_t i = 0; i < n; ++i) {
        if (auto c = fa[i].first.compare(fb[i].first) <=> 0; c != 0) return c;
        if (auto c = compare(*fa[i].second, *fb[i].second); c != 0) return c;
      }
      return fa.size() <=> fb.size();
    }
  }
  return std::strong_ordering::equal;
}

namespace {
std::size_t mix(std::size_t h, std::size_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

// An integer's hash, and an integral double's (they are equal values).
std::size_t hash_of_int(std::int64_t i) noexcept {
  return std::hash<std::int64_t>{}(i);
}
}  // namespace

std::size_t Value::hash_of_array(std::span<const Value> items) noexcept {
  std::size_t h = 0xa11a7;
  for (const Value& v : items)  // an integer as hash() takes it, without the call
    h = mix(h, v.is_int() ? hash_of_int(v.bits_.scalar.i) : v.hash());
  return h;
}

std::size_t Value::hash() const noexcept {
  if (is_int()) return hash_of_int(bits_.scalar.i);  // the common key first
  switch (kind()) {
    case Kind::null:
      return 0x51ed27;
    case Kind::boolean:
      return bits_.scalar.b ? 0x2545f491 : 0x4f6cdd1d;
    case Kind::integer:  // taken above
    case Kind::real: {
      const double d = bits_.scalar.d;
      // Integral doubles hash like the integer they equal.
      if (std::isnan(d)) return 0x7ff8;
      if (d == std::floor(d) && std::abs(d) < 9.2e18)
        return hash_of_int(static_cast<std::int64_t>(d));
      return std::hash<double>{}(d);
    }
    case Kind::string:
      return std::hash<std::string_view>{}(as_string());
    case Kind::array:
      return hash_of_array(as_array());
    case Kind::record: {
      // Order-independent over fields so records equal across schemas hash equally.
      std::size_t h = 0x7ec0;
      auto names = schema()->fields();
      auto values = slots();
      for (std::size_t i = 0; i < names.size(); ++i)
        h += mix(std::hash<std::string>{}(names[i]), values[i].hash());
      return h;
    }
  }
  return 0;
}

namespace {
void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

void append_double(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out.push_back('"');
    out += non_finite_word(d);
    out.push_back('"');
    return;
  }
  // Shortest text that reads back to the same double; keep it a double on re-reading.
  char buf[32];
  auto result = std::to_chars(buf, buf + sizeof buf, d);
  std::string_view text(buf, static_cast<std::size_t>(result.ptr - buf));
  out += text;
  if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
}
}  // namespace

void Value::append_json(std::string& out) const {
  switch (kind()) {
    case Kind::null:
      out += "null";
      return;
    case Kind::boolean:
      out += bits_.scalar.b ? "true" : "false";
      return;
    case Kind::integer:
      out += std::to_string(bits_.scalar.i);
      return;
    case Kind::real:
      append_double(out, bits_.scalar.d);
      return;
    case Kind::string:
      append_json_string(out, as_string());
      return;
    case Kind::array: {
      out.push_back('[');
      bool first = true;
      for (const Value& v : as_array()) {
        if (!first) out.push_back(',');
        first = false;
        v.append_json(out);
      }
      out.push_back(']');
      return;
    }
    case Kind::record: {
      out.push_back('{');
      auto names = schema()->fields();
      auto values = slots();
      for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) out.push_back(',');
        append_json_string(out, names[i]);
        out.push_back(':');
        values[i].append_json(out);
      }
      out.push_back('}');
      return;
    }
  }
}

std::string Value::to_json() const {
  std::string out;
  append_json(out);
  return out;
}

std::string Value::to_text() const {
  if (is_string()) return std::string(as_string());
  if (is_double() && !std::isfinite(bits_.scalar.d))
    return std::string(non_finite_word(bits_.scalar.d));
  return to_json();
}

std::string_view non_finite_word(double d) noexcept {
  if (std::isnan(d)) return "NaN";
  return d > 0 ? "Infinity" : "-Infinity";
}

bool parse_non_finite_word(std::string_view text, double& out) noexcept {
  if (text == "Infinity")
    out = std::numeric_limits<double>::infinity();
  else if (text == "-Infinity")
    out = -std::numeric_limits<double>::infinity();
  else if (text == "NaN")
    out = std::numeric_limits<double>::quiet_NaN();
  else
    return false;
  return true;
}

// ---- Schema interning ----

namespace {
struct SchemaTable {
  std::mutex mutex;
  std::map<std::vector<std::string>, std::unique_ptr<Schema>, std::less<>> schemas;
};
SchemaTable& schema_table() {
  static SchemaTable* table = new SchemaTable();  // immortal: schemas outlive static destructors
  return *table;
}
}  // namespace

const Schema* Schema::intern(std::span<const std::string> fields) {
  std::vector<std::string> key(fields.begin(), fields.end());
  SchemaTable& table = schema_table();
  std::lock_guard lock(table.mutex);
  auto it = table.schemas.find(key);
  if (it != table.schemas.end()) return it->second.get();
  // A list with a repeated name is never interned, so checking a new list is enough.
  std::vector<std::string_view> sorted(fields.begin(), fields.end());
  std::sort(sorted.begin(), sorted.end());
  if (auto repeated = std::adjacent_find(sorted.begin(), sorted.end()); repeated != sorted.end())
    throw std::invalid_argument("a record cannot have two fields named '" + std::string(*repeated) +
                                "'");
  auto schema = std::make_unique<Schema>(key);
  const Schema* raw = schema.get();
  table.schemas.emplace(std::move(key), std::move(schema));
  return raw;
}

const Schema* Schema::intern(std::initializer_list<std::string_view> fields) {
  std::vector<std::string> names(fields.begin(), fields.end());
  return intern(std::span<const std::string>(names));
}

int Schema::slot(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < fields_.size(); ++i)
    if (fields_[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace cwf
