#include "fuzz/targets.h"

#include <array>

#include "core/input_error.h"
#include "fuzz/targets_by_engine.h"

namespace shapevm::fuzzing {
namespace {

// Bad input ends in InputError, the project's precise rejection: an accepted outcome.
template <bool (*Body)(std::span<const uint8_t>)>
bool rejecting(std::span<const uint8_t> data) {
  try {
    return Body(data);
  } catch (const InputError&) {
    return false;
  }
}

constexpr std::array kTargets = {
    FuzzTarget{"fa_shape", "FA .SH shape or EALIB of shapes: header, walk, listing, info",
               rejecting<fuzz_fa_shape>},
    FuzzTarget{"fa_run",
               "state byte + FA shape: run to a frame with and without the x86 sandbox, traced",
               rejecting<fuzz_fa_run>},
    FuzzTarget{"fa_lib", "selector + EALIB directory and members, raw PKWare DCL, FILE:MEMBER",
               rejecting<fuzz_fa_lib>},
    FuzzTarget{"fa_pic_pal", "selector + PIC texture, PALETTE.PAL, or a texture EALIB",
               rejecting<fuzz_fa_pic_pal>},
    FuzzTarget{"apache_run", "record selector + 3DOBJS.BIN: record listed, run and drawn",
               rejecting<fuzz_apache_run>},
    FuzzTarget{"apache_assets", "selector + OBJTEXT.BIN textures or 3DPAL.RGB shading tables",
               rejecting<fuzz_apache_assets>},
    FuzzTarget{"shp_run", "member selector + Starlancer .SHP or resource.hog: loaded, run, drawn",
               rejecting<fuzz_shp_run>},
    FuzzTarget{"shp_files", "selector + HOG directory, raw RefPack, palette.tga or tcache",
               rejecting<fuzz_shp_files>},
    FuzzTarget{"member_parts",
               "member selector + a container: FILE:#N read in part and whole, described alike",
               rejecting<fuzz_member_parts>},
    FuzzTarget{"bi2_run", "member selector + Battle Isle 2 .LIB of 3DOB/3DLD: run and drawn",
               rejecting<fuzz_bi2_run>},
    FuzzTarget{"bi2_lib", "selector + LIB directory and members, raw TPWM, fight palette",
               rejecting<fuzz_bi2_lib>},
    FuzzTarget{"png",
               "selector + PNG capture: indexed, RGB against a palette, or a mask; the same "
               "bytes as rows through the PNG writer's encoder",
               rejecting<fuzz_png>},
    FuzzTarget{"regress_manifest", "a regress manifest (JSON)", rejecting<fuzz_regress_manifest>},
    FuzzTarget{"trace_reference", "a trace-diff reference trace (JSON Lines or plain)",
               rejecting<fuzz_trace_reference>},
    FuzzTarget{"assemblers", "engine selector + assembler text: assembled and opened",
               rejecting<fuzz_assemblers>},
    FuzzTarget{"dap", "a Debug Adapter Protocol request stream, served against a small FA program",
               rejecting<fuzz_dap>},
};

}  // namespace

std::span<const FuzzTarget> fuzz_targets() {
  return kTargets;
}

const FuzzTarget* find_fuzz_target(std::string_view name) {
  for (const auto& t : kTargets)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace shapevm::fuzzing
