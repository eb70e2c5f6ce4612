// The keys of a hash map in ascending order: checkpoints write map entries in key order, so that
// equal state gives equal bytes whatever order the map happens to hold them in.
#pragma once

#include <algorithm>
#include <vector>

namespace cwf {

template <class Map>
std::vector<typename Map::key_type> sorted_keys(const Map& map) {
  std::vector<typename Map::key_type> keys;
  keys.reserve(map.size());
  for (const auto& entry : map)
    keys.push_back(entry.first);
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace cwf
