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

class Walker {
 public:
  Walker(const Shape& shape, const WalkOptions& options)
      : shape_(shape), code_(shape.code()), options_(options) {}

  WalkResult run() {
    const uint32_t stub_area = shape_.image.stub_area_offset;
    auto& targets = result_.reloc_targets;
    for (const auto& r : shape_.image.relocations) {
      if (r.target_code_offset && *r.target_code_offset < stub_area &&
          *r.target_code_offset >= kHeaderSize) {
        targets.push_back(*r.target_code_offset);
      }
    }
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    // Instructions average well over 16 bytes (a face is 12 or more, a vertex 6 per vertex):
    // enough room that the items are rarely moved while the walk grows them.
    result_.items.reserve(stub_area / 16 + 16);
    add(ItemKind::kHeader, 0, kHeaderSize);
    uint32_t pos = kHeaderSize;
    bool ended = false;
    bool after_short_eof = false;
    while (pos < stub_area) {
      if (ended) {
        add(ItemKind::kTrailer, pos, stub_area - pos);
        break;
      }
      const uint8_t op = code_[pos];
      if (op == 0x00 || op == 0x01) {
        const std::optional<uint32_t> end = result_.obj_end_offset;
        if (op == 0x00 && end && pos < *end && *end <= stub_area) {
          // Skip protocol step 2: this EndObject opens an x86-guarded region that runs to the
          // recorded EndObject offset.
          add(ItemKind::kSkipped, pos, *end - pos);
          pos = *end;
          continue;
        }
        add_instruction(pos, op);
        pos += 1;
        ended = true;  // step 3 (or EndShape): the object ends here
        continue;
      }
      if (op == 0x1E) {
        auto& item = add_instruction(pos, op);
        item.alignment = after_short_eof;
        after_short_eof = true;
        pos += 1;
        continue;
      }
      after_short_eof = false;
      DecodeError error;
      // Decoded in place: building the instruction on the stack and moving it into the items
      // reread each field just written, a stall that was a quarter of the walk's own time.
      WalkItem& item = add(ItemKind::kInstruction, pos, 0);
      Instruction& insn = item.insn.emplace();
      bool ok = decode_instruction(code_, pos, insn, error);
      if (ok && pos + insn.size > stub_area) {
        error = {pos, fmt::format("expected {} ({} bytes) to end before the trampolines at 0x{:x}",
                                  insn.info->mnemonic, insn.size, stub_area)};
        ok = false;
      }
      if (!ok) {
        result_.items.pop_back();
        const uint32_t next = next_anchor(pos + 1, stub_area);
        diagnose(WalkDiagnostic::Level::kError, error.offset, error.expected);
        add(ItemKind::kUndecodable, pos, next - pos);
        pos = next;
        continue;
      }
      const uint32_t size = insn.size;
      if (op == 0xF2) {
        const int64_t target = obj_end_target(code_, pos, options_.obj_end_reading);
        if (target >= 0 && target <= stub_area) {
          result_.obj_end_offset = static_cast<uint32_t>(target);
        } else {
          diagnose(WalkDiagnostic::Level::kWarning, pos,
                   fmt::format("PtrToObjEnd points at 0x{:x}, outside the stream [0, 0x{:x}); "
                               "ignored for the skip protocol",
                               target, stub_area));
        }
      }
      item.size = size;
      pos += size;
      if (op == 0xF0) {
        // The payload runs from here to the next anchor: a relocation target (the selector's
        // re-entry/sub-stream pointers), the EndObject offset, or the trampolines.
        const uint32_t end = next_anchor(pos, stub_area);
        if (end > pos) add(ItemKind::kX86, pos, end - pos);
        pos = end;
      }
    }
    for (const auto& t : shape_.image.trampolines) add(ItemKind::kStub, t.code_offset, 6);
    return std::move(result_);
  }

 private:
  uint32_t next_anchor(uint32_t from, uint32_t stub_area) const {
    uint32_t end = stub_area;
    auto it = std::lower_bound(result_.reloc_targets.begin(), result_.reloc_targets.end(), from);
    if (it != result_.reloc_targets.end()) end = std::min(end, *it);
    if (result_.obj_end_offset && *result_.obj_end_offset >= from)
      end = std::min(end, *result_.obj_end_offset);
    return std::max(end, from);
  }

  WalkItem& add(ItemKind kind, uint32_t offset, uint32_t size) {
    return result_.items.emplace_back(kind, offset, size);
  }

  WalkItem& add_instruction(uint32_t offset, uint8_t op) {
    Instruction insn;
    insn.offset = offset;
    insn.size = 1;
    insn.op = op;
    insn.info = find_opcode(op);
    WalkItem& item = result_.items.emplace_back(ItemKind::kInstruction, offset, 1);
    item.insn = std::move(insn);
    return item;
  }

  void diagnose(WalkDiagnostic::Level level, uint32_t offset, std::string message) {
    result_.diagnostics.push_back({level, offset, std::move(message)});
  }

  const Shape& shape_;
  const std::vector<uint8_t>& code_;
  WalkOptions options_;
  WalkResult result_;
};

}  // namespace

WalkResult walk_shape(const Shape& shape, const WalkOptions& options) {
  return Walker(shape, options).run();
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
