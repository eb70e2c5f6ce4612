#include "actors/eca/detector_graph.hpp"

namespace cwf::eca {

int DetectorGraph::add(const EventExpr& expr) {
  std::string type = expr.to_string();
  if (int existing = find(type); existing >= 0) return existing;
  std::vector<int> children;
  for (const auto& arg : expr.args)
    children.push_back(add(*arg));
  int id = static_cast<int>(nodes_.size());
  DetectorNode node;
  node.op = expr.op;
  node.type = type;
  node.type_value = Value(type);
  node.children = children;
  node.within = expr.within;
  nodes_.push_back(std::move(node));
  bool binary = expr.op == EventOp::seq || expr.op == EventOp::con || expr.op == EventOp::dex ||
                expr.op == EventOp::ccr;
  if (binary && children[0] == children[1]) {
    nodes_[static_cast<std::size_t>(children[0])].parents.emplace_back(id, kBothSlots);
  } else {
    for (std::size_t slot = 0; slot < children.size(); ++slot)
      nodes_[static_cast<std::size_t>(children[slot])].parents.emplace_back(id,
                                                                            static_cast<int>(slot));
  }
  by_type_.emplace(std::move(type), id);
  return id;
}

int DetectorGraph::find(std::string_view type) const {
  auto it = by_type_.find(type);
  return it == by_type_.end() ? -1 : it->second;
}

int DetectorGraph::leaf(std::string_view type) const {
  int id = find(type);
  return id >= 0 && node(id).op == EventOp::primitive ? id : -1;
}

}  // namespace cwf::eca
