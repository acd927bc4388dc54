// The FA case renderer for `shapevm regress`: a manifest case's state becomes the same RunOptions
// the CLI's state options fill, and the frame is drawn by render_fa_frame exactly as `render`
// draws it. Shapes, palettes and textures are loaded once per worker thread.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <optional>

#include "interp/common/file_io.h"
#include "interp/common/input_error.h"
#include "tools/asm/fa_assembler.h"
#include "tools/fa_shape_loader.h"
#include "tools/fa_textures.h"
#include "tools/regress_engines.h"
#include "tools/render_fa.h"
#include "tools/run_options.h"

namespace shapevm::tools {

namespace {

// Assembler text (.fas, docs/fa-asm.md) is assembled in memory, so a manifest can name the
// project's examples by their checked-in source rather than by a build output.
fa::Shape load_case_shape(const std::string& spec) {
  if (spec.size() > 4 && spec.compare(spec.size() - 4, 4, ".fas") == 0) {
    const std::vector<uint8_t> text = read_file(spec);
    const AssembledShape assembled = assemble_fa(
        std::string_view(reinterpret_cast<const char*>(text.data()), text.size()), spec);
    return fa::load_shape(assembled.file, spec);
  }
  return load_fa_shape(spec);
}

RunOptions run_options_for(const harness::CaseState& s) {
  RunOptions o;
  o.frame = s.frame.value_or(0);
  o.lod = s.lod;
  o.detail = s.detail;
  o.destroyed = s.destroyed;
  o.effects = s.effects.value_or(0);
  o.sets = s.sets;
  o.camera = s.camera;
  o.merged = s.merged;
  return o;
}

class FaCaseRenderer : public harness::CaseRenderer {
 public:
  harness::RenderedCase render(const harness::RegressCase& c) override {
    const fa::Shape& shape = shape_for(c.file);
    FaTextures* textures = nullptr;
    if (!c.textures.empty()) {
      auto& slot = textures_[c.textures];
      if (!slot) slot = std::make_unique<FaTextures>(c.textures);
      textures = slot.get();
    }
    FaFrame frame = render_fa_frame(shape, fa_run_state(run_options_for(c.state), c.height),
                                    c.width, c.height, c.background, textures);
    if (!frame.result.clean) {
      throw InputError(shape.source(), frame.result.end_offset,
                       fmt::format("a run that ends cleanly; it stopped: {}", frame.result.reason));
    }
    harness::RenderedCase out{std::move(frame.frame), palette_for(c.palette), {}};
    for (const auto& name : frame.missing_textures)
      out.warnings.push_back(fmt::format("texture {} not found; its faces are drawn flat", name));
    return out;
  }

 private:
  const fa::Shape& shape_for(const std::string& spec) {
    auto it = shapes_.find(spec);
    if (it == shapes_.end()) it = shapes_.emplace(spec, load_case_shape(spec)).first;
    return it->second;
  }
  const raster::Palette& palette_for(const std::string& spec) {
    auto it = palettes_.find(spec);
    if (it == palettes_.end()) it = palettes_.emplace(spec, load_fa_palette(spec)).first;
    return it->second;
  }

  std::map<std::string, fa::Shape> shapes_;
  std::map<std::string, raster::Palette> palettes_;
  std::map<std::string, std::unique_ptr<FaTextures>> textures_;
};

}  // namespace

std::unique_ptr<harness::CaseRenderer> make_fa_case_renderer() {
  return std::make_unique<FaCaseRenderer>();
}

}  // namespace shapevm::tools
