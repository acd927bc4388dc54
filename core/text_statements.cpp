#include "core/text_statements.h"

namespace shapevm {

std::vector<std::string_view> statement_words(std::string_view line) {
  line = line.substr(0, line.find(';'));
  std::vector<std::string_view> words;
  constexpr std::string_view kBlanks = " \t\r\f\v";
  size_t b = line.find_first_not_of(kBlanks);
  while (b != std::string_view::npos) {
    const size_t e = line.find_first_of(kBlanks, b);
    words.push_back(line.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    b = e == std::string_view::npos ? e : line.find_first_not_of(kBlanks, e);
  }
  return words;
}

std::string_view first_statement_word(std::string_view text) {
  std::string_view first;
  for_each_statement(text, [&](const std::vector<std::string_view>& words) {
    first = words[0];
    return false;
  });
  return first;
}

}  // namespace shapevm
