#include <ostream>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/registries.hpp"

namespace cwf::cli {

namespace {
void write_ports(const char* title, const std::vector<PortSpec>& ports, std::ostream& out) {
  out << "  " << title << ":";
  if (ports.empty()) out << " none";
  out << "\n";
  for (const PortSpec& p : ports) {
    out << "    " << p.name;
    if (!p.doc.empty()) out << " — " << p.doc;
    out << "\n";
  }
}
}  // namespace

int actors_command(const Words& words, std::ostream& out, std::ostream& err) {
  if (wants_help(words)) {
    out << "usage: cwf actors\n\n"
           "Lists every actor type a workflow file can use (`type:`) with its input and output\n"
           "ports and its parameters (type, default or required, meaning), then the scheduling\n"
           "policies of the scheduled director. docs/actors.md describes them at length.\n";
    return 0;
  }
  if (!words.empty()) {
    err << "cwf actors: takes no arguments\n";
    return 2;
  }
  for (const ActorType* type : actor_registry().list()) {
    out << type->name << " — " << type->doc << "\n";
    write_ports("inputs", type->ports.inputs, out);
    write_ports("outputs", type->ports.outputs, out);
    out << "  parameters:";
    if (type->params.empty()) out << " none";
    out << "\n";
    for (const ParamSpec& p : type->params) {
      out << "    " << p.name << " (" << param_type_name(p.type);
      if (p.default_value && p.default_value->is_null())
        out << ", optional";
      else if (p.default_value)
        out << ", default " << p.default_value->to_json();
      else
        out << ", required";
      if (p.changeable) out << ", changeable while it runs";
      out << ")";
      if (!p.doc.empty()) out << " — " << p.doc;
      out << "\n";
    }
    out << "\n";
  }
  out << "scheduling policies (director: {type: scheduled, scheduler: NAME}):\n";
  for (const auto& [name, doc] : scheduler_registry().list())
    out << "  " << name << " — " << doc << "\n";
  return 0;
}

}  // namespace cwf::cli
