// The push sources' framing (actors/net/record_decoder.hpp): lines cut wherever the bytes
// arrived, CR LF, oversized lines skipped to their end, JSON objects and CSV records under the
// stream's header, JSON documents of HTTP bodies.
#include "actors/net/record_decoder.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cwf::net {
namespace {

// Each line as the JSON of its record, or "error: reason | text".
std::vector<std::string> lines_of(RecordDecoder& decoder, const std::vector<std::string>& feeds,
                                  bool finish = true) {
  std::vector<std::string> lines;
  auto out = [&](DecodedLine line) {
    lines.push_back(line.error.empty() ? line.record.to_json()
                                       : "error: " + line.error + " | " + line.text);
  };
  for (const std::string& bytes : feeds)
    decoder.feed(bytes, out);
  if (finish) decoder.finish(out);
  return lines;
}

TEST(RecordDecoder, LinesAreWholeWhereverTheBytesWereCut) {
  RecordDecoder decoder(RecordDecoder::Format::jsonl, 1000);
  EXPECT_EQ(lines_of(decoder, {"{\"a\":", "1}\n{\"b\"", ":2}\r", "\n\n{\"c\":3}"}),
            (std::vector<std::string>{R"({"a":1})", R"({"b":2})", R"({"c":3})"}));
}

TEST(RecordDecoder, AnIncompleteLastLineWaitsUntilTheStreamEnds) {
  RecordDecoder decoder(RecordDecoder::Format::jsonl, 1000);
  EXPECT_TRUE(lines_of(decoder, {"{\"a\":1}"}, false).empty());
  EXPECT_EQ(lines_of(decoder, {}, true), (std::vector<std::string>{R"({"a":1})"}));
}

TEST(RecordDecoder, MalformedLinesSayWhyAndTheStreamGoesOn) {
  RecordDecoder decoder(RecordDecoder::Format::jsonl, 1000);
  const auto lines = lines_of(decoder, {"[1,2]\n{\"a\"\n{\"ok\":true}\n"});
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "error: expected a JSON object, got array | [1,2]");
  EXPECT_EQ(lines[1].rfind("error: invalid JSON at column ", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2], R"({"ok":true})");
}

TEST(RecordDecoder, ALineOverTheLimitIsReportedOnceAndSkippedToItsEnd) {
  RecordDecoder decoder(RecordDecoder::Format::jsonl, 10);
  // 12 bytes, then 10 (the limit itself is fine), arriving in pieces.
  EXPECT_EQ(
      lines_of(decoder, {"{\"a\":\"12", "34567\"}\n{\"b\":1234}", "\n"}),
      (std::vector<std::string>{"error: a line longer than 10 bytes (max_message) | {\"a\":\"12345",
                                R"({"b":1234})"}));
}

TEST(RecordDecoder, CsvRecordsTakeTheirNamesFromTheStreamsFirstLine) {
  RecordDecoder decoder(RecordDecoder::Format::csv, 1000);
  EXPECT_EQ(
      lines_of(decoder, {"id,name,price\r\n1,apple,0.5\n2,\"pear, green\",3\n4,x\n5,\"open\n"}),
      (std::vector<std::string>{
          R"({"id":1,"name":"apple","price":0.5})", R"({"id":2,"name":"pear, green","price":3})",
          "error: expected 3 fields (the header's), got 2 | 4,x",
          "error: a CSV line with an unterminated or misplaced quote | 5,\"open"}));
}

TEST(RecordDecoder, AHeaderNamingAColumnTwiceIsRefusedAndTheNextLineIsTheHeader) {
  RecordDecoder decoder(RecordDecoder::Format::csv, 1000);
  EXPECT_EQ(lines_of(decoder, {"a,a\na,b\n1,2\n"}),
            (std::vector<std::string>{
                "error: not a header: a record cannot have two fields named 'a' | a,a",
                R"({"a":1,"b":2})"}));
}

TEST(RecordDecoder, AJsonDocumentIsOneObjectOrAnArrayOfThem) {
  std::vector<std::string> lines;
  auto out = [&](DecodedLine line) {
    lines.push_back(line.error.empty() ? line.record.to_json() : "error: " + line.error);
  };
  RecordDecoder::decode_json_document("{\n  \"a\": 1\n}", out);
  RecordDecoder::decode_json_document("[{\"b\":2}, 3]", out);
  RecordDecoder::decode_json_document("{", out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], R"({"a":1})");
  EXPECT_EQ(lines[1], R"({"b":2})");
  EXPECT_EQ(lines[2], "error: expected a JSON object, got int");
  EXPECT_EQ(lines[3].rfind("error: invalid JSON at ", 0), 0u) << lines[3];
}

}  // namespace
}  // namespace cwf::net
