// What the debugger sees of a running Apache interpreter (interp/common/pause.h). The interpreter
// fills a PauseView before every opcode executes and once at the end of the run, and hands the
// pause handler an ApachePausePoint over it; everything a view points at is valid only during
// that call. Apache has no embedded native code, so no pause is ever native.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "interp/apache/archive.h"
#include "interp/apache/geometry.h"
#include "interp/apache/interpreter.h"
#include "interp/apache/opcodes.h"
#include "interp/apache/run_state.h"
#include "interp/common/pause.h"

namespace shapevm::apache {

// The reason a run ends with when the pause handler asks it to stop (the run ends clean).
inline constexpr std::string_view kStoppedByDebugger = "stopped by the debugger";

struct PauseView {
  uint32_t offset = 0;                       // the opcode about to execute (end: the end offset)
  const Instruction* instruction = nullptr;  // nullptr at the end pause
  uint32_t depth = 0;                        // call depth (branch calls and attached models)
  uint64_t steps = 0;                        // opcodes executed before this one
  uint64_t faces = 0;                        // model faces emitted so far
  uint64_t shadow_faces = 0;
  bool shadow_pass = false;  // the shadow pass draws the program once before the model pass
  std::span<const DebugFrame> frames;
  // The instance being drawn (nullptr at the end pause): its record, its placement in the root
  // model's axes, its vertices in model units and transformed into view space.
  const ModelRecord* model = nullptr;
  const Transform* transform = nullptr;
  std::span<const Vec3> local;
  std::span<const ViewPoint> view;
  int32_t winding = 0;          // the instance's last winding result (face2 draws when >= 0)
  uint32_t requested = 0;       // the record the run was asked for
  uint32_t drawn = 0;           // the record drawn after following the LOD chain
  uint32_t lod_steps = 0;       // how many LOD links were followed
  int64_t camera_distance = 0;  // the distance the run uses (given, or the model's default)
  const RunState* state = nullptr;
  const RunResult* end = nullptr;  // the end pause: how the run ended
};

class ApachePausePoint : public PausePoint {
 public:
  explicit ApachePausePoint(const PauseView& view) : v_(view) {}

  uint32_t offset() const override { return v_.offset; }
  std::string_view mnemonic() const override;
  uint32_t opcode() const override { return v_.instruction ? v_.instruction->op : 0; }
  uint32_t depth() const override { return v_.depth; }
  bool native() const override { return false; }
  std::optional<uint32_t> native_offset() const override { return std::nullopt; }
  bool ended() const override { return v_.end != nullptr; }
  // Registers and globals by name (registers(), globals()), `vertices[N].x|y|z|vx|vy|vz` for the
  // current instance's vertices, and depth, faces, steps, offset.
  std::optional<int64_t> read(std::string_view name) const override;
  Snapshot capture() const override;
  // The memory view "vertices" (the current instance's vertices); no native code.
  DebugVocabulary vocabulary() const override;

  // pass, record, pos.x|y|z, rot.m00..m22 (Q31), winding, lod.level, lod.record,
  // camera.distance, shadow_faces.
  std::vector<DebugValue> registers() const;
  // The run state: anim, lod, camera.heading, camera.pitch, light.x|y|z, shadows, gouraud, ground,
  // cloud, receiver, receiver_heading and slotN for every filled gameplay slot.
  std::vector<DebugValue> globals() const;

 private:
  std::array<int64_t, 6> vertex_values(size_t i) const;  // x, y, z, vx, vy, vz of vertex i

  const PauseView& v_;
};

}  // namespace shapevm::apache
