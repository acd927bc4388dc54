#include "interp/fa/listing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "core/byte_reader.h"
#include "core/text_bytes.h"
#include "interp/common/json_text.h"
#include "interp/fa/articulation.h"
#include "x86/disassembler.h"

namespace shapevm::fa {
namespace {

using nlohmann::json;

// Two lower-case hex digits: a listing shows every byte of CODE this way, and formatting each
// through fmt made a string per byte.
void append_hex_byte(std::string& out, uint8_t b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out.push_back(kDigits[b >> 4]);
  out.push_back(kDigits[b & 0xF]);
}

std::string hex(std::span<const uint8_t> bytes) {
  std::string out;
  out.reserve(bytes.size() * 3);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i) out.push_back(' ');
    append_hex_byte(out, bytes[i]);
  }
  return out;
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\' || c < 0x20 || c > 0x7E) {
      out += "\\x";
      append_hex_byte(out, c);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out + "\"";
}

std::string label_name(uint32_t offset) {
  return fmt::format("L_{:04x}", offset);
}

const char* role_name(LinkRole role) {
  switch (role) {
    case LinkRole::kJump:
      return "jump";
    case LinkRole::kCall:
      return "call";
    case LinkRole::kContinue:
      return "continue";
    case LinkRole::kBranch:
      return "branch";
    case LinkRole::kFrame:
      return "frame";
    case LinkRole::kThen:
      return "then";
    case LinkRole::kObjEnd:
      return "objend";
  }
  return "?";
}

struct RelocRef {
  std::optional<uint32_t> target;  // CODE offset outside the trampolines
  std::string stub;                // or the import whose trampoline it points at
  uint32_t raw_value = 0;          // otherwise the value as stored (points outside CODE)
};

class ListingBuilder {
 public:
  ListingBuilder(const Shape& shape, const WalkResult& walk, bool with_operands)
      : shape_(shape),
        walk_(walk),
        code_(shape.code()),
        stub_area_(shape.image.stub_area_offset),
        with_operands_(with_operands) {}

  Listing build() {
    collect_relocations();
    collect_targets();
    for (const auto& b : analyze_articulations(shape_, walk_).blocks) {
      std::string note = describe_block(b);
      if (!note.empty()) x86_notes_[b.offset] = std::move(note);
    }
    segment();
    assign_labels();
    Listing listing;
    listing.diagnostics = walk_.diagnostics;
    directives(listing);
    for (const auto& seg : segments_) listing.lines.push_back(render(seg));
    if (labels_.count(static_cast<uint32_t>(code_.size()))) {
      ListingLine end;
      end.offset = static_cast<uint32_t>(code_.size());
      end.label = labels_.at(end.offset);
      end.kind = "end";
      listing.lines.push_back(end);
    }
    return listing;
  }

 private:
  struct Segment {
    ItemKind kind;
    uint32_t offset;
    uint32_t size;
    const WalkItem* item;  // the walk item it comes from
    std::string x86_text;  // Capstone text for x86 lines
    bool x86_valid = true;
  };

  void collect_relocations() {
    for (const auto& r : shape_.image.relocations) {
      if (!r.site_code_offset) continue;
      const uint32_t site = *r.site_code_offset;
      if (site >= stub_area_) {
        stub_relocs_ = true;
        continue;
      }
      if (uint64_t{site} + 4 > stub_area_) continue;
      RelocRef ref;
      if (r.target_code_offset) {
        const uint32_t t = *r.target_code_offset;
        if (const auto* tramp = shape_.image.trampoline_at(t)) {
          ref.stub = tramp->import_name;
        } else {
          ref.target = t;
        }
      }
      ref.raw_value = r.stored_value;
      relocs_[site] = ref;
    }
  }

  void add_target(int64_t t) {
    if (t >= 0 && t <= static_cast<int64_t>(code_.size()))
      targets_.insert(static_cast<uint32_t>(t));
  }

  void collect_targets() {
    for (const auto& item : walk_.items) {
      if (item.kind != ItemKind::kInstruction) continue;
      for (const auto& l : item.insn->links) add_target(l.target);
      if (item.insn->op == 0xF2)
        add_target(obj_end_target(code_, item.offset, ObjEndReading::kAbsolute));
    }
    for (const auto& [site, ref] : relocs_)
      if (ref.target) add_target(*ref.target);
  }

  // Splits [begin, end) at targets and every 16 bytes, never splitting a relocated dword.
  void segment_data(const WalkItem& item) {
    uint32_t pos = item.offset;
    const uint32_t end = item.offset + item.size;
    while (pos < end) {
      uint32_t stop = std::min(end, pos + 16);
      auto t = targets_.upper_bound(pos);
      if (t != targets_.end() && *t < stop) stop = *t;
      stop = extend_over_relocs(pos, stop, end);
      segments_.push_back({item.kind, pos, stop - pos, &item, "", true});
      pos = stop;
    }
  }

  // Moves `stop` forward so that no relocated dword straddles it.
  uint32_t extend_over_relocs(uint32_t start, uint32_t stop, uint32_t limit) const {
    bool moved = true;
    while (moved) {
      moved = false;
      auto it = relocs_.lower_bound(stop >= 3 ? stop - 3 : 0);
      for (; it != relocs_.end() && it->first < stop; ++it) {
        // A dword that also crosses `limit` cannot be pulled in whole: stop at the limit (moving
        // only forward, so the loop ends).
        const uint32_t wanted = std::min(limit, it->first + 4);
        if (it->first >= start && wanted > stop) {
          stop = wanted;
          moved = true;
        }
      }
    }
    return stop;
  }

  void segment_x86(const WalkItem& item) {
    uint32_t pos = item.offset;
    const uint32_t end = item.offset + item.size;
    while (pos < end) {
      uint32_t stop = end;
      auto t = targets_.upper_bound(pos);
      if (t != targets_.end() && *t < stop) stop = *t;
      auto insns = disassembler_.disassemble(std::span(code_).subspan(pos, stop - pos),
                                             shape_.image.code_pointer(pos));
      for (size_t i = 0; i < insns.size(); ++i) {
        Segment seg{ItemKind::kX86, pos + insns[i].offset, insns[i].size,
                    &item,          insns[i].text,         insns[i].valid};
        // A relocated dword that straddles Capstone's boundary pulls the next bytes in.
        const uint32_t want = extend_over_relocs(seg.offset, seg.offset + seg.size, stop);
        while (seg.offset + seg.size < want && i + 1 < insns.size()) {
          ++i;
          seg.size += insns[i].size;
          seg.x86_text += "; " + insns[i].text;
        }
        segments_.push_back(std::move(seg));
      }
      pos = stop;
    }
  }

  void segment() {
    for (const auto& item : walk_.items) {
      switch (item.kind) {
        case ItemKind::kX86:
          segment_x86(item);
          break;
        case ItemKind::kSkipped:
        case ItemKind::kTrailer:
        case ItemKind::kUndecodable:
          segment_data(item);
          break;
        default:
          segments_.push_back({item.kind, item.offset, item.size, &item, "", true});
          break;
      }
    }
    for (const auto& s : segments_) line_starts_.insert(s.offset);
    line_starts_.insert(static_cast<uint32_t>(code_.size()));
  }

  void assign_labels() {
    for (uint32_t t : targets_) {
      auto it = line_starts_.upper_bound(t);
      const uint32_t base = *std::prev(it);
      labels_.emplace(base, label_name(base));
    }
  }

  // How the listing names CODE offset t: "L_0040", or "L_0040+3" inside a line.
  std::optional<std::string> ref(int64_t t) const {
    if (t < 0 || t > static_cast<int64_t>(code_.size())) return std::nullopt;
    auto it = line_starts_.upper_bound(static_cast<uint32_t>(t));
    const uint32_t base = *std::prev(it);
    auto label = labels_.find(base);
    if (label == labels_.end()) return std::nullopt;
    if (base == t) return label->second;
    return fmt::format("{}+{}", label->second, t - base);
  }

  // The name a relocated dword goes by: its label, or the import whose trampoline it points at;
  // nullopt when it points outside CODE.
  std::optional<std::string> reloc_name(const RelocRef& r) const {
    if (r.target) return ref(*r.target).value_or("?");
    if (!r.stub.empty()) return r.stub;
    return std::nullopt;
  }

  std::string bytes_with_relocs(uint32_t offset, uint32_t size) const {
    std::string out;
    uint32_t pos = offset;
    while (pos < offset + size) {
      if (!out.empty()) out.push_back(' ');
      auto r = relocs_.find(pos);
      if (r != relocs_.end() && pos + 4 <= offset + size) {
        if (auto name = reloc_name(r->second)) {
          out += "{" + *name + "}";
        } else {
          out += fmt::format("{{=0x{:08x}}}", r->second.raw_value);
        }
        pos += 4;
      } else {
        append_hex_byte(out, code_[pos]);
        pos += 1;
      }
    }
    return out;
  }

  // Capstone writes a relocated dword as the number the file stores (an address in the image);
  // the listing writes its name instead, as the line's `{...}` bytes do: `cmp word ptr
  // [_PLgearDown], 1`, `push do_start_interp`, `push L_0223`. The debugger shows the same text.
  std::string symbolic_x86(std::string text, uint32_t offset, uint32_t size) const {
    for (auto it = relocs_.lower_bound(offset); it != relocs_.end() && it->first < offset + size;
         ++it) {
      const auto name = reloc_name(it->second);
      if (!name || *name == "?") continue;  // a CODE target without a line keeps its number
      replace_number(text, it->second.raw_value, *name);
    }
    return text;
  }

  // Replaces `0x<value>` where it stands as a whole number in Capstone's text.
  static void replace_number(std::string& text, uint32_t value, const std::string& name) {
    const std::string number = fmt::format("0x{:x}", value);
    const auto word = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    for (size_t at = text.find(number); at != std::string::npos; at = text.find(number, at)) {
      const size_t end = at + number.size();
      if ((at > 0 && word(text[at - 1])) || (end < text.size() && word(text[end]))) {
        at = end;
        continue;
      }
      text.replace(at, number.size(), name);
      at += name.size();
    }
  }

  bool overlaps_reloc(uint32_t offset, uint32_t size) const {
    auto it = relocs_.lower_bound(offset >= 3 ? offset - 3 : 0);
    return it != relocs_.end() && it->first < offset + size;
  }

  std::string raw_comment(uint32_t offset, uint32_t size) const {
    const uint32_t shown = std::min<uint32_t>(size, 10);
    return fmt::format("{:04x}: {}{}", offset, hex(std::span(code_).subspan(offset, shown)),
                       size > shown ? " …" : "");
  }

  void directives(Listing& listing) const {
    const auto& img = shape_.image;
    const auto& code_section = img.sections.at(img.code_section);
    listing.directives.push_back(fmt::format("; {} — {} bytes of CODE, image base 0x{:x}",
                                             shape_.source(), code_.size(), img.image_base));
    listing.directives.push_back(
        fmt::format(".image base=0x{:x} code_va=0x{:x} section={} stub_relocs={}", img.image_base,
                    img.code_va, code_section.name, stub_relocs_ ? 1 : 0));
    for (const auto& imp : img.imports) listing.directives.push_back(".import " + imp.name);
  }

  ListingLine render(const Segment& seg) {
    ListingLine line;
    line.offset = seg.offset;
    line.size = seg.size;
    if (auto l = labels_.find(seg.offset); l != labels_.end()) line.label = l->second;
    switch (seg.kind) {
      case ItemKind::kHeader:
        render_header(line);
        break;
      case ItemKind::kInstruction:
        render_instruction(line, *seg.item->insn, seg.item->alignment);
        break;
      case ItemKind::kX86:
        line.kind = "x86";
        line.mnemonic = "x86";
        line.text = "x86 " + bytes_with_relocs(seg.offset, seg.size);
        line.x86_text = symbolic_x86(seg.x86_text, seg.offset, seg.size);
        line.comment = fmt::format("{:04x}: {}{}", seg.offset, line.x86_text,
                                   seg.x86_valid ? "" : " (not x86)");
        if (line.x86_text == seg.x86_text) annotate_relocs(line, seg.offset, seg.size);
        set_operand(line, "capstone", seg.x86_text);
        break;
      case ItemKind::kStub: {
        const auto* t = shape_.image.trampoline_at(seg.offset);
        line.kind = "stub";
        line.mnemonic = ".stub";
        line.text = ".stub " + t->import_name + (t->operand_includes_image_base ? " abs" : "");
        line.comment = fmt::format("{:04x}: jmp [0x{:x}] — {} import", seg.offset, t->operand,
                                   t->is_function ? "function" : "data");
        if (with_operands_)
          line.operands = nlohmann::json{
              {"import", t->import_name}, {"function", t->is_function}, {"operand", t->operand}};
        break;
      }
      default: {
        line.kind = "data";
        line.mnemonic = ".db";
        line.text = ".db " + bytes_with_relocs(seg.offset, seg.size);
        const char* why = seg.kind == ItemKind::kSkipped
                              ? "skipped: EndObject before PtrToObjEnd's target"
                          : seg.kind == ItemKind::kTrailer ? "after the end of the object"
                                                           : "undecodable";
        line.comment = fmt::format("{:04x}: {}", seg.offset, why);
        annotate_relocs(line, seg.offset, seg.size);
        set_operand(line, "region",
                    seg.kind == ItemKind::kSkipped   ? "skipped"
                    : seg.kind == ItemKind::kTrailer ? "trailer"
                                                     : "undecodable");
        break;
      }
    }
    return line;
  }

  void annotate_relocs(ListingLine& line, uint32_t offset, uint32_t size) const {
    for (auto it = relocs_.lower_bound(offset); it != relocs_.end() && it->first < offset + size;
         ++it) {
      if (!it->second.stub.empty()) {
        line.comment += fmt::format(" [{}]", it->second.stub);
      }
    }
  }

  void render_header(ListingLine& line) const {
    const auto& h = shape_.header;
    line.kind = "header";
    line.mnemonic = ".header";
    line.text =
        fmt::format(".header radius_world={} radius={} scale={} extents={},{},{}", h.radius_world,
                    h.radius, h.scale, h.extents[0], h.extents[1], h.extents[2]);
    line.comment =
        fmt::format("{} | scale factor {}{}", raw_comment(0, kHeaderSize), h.scale_factor(),
                    h.scale_in_table() ? "" : " (outside the seed's scale table)");
    if (with_operands_)
      line.operands = nlohmann::json{{"radius_world", h.radius_world},
                                     {"radius", h.radius},
                                     {"scale", h.scale},
                                     {"scale_factor", h.scale_factor()},
                                     {"extents", h.extents}};
  }

  void render_instruction(ListingLine& line, const Instruction& insn, bool alignment) {
    const OpcodeInfo& info = *insn.info;
    line.kind = "instruction";
    line.mnemonic = std::string(info.mnemonic);
    set_operand(line, "op", insn.op);
    if (!info.handler.empty()) set_operand(line, "handler", info.handler);
    if (info.handler_address) set_operand(line, "handler_address", info.handler_address);
    set_operand(line, "knowledge",
                info.knowledge == Knowledge::kTraced    ? "traced"
                : info.knowledge == Knowledge::kPartial ? "partial"
                                                        : "untraced");
    if (with_operands_ && !insn.links.empty()) {
      json links = json::array();
      for (const auto& l : insn.links)
        links.push_back({{"role", role_name(l.role)}, {"target", l.target}});
      line.operands["links"] = links;
    }

    std::string detail;
    std::optional<std::string> text = instruction_text(insn, detail, line);
    const bool has_pad = info.word_magic || info.rule == SizeRule::kX86;  // X86Code is F0 00 too
    if (has_pad && insn.size >= 2 && code_[insn.offset + 1] != 0 && text) {
      *text += fmt::format(" pad=0x{:02x}", code_[insn.offset + 1]);
    }
    if (!text || overlaps_reloc(insn.offset, insn.size)) {
      // No syntax reproduces these bytes exactly: keep them as data, decoded in the comment.
      line.text = ".db " + bytes_with_relocs(insn.offset, insn.size);
      detail = fmt::format("{} (as bytes){}", info.mnemonic, detail.empty() ? "" : ": " + detail);
      line.continuation.clear();
    } else {
      line.text = *text;
    }
    std::string handler;
    if (!info.handler.empty()) handler = std::string(info.handler);
    if (info.handler_address)
      handler += fmt::format("{}0x{:X}", handler.empty() ? "" : " @ ", info.handler_address);
    line.comment = raw_comment(insn.offset, insn.size);
    if (!handler.empty()) line.comment += " | " + handler;
    if (info.knowledge == Knowledge::kUntraced) line.comment += " | untraced";
    if (alignment) line.comment += " | alignment after a return (never executes)";
    if (!detail.empty()) line.comment += " | " + detail;
  }

  std::optional<std::string> target_arg(const Instruction& insn, LinkRole role,
                                        size_t nth = 0) const {
    size_t seen = 0;
    for (const auto& l : insn.links) {
      if (l.role != role) continue;
      if (seen++ == nth) {
        auto r = ref(l.target);
        if (!r) return std::nullopt;
        return "@" + *r;
      }
    }
    return std::nullopt;
  }

  std::optional<std::string> embedded_jump_text(const Instruction& insn) const {
    if (!insn.embedded_jump) return std::string();
    auto t = target_arg(insn, LinkRole::kThen);
    if (!t) return std::nullopt;
    const char* name = insn.embedded_jump->op == 0x38   ? "ShortJump"
                       : insn.embedded_jump->op == 0x48 ? "Jump"
                                                        : "LongJump";
    return fmt::format(" then={}:{}", name, *t);
  }

  std::string words(uint32_t at, int count) const {
    std::string out;
    for (int i = 0; i < count; ++i) {
      if (i) out.push_back(',');
      out += std::to_string(load_i16(code_.data() + at + 2 * i));
    }
    return out;
  }

  std::optional<std::string> instruction_text(const Instruction& insn, std::string& detail,
                                              ListingLine& line) const {
    const uint32_t off = insn.offset;
    const std::string m(insn.info->mnemonic);
    auto u16at = [&](uint32_t k) { return load_u16(code_.data() + off + k); };
    auto single = [&](LinkRole role) -> std::optional<std::string> {
      auto t = target_arg(insn, role);
      if (!t) return std::nullopt;
      detail = fmt::format("-> 0x{:04x}", insn.links.front().target);
      return m + " " + *t;
    };
    switch (insn.op) {
      case 0x00:
      case 0x01:
        return m;
      case 0x1E:
        return m;
      case 0xF0:
        detail = "enter x86 (push esi; ret) at 0x" + fmt::format("{:04x}", off + 2);
        if (auto it = x86_notes_.find(off); it != x86_notes_.end()) detail += " | " + it->second;
        return m;
      case 0x48:
      case 0x38:
      case 0x50:
        return single(LinkRole::kJump);
      case 0x12:
      case 0x6E:
        return single(LinkRole::kCall);
      case 0xAC:
        return single(LinkRole::kBranch);
      case 0xA6: {
        auto t = target_arg(insn, LinkRole::kBranch);
        if (!t) return std::nullopt;
        detail = fmt::format("if _detail < {} -> 0x{:04x}", u16at(4), insn.links[0].target);
        set_operand(line, "threshold", u16at(4));
        return fmt::format("{} {} threshold={}", m, *t, u16at(4));
      }
      case 0xC8: {
        auto t = target_arg(insn, LinkRole::kBranch);
        if (!t) return std::nullopt;
        detail = fmt::format("if projected size < threshold -> 0x{:04x}", insn.links[0].target);
        set_operand(line, "size", u16at(2));
        set_operand(line, "threshold", u16at(4));
        return fmt::format("{} {} size={} threshold={}", m, *t, u16at(2), u16at(4));
      }
      case 0x40: {
        std::string out = m;
        set_operand(line, "nframes", u16at(2));
        for (size_t k = 0; k < insn.links.size(); ++k) {
          auto t = target_arg(insn, LinkRole::kFrame, k);
          if (!t) return std::nullopt;
          out += (k ? ", " : " ") + *t;
        }
        detail =
            fmt::format("{} frames, _frameCounter mod {}", insn.links.size(), insn.links.size());
        return out;
      }
      case 0xF2: {
        const int64_t abs = obj_end_target(code_, off, ObjEndReading::kAbsolute);
        const int64_t rel = obj_end_target(code_, off, ObjEndReading::kRelative);
        set_operand(line, "absolute_target", abs);
        set_operand(line, "relative_target", rel);
        detail = fmt::format(
            "EndObject at 0x{:04x} (absolute reading) / 0x{:04x} (relative reading)", abs, rel);
        auto r = ref(abs);
        if (r) return m + " @" + *r;
        return fmt::format("{} value=0x{:x}", m, u16at(2));
      }
      case 0x42: {
        std::string s = source_name(code_, off);
        set_operand(line, "name", s);
        return m + " " + quote(s);
      }
      case 0xE2: {
        std::string s = texture_file_name(code_, off);
        for (uint32_t i = 2 + static_cast<uint32_t>(s.size()); i < 16; ++i)
          if (code_[off + i] != 0) return std::nullopt;  // padding that the syntax cannot carry
        set_operand(line, "name", s);
        detail = "texture for following faces";
        return m + " " + quote(s);
      }
      case 0xE0:
        set_operand(line, "index", u16at(2));
        return fmt::format("{} {}", m, u16at(2));
      case 0xF6: {
        const uint16_t index = load_u16(code_.data() + off + 1);
        const uint8_t color = code_[off + 3];
        set_operand(line, "index", index);
        set_operand(line, "color", color);
        return fmt::format("{} index={} color=0x{:02x} normal={},{},{}", m, index, color,
                           int8_t(code_[off + 4]), int8_t(code_[off + 5]), int8_t(code_[off + 6]));
      }
      case 0x82: {
        const auto vb = parse_vertex_buffer(code_, off);
        set_operand(line, "count", vb.count);
        set_operand(line, "push_at", vb.push_at);
        set_operand(line, "first_slot", vb.first_slot());
        detail = fmt::format("{} vertices into slots {}..{}{}", vb.count, vb.first_slot(),
                             vb.first_slot() + vb.count - (vb.count ? 1 : 0),
                             vb.aligned() ? "" : " (push_at not a multiple of 8)");
        for (uint32_t i = 0; i < vb.count; ++i) {
          auto v = vertex_at(code_, off, i);
          line.continuation.push_back(fmt::format("v {}, {}, {}", v[0], v[1], v[2]));
        }
        return fmt::format("{} at={}", m, vb.push_at);
      }
      case 0xFC:
        return face_text(insn, detail, line);
      case 0x6C: {
        auto call = target_arg(insn, LinkRole::kCall);
        auto cont = target_arg(insn, LinkRole::kContinue);
        auto then = embedded_jump_text(insn);
        if (!call || !cont || !then || !insn.embedded_jump) return std::nullopt;
        set_operand(line, "field", u16at(2));
        set_operand(line, "cmp", u16at(4));
        detail = fmt::format("object field 0x{:x} vs 0x{:x}: call 0x{:04x}, continue 0x{:04x}",
                             u16at(2), u16at(4), insn.links[0].target, insn.links[1].target);
        return fmt::format("{} field=0x{:x} cmp=0x{:x} call={} continue={}{}", m, u16at(2),
                           u16at(4), *call, *cont, *then);
      }
      case 0x06:
      case 0x0C:
      case 0x0E:
      case 0x10: {
        const uint32_t rel_at = insn.op == 0x06 ? 16 : 12;
        const int nwords = insn.op == 0x06 ? 6 : 4;
        auto call = target_arg(insn, LinkRole::kCall);
        if (!call) return std::nullopt;
        std::string tail;
        if (insn.embedded_jump) {
          auto then = embedded_jump_text(insn);
          if (!then) return std::nullopt;
          tail = *then;
        } else if (insn.size > rel_at + 2) {
          tail = " tail=";
          for (uint32_t i = rel_at + 2; i < insn.size; ++i)
            tail += fmt::format("{:02x}", code_[off + i]);
        }
        detail = fmt::format("plane test picks the order; call 0x{:04x}, then continue",
                             insn.links[0].target);
        set_operand(line, "plane", words(off + 2, nwords));
        return fmt::format("{} plane={} call={}{}", m, words(off + 2, nwords), *call, tail);
      }
      case 0xC4:
      case 0xC6: {
        auto call = target_arg(insn, LinkRole::kCall);
        if (!call) return std::nullopt;
        detail = "sub-model call at a relative transform (partially traced)";
        return fmt::format("{} t={} a={} call={}", m, words(off + 2, 3), words(off + 8, 3), *call);
      }
      default:
        break;
    }
    // Untraced fixed-size opcodes: operand bytes after [op][pad] (word-magic) or after [op].
    const uint32_t first = insn.info->word_magic ? 2 : 1;
    std::string raw;
    for (uint32_t i = first; i < insn.size; ++i) raw += fmt::format("{:02x}", code_[off + i]);
    return raw.empty() ? m : m + " raw=" + raw;
  }

  std::optional<std::string> face_text(const Instruction& insn, std::string& detail,
                                       ListingLine& line) const {
    const FaceView f = parse_face(code_, insn.offset);
    std::string out = fmt::format("Face content=0x{:02x} layout=0x{:02x} color=0x{:02x} shadow={}",
                                  f.content, f.layout, f.color, f.is_shadow);
    if (f.has_normal) {
      out += fmt::format(" normal={},{},{} center={},{},{}", f.normal[0], f.normal[1], f.normal[2],
                         f.center[0], f.center[1], f.center[2]);
    }
    std::string idx;
    for (size_t i = 0; i < f.indices.size(); ++i)
      idx += (i ? "," : "") + std::to_string(f.indices[i]);
    out += " idx=" + (idx.empty() ? std::string("-") : idx);
    if (f.has_texcoords) {
      std::string uv;
      for (size_t i = 0; i < f.texcoords.size(); ++i)
        uv += fmt::format("{}{},{}", i ? "," : "", f.texcoords[i][0], f.texcoords[i][1]);
      out += " uv=" + (uv.empty() ? std::string("-") : uv);
    }
    std::vector<std::string> flags;
    if (f.has_normal) flags.push_back("normal");
    if (f.has_texcoords) flags.push_back("texcoords");
    if (f.content & kFaceFillBackground) flags.push_back("fill-background");
    if (f.layout & kLayoutShortIndices) flags.push_back("u16-indices");
    if (f.layout & kLayoutByteCenter) flags.push_back("byte-centre");
    if (f.layout & kLayoutByteTexcoords) flags.push_back("byte-texcoords");
    detail = fmt::format("{} corners{}{}", f.indices.size(), flags.empty() ? "" : ", ",
                         fmt::join(flags, ", "));
    set_operand(line, "content", f.content);
    set_operand(line, "layout", f.layout);
    set_operand(line, "color", f.color);
    set_operand(line, "is_shadow", f.is_shadow);
    set_operand(line, "indices", f.indices);
    if (f.has_normal) {
      set_operand(line, "normal", f.normal);
      set_operand(line, "center", f.center);
    }
    if (f.has_texcoords) set_operand(line, "texcoords", f.texcoords);
    return out;
  }

  // Decoded operands as JSON cost a quarter of a text listing's time: built only for --json.
  template <typename T>
  void set_operand(ListingLine& line, const char* key, T&& value) const {
    if (with_operands_) line.operands[key] = std::forward<T>(value);
  }

  const Shape& shape_;
  const WalkResult& walk_;
  const std::vector<uint8_t>& code_;
  uint32_t stub_area_;
  bool with_operands_;
  x86::Disassembler disassembler_;
  std::map<uint32_t, RelocRef> relocs_;
  bool stub_relocs_ = false;
  std::set<uint32_t> targets_;
  std::map<uint32_t, std::string> x86_notes_;  // X86Code offset -> articulation summary
  std::vector<Segment> segments_;
  std::set<uint32_t> line_starts_;
  std::map<uint32_t, std::string> labels_;
};

}  // namespace

Listing make_listing(const Shape& shape, const WalkResult& walk, bool with_operands) {
  return ListingBuilder(shape, walk, with_operands).build();
}

std::string render_listing_text(const Shape&, const Listing& listing) {
  std::string out;
  for (const auto& d : listing.directives) out += d + "\n";
  for (const auto& line : listing.lines) {
    if (!line.label.empty()) out += line.label + ":\n";
    if (line.kind == "end") continue;
    std::string body = "    " + line.text;
    if (!line.comment.empty()) {
      if (body.size() < 52) body.resize(52, ' ');
      body += " ; " + line.comment;
    }
    out += body + "\n";
    for (const auto& c : line.continuation) out += "        " + c + "\n";
  }
  for (const auto& d : listing.diagnostics) {
    out += fmt::format("; {} at 0x{:04x}: {}\n",
                       d.level == WalkDiagnostic::Level::kError ? "error" : "warning", d.offset,
                       d.message);
  }
  return out;
}

nlohmann::json render_listing_json(const Shape& shape, const Listing& listing) {
  json lines = json::array();
  for (const auto& line : listing.lines) {
    // The assembler text, its label and operands are ASCII but for the names the file holds
    // (TextureFile, SourceName, imports): Latin-1 (core/text_bytes.h). The comment is prose
    // (utf8_or_latin1 when printed: interp/common/json_text.h).
    json j = {{"offset", line.offset},
              {"size", line.size},
              {"kind", line.kind},
              {"mnemonic", latin1_to_utf8(line.mnemonic)},
              {"text", latin1_to_utf8(line.text)},
              {"comment", line.comment}};
    if (!line.label.empty()) j["label"] = latin1_to_utf8(line.label);
    if (line.size) j["bytes"] = hex(std::span(shape.code()).subspan(line.offset, line.size));
    if (!line.operands.empty()) j["operands"] = latin1_json(line.operands);
    if (!line.continuation.empty()) j["vertices"] = line.continuation;
    lines.push_back(std::move(j));
  }
  json diags = json::array();
  for (const auto& d : listing.diagnostics)
    diags.push_back({{"level", d.level == WalkDiagnostic::Level::kError ? "error" : "warning"},
                     {"offset", d.offset},
                     {"message", d.message}});
  return {{"source", shape.source()},
          {"directives", listing.directives},
          {"lines", lines},
          {"diagnostics", diags}};
}

}  // namespace shapevm::fa
