#include "interp/fa/merged_harvest.h"

#include <fmt/format.h>

#include <algorithm>

#include "interp/fa/branch_kinds.h"
#include "interp/fa/engine_name.h"

namespace shapevm::fa {

MergedHarvest::MergedHarvest(const Shape& shape, const WalkResult& walk,
                             const std::map<uint32_t, uint32_t>& x86_ends,
                             std::unique_ptr<ArticulationAnalysis>& articulations, EventSink& sink)
    : shape_(shape),
      walk_(walk),
      x86_ends_(x86_ends),
      articulations_(articulations),
      sink_(sink),
      tap_(sink),
      executed_(shape.code().size(), 0) {}

void MergedHarvest::Tap::on_branch(const BranchEvent& e) {
  if (e.taken && (e.kind == branch_kind::kLod || e.kind == branch_kind::kDetail ||
                  e.kind == branch_kind::kDamage))
    coarse_ = true;
  if (inner_control_) inner_.on_branch(e);
}

bool MergedHarvest::before_fetch(MachineAccess& m) {
  // A harvest walk that reaches code an earlier walk executed returns from the current fragment
  // as at a ShortEOF (the rest was drawn already), or ends at top level.
  while (walking_ && executed_[m.pos()]) {
    if (m.at_top_level())
      return m.stop(m.pos(), "harvest: reached code already walked", StopReason::kReachedWalkedCode,
                    true);
    m.return_from_call(m.pos());
    if (m.pos() >= m.code_size()) return m.fail(m.pos(), "execution ran off the end of CODE");
  }
  executed_[m.pos()] = 1;
  return true;
}

RunObserver::Action MergedHarvest::before_dispatch(MachineAccess& m, uint32_t off, uint8_t op) {
  switch (op) {
    case 0x82: {  // VertexBuffer
      const auto vb = m.vertex_buffer_operands(off);
      if (!vb) return Action::kStop;
      if (walking_ && vb->first < append_floor_) {
        // Append-only (seed, sub-stream harvest): a variant that rewrites the base mesh's slots
        // is skipped, and so are the faces after it in this walk, which would index it.
        sink_.on_diagnostic(
            {kEngine, off, DiagnosticLevel::kInfo,
             fmt::format("harvest: VertexBuffer at slot {} is below the base pool's {} "
                         "slots; it and the faces after it in this walk are dropped",
                         vb->first, append_floor_)});
        drop_faces_ = true;
        m.set_pos(vb->next);
        return Action::kDone;
      }
      slots_written_ = std::max(slots_written_, vb->first + vb->count);
      m.write_vertices(off, *vb);
      return Action::kDone;
    }
    case 0xFC:  // Face
      if (!drop_faces_) return Action::kDispatch;
      return m.skip_face(off) ? Action::kDone : Action::kStop;
    case 0xF0:  // X86Code: a walk starts with the texture current at the last block before it
      if (!walking_) texture_at_x86_.emplace_back(off, m.texture());
      return Action::kDispatch;
    default:
      return Action::kDispatch;
  }
}

void MergedHarvest::walk_unreached_targets(MachineAccess& m) {
  // The seed's reloc-based sub-stream harvest, run after the base: only for the finest intact
  // path, since the sub-streams are authored against the finest pool.
  if (tap_.coarse_) {
    sink_.on_diagnostic({kEngine, m.result().end_offset, DiagnosticLevel::kInfo,
                         "--merged: no harvest, the run took a coarse LOD, low-detail or damage "
                         "branch (the harvest applies to the finest intact path only)"});
    return;
  }
  const RunResult base = m.result();
  std::vector<std::pair<uint32_t, uint32_t>> native;  // x86 bytes: [begin, end)
  for (const auto& item : walk_.items)
    if (item.kind == ItemKind::kX86) native.emplace_back(item.offset, item.offset + item.size);
  auto in_native = [&](uint32_t at) {
    return std::any_of(native.begin(), native.end(),
                       [&](const auto& r) { return at >= r.first && at < r.second; });
  };
  // FA-23: an input the state sets keeps only the sub-streams its value selects; the others stay
  // merged. The control-flow selection of the static analysis says which input governs a target.
  if (!articulations_)
    articulations_ = std::make_unique<ArticulationAnalysis>(analyze_articulations(shape_, walk_));
  std::map<uint32_t, std::vector<ArticulationGuard>> guards_of;
  for (const auto& b : articulations_->blocks)
    for (size_t k = 0; k < b.pointers.size(); ++k)
      if (b.selection[k]) guards_of[b.pointers[k]].push_back(*b.selection[k]);
  auto deselected = [&](uint32_t target) {
    auto it = guards_of.find(target);
    if (it == guards_of.end()) return false;
    for (const auto& g : it->second) {
      auto set = m.state().imports.find(g.input);
      if (set != m.state().imports.end() && !g.holds(set->second)) return true;
    }
    return false;
  };
  walking_ = true;
  append_floor_ = slots_written_;
  // A walk that runs into bytes it cannot execute ends; the merged run goes on.
  m.set_failure_level(DiagnosticLevel::kWarning);
  for (uint32_t target : walk_.reloc_targets) {
    if (target >= m.code_size() || executed_[target]) continue;
    // Targets in x86 bytes or at a block's head are not geometry (assumptions.h, D2).
    if (assumed::kHarvestSkipsTargetsInX86 &&
        (in_native(target) || x86_ends_.count(target) || x86_ends_.count(target - 2)))
      continue;
    if (deselected(target)) continue;
    if (tap_.inner_control_)
      sink_.on_branch({kEngine, target, branch_kind::kHarvest, true, target, 0, 0});
    m.set_pos(target);
    m.reset_frames();
    drop_faces_ = false;
    // The texture current when the base run stepped over the last x86 block before the target.
    std::string texture;
    for (const auto& [at, name] : texture_at_x86_)
      if (at < target) texture = name;
    m.set_texture(std::move(texture));
    // The seed's harvest walks on through a top-level ShortEOF (some fragments are reached only
    // by calls a static walk cannot follow): the machine stops there and the walk goes on at the
    // byte after it. (The machine's own position is two bytes on, past the operand byte its
    // fetch consumed; resuming there would skip the first byte of whatever follows.)
    for (;;) {
      m.run_loop();
      if (m.result().stop != StopReason::kTopLevelShortEof) break;
      m.set_pos(m.result().end_offset + 1);
    }
    if (m.result().stop == StopReason::kStepBudget || m.result().stop == StopReason::kWorkBudget)
      return;  // the merged run is over budget
  }
  m.set_result(base);
}

}  // namespace shapevm::fa
