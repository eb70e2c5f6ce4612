// The token that travels through a workflow: null, bool, int, double, string, array or record.
//
// A Value is 16 bytes and behaves as immutable. Scalars and strings of up to 14 bytes live inline;
// longer strings, arrays and records live in a reference-counted payload shared by every copy, so
// copying a Value never copies data. The one exception is copy-on-write for records
// (mutable_slots): the sole owner of a payload may change it in place, which no one can observe.
// Records share an interned Schema (field name -> slot), which lets a compiled path such as `/seg`
// resolve to a slot index once instead of a name lookup per event.
#pragma once

#include <atomic>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cwf {

enum class Kind : std::uint8_t { null, boolean, integer, real, string, array, record };

std::string_view kind_name(Kind kind);

class Schema;
class Value;

namespace detail {
// What long strings, arrays and records share among their copies: a reference count, then the
// characters or the Values right after it. Here rather than in value.cpp so that reading an
// array's items or a record's slots is inline, not a call per access.
struct Payload {
  std::atomic<std::uint32_t> refs{1};
  std::uint32_t size = 0;          // bytes for strings, elements for arrays and records
  const Schema* schema = nullptr;  // records only

  char* chars() { return reinterpret_cast<char*>(this + 1); }
  Value* values() { return reinterpret_cast<Value*>(this + 1); }
};
}  // namespace detail

class Value {
 public:
  Value() noexcept { set_tag(Tag::null); }
  Value(std::nullptr_t) noexcept : Value() {}
  Value(bool b) noexcept {
    set_tag(Tag::boolean);
    bits_.scalar.b = b;
  }
  Value(std::int64_t i) noexcept {
    set_tag(Tag::integer);
    bits_.scalar.i = i;
  }
  Value(int i) noexcept : Value(static_cast<std::int64_t>(i)) {}
  Value(double d) noexcept {
    set_tag(Tag::real);
    bits_.scalar.d = d;
  }
  Value(std::string_view s);
  Value(const char* s) : Value(std::string_view(s)) {}
  Value(const std::string& s) : Value(std::string_view(s)) {}

  static Value array(std::span<const Value> items);
  static Value array(std::vector<Value>&& items);
  static Value array(std::initializer_list<Value> items) {
    return array(std::span<const Value>(items.begin(), items.size()));
  }
  // An array of the values `items` point to that takes no reference to them (no count touched,
  // so no cache line of theirs written): it must not outlive them, and whoever made it ends it
  // with end_borrow() while they are alive. Copies made of it meanwhile stay valid after that
  // (end_borrow then takes the references it borrowed).
  static Value borrowing_array(std::span<const Value* const> items);
  // Ends a borrowing_array() (this Value, which becomes null): frees it if this is its only
  // reference, else takes references to its items for the copies that hold it and lets go.
  void end_borrow() noexcept;
  // A record over an interned schema; `slots` must have schema->size() entries.
  static Value record(const Schema* schema, std::span<const Value> slots);
  static Value record(const Schema* schema, std::vector<Value>&& slots);
  // Convenience for tests and literals: field names in the given order.
  static Value record(std::initializer_list<std::pair<std::string_view, Value>> fields);
  // A record over `schema` (an array of `n` items) whose slots `make(i)` makes in place, in
  // order: one allocation, where building a list of the values first and copying it in takes two.
  // When `make` throws, what it made so far is released and the exception goes on.
  template <typename Make>
  static Value record_made(const Schema* schema, Make&& make);
  template <typename Make>
  static Value array_made(std::size_t n, Make&& make);

  Value(const Value& other) noexcept : bits_(other.bits_) { retain(); }
  Value(Value&& other) noexcept : bits_(other.bits_) { other.set_tag(Tag::null); }
  Value& operator=(const Value& other) noexcept {
    if (this != &other) {
      other.retain();
      release();
      bits_ = other.bits_;
    }
    return *this;
  }
  Value& operator=(Value&& other) noexcept {
    if (this != &other) {
      release();
      bits_ = other.bits_;
      other.set_tag(Tag::null);
    }
    return *this;
  }
  ~Value() { release(); }

  Kind kind() const noexcept;
  bool is_null() const noexcept { return tag() == Tag::null; }
  bool is_bool() const noexcept { return tag() == Tag::boolean; }
  bool is_int() const noexcept { return tag() == Tag::integer; }
  bool is_double() const noexcept { return tag() == Tag::real; }
  bool is_number() const noexcept { return is_int() || is_double(); }
  bool is_string() const noexcept {
    return tag() == Tag::short_string || tag() == Tag::heap_string;
  }
  bool is_array() const noexcept { return tag() == Tag::array; }
  bool is_record() const noexcept { return tag() == Tag::record; }

  // Accessors throw TypeError when the kind does not match; as_double accepts integers too.
  bool as_bool() const {
    if (!is_bool()) type_error(Kind::boolean);
    return bits_.scalar.b;
  }
  std::int64_t as_int() const {
    if (!is_int()) type_error(Kind::integer);
    return bits_.scalar.i;
  }
  double as_double() const {
    if (is_double()) return bits_.scalar.d;
    if (!is_int()) type_error(Kind::real);
    return static_cast<double>(bits_.scalar.i);
  }
  std::string_view as_string() const {
    if (tag() == Tag::short_string) return {bits_.small.chars, bits_.small.len};
    if (tag() != Tag::heap_string) type_error(Kind::string);
    return {bits_.scalar.p->chars(), bits_.scalar.p->size};
  }
  std::span<const Value> as_array() const {
    if (!is_array()) type_error(Kind::array);
    return {bits_.scalar.p->values(), bits_.scalar.p->size};
  }
  // Records only.
  const Schema* schema() const {
    if (!is_record()) type_error(Kind::record);
    return bits_.scalar.p->schema;
  }
  // Records only, in schema order.
  std::span<const Value> slots() const {
    if (!is_record()) type_error(Kind::record);
    return {bits_.scalar.p->values(), bits_.scalar.p->size};
  }
  // Records only: the slots, writable. A payload shared with other Values is first copied so that
  // they keep seeing the old slots; the sole owner (an actor that took the record from its window
  // and passes it on, see FiringContext::take) changes it in place, without allocating.
  std::span<Value> mutable_slots();
  // Record field by name; nullptr when this is not a record or has no such field.
  const Value* field(std::string_view name) const noexcept;

  // Truthiness used by filters and guards: null/false/0/""/[] are false. Inline for what
  // conditions mostly give (a bool, null), the rest out of line.
  bool truthy() const noexcept {
    if (tag() == Tag::boolean) return bits_.scalar.b;
    return tag() != Tag::null && truthy_otherwise();
  }

  // Total order across kinds (null < bool < numbers < string < array < record); ints and doubles
  // compare numerically so that 2 == 2.0, as a user writing `/x == 2` expects.
  friend std::strong_ordering compare(const Value& a, const Value& b) noexcept;
  friend bool operator==(const Value& a, const Value& b) noexcept {
    // Two integers, the common case of keys and fields, without a call.
    if (a.is_int() && b.is_int()) return a.bits_.scalar.i == b.bits_.scalar.i;
    return compare(a, b) == std::strong_ordering::equal;
  }
  friend std::strong_ordering operator<=>(const Value& a, const Value& b) noexcept {
    return compare(a, b);
  }
  // Consistent with ==: equal values hash equally (2 and 2.0 included).
  std::size_t hash() const noexcept;
  // The hash an array of these items has, without building the array (lookups by a list of keys).
  static std::size_t hash_of_array(std::span<const Value> items) noexcept;

  // JSON text (records as objects in schema order). JSON has no numbers for the doubles that are
  // not finite: they are written as the strings "Infinity", "-Infinity" and "NaN"
  // (non_finite_word), which stay valid JSON and which double(...) reads back.
  std::string to_json() const;
  void append_json(std::string& out) const;
  // Plain text: strings without quotes, a non-finite double as its bare word (Infinity), everything
  // else as JSON.
  std::string to_text() const;

 private:
  enum class Tag : std::uint8_t {
    null,
    boolean,
    integer,
    real,
    short_string,
    heap_string,
    array,
    record
  };
  static constexpr std::size_t kInlineChars = 14;
  // Both variants start with the tag (common initial sequence), so reading `tag()` is valid
  // whichever variant is active.
  union Bits {
    struct {
      Tag tag;
      std::uint8_t len;
      char chars[kInlineChars];
    } small;
    struct {
      Tag tag;
      std::uint8_t pad[7];
      union {
        bool b;
        std::int64_t i;
        double d;
        detail::Payload* p;
      };
    } scalar;
  };
  Tag tag() const noexcept { return bits_.small.tag; }
  void set_tag(Tag t) noexcept { bits_.small.tag = t; }
  bool is_heap() const noexcept { return tag() >= Tag::heap_string; }
  // Inline: most tokens are scalars or short strings, and only the last copy frees a payload.
  void retain() const noexcept {
    if (is_heap()) bits_.scalar.p->refs.fetch_add(1, std::memory_order_relaxed);
  }
  void release() noexcept {
    if (is_heap() && bits_.scalar.p->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      destroy_payload();
  }
  // The last copy went: the payload's Values are released and its memory freed.
  void destroy_payload() noexcept;
  // truthy() of what is neither a bool nor null.
  bool truthy_otherwise() const noexcept;
  // An array or record of `n` nulls (record_made, array_made fill them in).
  static Value nulls(Tag tag, std::size_t n, const Schema* schema);
  template <typename Make>
  static Value made(Value v, Make&& make) {
    Value* out = v.bits_.scalar.p->values();
    const std::size_t n = v.bits_.scalar.p->size;
    for (std::size_t i = 0; i < n; ++i)
      out[i] = make(i);
    return v;
  }
  [[noreturn]] void type_error(Kind wanted) const;

  Bits bits_;
};

static_assert(sizeof(Value) == 16, "Value must stay 16 bytes");

// How every output writes a double that is not a finite number: "Infinity", "-Infinity" or "NaN"
// (bare in text and CSV, a JSON string in JSON). The spelling is the one that C (strtod,
// from_chars), JavaScript, Java and Python read back as that double.
std::string_view non_finite_word(double d) noexcept;
// The double of one of those three words (exactly as spelled there); false for any other text.
bool parse_non_finite_word(std::string_view text, double& out) noexcept;

// Thrown by the typed accessors of Value.
class TypeError : public std::exception {
 public:
  explicit TypeError(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

// An interned list of record field names. Schemas are created once per distinct field list and
// live for the whole process, so a `const Schema*` can be compared by address and cached.
// A record never has two fields of one name (its JSON would be an object with a repeated key):
// interning a list with a repeated name throws std::invalid_argument, so no record is built with
// one.
class Schema {
 public:
  static const Schema* intern(std::span<const std::string> fields);
  static const Schema* intern(std::initializer_list<std::string_view> fields);

  std::size_t size() const noexcept { return fields_.size(); }
  std::span<const std::string> fields() const noexcept { return fields_; }
  // Slot of a field, or -1.
  int slot(std::string_view name) const noexcept;

  explicit Schema(std::vector<std::string> fields) : fields_(std::move(fields)) {}

 private:
  std::vector<std::string> fields_;
};

template <typename Make>
Value Value::record_made(const Schema* schema, Make&& make) {
  return made(nulls(Tag::record, schema->size(), schema), std::forward<Make>(make));
}

template <typename Make>
Value Value::array_made(std::size_t n, Make&& make) {
  return made(nulls(Tag::array, n, nullptr), std::forward<Make>(make));
}

struct ValueHash {
  std::size_t operator()(const Value& v) const noexcept { return v.hash(); }
};

}  // namespace cwf
