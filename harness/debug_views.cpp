#include "harness/debug_views.h"

#include <fmt/format.h>

#include <algorithm>

#include "harness/command_words.h"

namespace shapevm::harness {

namespace {

std::string number_text(int64_t v, int width, bool hex) {
  if (hex) return fmt::format("{:>{}}", fmt::format("0x{:x}", static_cast<uint64_t>(v)), width);
  return fmt::format("{:>{}}", v, width);
}

std::string shown_value(const DebugValue& v) {
  return v.text.empty() ? fmt::format("{}", v.value) : v.text;
}

}  // namespace

std::string memory_row_text(const MemoryViewInfo& view, const MemoryRow& row, bool aligned,
                            bool hex) {
  std::string out;
  size_t column = 0;
  auto value = [&](size_t c) { return c < row.values.size() ? row.values[c] : 0; };
  for (const auto& group : view.layout) {
    std::string numbers;
    for (size_t k = 0; k < group.count && column < view.columns.size(); ++k, ++column)
      numbers += fmt::format("{}{}", k == 0 ? "" : ", ",
                             number_text(value(column), aligned ? group.width : 0, hex));
    out += fmt::format("{}{} ({})", out.empty() ? "" : aligned ? "  " : " ", group.label, numbers);
  }
  for (; column < view.columns.size(); ++column)
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", view.columns[column],
                       number_text(value(column), 0, hex));
  return out;
}

std::string native_instruction_text(const std::vector<ListingLine>& listing,
                                    const NativeState& native) {
  if (native.offset)
    for (const auto& line : listing)
      if (line.native && line.offset == native.offset && !line.native_text.empty())
        return line.native_text;
  return native.text;
}

std::optional<size_t> current_listing_line(Debugger& d) {
  const Snapshot& s = d.current();
  const auto& lines = d.engine().listing();
  const bool native = s.native && s.native->offset;
  const uint32_t target = native ? *s.native->offset : s.offset;
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].offset == target && lines[i].native == native) return i;
  return std::nullopt;
}

void print_location(std::ostream& out, Debugger& d) {
  const Snapshot& s = d.current();
  const std::string where =
      fmt::format("[tick {}, step {}, depth {}, faces {}]", s.tick, s.steps, s.depth, s.faces);
  if (s.ended) {
    out << fmt::format("=> end of run at 0x{:04x}: {} ({}) {}\n", s.offset, s.end_reason,
                       s.end_clean ? "clean" : "stopped by an error", where);
    return;
  }
  if (s.native) {
    const std::string& space = d.vocabulary().native_space;
    out << fmt::format("=> {} 0x{:08x}", s.native->arch, s.native->address);
    if (s.native->offset)
      out << fmt::format(" ({}0x{:04x})", space.empty() ? "" : space + " ", *s.native->offset);
    out << fmt::format(": {}  [in the {} block of 0x{:04x}, tick {}]\n",
                       native_instruction_text(d.engine().listing(), *s.native), s.native->arch,
                       s.offset, s.tick);
    std::string regs;
    for (const auto& r : s.native->registers)
      regs += fmt::format("{}{}=0x{:08x}", regs.empty() ? "   " : " ", r.name,
                          static_cast<uint32_t>(r.value));
    out << regs << "\n";
    return;
  }
  std::string text = s.mnemonic;
  for (const auto& line : d.engine().listing())
    if (line.offset == s.offset && !line.native) {
      text = trim(line.text.substr(0, line.text.find(" ; ")));  // without the listing's comment
      break;
    }
  out << fmt::format("=> 0x{:04x}: {}  {}\n", s.offset, text, where);
}

void print_backtrace(std::ostream& out, const Snapshot& s) {
  const size_t depth = s.frames.size();
  uint32_t pc = s.offset;
  for (size_t k = 0; k <= depth; ++k) {
    // Frame k (0 innermost) runs in the fragment entered by frames[depth-1-k].
    if (k < depth) {
      const DebugFrame& f = s.frames[depth - 1 - k];
      out << fmt::format(
          "#{:<2} 0x{:04x} in fragment 0x{:04x} (called from 0x{:04x}, returns "
          "to 0x{:04x})\n",
          k, pc, f.entry, f.call, f.resume);
      pc = f.call;
    } else {
      out << fmt::format("#{:<2} 0x{:04x} in the top level\n", k, pc);
    }
  }
}

void print_registers(std::ostream& out, Debugger& d) {
  const Snapshot& s = d.current();
  for (const auto& r : s.registers) out << fmt::format("{:<14} {}\n", r.name, shown_value(r));
  out << fmt::format("{:<14} {}\n{:<14} {}\n{:<14} {}\n", "depth", s.depth, "steps", s.steps,
                     "faces", s.faces);
  if (s.native) print_native(out, d);
}

void print_globals(std::ostream& out, const Snapshot& s) {
  // Each global with its address in the original program, when the engine knows it.
  for (const auto& g : s.globals)
    out << fmt::format("{:<20} {:<10} {}\n", g.name,
                       g.address ? fmt::format("0x{:X}", *g.address) : "", shown_value(g));
}

void print_native(std::ostream& out, Debugger& d) {
  const Snapshot& s = d.current();
  const std::string& native = d.vocabulary().native;
  if (native.empty()) throw DebugError(kNoNativeCode);
  if (!s.native) throw DebugError(fmt::format("not inside an {} block", native));
  out << fmt::format("{} 0x{:08x}: {}\n", s.native->arch, s.native->address,
                     native_instruction_text(d.engine().listing(), *s.native));
  for (const auto& r : s.native->registers)
    out << fmt::format("{:<4} 0x{:08x} {}\n", r.name, static_cast<uint32_t>(r.value), r.value);
}

void print_memory(std::ostream& out, const Snapshot& s, const MemoryViewInfo& view, uint32_t lo,
                  uint32_t hi, bool hex) {
  size_t shown = 0;
  for (const auto& m : s.memory) {
    if (m.name != view.name) continue;
    for (const auto& row : m.rows) {
      if (row.index < lo || row.index > hi) continue;
      out << fmt::format("[{:>4}] {}\n", row.index, memory_row_text(m, row, true, hex));
      ++shown;
    }
  }
  if (shown == 0)
    out << fmt::format("no {} in that range\n",
                       view.noun.empty() ? view.name + " rows" : view.noun);
}

void print_listing(std::ostream& out, const std::vector<ListingLine>& lines, size_t first,
                   size_t last, std::optional<size_t> current) {
  for (size_t i = first; i < std::min(last, lines.size()); ++i)
    out << fmt::format("{} {:>5}  {}\n", current == i ? "=>" : "  ", i + 1, lines[i].text);
}

void print_breakpoints(std::ostream& out, const Debugger& d) {
  if (d.breakpoints().empty() && d.watchpoints().empty()) {
    out << "No breakpoints or watchpoints.\n";
    return;
  }
  struct Row {
    int id;
    std::string text;
    uint64_t hits;
  };
  std::vector<Row> rows;
  for (const auto& b : d.breakpoints())
    rows.push_back({b.id,
                    fmt::format("{:<4} {:<11} {:<4} {:<3} {}\n", b.id, "breakpoint",
                                b.temporary ? "del" : "keep", b.enabled ? "y" : "n", b.describe()),
                    b.hits});
  for (const auto& w : d.watchpoints())
    rows.push_back({w.id,
                    fmt::format("{:<4} {:<11} {:<4} {:<3} {}\n", w.id, "watchpoint", "keep",
                                w.enabled ? "y" : "n", w.expression),
                    w.hits});
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.id < b.id; });
  out << "Num  Type        Disp Enb What\n";
  for (const auto& r : rows) {
    out << r.text;
    if (r.hits > 0) out << fmt::format("        hit {} time{}\n", r.hits, r.hits == 1 ? "" : "s");
  }
}

std::optional<std::string> value_text(const Snapshot& s, const std::string& name, bool hex) {
  if (auto v = snapshot_value(s, name)) {
    if (hex) return fmt::format("0x{:x}", static_cast<uint64_t>(*v));
    return fmt::format("{} (0x{:x})", *v, static_cast<uint64_t>(*v));
  }
  for (const auto& r : s.registers)
    if (r.name == name && !r.text.empty()) return r.text;
  return std::nullopt;
}

}  // namespace shapevm::harness
