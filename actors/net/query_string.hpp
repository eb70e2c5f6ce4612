// The query of a request's target (`/path?from=a.out&where=%2Fx%20%3E%201`): names to values,
// percent-decoded, '+' read as a space (the HTML form encoding browsers use).
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace cwf::net {

// Throws std::invalid_argument for a '%' not followed by two hexadecimal digits or a name given
// twice. A name without '=' has the empty value.
std::map<std::string, std::string> parse_query(std::string_view target);

// The inverse, for clients: every byte but letters, digits and -._~ as %XX.
std::string percent_encode(std::string_view text);

}  // namespace cwf::net
