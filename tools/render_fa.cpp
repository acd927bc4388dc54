#include "tools/render_fa.h"

#include "interp/common/input_error.h"

namespace shapevm::tools {

FaFrame render_fa_frame(const fa::Shape& shape, const fa::RunState& state, int width, int height,
                        uint8_t background, FaTextures* textures, const fa::WalkOptions& walk) {
  FaFrame out{raster::Framebuffer(width, height, background), {}, 0, {}};
  harness::FrameSettings settings;
  settings.focal_pixels = height;
  harness::TextureLookup lookup;
  if (textures) lookup = [textures](std::string_view name) { return textures->find(name); };
  harness::FrameRenderer renderer(out.frame, settings, lookup);
  fa::Interpreter interp(shape, walk);
  out.result = interp.run(state, renderer);
  out.faces_filled = renderer.faces_filled();
  out.missing_textures = renderer.missing_textures();
  return out;
}

std::pair<int, int> parse_size(const std::string& text) {
  const auto x = text.find('x');
  try {
    if (x == std::string::npos) throw std::invalid_argument(text);
    size_t a = 0, b = 0;
    const int w = std::stoi(text.substr(0, x), &a);
    const int h = std::stoi(text.substr(x + 1), &b);
    if (a != x || b != text.size() - x - 1 || w < 1 || h < 1 || w > 8192 || h > 8192)
      throw std::invalid_argument(text);
    return {w, h};
  } catch (const std::exception&) {
    throw InputError("--size " + text, "expected WIDTHxHEIGHT, each 1..8192");
  }
}

}  // namespace shapevm::tools
