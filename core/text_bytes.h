// Text read from old game files is bytes, not UTF-8: a name in an FA import table, an Apache
// record header or a Starlancer part may hold any byte (e.g. 0x98). JSON strings must be UTF-8, so
// every JSON writer turns such bytes into text by one documented rule (docs/trace.md, "Names in
// JSON"): each byte is the Latin-1 character with that number, so byte 0x98 becomes U+0098
// (written "\u0098"), and the bytes come back unchanged by encoding the string as Latin-1.
#pragma once

#include <string>
#include <string_view>

namespace shapevm {

// A name's bytes as UTF-8: bytes below 0x80 unchanged, each byte 0x80..0xFF as the code point
// U+0080..U+00FF (two UTF-8 bytes). Lossless for every input; use it for fields that hold bytes
// read from a file (names, texture names, a record's description).
std::string latin1_to_utf8(std::string_view bytes);

// shapevm's own messages are UTF-8 ("—", "→") and may quote a name's bytes. This keeps every valid
// UTF-8 sequence and turns each byte that is not part of one into its Latin-1 character, so the
// result is always valid UTF-8. Use it for prose (messages, comments, file names given by the
// user); name fields use latin1_to_utf8, which never mistakes a name's bytes for UTF-8.
std::string utf8_or_latin1(std::string_view text);

// True when `text` is valid UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
bool is_valid_utf8(std::string_view text);

}  // namespace shapevm
