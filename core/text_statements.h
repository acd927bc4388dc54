// The statements of an assembler text, as every engine's text form writes them: one per line,
// a ';' starts a comment, words are separated by blanks. Recognising an engine's text by its first
// statement needs nothing more, so the engines share this instead of each scanning lines.
#pragma once

#include <string_view>
#include <vector>

namespace shapevm {

// The words of one line, its comment removed.
std::vector<std::string_view> statement_words(std::string_view line);

// Calls `visit(words)` for each line holding a statement, in order, until it returns false.
template <typename Visit>
void for_each_statement(std::string_view text, Visit visit) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const auto words = statement_words(text.substr(start, end - start));
    start = end + 1;
    if (!words.empty() && !visit(words)) return;
  }
}

// The first word of the first statement ("" when the text holds none).
std::string_view first_statement_word(std::string_view text);

}  // namespace shapevm
