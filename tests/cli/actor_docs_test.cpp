// docs/actors.md and the product agree: its table of actor types lists every type a workflow file
// can use (the registry `cwf actors` prints), no other, and the ports each has.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/registries.hpp"

namespace cwf::cli {
namespace {

struct TableRow {
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  bool patterned = false;  // a port family (`in0` .. `in<N-1>`), not a fixed list
};

// The words between backquotes in `cell`.
std::vector<std::string> quoted_words(const std::string& cell) {
  std::vector<std::string> words;
  for (std::size_t open = cell.find('`'); open != std::string::npos;
       open = cell.find('`', open + 1)) {
    std::size_t close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    words.push_back(cell.substr(open + 1, close - open - 1));
    open = close;
  }
  return words;
}

// The rows "| [`type`](link) | kind | inputs | outputs |" of the first table of docs/actors.md.
std::map<std::string, TableRow> actor_table() {
  std::ifstream in(CWF_SOURCE_DIR "/docs/actors.md");
  std::map<std::string, TableRow> rows;
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| [`", 0) != 0) {
      if (in_table) break;
      continue;
    }
    in_table = true;
    std::vector<std::string> cells;
    std::stringstream split(line.substr(1));
    for (std::string cell; std::getline(split, cell, '|');)
      cells.push_back(cell);
    if (cells.size() < 4) continue;
    std::string name = quoted_words(cells[0]).at(0);
    TableRow row{
        quoted_words(cells[2]), quoted_words(cells[3]),
        cells[2].find("..") != std::string::npos || cells[3].find("..") != std::string::npos};
    rows[name] = row;
  }
  return rows;
}

std::vector<std::string> names(const std::vector<PortSpec>& ports) {
  std::vector<std::string> out;
  for (const PortSpec& port : ports)
    out.push_back(port.name);
  return out;
}

TEST(ActorDocs, TheTableListsEveryRegisteredTypeAndNoOther) {
  std::map<std::string, TableRow> table = actor_table();
  ASSERT_FALSE(table.empty()) << "no table of actor types in docs/actors.md";
  std::set<std::string> documented, registered;
  for (const auto& [name, row] : table)
    documented.insert(name);
  for (const ActorType* type : actor_registry().list())
    registered.insert(type->name);
  EXPECT_EQ(documented, registered);
}

TEST(ActorDocs, TheTableGivesEachTypeItsPorts) {
  std::map<std::string, TableRow> table = actor_table();
  for (const ActorType* type : actor_registry().list()) {
    auto row = table.find(type->name);
    if (row == table.end() || row->second.patterned) continue;
    EXPECT_EQ(row->second.inputs, names(type->ports.inputs)) << type->name << " inputs";
    EXPECT_EQ(row->second.outputs, names(type->ports.outputs)) << type->name << " outputs";
  }
}

}  // namespace
}  // namespace cwf::cli
