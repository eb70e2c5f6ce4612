// A status attribute with a truth value: a rule's prerequisite (`¬S`, `m`), its consequent (`+S`,
// `-m`) or one conjunct of a condition (`RA:ap`, `not ED:cp`).
#pragma once

namespace cwf::gsm {

struct StatusLiteral {
  int attribute = -1;
  bool value = true;
  friend bool operator==(const StatusLiteral&, const StatusLiteral&) = default;
};

}  // namespace cwf::gsm
