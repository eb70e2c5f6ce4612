// What the documentation says about the product, checked against the product: the keys of a
// connection, and how to get the output of stdout line by line.
#include <gtest/gtest.h>

#include <fstream>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kDocs = std::string(CWF_SOURCE_DIR) + "/docs/";

// docs/workflow-yaml.md quotes the error for a connection key the loader does not know, which
// names every key it does know.
TEST(DocsAgree, TheConnectionKeysAreTheLoaders) {
  std::string path = ::testing::TempDir() + "docs_agree_connection_key.yaml";
  std::ofstream(path) << "actors:\n"
                         "  a: {type: generator, count: 1}\n"
                         "  b: {type: stdout}\n"
                         "connections:\n"
                         "  - {from: a, to: b, color: red}\n";
  ProcessResult result = run_cwf({"validate", path});
  ASSERT_EQ(result.status, 2);
  const std::string prefix = "cwf: " + path + ":5:22: ";
  ASSERT_EQ(result.err.rfind(prefix, 0), 0u) << result.err;
  std::string message = result.err.substr(prefix.size());
  message.pop_back();  // the line end
  EXPECT_EQ(message,
            "unknown connection key 'color'; expected one of: from, to, window, capacity, "
            "overload, partition_by, broadcast, broadcast_when, partitioning");
  std::string doc = read_file(kDocs + "workflow-yaml.md");
  EXPECT_NE(doc.find("`" + message + "`"), std::string::npos)
      << "docs/workflow-yaml.md does not quote: " << message;
  EXPECT_EQ(doc.find("any key other than `from` and `to` is an error"), std::string::npos);
}

// docs/workflow-yaml.md quotes the error for two different windows declared on one port, at the
// columns its example's connections put the `window` key.
TEST(DocsAgree, TheConflictingWindowErrorIsTheLoaders) {
  std::string path = ::testing::TempDir() + "flow.yaml";
  std::ofstream(path)
      << "actors:\n"
         "  ship_north: {type: generator, count: 1}\n"
         "  ship_south: {type: generator, count: 1}\n"
         "  complete: {type: stdout}\n"
         "connections:\n"
         "\n"
         "\n"
         "  - {from: ship_north, to: complete, window: {size: 1 wave, step: 1 wave}}\n"
         "  - {from: ship_south, to: complete, window: {size: 2 waves, step: 1 "
         "wave}}\n";
  ProcessResult result = run_cwf({"validate", path});
  ASSERT_EQ(result.status, 2);
  const std::string prefix = "cwf: " + path + ":9:38: ";
  ASSERT_EQ(result.err.rfind(prefix, 0), 0u) << result.err;
  std::string message = "flow.yaml:9:38: " + result.err.substr(prefix.size());
  message.pop_back();  // the line end
  std::size_t at = message.find(path);
  ASSERT_NE(at, std::string::npos) << message;
  message.replace(at, path.size(), "flow.yaml");
  std::string doc = read_file(kDocs + "workflow-yaml.md");
  for (char& c : doc)
    if (c == '\n') c = ' ';
  EXPECT_NE(doc.find("`" + message + "`"), std::string::npos)
      << "docs/workflow-yaml.md does not quote: " << message;
}

// The README and the workflow file reference say early how to get lines into a pipe; the option
// they name is the one cwf run has.
TEST(DocsAgree, LineBufferingIsDocumentedAsTheProductOffersIt) {
  ProcessResult help = run_cwf({"run", "--help"});
  ASSERT_NE(help.out.find("--line-buffered"), std::string::npos) << help.out;
  for (const std::string& file :
       {std::string(CWF_SOURCE_DIR) + "/README.md", kDocs + "workflow-yaml.md"}) {
    std::string doc = read_file(file);
    std::size_t said = doc.find("--line-buffered");
    ASSERT_NE(said, std::string::npos) << file;
    EXPECT_LT(said, doc.size() / 4) << file << ": said, but not early";
  }
}

}  // namespace
}  // namespace cwf::testing
