#include "runtime/wave_completion.hpp"

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

bool WaveCompletion::add(const WaveTag& leaf) {
  Root& root = roots_[leaf.root()];
  if (root.complete) return false;
  // The leaf completes its own node; walk up while each parent becomes complete in turn.
  for (int depth = leaf.depth(); depth > 0; --depth) {
    Node& parent = root.nodes[path_key(leaf, depth - 1)];
    ++parent.complete_children;
    if (leaf.is_last(depth)) parent.last_index = leaf.index(depth);
    if (parent.last_index == 0 || parent.complete_children < parent.last_index) return false;
    // A complete node's state is no longer needed: only its completion, counted in its parent.
    root.nodes.erase(path_key(leaf, depth - 1));
  }
  root.complete = true;
  root.nodes.clear();
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
