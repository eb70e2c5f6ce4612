#include "runtime/execution/wave_completion.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "runtime/execution/time_keeper.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {

namespace {
// The path of the node at `depth` levels below the root, as a map key.
std::string path_key(const WaveTag& tag, int depth) {
  std::string key;
  key.reserve(static_cast<std::size_t>(depth) * 4);
  for (int level = 1; level <= depth; ++level) {
    std::uint32_t index = tag.index(level);
    key.append(reinterpret_cast<const char*>(&index), sizeof index);
  }
  return key;
}
}  // namespace

void WaveCompletion::set_carried_sources(std::size_t producer,
                                         const std::vector<std::uint32_t>& source_ordinals) {
  if (producer >= kMaxCarriers) return;
  for (std::uint32_t ordinal : source_ordinals) {
    if (ordinal >= carriers_by_source_.size()) carriers_by_source_.resize(ordinal + 1, 0);
    carriers_by_source_[ordinal] |= std::uint64_t{1} << producer;
  }
}

std::uint64_t WaveCompletion::carriers_of(const WaveRoot& root) const {
  std::uint64_t ordinal = TimeKeeper::source_ordinal_of(root.sequence);
  return ordinal < carriers_by_source_.size() ? carriers_by_source_[ordinal] : 0;
}

WaveCompletion::Tree& WaveCompletion::tree_of(Root& root, std::size_t producer) {
  if (producer == 0) return root.first;
  if (root.others.size() < producer) root.others.resize(producer);
  return root.others[producer - 1];
}

bool WaveCompletion::add_to(Tree& tree, const WaveTag& leaf) {
  if (tree.complete) return false;
  // The leaf completes its own node; walk up while each parent becomes complete in turn.
  for (int depth = leaf.depth(); depth > 0; --depth) {
    Node& parent = tree.nodes[path_key(leaf, depth - 1)];
    ++parent.complete_children;
    if (leaf.is_last(depth)) parent.last_index = leaf.index(depth);
    if (parent.last_index == 0 || parent.complete_children < parent.last_index) return false;
    // A complete node's state is no longer needed: only its completion, counted in its parent.
    tree.nodes.erase(path_key(leaf, depth - 1));
  }
  tree.complete = true;
  tree.nodes.clear();
  return true;
}

bool WaveCompletion::add(const WaveTag& leaf, std::size_t producer) {
  auto [it, first_leaf] = roots_.try_emplace(leaf.root());
  Root& root = it->second;
  if (first_leaf) root.waiting = carriers_of(leaf.root());
  if (root.complete) return false;
  if (!add_to(tree_of(root, producer), leaf)) return false;
  // With no producer known to carry the wave (waiting empty from the start), one complete tree is
  // all that can be known; else every carrier's tree must be complete.
  if (root.waiting != 0) {
    if (producer < kMaxCarriers) root.waiting &= ~(std::uint64_t{1} << producer);
    if (root.waiting != 0) return false;
  }
  root.complete = true;
  root.first = Tree{};
  root.others.clear();
  return true;
}

bool WaveCompletion::complete(const WaveTag& tag) const {
  auto it = roots_.find(tag.root());
  return it != roots_.end() && it->second.complete;
}

void WaveCompletion::forget(const WaveTag& tag) {
  roots_.erase(tag.root());
}

// Written in a fixed order (roots by time and sequence, nodes by path) so that the same state
// always gives the same bytes. A node's path is written as its indexes, not as the map key's
// bytes, which depend on the machine.
void WaveCompletion::snapshot(SnapshotWriter& out) const {
  std::vector<std::pair<WaveRoot, const Root*>> roots;
  roots.reserve(roots_.size());
  for (const auto& [key, root] : roots_)
    roots.emplace_back(key, &root);
  std::sort(roots.begin(), roots.end(), [](const auto& a, const auto& b) {
    return a.first.time != b.first.time ? a.first.time < b.first.time
                                        : a.first.sequence < b.first.sequence;
  });
  auto write_tree = [&out](const Tree& tree) {
    out.write_bool(tree.complete);
    std::vector<std::pair<const std::string*, const Node*>> nodes;
    nodes.reserve(tree.nodes.size());
    for (const auto& [path, node] : tree.nodes)
      nodes.emplace_back(&path, &node);
    std::sort(nodes.begin(), nodes.end(),
              [](const auto& a, const auto& b) { return *a.first < *b.first; });
    out.write_u64(nodes.size());
    for (const auto& [path, node] : nodes) {
      std::size_t depth = path->size() / sizeof(std::uint32_t);
      out.write_u64(depth);
      for (std::size_t level = 0; level < depth; ++level) {
        std::uint32_t index;
        std::memcpy(&index, path->data() + level * sizeof index, sizeof index);
        out.write_u64(index);
      }
      out.write_u64(node->complete_children);
      out.write_u64(node->last_index);
    }
  };
  out.write_u64(roots.size());
  for (const auto& [key, root] : roots) {
    out.write_timestamp(key.time);
    out.write_u64(key.sequence);
    out.write_bool(root->complete);
    out.write_u64(root->waiting);
    out.write_u64(1 + root->others.size());
    write_tree(root->first);
    for (const Tree& tree : root->others)
      write_tree(tree);
  }
}

void WaveCompletion::restore(SnapshotReader& in) {
  roots_.clear();
  auto read_u32 = [&in](std::string_view what) {
    std::uint64_t v = in.read_u64(what);
    if (v > std::numeric_limits<std::uint32_t>::max()) in.reject(what, "larger than 32 bits");
    return static_cast<std::uint32_t>(v);
  };
  auto read_tree = [&](Tree& tree) {
    tree.complete = in.read_bool("whether a wave tree is complete");
    const std::size_t nodes = in.read_count("a wave tree's nodes");
    for (std::size_t i = 0; i < nodes; ++i) {
      const std::size_t depth = in.read_count("a node's depth");
      if (depth >= static_cast<std::size_t>(WaveTag::kMaxDepth))
        in.reject("a node's depth", "deeper than a wave tag can be");
      std::string path;
      for (std::size_t level = 0; level < depth; ++level) {
        std::uint32_t index = read_u32("a node's index");
        path.append(reinterpret_cast<const char*>(&index), sizeof index);
      }
      Node node;
      node.complete_children = read_u32("a node's complete children");
      node.last_index = read_u32("a node's last child");
      if (!tree.nodes.emplace(std::move(path), node).second)
        in.reject("a wave tree's node", "it is written twice");
    }
  };
  const std::size_t roots = in.read_count("the waves tracked");
  for (std::size_t r = 0; r < roots; ++r) {
    WaveRoot key;
    key.time = in.read_timestamp("a wave's root time");
    key.sequence = in.read_u64("a wave's root sequence");
    auto [it, inserted] = roots_.try_emplace(key);
    if (!inserted) in.reject("a tracked wave", "it is written twice");
    Root& root = it->second;
    root.complete = in.read_bool("whether a wave is complete");
    root.waiting = in.read_u64("the carriers a wave waits for");
    const std::size_t trees = in.read_count("a wave's trees");
    if (trees == 0) in.reject("a wave's trees", "every wave has its first producer's");
    read_tree(root.first);
    root.others.resize(trees - 1);
    for (Tree& tree : root.others)
      read_tree(tree);
  }
}

}  // namespace cwf
