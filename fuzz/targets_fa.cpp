// Fighters Anthology targets: the shape reader and its walk, the interpreter with and without the
// x86 sandbox, EALIB containers with DCL, and the PIC, PAL and texture-library readers.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "fuzz/target_support.h"
#include "fuzz/targets_by_engine.h"
#include "interp/common/registry.h"
#include "interp/fa/dcl_explode.h"
#include "interp/fa/ealib.h"
#include "interp/fa/palette_pal.h"
#include "interp/fa/pic.h"
#include "interp/fa/shape_input.h"
#include "interp/fa/textures.h"
#include "interp/fa/walker.h"

namespace shapevm::fuzzing {

namespace {

bool same_item(const fa::OutlineItem& a, const fa::OutlineItem& b) {
  return a.kind == b.kind && a.op == b.op && a.offset == b.offset && a.size == b.size;
}

// The outline an interpreter reads must list exactly the items of the whole walk, both readings
// of PtrToObjEnd.
void check_outline(std::span<const uint8_t> data) {
  std::optional<fa::Shape> shape;
  try {
    shape.emplace(fa::load_shape(data, kFuzzSource));
  } catch (const InputError&) {
    return;  // not a shape by itself (an EALIB, or malformed): the walk never sees it
  }
  for (const auto reading : {fa::ObjEndReading::kAbsolute, fa::ObjEndReading::kRelative}) {
    const fa::WalkOptions options{reading};
    const auto outline = fa::walk_outline(*shape, options);
    const auto whole = fa::outline_of(fa::walk_shape(*shape, options));
    if (!std::equal(outline.begin(), outline.end(), whole.begin(), whole.end(), same_item))
      throw std::logic_error("the walk's outline and the whole walk list different items");
  }
}

}  // namespace

// The bytes as a .SH shape (or an EALIB holding shapes): container, header, walk, listing, info;
// a shape's walk outline against its whole walk.
bool fuzz_fa_shape(std::span<const uint8_t> data) {
  open_describe_run(engine_named("fa"), data, 0, false);
  check_outline(data);
  return true;
}

// The first byte picks the state (x86 on or off, frame, detail, destroyed, effects, merged
// harvest, switch dispatch, trace with every x86 instruction); the rest is the shape, run to a
// frame and, when the state asks, traced.
bool fuzz_fa_run(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  const uint8_t s = data[0];
  EngineInput input = input_of(data.subspan(1));
  auto program = engine_named("fa").open(input, OpenOptions{});
  std::vector<std::pair<std::string, std::string>> options = {
      {"frame", std::to_string((s >> 1) & 3)},
      {"detail", std::to_string((s >> 3) & 1)},
  };
  if (s & 0x01) options.emplace_back("no-x86", "1");
  if (s & 0x10) options.emplace_back("destroyed", "1");
  if (s & 0x20) options.emplace_back("merged", "1");
  if (s & 0x40) options.emplace_back("switch-dispatch", "1");
  if (s & 0x80) options.emplace_back("x86-trace", "1");
  const std::vector<std::string> sets = {"_PLgearDown=" + std::to_string(s & 1)};
  run_small(*program, (s & 0x80) != 0, sets, options);
  return true;
}

// The first byte picks the reader: the EALIB directory with every member extracted, a raw DCL
// stream, or a member looked up by name (FILE:MEMBER on bytes in memory).
bool fuzz_fa_lib(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  const auto rest = data.subspan(1);
  switch (data[0] % 3) {
    case 0: {
      const fa::EaLib lib(rest, kFuzzSource);
      (void)lib.has_terminator();
      size_t n = 0;
      for (const auto& entry : lib.entries()) {
        if (++n > 8) break;
        lib.check_supported(entry);
        (void)lib.extract(entry);
      }
      break;
    }
    case 1:
      (void)fa::dcl_explode(rest, kFuzzSource, 1 << 20);
      break;
    case 2:
      (void)fa::load_member(rest, kFuzzSource, "JET.SH");
      break;
  }
  return true;
}

// The first byte picks the reader: a PIC texture, a PALETTE.PAL, or an EALIB of textures looked
// up the way TextureFile names them.
bool fuzz_fa_pic_pal(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  const auto rest = data.subspan(1);
  switch (data[0] % 3) {
    case 0: {
      const fa::Pic pic = fa::read_pic(rest, kFuzzSource);
      (void)fa::apply_inline_palette(raster::default_palette(), pic);
      break;
    }
    case 1:
      (void)fa::read_pal(rest, kFuzzSource);
      break;
    case 2: {
      fa::FaTextures textures(std::vector<uint8_t>(rest.begin(), rest.end()), kFuzzSource);
      (void)textures.find("_JET.PIC");
      (void)textures.find("_A10.PIC");
      break;
    }
  }
  return true;
}

}  // namespace shapevm::fuzzing
