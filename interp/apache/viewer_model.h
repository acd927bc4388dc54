// The Apache engine's viewer model (interp/common/viewer_model.h): one record of an archive, its
// LOD levels (the record's LOD chain), the inputs a static walk finds (`anim` with the values its
// mask, choose and select opcodes tell apart; each gameplay-filled attachment slot `slotN` with
// the records that can hang there), mapped onto an apache::RunState for every run. Apache has no
// frame counter, detail levels, destroyed or effects switch: those viewer controls change
// nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "interp/apache/analysis.h"
#include "interp/apache/interpreter.h"
#include "interp/apache/run_state.h"
#include "interp/apache/session.h"
#include "interp/common/state.h"
#include "interp/common/viewer_model.h"

namespace shapevm::apache {

// A slot input's engine default: the slot is empty (nothing is drawn there).
inline constexpr int64_t kEmptySlot = -1;
// A slot input offers at most this many records.
inline constexpr size_t kMaxSlotCandidates = 32;

class ApacheViewerModel : public ViewerModel {
 public:
  // InputError when the session names no record or `opening` is malformed.
  ApacheViewerModel(std::shared_ptr<Session> session, const StateRequest& opening);

  const ViewerCapabilities& capabilities() const override { return caps_; }
  ViewerState initial_state() const override;
  ViewerRunResult run(const ViewerState& state, int32_t height, EventSink& sink) override;
  std::string state_json(const ViewerState& state, int32_t height) const override;
  const raster::Palette& palette() const override { return session_->tables().frame; }
  TextureLookup textures() override;

  // The run state a viewer state stands for (exposed for tests).
  RunState run_state(const ViewerState& state, int32_t height) const;

 private:
  std::shared_ptr<Session> session_;
  uint32_t record_ = 0;
  RunState base_;  // the opening state (the command line's options and --set)
  Interpreter interp_;
  ViewerCapabilities caps_;
  bool has_anim_input_ = false;
  std::vector<uint32_t> slot_of_input_;  // parallel to caps_.inputs (after anim): slot index
};

}  // namespace shapevm::apache
