// A small engine that exists only in the tests: the proof that an engine is one class and one
// registration, and that no command knows which engines there are. Its file is "FAKESHP1"
// followed by 7-byte triangles (colour, then three x,y pairs of signed bytes in model units); its
// program draws them in order, each triangle one opcode ("tri"), coloured colour + tint.
#pragma once

#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "interp/common/engine.h"

namespace shapevm::testing {

class FakeProgram : public Program {
 public:
  FakeProgram(std::vector<uint8_t> bytes, std::string source)
      : bytes_(std::move(bytes)), source_(std::move(source)) {
    if ((bytes_.size() - 8) % 7 != 0)
      throw InputError(source_, bytes_.size(), "a whole 7-byte triangle");
  }
  size_t triangles() const { return (bytes_.size() - 8) / 7; }

  std::string_view engine() const override { return "fake"; }
  std::string source() const override { return source_; }
  std::string summary() const override {
    return fmt::format("{}: {} triangles", source_, triangles());
  }
  std::string info_text() const override {
    // A planted bug: a first triangle of colour 255 makes `info` fail the way a bug would.
    if (triangles() > 0 && bytes_[8] == 255) throw std::logic_error("fake engine bug");
    return fmt::format("fake program, {} triangles\n", triangles());
  }
  nlohmann::json info_json() const override { return {{"triangles", triangles()}}; }
  std::string listing_text() const override {
    std::string out;
    for (const auto& line : listing_lines()) out += line.text + "\n";
    return out;
  }
  std::vector<ListingLine> listing_lines() const override {
    std::vector<ListingLine> out;
    for (size_t i = 0; i < triangles(); ++i)
      out.push_back({offset(i), false, fmt::format("    tri {}", bytes_[offset(i)])});
    return out;
  }
  std::vector<Knob> knobs() const override {
    Knob tint;
    tint.name = "tint";
    tint.min = 0;
    tint.max = 255;
    tint.help = "added to every colour";
    tint.values = {1, 2};
    Knob size;
    size.name = "max-steps";
    size.option = true;
    size.min = 1;
    size.default_value = 1000;
    return {tint, size};
  }
  nlohmann::json state_json(const StateRequest& state) const override {
    return {{"tint", tint(state)}};
  }

  RunOutcome run(const StateRequest& state, EventSink& sink, PauseHandler* pause) override {
    const int t = tint(state);
    RunOutcome out;
    for (size_t i = 0; i < triangles(); ++i) {
      const uint32_t at = offset(i);
      if (pause && pause->pause(Pause(this, at, false, out.faces))) {
        out.reason = "stopped by the debugger";
        return end(sink, out, at);
      }
      OpEvent op;
      op.engine = "fake";
      op.offset = at;
      op.size = 7;
      op.op = 1;
      op.name = "tri";
      if (sink.wants_ops()) sink.on_op(op);
      FaceCorner corners[3];
      for (int c = 0; c < 3; ++c) {
        corners[c].view = {static_cast<int8_t>(bytes_[at + 1 + 2 * c]) * 256,
                           static_cast<int8_t>(bytes_[at + 2 + 2 * c]) * 256, -200 * 256};
      }
      FaceEvent face;
      face.engine = "fake";
      face.offset = at;
      face.sequence = static_cast<uint32_t>(out.faces++);
      face.color = static_cast<uint8_t>(bytes_[at] + t);
      face.corners = corners;
      sink.on_face(face);
      ++out.ops;
    }
    if (pause) pause->pause(Pause(this, static_cast<uint32_t>(bytes_.size()), true, out.faces));
    out.reason = "end of the triangles";
    return end(sink, out, static_cast<uint32_t>(bytes_.size()));
  }

  RenderSetup render_setup(int, int height) override {
    RenderSetup s;
    s.palette = raster::default_palette();
    s.frame.focal_pixels = height;
    return s;
  }
  std::unique_ptr<ViewerModel> viewer(const StateRequest& opening, double) override {
    return std::make_unique<Viewer>(*this, opening);
  }

 private:
  static uint32_t offset(size_t i) { return static_cast<uint32_t>(8 + 7 * i); }
  static int tint(const StateRequest& state) {
    int t = 0;
    for (const auto& a : state.sets)
      t = static_cast<int>(parse_integer(split_assignment(a).value, a, 0, 255));
    return t;
  }
  RunOutcome end(EventSink& sink, RunOutcome out, uint32_t at) {
    EndEvent e;
    e.engine = "fake";
    e.offset = at;
    e.reason = out.reason;
    e.ops = out.ops;
    e.faces = out.faces;
    sink.on_end(e);
    out.end_offset = at;
    return out;
  }

  class Pause : public PausePoint {
   public:
    Pause(const FakeProgram* p, uint32_t at, bool ended, uint64_t faces)
        : p_(p), at_(at), ended_(ended), faces_(faces) {}
    uint32_t offset() const override { return at_; }
    std::string_view mnemonic() const override { return ended_ ? "end" : "tri"; }
    uint32_t opcode() const override { return 1; }
    uint32_t depth() const override { return 0; }
    bool native() const override { return false; }
    std::optional<uint32_t> native_offset() const override { return std::nullopt; }
    bool ended() const override { return ended_; }
    std::optional<int64_t> read(std::string_view name) const override {
      if (name == "color" && !ended_) return p_->bytes_[at_];
      if (name == "faces") return static_cast<int64_t>(faces_);
      return std::nullopt;
    }
    Snapshot capture() const override {
      Snapshot s;
      s.steps = ended_ ? p_->triangles() : (at_ - 8) / 7;
      s.offset = at_;
      s.mnemonic = std::string(mnemonic());
      s.faces = faces_;
      if (!ended_) s.registers.push_back({"color", p_->bytes_[at_], ""});
      s.ended = ended_;
      if (ended_) s.end_reason = "end of the triangles";
      return s;
    }

   private:
    const FakeProgram* p_;
    uint32_t at_;
    bool ended_;
    uint64_t faces_;
  };

  class Viewer : public ViewerModel {
   public:
    Viewer(FakeProgram& p, StateRequest opening) : p_(p), opening_(std::move(opening)) {
      caps_.engine = "fake";
      caps_.source = p.source();
      caps_.inputs.push_back({"tint", {1, 2}, 0});
      palette_ = raster::default_palette();
    }
    const ViewerCapabilities& capabilities() const override { return caps_; }
    ViewerState initial_state() const override {
      ViewerState s;
      s.camera.distance = 200;
      s.inputs.assign(1, std::nullopt);
      return s;
    }
    ViewerRunResult run(const ViewerState& v, int32_t height, EventSink& sink) override {
      StateRequest r = request(v, height);
      const RunOutcome o = p_.run(r, sink, nullptr);
      return {o.clean, o.reason};
    }
    std::string state_json(const ViewerState& v, int32_t height) const override {
      return p_.state_json(request(v, height)).dump();
    }
    const raster::Palette& palette() const override { return palette_; }
    TextureLookup textures() override { return {}; }

   private:
    StateRequest request(const ViewerState& v, int32_t height) const {
      StateRequest r = opening_;
      r.height = height;
      if (!v.inputs.empty() && v.inputs[0])
        r.sets.push_back(fmt::format("tint={}", *v.inputs[0] + 1));
      return r;
    }
    FakeProgram& p_;
    StateRequest opening_;
    ViewerCapabilities caps_;
    raster::Palette palette_;
  };

  std::vector<uint8_t> bytes_;
  std::string source_;
};

class FakeEngine : public Engine {
 public:
  std::string_view name() const override { return "fake"; }
  std::string_view title() const override { return "Fake (tests only)"; }
  bool recognises(std::span<const uint8_t> bytes) const override {
    return bytes.size() >= 8 && std::memcmp(bytes.data(), "FAKESHP1", 8) == 0;
  }
  std::vector<Knob> knobs() const override {
    return FakeProgram({'F', 'A', 'K', 'E', 'S', 'H', 'P', '1'}, "").knobs();
  }
  std::unique_ptr<Program> open(const EngineInput& input, const OpenOptions&) const override {
    if (input.member) throw InputError(input.spec, "a fake file has no members");
    return std::make_unique<FakeProgram>(input.bytes.to_vector(), input.path);
  }
};

// "FAKESHP1" and the triangles.
inline std::vector<uint8_t> fake_file(const std::vector<std::array<int, 7>>& triangles) {
  std::vector<uint8_t> out{'F', 'A', 'K', 'E', 'S', 'H', 'P', '1'};
  for (const auto& t : triangles)
    for (int v : t) out.push_back(static_cast<uint8_t>(v));
  return out;
}

}  // namespace shapevm::testing
