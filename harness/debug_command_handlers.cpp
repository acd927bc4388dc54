// The debugger commands that manage breakpoints, watchpoints and displays, and the ones that show
// values, memory and the listing (the table and dispatcher are in debug_commands.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <sstream>

#include "core/input_error.h"
#include "harness/command_words.h"
#include "harness/debug_commands.h"
#include "harness/debug_views.h"
#include "raster/png_io.h"

namespace shapevm::harness {

namespace {

int id_arg(const std::string& args) {
  auto v = parse_integer(args);
  if (!v || *v <= 0 || *v > INT32_MAX)
    throw std::invalid_argument(fmt::format("\"{}\" is not a breakpoint number", args));
  return static_cast<int>(*v);
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Whether an instruction line of the listing starts with `mnemonic` (any case).
bool listed_mnemonic(const std::vector<ListingLine>& lines, const std::string& mnemonic) {
  for (const auto& line : lines) {
    if (!line.offset || line.native) continue;
    const auto start = line.text.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    const auto end = line.text.find_first_of(" \t", start);
    const std::string_view word =
        std::string_view(line.text).substr(start, end == std::string::npos ? end : end - start);
    if (word.size() == mnemonic.size() &&
        std::equal(word.begin(), word.end(), mnemonic.begin(), [](char x, char y) {
          return std::tolower(static_cast<unsigned char>(x)) ==
                 std::tolower(static_cast<unsigned char>(y));
        }))
      return true;
  }
  return false;
}

// A listing line that starts a labelled block ("L_0040:", "wings:"): no instruction, ends in ':'.
bool is_label(const ListingLine& line) {
  return !line.offset && !line.text.empty() && line.text.back() == ':' &&
         line.text.find(' ') == std::string::npos;
}

// The first listing line with an instruction at `offset` (bytecode before native).
std::optional<size_t> line_at(const std::vector<ListingLine>& lines, uint32_t offset) {
  std::optional<size_t> native;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].offset != offset) continue;
    if (!lines[i].native) return i;
    if (!native) native = i;
  }
  return native;
}

// gdb's /FORMAT: an optional count, then an optional letter.
struct Format {
  uint64_t count = 1;
  char letter = 0;
};

Format parse_format(const std::string& text, const std::string& letters) {
  Format f;
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits > 9) throw std::invalid_argument(fmt::format("/{}: the count is too large", text));
  if (digits > 0) {
    f.count = std::stoull(text.substr(0, digits));
    if (f.count == 0) throw std::invalid_argument("/0: the count must be at least 1");
  }
  const std::string rest = text.substr(digits);
  if (rest.size() > 1 || (rest.size() == 1 && letters.find(rest[0]) == std::string::npos)) {
    std::string choices;
    for (char c : letters) choices += (choices.empty() ? "" : "|") + std::string(1, c);
    throw std::invalid_argument(fmt::format("/{}: expected [COUNT][{}]", text, choices));
  }
  if (!rest.empty()) f.letter = rest[0];
  return f;
}

}  // namespace

void DebugCommands::add_break(const std::string& args, bool temporary) {
  std::string location = args;
  std::optional<Condition> condition;
  if (const auto at = args.find(" if "); at != std::string::npos) {
    location = trim(args.substr(0, at));
    condition = parse_condition(args.substr(at + 4));
  }
  auto [kind, rest] = split_word(location);
  if (kind.empty()) throw std::invalid_argument("break needs a location (see help break)");
  Breakpoint b;
  if (kind == "face") {
    auto n = parse_integer(rest);
    if (!n || *n < 0) throw std::invalid_argument("break face N: N is a draw-order number");
    b.kind = BreakKind::kFace;
    b.number = static_cast<uint32_t>(*n);
  } else if (kind == "native" || kind == d_.vocabulary().native) {
    b.kind = BreakKind::kNativeEntry;
  } else if (kind == "diagnostic") {
    b.kind = BreakKind::kDiagnostic;
    if (rest == "error") {
      b.level = DiagnosticLevel::kError;
    } else if (rest.empty() || rest == "warning") {
      b.level = DiagnosticLevel::kWarning;
    } else {
      throw std::invalid_argument("break diagnostic [warning|error]");
    }
  } else if (kind == "op") {
    auto n = parse_integer(rest);
    if (!n || *n < 0 || *n > 0xFFFF) throw std::invalid_argument("break op OPCODE");
    b.kind = BreakKind::kOpcode;
    b.number = static_cast<uint32_t>(*n);
  } else if (kind[0] == '*' || std::isdigit(static_cast<unsigned char>(kind[0]))) {
    b.kind = BreakKind::kOffset;
    b.number = offset_arg(kind);
  } else {
    b.kind = BreakKind::kMnemonic;
    b.mnemonic = kind;
  }
  b.condition = condition;
  b.temporary = temporary;
  const int id = d_.add_breakpoint(b);
  out_ << fmt::format("{} {} {}\n", temporary ? "Temporary breakpoint" : "Breakpoint", id,
                      d_.breakpoints().back().describe());
  if (b.kind == BreakKind::kMnemonic && !listed_mnemonic(d_.engine().listing(), b.mnemonic))
    out_ << fmt::format(
        "note: no instruction in the listing is {}; the breakpoint may never stop\n", b.mnemonic);
}

void DebugCommands::watch(const std::string& args) {
  const int id = d_.add_watchpoint(args);
  out_ << fmt::format("Watchpoint {}: {}\n", id, args);
}

void DebugCommands::condition(const std::string& args) {
  auto [id, cond] = split_word(args);
  std::optional<Condition> parsed;
  if (!cond.empty()) parsed = parse_condition(cond);
  if (!d_.set_condition(id_arg(id), parsed))
    throw std::invalid_argument(fmt::format("no breakpoint {}", id));
}

void DebugCommands::remove(const std::string& args) {
  if (args.empty()) {
    std::vector<int> ids;
    for (const auto& b : d_.breakpoints()) ids.push_back(b.id);
    for (const auto& w : d_.watchpoints()) ids.push_back(w.id);
    for (int id : ids) d_.remove(id);
    return;
  }
  for (const auto& w : words(args))
    if (!d_.remove(id_arg(w))) throw std::invalid_argument(fmt::format("no breakpoint {}", w));
}

void DebugCommands::enable(const std::string& args, bool on) {
  if (args.empty()) throw std::invalid_argument(on ? "enable ID..." : "disable ID...");
  for (const auto& w : words(args))
    if (!d_.enable(id_arg(w), on)) throw std::invalid_argument(fmt::format("no breakpoint {}", w));
}

void DebugCommands::display(const CommandArgs& a) {
  const bool hex = parse_format(a.format, "x").letter == 'x';
  if (a.text.empty()) {
    if (!a.format.empty()) throw std::invalid_argument("display/x needs a name");
    return show_displays();
  }
  if (!is_lookup_name(a.text))
    throw std::invalid_argument(fmt::format("display \"{}\": expected a name", a.text));
  displays_.push_back({next_display_++, a.text, hex});
  show_display(displays_.back());
}

void DebugCommands::undisplay(const std::string& args) {
  if (args.empty()) {
    displays_.clear();
    return;
  }
  for (const auto& w : words(args)) {
    const int id = id_arg(w);
    const auto n = std::erase_if(displays_, [id](const Display& d) { return d.id == id; });
    if (n == 0) throw std::invalid_argument(fmt::format("no display {}", w));
  }
}

void DebugCommands::show_display(const Display& d) {
  const auto v = value_text(d_.current(), d.expression, d.hex);
  out_ << fmt::format("{}: {}{} = {}\n", d.id, d.hex ? "/x " : "", d.expression,
                      v.value_or("<no value here>"));
}

void DebugCommands::show_displays() {
  for (const auto& d : displays_) show_display(d);
}

void DebugCommands::info_display() {
  if (displays_.empty()) {
    out_ << "No displays.\n";
    return;
  }
  out_ << "Auto-display expressions:\nNum Expression\n";
  for (const auto& d : displays_)
    out_ << fmt::format("{:<3} {}{}\n", d.id, d.hex ? "/x " : "", d.expression);
}

void DebugCommands::print(const CommandArgs& a) {
  const bool hex = parse_format(a.format, "x").letter == 'x';
  if (a.text.empty()) throw std::invalid_argument("print needs a name");
  const auto v = value_text(d_.current(), a.text, hex);
  if (!v) throw std::invalid_argument(fmt::format("\"{}\" has no value here", a.text));
  out_ << a.text << " = " << *v << "\n";
}

void DebugCommands::examine(const CommandArgs& a) {
  const Format f = parse_format(a.format, "xdi");
  if (const auto row = split_view_row(a.text)) {
    if (f.letter == 'i')
      throw std::invalid_argument(fmt::format("x/i: {} is a memory view row, not code", a.text));
    const auto& views = d_.vocabulary().memory;
    const auto view = std::find_if(views.begin(), views.end(),
                                   [&](const MemoryViewInfo& v) { return v.name == row->view; });
    if (view == views.end())
      throw std::invalid_argument(fmt::format("x: no memory view \"{}\"", row->view));
    uint64_t first = 0;
    const auto [end, error] =
        std::from_chars(row->digits.data(), row->digits.data() + row->digits.size(), first);
    if (error != std::errc() || end != row->digits.data() + row->digits.size() ||
        first > UINT32_MAX)
      throw std::invalid_argument("x: row number out of range");
    const uint64_t last = std::min<uint64_t>(first + f.count - 1, UINT32_MAX);
    return print_memory(out_, d_.current(), *view, static_cast<uint32_t>(first),
                        static_cast<uint32_t>(last), f.letter == 'x');
  }
  if (f.letter == 'x' || f.letter == 'd')
    throw std::invalid_argument(
        "x/x and x/d examine a memory view row (VIEW[I]); an offset is examined as code (x/i)");
  const auto& lines = d_.engine().listing();
  const std::optional<size_t> current = current_listing_line(d_);
  std::optional<size_t> start = current;
  if (!a.text.empty() && a.text != "$pc") start = line_at(lines, offset_arg(a.text));
  if (!start)
    throw DebugError(a.text.empty() || a.text == "$pc"
                         ? std::string("no listing line for the current position")
                         : fmt::format("no listing line at offset {}", a.text));
  uint64_t shown = 0;
  for (size_t i = *start; i < lines.size() && shown < f.count; ++i) {
    if (!lines[i].offset) continue;
    print_listing(out_, lines, i, i + 1, current);
    ++shown;
  }
}

void DebugCommands::disassemble(const std::string& args) {
  const auto& lines = d_.engine().listing();
  const std::optional<size_t> current = current_listing_line(d_);
  if (args.empty()) {
    if (!current) throw DebugError("no listing line for the current position");
    size_t first = *current;
    while (first > 0 && !is_label(lines[first])) --first;
    size_t last = *current + 1;
    while (last < lines.size() && !is_label(lines[last])) ++last;
    return print_listing(out_, lines, first, last, current);
  }
  const auto comma = args.find(',');
  const uint32_t start = offset_arg(trim(args.substr(0, comma)));
  uint64_t end = UINT64_MAX;
  if (comma != std::string::npos) {
    const std::string second = trim(args.substr(comma + 1));
    end = !second.empty() && second[0] == '+' ? uint64_t{start} + offset_arg(second.substr(1))
                                              : offset_arg(second);
  }
  const auto first = line_at(lines, start);
  if (!first) throw DebugError(fmt::format("no listing line at offset 0x{:04x}", start));
  size_t last = *first + 1;
  if (end == UINT64_MAX) {
    while (last < lines.size() && !is_label(lines[last])) ++last;
  } else {
    while (last < lines.size() && !(lines[last].offset && *lines[last].offset >= end)) ++last;
  }
  print_listing(out_, lines, *first, last, current);
}

void DebugCommands::list(const std::string& args) {
  const auto& lines = d_.engine().listing();
  std::optional<size_t> at = current_listing_line(d_);
  if (!args.empty()) {
    const uint32_t target = offset_arg(args);
    at = line_at(lines, target);
    if (!at) throw DebugError(fmt::format("no listing line at offset 0x{:04x}", target));
  }
  if (!at) throw DebugError(fmt::format("no listing line at offset 0x{:04x}", d_.current().offset));
  const size_t first = *at > 5 ? *at - 5 : 0;
  print_listing(out_, lines, first, *at + 6, at);
}

void DebugCommands::memory(const MemoryViewInfo& view, const std::string& args) {
  uint32_t lo = 0, hi = UINT32_MAX;
  if (!args.empty()) {
    const auto dash = args.find('-', 1);
    auto a = parse_integer(args.substr(0, dash));
    auto b = dash == std::string::npos ? a : parse_integer(args.substr(dash + 1));
    if (!a || !b || *a < 0 || *b < *a || *b > UINT32_MAX)
      throw std::invalid_argument(fmt::format("{} [N|N-M]", view.name));
    lo = static_cast<uint32_t>(*a);
    hi = static_cast<uint32_t>(*b);
  }
  print_memory(out_, d_.current(), view, lo, hi, false);
}

void DebugCommands::write_png(const std::string& args) {
  auto [first, rest] = split_word(args);
  bool force = false;
  std::string path = args;
  if (first == "-f") {
    force = true;
    path = rest;
  }
  if (path.empty()) throw std::invalid_argument("png [-f] FILE");
  if (!force && std::filesystem::exists(path))
    throw InputError(path, "already exists (not overwritten; use png -f FILE)");
  const raster::Framebuffer frame = d_.partial_frame();
  raster::write_indexed_png(path, frame, d_.engine().palette());
  out_ << fmt::format("Wrote the frame after {} faces to {}\n", d_.current().faces, path);
}

}  // namespace shapevm::harness
