#include "runtime/execution/wave_completion.hpp"

#include "runtime/execution/time_keeper.hpp"

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

}  // namespace cwf
