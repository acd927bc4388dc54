#include "interp/fa/articulation.h"

#include <capstone/capstone.h>
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace shapevm::fa {

namespace {

// Bytecode that may sit between two chained blocks without breaking the run: the arm a block
// re-enters. Calls return and continue; jumps leave. None of them draws anything inline.
bool is_arm_instruction(uint8_t op) {
  switch (op) {
    case 0x12:  // Unmask
    case 0x6E:  // UnmaskLong
    case 0xC4:  // XformUnmask
    case 0xC6:  // XformUnmaskLong
    case 0x38:  // ShortJump
    case 0x48:  // Jump
    case 0x50:  // LongJump
      return true;
    default:
      return false;
  }
}

bool is_call(uint8_t op) {
  return op == 0x12 || op == 0x6E || op == 0xC4 || op == 0xC6;
}

int64_t sign_extend(uint64_t v, unsigned bits) {
  if (bits == 0 || bits >= 64) return static_cast<int64_t>(v);
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  v &= mask;
  const uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}

// Capstone in 32-bit mode with operand detail, closed on scope exit.
class Decoder {
 public:
  Decoder() {
    if (cs_open(CS_ARCH_X86, CS_MODE_32, &handle_) != CS_ERR_OK)
      throw std::runtime_error("cannot open Capstone for x86-32");
    cs_option(handle_, CS_OPT_DETAIL, CS_OPT_ON);
    insn_ = cs_malloc(handle_);
  }
  ~Decoder() {
    if (insn_) cs_free(insn_, 1);
    cs_close(&handle_);
  }
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  // Linear sweep of code[from, to): calls `fn(offset, size, insn)` for each decoded instruction;
  // a byte Capstone cannot decode is stepped over.
  template <typename Fn>
  void sweep(const std::vector<uint8_t>& code, uint32_t from, uint32_t to, uint32_t address,
             Fn&& fn) {
    uint32_t pos = from;
    while (pos < to) {
      const uint8_t* p = code.data() + pos;
      size_t left = to - pos;
      uint64_t addr = address + (pos - from);
      if (cs_disasm_iter(handle_, &p, &left, &addr, insn_)) {
        fn(pos, static_cast<uint32_t>(insn_->size), *insn_);
        pos += insn_->size;
      } else {
        ++pos;
      }
    }
  }

 private:
  csh handle_ = 0;
  cs_insn* insn_ = nullptr;
};

// The compare immediate when `insn` is `cmp <mem>, imm` whose displacement is the dword at
// `disp_at` (offset from the instruction start).
std::optional<int64_t> compare_immediate(const cs_insn& insn, uint32_t disp_at) {
  if (insn.id != X86_INS_CMP || !insn.detail) return std::nullopt;
  const cs_x86& x = insn.detail->x86;
  if (x.op_count != 2 || x.operands[0].type != X86_OP_MEM || x.operands[1].type != X86_OP_IMM)
    return std::nullopt;
  if (x.encoding.disp_offset != disp_at) return std::nullopt;
  return sign_extend(static_cast<uint64_t>(x.operands[1].imm), 8u * x.operands[0].size);
}

struct Reloc {
  uint32_t target;
  const PeTrampoline* trampoline;  // null when the target is not a trampoline
};

}  // namespace

std::vector<const ArticulationCase*> ArticulationAnalysis::cases_of(
    const std::string& input) const {
  std::vector<const ArticulationCase*> out;
  for (const auto& c : cases)
    if (c.input == input) out.push_back(&c);
  return out;
}

ArticulationAnalysis analyze_articulations(const Shape& shape, const WalkResult& walk) {
  ArticulationAnalysis out;
  const PharLapImage& img = shape.image;
  const auto& code = img.code;
  const uint32_t stub_area = img.stub_area_offset;

  // Blocks: every X86Code instruction, with the x86 region the walker bounded after it.
  std::map<uint32_t, size_t> item_at;  // offset -> index into walk.items
  for (size_t i = 0; i < walk.items.size(); ++i) item_at[walk.items[i].offset] = i;
  for (size_t i = 0; i < walk.items.size(); ++i) {
    const WalkItem& item = walk.items[i];
    if (item.kind != ItemKind::kInstruction || item.insn->op != 0xF0) continue;
    X86Block b;
    b.offset = item.offset;
    b.payload = item.offset + item.size;
    b.end = b.payload;
    if (i + 1 < walk.items.size() && walk.items[i + 1].kind == ItemKind::kX86 &&
        walk.items[i + 1].offset == b.payload)
      b.end = b.payload + walk.items[i + 1].size;
    out.blocks.push_back(std::move(b));
  }
  if (out.blocks.empty()) return out;

  std::set<uint32_t> heads;
  for (const auto& b : out.blocks) {
    heads.insert(b.offset);
    heads.insert(b.payload);
  }
  std::map<uint32_t, Reloc> relocs;  // site -> target, for sites and targets inside CODE
  for (const auto& r : img.relocations) {
    if (!r.site_code_offset || !r.target_code_offset) continue;
    relocs[*r.site_code_offset] = {*r.target_code_offset, img.trampoline_at(*r.target_code_offset)};
  }
  auto function_stub_at = [&](uint32_t site) -> const PeTrampoline* {
    auto it = relocs.find(site);
    if (it == relocs.end() || !it->second.trampoline || !it->second.trampoline->is_function)
      return nullptr;
    return it->second.trampoline;
  };

  Decoder decoder;
  std::vector<std::vector<uint32_t>> pointer_sites(out.blocks.size());
  for (size_t bi = 0; bi < out.blocks.size(); ++bi) {
    X86Block& b = out.blocks[bi];
    // Sub-stream pointers and data reads, from the relocations whose site is in the payload.
    for (auto it = relocs.lower_bound(b.payload); it != relocs.end() && it->first < b.end; ++it) {
      const uint32_t site = it->first;
      const Reloc& r = it->second;
      if (r.trampoline) {
        if (!r.trampoline->is_function)
          b.reads.push_back({site, site, r.trampoline->import_name, std::nullopt});
        continue;
      }
      if (r.target < kHeaderSize || r.target >= stub_area || heads.count(r.target)) continue;
      // `push p; push stub; ret` into a function other than do_start_interp: p is that call's
      // return address (an x86 continuation or an _ErrorExit message), not bytecode.
      if (site >= 1 && code[site - 1] == 0x68 && site + 10 <= code.size() &&
          code[site + 4] == 0x68 && code[site + 9] == 0xC3) {
        const PeTrampoline* callee = function_stub_at(site + 5);
        if (callee && callee->import_name != "do_start_interp") continue;
      }
      b.pointers.push_back(r.target);
      b.governing.emplace_back();  // filled below
      pointer_sites[bi].push_back(site);
    }
    // The instruction holding each read: a linear sweep of the payload from its first byte.
    if (!b.reads.empty()) {
      decoder.sweep(code, b.payload, b.end, img.code_pointer(b.payload),
                    [&](uint32_t off, uint32_t size, const cs_insn& insn) {
                      for (auto& rd : b.reads) {
                        if (rd.site < off || rd.site >= off + size) continue;
                        rd.instruction = off;
                        rd.value = compare_immediate(insn, rd.site - off);
                      }
                    });
    }
    for (const auto& rd : b.reads) {
      auto& values = out.inputs[rd.input];
      if (rd.value) values.insert(*rd.value);
      if (!b.input && rd.value) b.input = rd.input;
    }
    if (!b.input && !b.reads.empty()) b.input = b.reads.front().input;
    for (const auto& rd : b.reads)
      if (rd.value && rd.input == *b.input) b.compare_values.push_back(*rd.value);
  }

  // Byte ranges and runs. A block's range extends from its region end over the arm it re-enters:
  // arm instructions (calls, jumps) entered by one of its own pointers or continuing after a call.
  for (size_t i = 0; i < out.blocks.size(); ++i) {
    X86Block& b = out.blocks[i];
    const uint32_t next_head = i + 1 < out.blocks.size() ? out.blocks[i + 1].offset : stub_area;
    const std::set<uint32_t> own(b.pointers.begin(), b.pointers.end());
    uint32_t pos = b.end;
    bool after_call = false;
    while (pos < next_head) {
      auto it = item_at.find(pos);
      if (it == item_at.end()) break;
      const WalkItem& item = walk.items[it->second];
      if (item.kind != ItemKind::kInstruction || !is_arm_instruction(item.insn->op)) break;
      if (!own.count(pos) && !after_call) break;
      after_call = is_call(item.insn->op);
      pos += item.size;
    }
    b.range_end = pos;
    if (i > 0) {
      const X86Block& prev = out.blocks[i - 1];
      b.run = prev.run + (prev.range_end == b.offset ? 0 : 1);
    }
  }

  // Attribution: walk each run in code order, carrying the last compared (input, value).
  std::map<std::pair<std::string, int64_t>, std::set<uint32_t>> cases;
  for (const auto& [input, values] : out.inputs)
    for (int64_t v : values) cases[{input, v}];
  std::optional<ArticulationGuard> last;
  for (size_t i = 0; i < out.blocks.size(); ++i) {
    X86Block& b = out.blocks[i];
    if (i == 0 || b.run != out.blocks[i - 1].run) last.reset();
    // Events in site order: reads (compares update the state) and pointers (take the state).
    std::vector<std::tuple<uint32_t, int, size_t>> events;  // site, 0 read / 1 pointer, index
    for (size_t k = 0; k < b.reads.size(); ++k) events.emplace_back(b.reads[k].site, 0, k);
    for (size_t k = 0; k < b.pointers.size(); ++k) events.emplace_back(pointer_sites[i][k], 1, k);
    std::sort(events.begin(), events.end());
    for (const auto& [site, kind, index] : events) {
      if (kind == 0) {
        const ArticulationRead& rd = b.reads[index];
        if (rd.value) last = ArticulationGuard{rd.input, *rd.value};
      } else {
        b.governing[index] = last;
        if (last) cases[{last->input, last->value}].insert(b.pointers[index]);
      }
    }
  }
  for (auto& [key, subs] : cases)
    out.cases.push_back({key.first, key.second, std::vector<uint32_t>(subs.begin(), subs.end())});
  return out;
}

std::string describe_block(const X86Block& block) {
  std::string out;
  std::string read_part;
  for (const auto& rd : block.reads) {
    if (!read_part.empty()) read_part += ", ";
    read_part += rd.value ? fmt::format("{} cmp {}", rd.input, *rd.value) : rd.input;
  }
  if (!read_part.empty()) out = "reads " + read_part;
  for (size_t i = 0; i < block.pointers.size(); ++i) {
    if (!out.empty()) out += ", ";
    const auto& g = block.governing[i];
    const bool carried =
        g && std::none_of(block.reads.begin(), block.reads.end(), [&](const ArticulationRead& r) {
          return r.value && r.input == g->input && *r.value == g->value;
        });
    out += fmt::format("→ 0x{:04x}", block.pointers[i]);
    if (carried) out += fmt::format(" (carries {} = {})", g->input, g->value);
  }
  return out;
}

}  // namespace shapevm::fa
