#include "interp/apache/analysis.h"

#include <algorithm>
#include <set>

#include "core/input_error.h"
#include "interp/apache/geometry.h"
#include "interp/apache/listing.h"

namespace shapevm::apache {
namespace {

// More combinations than this and the values are listed per group instead.
constexpr size_t kMaxCombinations = 64;
// At most this many authored select cases per group.
constexpr uint32_t kMaxCases = 16;

}  // namespace

StateAnalysis analyse_record(const Archive& archive, uint32_t record) {
  StateAnalysis out;
  for (int64_t at = record; at >= 0 && out.lod_chain.size() < archive.count();) {
    const auto index = static_cast<uint32_t>(at);
    if (index >= archive.count() || archive.record(index) == nullptr) break;
    if (std::find(out.lod_chain.begin(), out.lod_chain.end(), index) != out.lod_chain.end()) break;
    out.lod_chain.push_back(index);
    at = archive.record(index)->header.next_record;
  }

  // Each group: the anim values (0 included) one test tells apart.
  std::set<std::vector<uint32_t>> groups;
  std::set<uint32_t> slots, seen;
  std::vector<uint32_t> pending(out.lod_chain.rbegin(), out.lod_chain.rend());
  while (!pending.empty()) {
    const uint32_t index = pending.back();
    pending.pop_back();
    if (!seen.insert(index).second || index >= archive.count()) continue;
    const ModelRecord* rec = archive.record(index);
    if (rec == nullptr) continue;
    try {
      const ProgramWalk walk = walk_program(archive, *rec);
      for (const auto& [offset, ins] : walk.instructions) {
        switch (static_cast<Opcode>(ins.op)) {
          case Opcode::kIfMask:
          case Opcode::kChoose:
            out.anim_read = true;
            if (ins.mask != 0) groups.insert({0, ins.mask});
            break;
          case Opcode::kSelect: {
            out.anim_read = true;
            std::vector<uint32_t> cases;
            const auto n =
                std::min<uint32_t>(static_cast<uint32_t>(ins.branches.size()), kMaxCases);
            for (uint32_t k = 0; k < n; ++k)
              if ((k & ins.mask) == k && ins.shift < 32) cases.push_back(k << ins.shift);
            if (cases.size() > 1) groups.insert(cases);
            break;
          }
          default:
            break;
        }
      }
    } catch (const InputError&) {
      out.walk_failed = true;
    }
    if (!rec->header.has(kAttached)) continue;
    try {
      const auto attachments =
          read_attachments(archive.bytes(), rec->header.sections[kAttached], archive.source());
      for (size_t i = 0; i < attachments.size(); ++i) {
        if (attachments[i].is_slot()) {
          slots.insert(static_cast<uint32_t>(i));
        } else {
          pending.push_back(attachments[i].model_id);
        }
      }
    } catch (const InputError&) {
      out.walk_failed = true;
    }
  }

  std::set<int64_t> values{0};
  bool combined = true;
  for (const auto& g : groups) {
    std::set<int64_t> next;
    for (int64_t v : values)
      for (uint32_t c : g) next.insert(static_cast<int64_t>(static_cast<uint32_t>(v) | c));
    if (next.size() > kMaxCombinations) {
      combined = false;
      break;
    }
    values = std::move(next);
  }
  if (!combined) {
    values = {0};
    for (const auto& g : groups) values.insert(g.begin(), g.end());
  }
  values.erase(0);
  out.anim_values.assign(values.begin(), values.end());
  out.slots.assign(slots.begin(), slots.end());
  return out;
}

}  // namespace shapevm::apache
