#include "runtime/time/wave_tag.hpp"

#include <atomic>
#include <cstring>
#include <new>
#include <stdexcept>

namespace cwf {

struct WaveTag::Spill {
  std::atomic<std::uint32_t> refs{1};
  std::uint32_t levels[kMaxDepth];
};

void WaveTag::retain_spill(Spill* spill) noexcept {
  spill->refs.fetch_add(1, std::memory_order_relaxed);
}

void WaveTag::release_spill(Spill* spill) noexcept {
  if (spill->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete spill;
}

std::uint32_t WaveTag::index(int level) const noexcept {
  return spilled_ ? spill()->levels[level - 1] : levels_[level - 1];
}

WaveTag WaveTag::spilled_child(std::uint32_t index, bool last) const {
  if (depth_ >= kMaxDepth)
    throw std::length_error("wave tag deeper than " + std::to_string(kMaxDepth) + " levels");
  WaveTag out;
  out.root_time_ = root_time_;
  out.root_sequence_ = root_sequence_;
  out.depth_ = static_cast<std::uint8_t>(depth_ + 1);
  out.last_bits_ = last_bits_ | (last ? (1ull << depth_) : 0);
  Spill* spill = new Spill();
  for (int i = 0; i < depth_; ++i)
    spill->levels[i] = this->index(i + 1);
  spill->levels[depth_] = index;
  out.set_spill(spill);
  return out;
}

WaveTag WaveTag::prefix(int depth) const {
  if (depth >= depth_) return *this;
  if (depth < 0) depth = 0;
  WaveTag out(root_time_, root_sequence_);
  out.depth_ = static_cast<std::uint8_t>(depth);
  out.last_bits_ = depth == 0 ? 0 : last_bits_ & ((1ull << depth) - 1);
  bool fits = depth <= kInlineLevels;
  for (int i = 0; i < depth && fits; ++i)
    fits = index(i + 1) <= kInlineIndexLimit;
  if (fits) {
    for (int i = 0; i < depth; ++i)
      out.levels_[i] = static_cast<std::uint8_t>(index(i + 1));
  } else {
    Spill* spill = new Spill();
    for (int i = 0; i < depth; ++i)
      spill->levels[i] = index(i + 1);
    out.set_spill(spill);
  }
  return out;
}

WaveTag WaveTag::parent() const {
  return prefix(depth_ - 1);
}

bool WaveTag::is_ancestor_of(const WaveTag& other) const noexcept {
  if (!same_wave(other) || depth_ >= other.depth_) return false;
  for (int level = 1; level <= depth_; ++level)
    if (index(level) != other.index(level)) return false;
  return true;
}

std::strong_ordering operator<=>(const WaveTag& a, const WaveTag& b) noexcept {
  if (auto c = a.root_time_ <=> b.root_time_; c != 0) return c;
  if (auto c = a.root_sequence_ <=> b.root_sequence_; c != 0) return c;
  int n = a.depth_ < b.depth_ ? a.depth_ : b.depth_;
  for (int level = 1; level <= n; ++level)
    if (auto c = a.index(level) <=> b.index(level); c != 0) return c;
  return a.depth_ <=> b.depth_;
}

std::string WaveTag::to_string() const {
  std::string out = std::to_string(root_time_) + "#";
  append_path(out);
  return out;
}

void WaveTag::append_path(std::string& out) const {
  out += std::to_string(root_sequence_);
  for (int level = 1; level <= depth_; ++level) {
    out += '.';
    out += std::to_string(index(level));
    if (is_last(level)) out += '*';
  }
  if (punctuation_) out += '!';
}

}  // namespace cwf
