// Splitting a debugger command line into words, and reading its numeric arguments.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "harness/debugger.h"

namespace shapevm::harness {

// `s` without leading and trailing blanks.
inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// The first word and the trimmed rest.
inline std::pair<std::string, std::string> split_word(const std::string& s) {
  const std::string t = trim(s);
  const auto sp = t.find_first_of(" \t");
  if (sp == std::string::npos) return {t, ""};
  return {t.substr(0, sp), trim(t.substr(sp + 1))};
}

// A count argument (default 1); std::invalid_argument when it is none.
inline uint64_t count_arg(const std::string& args) {
  if (args.empty()) return 1;
  auto v = parse_integer(args);
  if (!v || *v < 0) throw std::invalid_argument(fmt::format("\"{}\" is not a count", args));
  return static_cast<uint64_t>(*v);
}

// An offset: 0x42, 66 or gdb's *0x42; std::invalid_argument when it is none.
inline uint32_t offset_arg(const std::string& text) {
  std::string t = text;
  if (!t.empty() && t[0] == '*') t.erase(0, 1);
  auto v = parse_integer(t);
  if (!v || *v < 0 || *v > UINT32_MAX)
    throw std::invalid_argument(fmt::format("\"{}\" is not an offset", text));
  return static_cast<uint32_t>(*v);
}

}  // namespace shapevm::harness
