# Writes OUTPUT, a C++ source defining the std::string_view cwf::cli::NAME holding the text of
# INPUT (run as: cmake -DINPUT=... -DOUTPUT=... -DNAME=... -P embed_text.cmake).
file(READ ${INPUT} text)
get_filename_component(input_name ${INPUT} NAME)
file(WRITE ${OUTPUT}
  "// Generated from ${input_name} by cmake/embed_text.cmake: edit that file, not this one.\n"
  "#include <string_view>\n\n"
  "namespace cwf::cli {\n"
  "extern const std::string_view ${NAME};\n"
  "const std::string_view ${NAME} = R\"cwf_embedded(${text})cwf_embedded\";\n"
  "}  // namespace cwf::cli\n")
