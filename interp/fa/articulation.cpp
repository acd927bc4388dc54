#include "interp/fa/articulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "x86/capstone_library.h"

namespace shapevm::fa {

namespace {

// Every Capstone call goes through the table loaded on first use (x86/capstone_library.h).
const x86::CapstoneLibrary& capstone() {
  return x86::capstone_library();
}

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

// Capstone in 32-bit mode with operand detail, closed on scope exit. One per thread is kept open
// (shared_decoder): a new handle rebuilds Capstone's instruction-id table on first use, which was
// about a tenth of `info` over a corpus where one shape in seven has x86.
class Decoder {
 public:
  Decoder() {
    if (capstone().cs_open(CS_ARCH_X86, CS_MODE_32, &handle_) != CS_ERR_OK)
      throw std::runtime_error("cannot open Capstone for x86-32");
    capstone().cs_option(handle_, CS_OPT_DETAIL, CS_OPT_ON);
    insn_ = capstone().cs_malloc(handle_);
  }
  ~Decoder() {
    if (insn_) capstone().cs_free(insn_, 1);
    capstone().cs_close(&handle_);
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
      if (capstone().cs_disasm_iter(handle_, &p, &left, &addr, insn_)) {
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

Decoder& shared_decoder() {
  thread_local Decoder decoder;
  return decoder;
}

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

// The relation under which the re-entry after `cmp; jcc skip` is reached (the jump not taken).
std::optional<GuardRelation> relation_when_not_taken(unsigned id) {
  switch (id) {
    case X86_INS_JNE:
      return GuardRelation::kEq;
    case X86_INS_JE:
      return GuardRelation::kNe;
    case X86_INS_JGE:
      return GuardRelation::kLt;
    case X86_INS_JL:
      return GuardRelation::kGe;
    case X86_INS_JG:
      return GuardRelation::kLe;
    case X86_INS_JLE:
      return GuardRelation::kGt;
    case X86_INS_JAE:
      return GuardRelation::kULt;
    case X86_INS_JB:
      return GuardRelation::kUGe;
    case X86_INS_JA:
      return GuardRelation::kULe;
    case X86_INS_JBE:
      return GuardRelation::kUGt;
    default:
      return std::nullopt;
  }
}

// A block's reads (kind 0) and pointers (kind 1) in site order: (site, kind, index).
std::vector<std::tuple<uint32_t, int, size_t>> site_events(const X86Block& b,
                                                           const std::vector<uint32_t>& sites) {
  std::vector<std::tuple<uint32_t, int, size_t>> events;
  for (size_t k = 0; k < b.reads.size(); ++k) events.emplace_back(b.reads[k].site, 0, k);
  for (size_t k = 0; k < b.pointers.size(); ++k) events.emplace_back(sites[k], 1, k);
  std::sort(events.begin(), events.end());
  return events;
}

struct Reloc {
  uint32_t target;
  const PeTrampoline* trampoline;  // null when the target is not a trampoline
};

}  // namespace

const char* guard_relation_symbol(GuardRelation r) {
  switch (r) {
    case GuardRelation::kEq:
      return "==";
    case GuardRelation::kNe:
      return "!=";
    case GuardRelation::kLt:
      return "<";
    case GuardRelation::kGe:
      return ">=";
    case GuardRelation::kGt:
      return ">";
    case GuardRelation::kLe:
      return "<=";
    case GuardRelation::kULt:
      return "<u";
    case GuardRelation::kUGe:
      return ">=u";
    case GuardRelation::kUGt:
      return ">u";
    case GuardRelation::kULe:
      return "<=u";
  }
  return "?";
}

bool ArticulationGuard::holds(int64_t input_value) const {
  // The x86 reads the low `bits` of the slot; the immediate was sign-extended to that width.
  const int64_t a = sign_extend(static_cast<uint64_t>(input_value), bits);
  const int64_t b = value;
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t ua = static_cast<uint64_t>(a) & mask;
  const uint64_t ub = static_cast<uint64_t>(b) & mask;
  switch (relation) {
    case GuardRelation::kEq:
      return a == b;
    case GuardRelation::kNe:
      return a != b;
    case GuardRelation::kLt:
      return a < b;
    case GuardRelation::kGe:
      return a >= b;
    case GuardRelation::kGt:
      return a > b;
    case GuardRelation::kLe:
      return a <= b;
    case GuardRelation::kULt:
      return ua < ub;
    case GuardRelation::kUGe:
      return ua >= ub;
    case GuardRelation::kUGt:
      return ua > ub;
    case GuardRelation::kULe:
      return ua <= ub;
  }
  return false;
}

std::vector<uint32_t> ArticulationAnalysis::selected(
    const std::map<std::string, int64_t>& values) const {
  std::set<uint32_t> out;
  for (const auto& b : blocks) {
    for (size_t i = 0; i < b.pointers.size(); ++i) {
      const auto& g = b.selection[i];
      if (!g) {
        out.insert(b.pointers[i]);
        continue;
      }
      auto it = values.find(g->input);
      if (g->holds(it == values.end() ? 0 : it->second)) out.insert(b.pointers[i]);
    }
  }
  return {out.begin(), out.end()};
}

std::vector<int64_t> ArticulationAnalysis::distinct_values(const std::string& input) const {
  auto it = inputs.find(input);
  if (it == inputs.end() || it->second.empty()) return {};
  // Representatives, in preference order: the compare immediates, 0, then each immediate's
  // neighbours (above first: 1 reads better than -1 for an on/off input).
  std::vector<int64_t> ordered(it->second.begin(), it->second.end());
  ordered.push_back(0);
  for (int64_t v : it->second) ordered.insert(ordered.end(), {v + 1, v - 1});
  std::set<std::vector<uint32_t>> seen;
  std::vector<int64_t> out;
  for (int64_t v : ordered)
    if (seen.insert(selected({{input, v}})).second) out.push_back(v);
  std::sort(out.begin(), out.end());
  return out;
}

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
  // The walk item starting at `offset`, or null. Items are contiguous and ascending
  // (walker.h), so a binary search finds it. Most shapes have no block and never ask; a map of
  // every item, built for each shape, was a tenth of `info`'s time.
  const auto item_at = [&walk](uint32_t offset) -> const WalkItem* {
    const auto it =
        std::lower_bound(walk.items.begin(), walk.items.end(), offset,
                         [](const WalkItem& item, uint32_t value) { return item.offset < value; });
    return it != walk.items.end() && it->offset == offset ? &*it : nullptr;
  };
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

  std::vector<std::vector<uint32_t>> pointer_sites(out.blocks.size());
  for (size_t bi = 0; bi < out.blocks.size(); ++bi) {
    X86Block& b = out.blocks[bi];
    // Sub-stream pointers and data reads, from the relocations whose site is in the payload.
    for (auto it = relocs.lower_bound(b.payload); it != relocs.end() && it->first < b.end; ++it) {
      const uint32_t site = it->first;
      const Reloc& r = it->second;
      if (r.trampoline) {
        if (!r.trampoline->is_function) {
          ArticulationRead rd;
          rd.site = rd.instruction = site;
          rd.input = r.trampoline->import_name;
          b.reads.push_back(std::move(rd));
        }
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
    // The instruction holding each read: a linear sweep of the payload from its first byte. The
    // instruction right after a compare gives the guard's polarity.
    if (!b.reads.empty()) {
      ArticulationRead* compared = nullptr;
      const int64_t base = img.code_pointer(b.payload);
      shared_decoder().sweep(code, b.payload, b.end, img.code_pointer(b.payload),
                             [&](uint32_t off, uint32_t size, const cs_insn& insn) {
                               if (compared) {
                                 const auto rel = relation_when_not_taken(insn.id);
                                 const cs_x86& x = insn.detail->x86;
                                 if (rel && x.op_count == 1 && x.operands[0].type == X86_OP_IMM) {
                                   compared->relation = *rel;
                                   const int64_t to = int64_t{b.payload} + x.operands[0].imm - base;
                                   if (to >= 0 && to <= int64_t{stub_area})
                                     compared->skip_to = static_cast<uint32_t>(to);
                                 }
                                 compared = nullptr;
                               }
                               for (auto& rd : b.reads) {
                                 if (rd.site < off || rd.site >= off + size) continue;
                                 rd.instruction = off;
                                 rd.value = compare_immediate(insn, rd.site - off);
                                 if (rd.value) {
                                   rd.bits = 8u * insn.detail->x86.operands[0].size;
                                   compared = &rd;
                                 }
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
      const WalkItem* found = item_at(pos);
      if (found == nullptr) break;
      const WalkItem& item = *found;
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
    const auto events = site_events(b, pointer_sites[i]);
    for (const auto& [site, kind, index] : events) {
      if (kind == 0) {
        const ArticulationRead& rd = b.reads[index];
        if (rd.value) last = ArticulationGuard{rd.input, *rd.value, rd.relation, rd.bits};
      } else {
        b.governing[index] = last;
      }
    }
  }
  // Selection from the control flow: per run, the compares seen so far with their jumps' targets.
  struct Seen {
    uint32_t site;
    std::optional<uint32_t> skip_to;
    ArticulationGuard guard;
  };
  std::vector<Seen> seen;
  std::map<std::pair<std::string, int64_t>, GuardRelation> relations;
  for (size_t i = 0; i < out.blocks.size(); ++i) {
    X86Block& b = out.blocks[i];
    if (i == 0 || b.run != out.blocks[i - 1].run) seen.clear();
    b.selection.assign(b.pointers.size(), std::nullopt);
    const auto events = site_events(b, pointer_sites[i]);
    for (const auto& [site, kind, index] : events) {
      if (kind == 0) {
        const ArticulationRead& rd = b.reads[index];
        if (rd.value)
          seen.push_back({site, rd.skip_to, {rd.input, *rd.value, rd.relation, rd.bits}});
        continue;
      }
      // The latest compare whose jump skips this site; a compare without a conditional jump
      // carries as in the seed's rule.
      for (auto it = seen.rbegin(); it != seen.rend(); ++it) {
        if (!it->skip_to || (site > it->site && site < *it->skip_to)) {
          b.selection[index] = it->guard;
          break;
        }
      }
    }
  }
  for (const auto& b : out.blocks)
    for (size_t k = 0; k < b.pointers.size(); ++k)
      if (const auto& g = b.selection[k]) {
        if (!relations.count({g->input, g->value})) relations[{g->input, g->value}] = g->relation;
        cases[{g->input, g->value}].insert(b.pointers[k]);
      }
  for (auto& [key, subs] : cases) {
    auto rel = relations.find(key);
    out.cases.push_back({key.first, key.second, std::vector<uint32_t>(subs.begin(), subs.end()),
                         rel == relations.end() ? GuardRelation::kEq : rel->second});
  }
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
    out += fmt::format("→ 0x{:04x}", block.pointers[i]);
    const auto& sel = block.selection[i];
    const auto& g = block.governing[i];
    const bool own =
        sel && std::any_of(block.reads.begin(), block.reads.end(), [&](const ArticulationRead& r) {
          return r.value && r.input == sel->input && *r.value == sel->value;
        });
    if (sel && (!own || sel->relation != GuardRelation::kEq))
      out += fmt::format(" (when {} {} {})", sel->input, guard_relation_symbol(sel->relation),
                         sel->value);
    else if (!sel && g)
      out += fmt::format(" (every path; the seed's rule carries {} = {})", g->input, g->value);
  }
  return out;
}

}  // namespace shapevm::fa
