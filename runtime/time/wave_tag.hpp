// Lineage of an event: which external event (the wave root) it descends from, and by which
// sequence of firings (the sub-wave path).
//
// The root of a wave is the external event's timestamp plus a sequence number that keeps two
// external events with equal timestamps apart. When an actor fires on an event of wave `t` and
// emits n events, they carry `t.1 ... t.n` and the n-th is marked *last*: a downstream actor knows
// it has seen all of `t`'s children when it has seen a last child at every level.
//
// Tags are compared in wave order: by root, then level by level (a parent sorts before its
// children). The last flags are annotations and do not take part in ordering or equality.
//
// Typical depths (one level per actor on the path, up to 13) with indexes up to 255 fit inline in
// a 40-byte tag, so an Event is one 64-byte cache line; deeper or wider paths move their levels to
// a shared immutable heap array, so copying a tag never allocates.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace cwf {

using Timestamp = std::int64_t;  // nanoseconds on the workflow's clock

// The identity of a wave: the external event at its root. A hashable key for per-wave state.
struct WaveRoot {
  Timestamp time = 0;
  std::uint64_t sequence = 0;
  bool operator==(const WaveRoot&) const = default;
  struct Hash {
    std::size_t operator()(const WaveRoot& r) const noexcept {
      return static_cast<std::size_t>(static_cast<std::uint64_t>(r.time) * 0x9e3779b97f4a7c15ULL ^
                                      r.sequence);
    }
  };
};

class WaveTag {
 public:
  static constexpr int kInlineLevels = 13;
  static constexpr std::uint32_t kInlineIndexLimit = 255;

  WaveTag() noexcept = default;  // the empty tag: no wave
  WaveTag(Timestamp root_time, std::uint64_t root_sequence) noexcept
      : root_time_(root_time), root_sequence_(root_sequence) {}
  // Copies and moves are on the per-event path: inline, a fixed-size block copy plus a reference
  // count only for spilled tags.
  WaveTag(const WaveTag& other) noexcept { copy_from(other); }
  WaveTag(WaveTag&& other) noexcept { take_from(other); }
  WaveTag& operator=(const WaveTag& other) noexcept {
    if (this != &other) {
      if (other.spilled_) retain_spill(other.spill());
      release();
      copy_bits(other);
    }
    return *this;
  }
  WaveTag& operator=(WaveTag&& other) noexcept {
    if (this != &other) {
      release();
      take_from(other);
    }
    return *this;
  }
  ~WaveTag() { release(); }

  // The sub-wave `this.index`, index counting from 1; `last` marks the final child of a firing.
  // Every output of a firing is stamped with one: inline while the levels fit in place.
  WaveTag child(std::uint32_t index, bool last) const {
    if (spilled_ || depth_ >= kInlineLevels || index > kInlineIndexLimit) [[unlikely]]
      return spilled_child(index, last);
    WaveTag out;
    out.copy_bits(*this);
    out.punctuation_ = 0;
    out.last_bits_ |= static_cast<std::uint64_t>(last) << depth_;
    out.levels_[depth_] = static_cast<std::uint8_t>(index);
    ++out.depth_;
    return out;
  }
  // This tag without its deepest level (the root's parent is itself).
  WaveTag parent() const;
  // The ancestor (or this) at the given depth; depth 0 is the root.
  WaveTag prefix(int depth) const;

  bool empty() const noexcept { return root_sequence_ == 0 && root_time_ == 0 && depth_ == 0; }
  Timestamp root_time() const noexcept { return root_time_; }
  std::uint64_t root_sequence() const noexcept { return root_sequence_; }
  WaveRoot root() const noexcept { return {root_time_, root_sequence_}; }
  // Number of sub-wave levels below the root.
  int depth() const noexcept { return depth_; }
  // Sub-wave index at level 1..depth().
  std::uint32_t index(int level) const noexcept;
  // Whether the index at level 1..depth() was the last child of its firing.
  bool is_last(int level) const noexcept { return (last_bits_ >> (level - 1)) & 1u; }
  // Last at every level: the final event descending from the wave root along this path.
  bool is_last() const noexcept {
    return depth_ == 0 || last_bits_ == (depth_ >= 64 ? ~0ull : (1ull << depth_) - 1);
  }
  bool is_ancestor_of(const WaveTag& other) const noexcept;

  // A punctuation stands for the outputs a firing on this wave did not produce (a filter that
  // dropped the event): it travels like an event with no data so that wave windows downstream
  // still learn that this part of the wave is complete. Like the last flags, it is an annotation:
  // it does not change the tag's identity or order.
  bool is_punctuation() const noexcept { return punctuation_ != 0; }
  WaveTag as_punctuation() const {
    WaveTag out(*this);
    out.punctuation_ = 1;
    return out;
  }
  // A progress mark (docs/architecture.md, "Progress"): a punctuation of no wave, whose time
  // says that nothing earlier will come through the connection it travels on. Wave windows pass
  // it over; it completes no wave.
  static WaveTag progress() {
    WaveTag out;
    out.punctuation_ = 1;
    return out;
  }
  bool is_progress() const noexcept { return punctuation_ != 0 && empty(); }
  // Same root.
  bool same_wave(const WaveTag& other) const noexcept {
    return root_time_ == other.root_time_ && root_sequence_ == other.root_sequence_;
  }

  friend std::strong_ordering operator<=>(const WaveTag& a, const WaveTag& b) noexcept;
  friend bool operator==(const WaveTag& a, const WaveTag& b) noexcept {
    return (a <=> b) == std::strong_ordering::equal;
  }

  // "t#seq.i.j*" where '*' follows a last index and a final '!' marks a punctuation;
  // human-readable, for logs and tests.
  std::string to_string() const;
  // Appends to_string()'s part after '#' ("seq.i.j*"): the wave without its root's time, which
  // a source stamping arrival time sets anew when it reads an event again.
  void append_path(std::string& out) const;

  static constexpr int kMaxDepth = 64;

 private:
  struct Spill;  // heap levels for deep or wide tags
  // child() of a tag whose levels do not fit in place (or will not once the child's is added).
  WaveTag spilled_child(std::uint32_t index, bool last) const;
  // While spilled, the pointer to the levels lives in the (then unused) inline level bytes.
  static constexpr int kSpillOffset = 5;
  Spill* spill() const noexcept {
    Spill* p;
    std::memcpy(&p, levels_ + kSpillOffset, sizeof p);
    return p;
  }
  void set_spill(Spill* p) noexcept {
    spilled_ = 1;
    std::memcpy(levels_ + kSpillOffset, &p, sizeof p);
  }
  void copy_from(const WaveTag& other) noexcept {
    copy_bits(other);
    if (spilled_) retain_spill(spill());
  }
  void take_from(WaveTag& other) noexcept {
    copy_bits(other);
    other.spilled_ = 0;
    other.depth_ = 0;
  }
  void copy_bits(const WaveTag& other) noexcept { std::memcpy(this, &other, sizeof *this); }
  void release() noexcept {
    if (spilled_) release_spill(spill());
    spilled_ = 0;
  }
  static void retain_spill(Spill* spill) noexcept;
  static void release_spill(Spill* spill) noexcept;

  Timestamp root_time_ = 0;
  std::uint64_t root_sequence_ = 0;
  std::uint64_t last_bits_ = 0;  // bit (level-1) set when that level is a last child
  std::uint8_t depth_ = 0;
  std::uint8_t spilled_ = 0;
  std::uint8_t punctuation_ = 0;
  std::uint8_t levels_[kInlineLevels] = {};
};

static_assert(sizeof(WaveTag) == 40, "an Event (token, time, wave) must stay one cache line");

}  // namespace cwf
