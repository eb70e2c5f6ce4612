// An actor type's ports are declared once (ActorPorts): the actor's constructor declares the fixed
// ones in order and the members of its families, and ActorPorts::mismatch tells whether an actor's
// ports are exactly what its type declares.
#include "runtime/actor/actor_ports.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/actor/actor.hpp"

namespace cwf {
namespace {

const PortSpec kToNeighbour{"to_<neighbour>", "messages to that neighbour"};
const ActorPorts kBrokerLike{{{"publish", "publications"}, {"peers", "from the neighbours"}},
                             {{"deliveries", "to subscribers"}, kToNeighbour}};

// Declares the fixed ports of kBrokerLike and one member of its family per neighbour.
class BrokerLike final : public Actor {
 public:
  explicit BrokerLike(const std::vector<std::string>& neighbours) : Actor(kBrokerLike) {
    for (const std::string& n : neighbours)
      neighbour_ports.push_back(add_family_output(kToNeighbour, n));
  }
  void fire(FiringContext&) override {}
  std::vector<int> neighbour_ports;
};

std::vector<std::string> names(std::span<const PortSpec> ports) {
  std::vector<std::string> out;
  for (const PortSpec& port : ports)
    out.push_back(port.name);
  return out;
}

std::vector<PortSpec> ports(std::vector<std::string> names) {
  std::vector<PortSpec> out;
  for (std::string& name : names)
    out.push_back({std::move(name), ""});
  return out;
}

TEST(ActorPorts, TheConstructorDeclaresTheFixedPortsInOrderThenTheFamilyMembers) {
  BrokerLike actor({"b2", "b3"});
  EXPECT_EQ(names(actor.inputs()), (std::vector<std::string>{"publish", "peers"}));
  EXPECT_EQ(names(actor.outputs()), (std::vector<std::string>{"deliveries", "to_b2", "to_b3"}));
  EXPECT_EQ(actor.neighbour_ports, (std::vector<int>{1, 2}));
  EXPECT_EQ(actor.outputs()[2].doc, "messages to that neighbour");
  EXPECT_EQ(actor.inputs()[1].doc, "from the neighbours");
  EXPECT_EQ(kBrokerLike.mismatch(actor.inputs(), actor.outputs()), "");
}

TEST(ActorPorts, AFamilyMemberReplacesThePlaceholder) {
  EXPECT_EQ(family_member_name({"in<i>", ""}, "3"), "in3");
  EXPECT_EQ(family_member_name({"to_<n>_out", ""}, "b"), "to_b_out");
  EXPECT_TRUE(is_family_member({"to_<n>_out", ""}, "to_b_out"));
  EXPECT_FALSE(is_family_member({"to_<n>_out", ""}, "to__out"));  // no value
  EXPECT_FALSE(is_family_member({"to_<n>_out", ""}, "to_b"));
  EXPECT_FALSE(is_family_member({"out", ""}, "out"));  // a fixed port is no family
  EXPECT_FALSE(is_family_member(kToNeighbour, kToNeighbour.name));
  EXPECT_TRUE(is_port_family(kToNeighbour));
  EXPECT_FALSE(is_port_family({"deliveries", ""}));
}

TEST(ActorPorts, AnUndeclaredPortIsAMismatch) {
  EXPECT_EQ(kBrokerLike.mismatch(ports({"publish", "peers", "ops"}), ports({"deliveries"})),
            "inputs [publish, peers, ops] are not the declared [publish, peers]: 'ops' is not "
            "declared");
  EXPECT_EQ(kBrokerLike.mismatch(ports({"publish", "peers"}), ports({"deliveries", "from_b2"})),
            "outputs [deliveries, from_b2] are not the declared [deliveries, to_<neighbour>]: "
            "'from_b2' is not declared");
}

TEST(ActorPorts, AMissingOrMisplacedFixedPortIsAMismatch) {
  EXPECT_EQ(kBrokerLike.mismatch(ports({"publish"}), ports({"deliveries"})),
            "inputs [publish] are not the declared [publish, peers]: port 1 should be 'peers'");
  EXPECT_EQ(kBrokerLike.mismatch(ports({"peers", "publish"}), ports({"deliveries"})),
            "inputs [peers, publish] are not the declared [publish, peers]: port 0 should be "
            "'publish'");
  EXPECT_EQ(kBrokerLike.mismatch(ports({"publish", "peers"}), ports({"to_b2", "deliveries"})),
            "outputs [to_b2, deliveries] are not the declared [deliveries, to_<neighbour>]: "
            "port 0 should be 'deliveries'");
}

TEST(ActorPorts, AFixedPortAfterAFamilyIsAMismatch) {
  const ActorPorts misordered{{}, {kToNeighbour, {"deliveries", ""}}};
  EXPECT_EQ(misordered.mismatch({}, ports({"deliveries"})),
            "outputs port 'deliveries' is declared after the family 'to_<neighbour>': fixed "
            "ports come first");
}

}  // namespace
}  // namespace cwf
