// Fuzzes the framing of the push sources (actors/net/record_decoder.hpp): bytes from a socket
// cut into lines, each read as a JSON object or a CSV record under its header line. The first
// byte picks the format and the longest line, the second how the rest arrives in pieces. The
// pieces must decode exactly as the whole does (a record never depends on where TCP cut the
// stream), every record is a record and every malformed line's text is cut to its limit.
// A crash, undefined behaviour, a leak, a hang or a difference is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "actors/net/record_decoder.hpp"

namespace {

using cwf::net::DecodedLine;
using cwf::net::RecordDecoder;

std::vector<std::string> decode(RecordDecoder::Format format, std::size_t max,
                                std::string_view text, std::size_t piece) {
  RecordDecoder decoder(format, max);
  std::vector<std::string> lines;
  auto out = [&](DecodedLine line) {
    if (line.error.empty() && !line.record.is_record()) {
      std::fprintf(stderr, "a record that is not one: %s\n", line.record.to_json().c_str());
      std::abort();
    }
    if (line.text.size() > RecordDecoder::kShownText) {
      std::fprintf(stderr, "a malformed line's text longer than its limit\n");
      std::abort();
    }
    lines.push_back(line.error.empty() ? line.record.to_json() : line.error + "|" + line.text);
  };
  for (std::size_t at = 0; at < text.size(); at += piece)
    decoder.feed(text.substr(at, piece), out);
  decoder.finish(out);
  return lines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const auto format = data[0] & 1 ? RecordDecoder::Format::csv : RecordDecoder::Format::jsonl;
  const std::size_t max = 1 + (data[0] >> 1);  // 1 to 128 bytes
  const std::size_t piece = 1 + data[1] % 16;
  std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
  const std::vector<std::string> whole = decode(format, max, text, text.size() + 1);
  const std::vector<std::string> pieces = decode(format, max, text, piece);
  if (whole != pieces) {
    std::fprintf(stderr, "%zu lines whole, %zu in pieces of %zu bytes\n", whole.size(),
                 pieces.size(), piece);
    for (std::size_t i = 0; i < whole.size() && i < pieces.size(); ++i)
      if (whole[i] != pieces[i])
        std::fprintf(stderr, "line %zu: %s | %s\n", i, whole[i].c_str(), pieces[i].c_str());
    std::abort();
  }
  return 0;
}
