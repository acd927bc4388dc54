// What the debugger sees of a Battle Isle 2 draw (interp/common/pause.h): a pause before every
// polygon is emitted and one at the end. Registers describe the polygon about to be drawn; the
// memory view "vertices" holds the current instance's posed and view-space vertices.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "interp/bi2/run_state.h"
#include "interp/bi2/transform.h"
#include "interp/common/pause.h"

namespace shapevm::bi2 {

inline constexpr std::string_view kStoppedByDebugger = "stopped by the debugger";

struct PauseView {
  uint32_t offset = 0;  // the polygon record's file offset (end: 0)
  std::string_view mnemonic = "end";
  int64_t polygon = -1, part = -1, shade = 0, bias = 0, colour = 0, corners = 0, depth = 0;
  int64_t placement = -1;
  uint64_t steps = 0;  // polygons drawn before this one
  std::span<const Vec3> posed;
  std::span<const ViewPoint> view;
  const RunState* state = nullptr;
  bool ended = false;
  bool clean = true;
  std::string_view reason;
};

class Bi2PausePoint : public PausePoint {
 public:
  explicit Bi2PausePoint(const PauseView& view) : v_(view) {}
  uint32_t offset() const override { return v_.offset; }
  std::string_view mnemonic() const override { return v_.mnemonic; }
  uint32_t opcode() const override { return 0; }
  uint32_t depth() const override { return 0; }
  bool native() const override { return false; }
  std::optional<uint32_t> native_offset() const override { return std::nullopt; }
  bool ended() const override { return v_.ended; }
  std::optional<int64_t> read(std::string_view name) const override;
  Snapshot capture() const override;
  DebugVocabulary vocabulary() const override;

  // polygon, part, shade, bias, colour, corners, depth, placement.
  std::vector<DebugValue> registers() const;
  // camera.distance|heading|pitch and partN.ax|ay|az|tx|ty|tz of every part set by --set.
  std::vector<DebugValue> globals() const;

 private:
  const PauseView& v_;
};

}  // namespace shapevm::bi2
