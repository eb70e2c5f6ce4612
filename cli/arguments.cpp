#include "cli/arguments.hpp"

#include "runtime/values/did_you_mean.hpp"

namespace cwf::cli {

Arguments::Arguments(const std::vector<std::string>& words, const std::set<std::string>& flags,
                     const std::set<std::string>& valued) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word.size() < 3 || word.rfind("--", 0) != 0) {
      positional_.push_back(word);
      continue;
    }
    std::string name = word.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (flags.count(name)) {
      if (inline_value) throw UsageError("option --" + name + " takes no value");
      flags_.insert(name);
    } else if (valued.count(name)) {
      if (inline_value) {
        values_[name].push_back(*inline_value);
      } else if (i + 1 < words.size()) {
        values_[name].push_back(words[++i]);
      } else {
        throw UsageError("option --" + name + " needs a value");
      }
    } else {
      std::vector<std::string> known(flags.begin(), flags.end());
      known.insert(known.end(), valued.begin(), valued.end());
      std::string message = "unknown option --" + name;
      if (auto guess = did_you_mean(name, known)) message += "; did you mean --" + *guess + "?";
      throw UsageError(message);
    }
  }
}

std::optional<std::string> Arguments::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Arguments::values(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>() : it->second;
}

bool wants_help(const std::vector<std::string>& words) {
  for (const std::string& word : words)
    if (word == "--help" || word == "-h") return true;
  return false;
}

double parse_number(const std::string& text, const char* option) {
  try {
    std::size_t used = 0;
    double value = std::stod(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  throw UsageError(std::string(option) + " expects a number (got '" + text + "')");
}

}  // namespace cwf::cli
