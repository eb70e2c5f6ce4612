// Knows when a wave is complete at one input port (for wave-based windows).
//
// Every event that reaches a port is a *leaf* of its wave's tree: the root is the external event,
// each firing adds one level (t.1 ... t.n, the n-th marked last). A firing that emits nothing
// sends a *punctuation* instead (an Event whose wave tag is the input's tag with the punctuation
// flag, see WaveTag::as_punctuation): it is the leaf that stands for the outputs that were never
// made. A wave is complete when its tree is: every node's children 1..n arrived (n being the one
// marked last), each complete in turn, down to the leaves.
//
// Leaves are expected from one producer per port (two branches that both extend t to t.1 would
// be indistinguishable); a port joining branches of one wave should use one input per branch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/wave_tag.hpp"

namespace cwf {

class WaveCompletion {
 public:
  // Record an arriving leaf (event or punctuation). Returns true when it completes its root wave.
  bool add(const WaveTag& leaf);
  // Whether the root wave of `tag` is complete (tag may be the root or any of its descendants).
  bool complete(const WaveTag& tag) const;
  // Drop the state kept for the root wave of `tag` (after its window was consumed).
  void forget(const WaveTag& tag);
  std::size_t open_waves() const { return roots_.size(); }

 private:
  struct Node {
    std::uint32_t complete_children = 0;
    std::uint32_t last_index = 0;  // 0: the last child has not arrived yet
  };
  struct Root {
    bool complete = false;
    // Interior nodes by their path below the root (indexes joined), created on demand.
    std::unordered_map<std::string, Node> nodes;
  };
  std::unordered_map<WaveRoot, Root, WaveRoot::Hash> roots_;
};

}  // namespace cwf
