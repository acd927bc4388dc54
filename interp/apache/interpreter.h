// The Apache drawing-program interpreter (seed 003; AP-09..AP-25, AP-29..AP-34). It runs one
// model record for one state: picks the LOD record, constructs the attached instances, draws the
// shadow pass (when the model casts one) and then the model, emitting every opcode, branch,
// call/return, face and diagnostic to an EventSink. Opcodes are decoded through the one operand
// table (opcodes.h) and executed through a table of eight handlers indexed by the opcode byte.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "interp/apache/archive.h"
#include "interp/apache/geometry.h"
#include "interp/apache/opcodes.h"
#include "interp/apache/palette.h"
#include "interp/apache/run_state.h"
#include "interp/apache/textures.h"
#include "interp/common/events.h"
#include "interp/common/pause.h"

namespace shapevm::apache {

inline constexpr std::string_view kEngine = "apache";

struct RunResult {
  bool clean = true;
  std::string reason;
  uint32_t end_offset = 0;
  uint32_t record = 0;  // the record drawn after following the LOD chain
  uint64_t ops = 0;
  uint64_t faces = 0;
  uint64_t shadow_faces = 0;
  uint64_t diagnostics = 0;
};

// A model placed in its parent: child-in-parent = rotation * v + translation (Q31 rotation,
// row-major), composed down the attachment tree.
struct Transform {
  std::array<int64_t, 9> rotation{int64_t{1} << 31, 0, 0, 0, int64_t{1} << 31, 0, 0, 0,
                                  int64_t{1} << 31};
  std::array<int64_t, 3> translation{};
  std::array<int64_t, 3> apply(const Vec3& v) const;
  Transform then(const Attachment& child) const;  // this ∘ child
  bool operator==(const Transform&) const = default;
};

// One instance produced by constructing a record with its attachments (AP-09).
struct Instance {
  uint32_t record = 0;
  int32_t parent = -1;    // index into the list; -1 for the root
  uint32_t via_slot = 0;  // the parent's attachment record index
  bool from_gameplay_slot = false;
  Transform transform;
};

// construct_3d_object_: the record and, recursively, every attachment; model-ID-0 slots are
// filled from `slots` (attachment index -> record) or left empty. Cycles and depth beyond
// `depth_limit` are InputErrors.
std::vector<Instance> construct_instances(const Archive& archive, uint32_t record,
                                          const std::map<uint32_t, uint32_t>& slots,
                                          uint32_t depth_limit = assumed::kDefaultDepthLimit);

// The record a state draws: the LOD chain followed `state.lod` times, or while the camera
// distance exceeds the threshold (AP-34).
uint32_t select_lod(const Archive& archive, uint32_t record, const RunState& state,
                    int64_t camera_distance);

class Interpreter {
 public:
  // `textures` may be null (texture strides then assumed 64 for the u/v diagnostics).
  Interpreter(const Archive& archive, const ShadingTables& tables, const TextureArchive* textures);
  ~Interpreter();

  // With `pause` (the debugger, interp/apache/pause.h), the handler is called before every opcode
  // executes and once at the end; returning true ends the run there, clean, with the reason
  // "stopped by the debugger". Without one the run takes the same path as before.
  RunResult run(uint32_t record, const RunState& state, EventSink& sink,
                PauseHandler* pause = nullptr);

  // The camera distance a state uses for a record (its own or 3x the radius).
  int64_t camera_distance(const ModelRecord& record, const RunState& state) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shapevm::apache
