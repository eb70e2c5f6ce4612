#include "cli/lr_paths.hpp"

#include <filesystem>
#include <iomanip>

namespace cwf::cli {

std::string default_tolls_path(const std::string& input) {
  std::filesystem::path dir = std::filesystem::path(input).parent_path();
  for (const char* name : {"historical-tolls.dat", "historical-tolls.dat.xz"}) {
    std::filesystem::path candidate = dir / name;
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate, error)) return candidate.string();
  }
  return "";
}

void print_rejects(const lr::InputRejectTally& rejects, std::ostream& out) {
  out << "malformed lines: " << rejects.total() << "\n";
  for (std::size_t i = 1; i < lr::kInputRejectKinds; ++i) {
    auto reason = static_cast<lr::InputReject>(i);
    if (rejects.count(reason) == 0) continue;
    out << "  " << std::left << std::setw(12) << lr::input_reject_name(reason) << std::right
        << rejects.count(reason) << "  first at line";
    for (std::uint64_t line : rejects.first_lines(reason))
      out << " " << line;
    out << "\n";
  }
}

void print_speeds_left_out(std::uint64_t count, std::ostream& out) {
  if (count == 0) return;
  out << "position reports kept without their speed (outside 0..100, left out of the "
         "statistics; warnings): "
      << count << "\n";
}

}  // namespace cwf::cli
