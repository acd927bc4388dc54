#include "interp/fa/walker.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/byte_reader.h"

namespace shapevm::fa {

bool WalkResult::has_errors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [](const WalkDiagnostic& d) {
    return d.level == WalkDiagnostic::Level::kError;
  });
}

bool WalkResult::is_reloc_target(uint32_t offset) const {
  return std::binary_search(reloc_targets.begin(), reloc_targets.end(), offset);
}

namespace {

// Where a walk's items go. ItemRecorder keeps each item whole, its instruction decoded with its
// links (walk_shape); OutlineRecorder keeps each item's kind, extent and opcode (walk_outline).
// Both are driven by the one Walker below, so the two agree on every item.
class ItemRecorder {
 public:
  // Instructions average well over 16 bytes (a face is 9 or more, a vertex 6 per vertex): enough
  // room that the items (96 bytes each) are rarely moved while the walk grows them.
  explicit ItemRecorder(uint32_t code_bytes) { result_.items.reserve(code_bytes / 16 + 16); }
  void add(ItemKind kind, uint32_t offset, uint32_t size) {
    result_.items.emplace_back(kind, offset, size);
  }
  void add_one_byte_instruction(uint32_t offset, uint8_t op, bool alignment) {
    Instruction insn;
    insn.offset = offset;
    insn.size = 1;
    insn.op = op;
    insn.info = find_opcode(op);
    WalkItem& item = result_.items.emplace_back(ItemKind::kInstruction, offset, 1);
    item.insn = std::move(insn);
    item.alignment = alignment;
  }
  // The instruction at `pos` as a new item: its size, or 0 (and no item) where it does not
  // decode. Decoded in place: building the instruction on the stack and moving it into the items
  // reread each field just written, a stall that was a quarter of the walk's own time.
  uint32_t add_instruction(std::span<const uint8_t> code, uint32_t pos, DecodeError& error) {
    WalkItem& item = result_.items.emplace_back(ItemKind::kInstruction, pos, 0);
    Instruction& insn = item.insn.emplace();
    if (!decode_instruction(code, pos, insn, error)) {
      result_.items.pop_back();
      return 0;
    }
    item.size = insn.size;
    return insn.size;
  }
  void drop_last() { result_.items.pop_back(); }
  void diagnose(WalkDiagnostic::Level level, uint32_t offset, std::string message) {
    result_.diagnostics.push_back({level, offset, std::move(message)});
  }
  WalkResult finish(std::vector<uint32_t> reloc_targets, std::optional<uint32_t> obj_end) {
    result_.reloc_targets = std::move(reloc_targets);
    result_.obj_end_offset = obj_end;
    return std::move(result_);
  }

 private:
  WalkResult result_;
};

class OutlineRecorder {
 public:
  // An item here is 12 bytes: room for one per 8 bytes of CODE, since a shape of small faces
  // (9 bytes each) outgrew one per 16 and was copied once as it grew.
  explicit OutlineRecorder(uint32_t code_bytes) { items_.reserve(code_bytes / 8 + 16); }
  void add(ItemKind kind, uint32_t offset, uint32_t size) {
    items_.push_back({kind, 0, offset, size});
  }
  void add_one_byte_instruction(uint32_t offset, uint8_t op, bool) {
    items_.push_back({ItemKind::kInstruction, op, offset, 1});
  }
  uint32_t add_instruction(std::span<const uint8_t> code, uint32_t pos, DecodeError& error) {
    const uint32_t size = instruction_size(code, pos, error);
    if (size != 0) items_.push_back({ItemKind::kInstruction, code[pos], pos, size});
    return size;
  }
  void drop_last() { items_.pop_back(); }
  // An outline's reader takes only where items lie; the full walk reports what went wrong.
  void diagnose(WalkDiagnostic::Level, uint32_t, const std::string&) {}
  std::vector<OutlineItem> finish(std::vector<uint32_t>, std::optional<uint32_t>) {
    return std::move(items_);
  }

 private:
  std::vector<OutlineItem> items_;
};

template <typename Recorder>
class Walker {
 public:
  Walker(const Shape& shape, const WalkOptions& options)
      : shape_(shape),
        code_(shape.code()),
        options_(options),
        items_(shape.image.stub_area_offset) {}

  auto run() {
    const uint32_t stub_area = shape_.image.stub_area_offset;
    for (const auto& r : shape_.image.relocations) {
      if (r.target_code_offset && *r.target_code_offset < stub_area &&
          *r.target_code_offset >= kHeaderSize) {
        reloc_targets_.push_back(*r.target_code_offset);
      }
    }
    std::sort(reloc_targets_.begin(), reloc_targets_.end());
    reloc_targets_.erase(std::unique(reloc_targets_.begin(), reloc_targets_.end()),
                         reloc_targets_.end());
    items_.add(ItemKind::kHeader, 0, kHeaderSize);
    uint32_t pos = kHeaderSize;
    bool ended = false;
    bool after_short_eof = false;
    // Written only where an instruction does not decode, and read only then: made once, not once
    // an instruction (its string's set-up and tear-down were a sixteenth of an outline).
    DecodeError error;
    while (pos < stub_area) {
      if (ended) {
        items_.add(ItemKind::kTrailer, pos, stub_area - pos);
        break;
      }
      const uint8_t op = code_[pos];
      if (op == 0x00 || op == 0x01) {
        if (op == 0x00 && obj_end_offset_ && pos < *obj_end_offset_ &&
            *obj_end_offset_ <= stub_area) {
          // Skip protocol step 2: this EndObject opens an x86-guarded region that runs to the
          // recorded EndObject offset.
          items_.add(ItemKind::kSkipped, pos, *obj_end_offset_ - pos);
          pos = *obj_end_offset_;
          continue;
        }
        items_.add_one_byte_instruction(pos, op, false);
        pos += 1;
        ended = true;  // step 3 (or EndShape): the object ends here
        continue;
      }
      if (op == 0x1E) {
        items_.add_one_byte_instruction(pos, op, after_short_eof);
        after_short_eof = true;
        pos += 1;
        continue;
      }
      after_short_eof = false;
      uint32_t size = items_.add_instruction(code_, pos, error);
      if (size != 0 && pos + size > stub_area) {
        items_.drop_last();
        error = {pos, fmt::format("expected {} ({} bytes) to end before the trampolines at 0x{:x}",
                                  find_opcode(op)->mnemonic, size, stub_area)};
        size = 0;
      }
      if (size == 0) {
        const uint32_t next = next_anchor(pos + 1, stub_area);
        items_.diagnose(WalkDiagnostic::Level::kError, error.offset, error.expected);
        items_.add(ItemKind::kUndecodable, pos, next - pos);
        pos = next;
        continue;
      }
      if (op == 0xF2) {
        const int64_t target = obj_end_target(code_, pos, options_.obj_end_reading);
        if (target >= 0 && target <= stub_area) {
          obj_end_offset_ = static_cast<uint32_t>(target);
        } else {
          items_.diagnose(WalkDiagnostic::Level::kWarning, pos,
                          fmt::format("PtrToObjEnd points at 0x{:x}, outside the stream [0, "
                                      "0x{:x}); ignored for the skip protocol",
                                      target, stub_area));
        }
      }
      pos += size;
      if (op == 0xF0) {
        // The payload runs from here to the next anchor: a relocation target (the selector's
        // re-entry/sub-stream pointers), the EndObject offset, or the trampolines.
        const uint32_t end = next_anchor(pos, stub_area);
        if (end > pos) items_.add(ItemKind::kX86, pos, end - pos);
        pos = end;
      }
    }
    for (const auto& t : shape_.image.trampolines) items_.add(ItemKind::kStub, t.code_offset, 6);
    return items_.finish(std::move(reloc_targets_), obj_end_offset_);
  }

 private:
  uint32_t next_anchor(uint32_t from, uint32_t stub_area) const {
    uint32_t end = stub_area;
    auto it = std::lower_bound(reloc_targets_.begin(), reloc_targets_.end(), from);
    if (it != reloc_targets_.end()) end = std::min(end, *it);
    if (obj_end_offset_ && *obj_end_offset_ >= from) end = std::min(end, *obj_end_offset_);
    return std::max(end, from);
  }

  const Shape& shape_;
  const std::vector<uint8_t>& code_;
  WalkOptions options_;
  Recorder items_;
  // CODE offsets relocations point at, ascending, each once (WalkResult::reloc_targets).
  std::vector<uint32_t> reloc_targets_;
  std::optional<uint32_t> obj_end_offset_;  // from PtrToObjEnd, under the chosen reading
};

}  // namespace

WalkResult walk_shape(const Shape& shape, const WalkOptions& options) {
  return Walker<ItemRecorder>(shape, options).run();
}

std::vector<OutlineItem> walk_outline(const Shape& shape, const WalkOptions& options) {
  return Walker<OutlineRecorder>(shape, options).run();
}

std::vector<OutlineItem> outline_of(const WalkResult& walk) {
  std::vector<OutlineItem> out;
  out.reserve(walk.items.size());
  for (const WalkItem& item : walk.items)
    out.push_back({item.kind, item.insn ? item.insn->op : uint8_t{0}, item.offset, item.size});
  return out;
}

std::vector<ObjEndReport> obj_end_reports(const Shape& shape, const WalkResult& walk) {
  std::vector<ObjEndReport> out;
  const auto& code = shape.code();
  auto on_end_object = [&](int64_t t) {
    return t >= 0 && t < static_cast<int64_t>(code.size()) && code[static_cast<size_t>(t)] == 0x00;
  };
  for (const auto& item : walk.items) {
    if (item.kind != ItemKind::kInstruction || item.insn->op != 0xF2) continue;
    ObjEndReport r;
    r.f2_offset = item.offset;
    r.operand = load_u16(code.data() + item.offset + 2);
    r.absolute_target = obj_end_target(code, item.offset, ObjEndReading::kAbsolute);
    r.relative_target = obj_end_target(code, item.offset, ObjEndReading::kRelative);
    r.absolute_on_end_object = on_end_object(r.absolute_target);
    r.relative_on_end_object = on_end_object(r.relative_target);
    out.push_back(r);
  }
  return out;
}

}  // namespace shapevm::fa
