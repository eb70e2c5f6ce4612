// Knows when a wave is complete at one input port (for wave-based windows).
//
// Every event that reaches a port is a *leaf* of its wave's tree: the root is the external event,
// each firing adds one level (t.1 ... t.n, the n-th marked last). A firing that emits nothing
// sends a *punctuation* instead (an Event whose wave tag is the input's tag with the punctuation
// flag, see WaveTag::as_punctuation): it is the leaf that stands for the outputs that were never
// made. Through one producer (one connection into the port), a wave is complete when its tree is:
// every node's children 1..n (n being the one marked last) arrived, each complete in turn, down
// to the leaves.
//
// A port may join parallel branches of one wave (CWP3: an order's items handled by different
// warehouses, synchronised again by wave). Every branch sees the whole tree of the waves it
// carries: the items it handles as events, the others as punctuations (the filter that routes
// them away sends one). So the trees are kept per producer, and a wave is complete at the port
// when it is complete through every producer that carries it. Which producers carry which waves
// is known from the graph (Execution: a producer carries every wave of the sources it reaches
// through actors that fire once per event); a wave's root names its source (its sequence number's
// top bits, see TimeKeeper). A wave that no producer is known to carry (it went through a window
// that fires once per several events on the way) is complete when it is complete through any
// one producer, as nothing better can be known.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/time/wave_tag.hpp"

namespace cwf {

class SnapshotReader;
class SnapshotWriter;

class WaveCompletion {
 public:
  // Producers beyond this many take no part in deciding completion (they are counted as not
  // carrying any wave).
  static constexpr std::size_t kMaxCarriers = 64;

  // Producer `producer` of the port delivers every wave of the sources `source_ordinals`.
  void set_carried_sources(std::size_t producer, const std::vector<std::uint32_t>& source_ordinals);

  // Record a leaf (event or punctuation) arriving through `producer`. Returns true when it
  // completes its root wave at the port.
  bool add(const WaveTag& leaf, std::size_t producer = 0);
  // Whether the root wave of `tag` is complete (tag may be the root or any of its descendants).
  bool complete(const WaveTag& tag) const;
  // Drop the state kept for the root wave of `tag` (after its window was consumed).
  void forget(const WaveTag& tag);
  std::size_t open_waves() const { return roots_.size(); }

  // Checkpoints: the waves being tracked, each with its trees per producer and the carriers it
  // still waits for. Which producers carry which sources is the graph's and is not written
  // (set_carried_sources is called again when the workflow is rebuilt). restore() replaces the
  // tracked waves; throws SnapshotError for damaged bytes.
  void snapshot(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  struct Node {
    std::uint32_t complete_children = 0;
    std::uint32_t last_index = 0;  // 0: the last child has not arrived yet
  };
  // A wave's tree as one producer delivered it: its interior nodes by their path below the root
  // (indexes joined), created on demand.
  struct Tree {
    bool complete = false;
    std::unordered_map<std::string, Node> nodes;
  };
  struct Root {
    bool complete = false;
    std::uint64_t waiting = 0;  // carriers whose tree is not complete yet (bit per producer)
    Tree first;                 // producer 0's: the usual single-producer port allocates no more
    std::vector<Tree> others;   // producer p ≥ 1 at p - 1
  };
  static Tree& tree_of(Root& root, std::size_t producer);
  // Adds the leaf to one tree; true when that completes the tree.
  static bool add_to(Tree& tree, const WaveTag& leaf);
  std::uint64_t carriers_of(const WaveRoot& root) const;

  std::unordered_map<WaveRoot, Root, WaveRoot::Hash> roots_;
  // By source ordinal: the producers that carry its waves (bit per producer).
  std::vector<std::uint64_t> carriers_by_source_;
};

}  // namespace cwf
