// The debugger's FA engine adapter (harness/debug_engine.h): runs an FA shape with the
// interpreter's debug hook attached (interp/fa/debug_hook.h) and shows its state in the
// debugger's engine-neutral terms. It lives in tools/ because harness/ knows no engine.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/debug_engine.h"
#include "interp/fa/interpreter.h"
#include "tools/fa_textures.h"
#include "tools/run_options.h"

namespace shapevm::tools {

struct FaDebugOptions {
  std::string file;  // .SH or LIB:MEMBER
  RunOptions run;
  fa::WalkOptions walk;
  std::string palette;   // PALETTE.PAL, or "" for the built-in one
  std::string textures;  // directory or .LIB, or ""
  int width = 640, height = 480;
};

class FaDebugEngine : public harness::DebugEngine {
 public:
  // Throws InputError when the file or an option is bad.
  explicit FaDebugEngine(FaDebugOptions options);
  ~FaDebugEngine() override;

  std::string_view engine() const override { return "fa"; }
  std::string source() const override { return shape_.source(); }
  void run(EventSink& sink, harness::PauseHandler& pause) override;
  void set(const std::string& assignment) override;
  std::string describe_state() const override;
  const std::vector<harness::ListingLine>& listing() const override { return listing_; }
  raster::Palette palette() const override { return palette_; }
  harness::FrameSettings frame_settings() const override;
  harness::TextureLookup textures() const override;
  std::pair<int, int> frame_size() const override { return {options_.width, options_.height}; }

 private:
  fa::RunState state() const;

  FaDebugOptions options_;
  fa::Shape shape_;
  std::unique_ptr<fa::Interpreter> interp_;
  std::vector<harness::ListingLine> listing_;
  raster::Palette palette_;
  std::shared_ptr<FaTextures> textures_;
  uint32_t code_base_ = 0;  // where the x86 sandbox maps CODE
};

}  // namespace shapevm::tools
