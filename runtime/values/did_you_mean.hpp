// Did-you-mean hints for misspelt names: the candidate closest by edit distance, when it is close
// enough to be a plausible typo.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cwf {

// Levenshtein distance: the fewest one-character insertions, deletions and substitutions that
// turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

// When the closest candidate counts as a plausible typo of the word.
enum class Closeness {
  // At most max(2, a third of the word's length) edits away: a typo changes a few characters;
  // beyond a third of the word it is a different word.
  typo,
  // That, or the word merely extends the candidate, of three or more characters ("lenght" for
  // "len").
  typo_or_extension,
};

// The closest candidate (the first of equally close ones) if it is a plausible typo of `word`.
std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates,
                                        Closeness closeness = Closeness::typo);

// "; did you mean 'x'?" with that candidate, or "" when there is none.
std::string did_you_mean_suffix(std::string_view word, const std::vector<std::string>& candidates,
                                Closeness closeness = Closeness::typo);

}  // namespace cwf
