// A first-in first-out queue kept in one vector: push at the back, pop at the front. Unlike
// std::deque (libstdc++ allocates a 512-byte block for every deque, even an empty one) it holds
// nothing while empty and only what it held at most otherwise, which matters where there is one
// queue per window group and hundreds of thousands of groups (docs/performance.md, "Groups that
// come and go"). Popped slots are reset at once (what they held is released) and the dead front
// is dropped once it is half the vector: amortised O(1) per element.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace cwf::actors {

template <typename T>
class FifoVector {
 public:
  using const_iterator = typename std::vector<T>::const_iterator;

  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  T& front() { return items_[head_]; }
  const T& front() const { return items_[head_]; }
  T& back() { return items_.back(); }
  const T& back() const { return items_.back(); }
  const_iterator begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  const_iterator end() const { return items_.end(); }

  void push_back(T item) { items_.push_back(std::move(item)); }
  void pop_front() {
    items_[head_] = T();
    if (++head_ == items_.size()) {
      clear();
    } else if (head_ >= 16 && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  void clear() {
    items_.clear();
    head_ = 0;
  }

 private:
  std::vector<T> items_;
  std::size_t head_ = 0;
};

}  // namespace cwf::actors
