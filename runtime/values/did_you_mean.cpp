#include "runtime/values/did_you_mean.hpp"

#include <algorithm>

namespace cwf {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates,
                                        Closeness closeness) {
  const std::string* best = nullptr;
  std::size_t best_distance = 0;
  for (const std::string& candidate : candidates) {
    std::size_t d = edit_distance(word, candidate);
    if (!best || d < best_distance) {
      best = &candidate;
      best_distance = d;
    }
  }
  if (!best) return std::nullopt;
  if (best_distance <= std::max<std::size_t>(2, word.size() / 3)) return *best;
  if (closeness == Closeness::typo_or_extension && best->size() >= 3 && word.starts_with(*best))
    return *best;
  return std::nullopt;
}

std::string did_you_mean_suffix(std::string_view word, const std::vector<std::string>& candidates,
                                Closeness closeness) {
  std::optional<std::string> suggestion = did_you_mean(word, candidates, closeness);
  return suggestion ? "; did you mean '" + *suggestion + "'?" : "";
}

}  // namespace cwf
