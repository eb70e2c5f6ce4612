// Fuzzes the Linear Road input line parser: the input is one line. A line it accepts must hold
// 15 fields whose values it returns unchanged (rendered back and parsed again, it gives the same
// record). Rejections are expected; a crash, undefined behaviour or a changed record is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "linear_road/input_parser.hpp"
#include "linear_road/records.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view line(reinterpret_cast<const char*>(data), size);
  cwf::lr::InputRecord record;
  if (cwf::lr::parse_input_line(line, record) != cwf::lr::InputReject::none) return 0;
  const std::int32_t fields[] = {record.type,  record.time, record.carid, record.speed, record.xway,
                                 record.lane,  record.dir,  record.seg,   record.pos,   record.qid,
                                 record.sinit, record.send, record.dow,   record.tod,   record.day};
  std::string rendered;
  for (std::int32_t field : fields) {
    if (!rendered.empty()) rendered.push_back(',');
    rendered += std::to_string(field);
  }
  cwf::lr::InputRecord again;
  if (cwf::lr::parse_input_line(rendered, again) != cwf::lr::InputReject::none ||
      !(again == record)) {
    std::fprintf(stderr, "accepted line '%.*s' does not read back as '%s'\n",
                 static_cast<int>(line.size()), line.data(), rendered.c_str());
    std::abort();
  }
  return 0;
}
