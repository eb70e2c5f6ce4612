#include "runtime/actor/case_id.hpp"

#include "runtime/expressions/expression.hpp"

namespace cwf {

bool CaseId::matches(const Event& event) const {
  if (wave) return event.wave.root() == *wave;
  if (!match || key.is_null()) return false;
  return match->evaluate(event.token) == key;
}

std::string CaseId::describe() const {
  if (wave) return "wave " + WaveTag(wave->time, wave->sequence).to_string();
  return "key " + key.to_json();
}

}  // namespace cwf
