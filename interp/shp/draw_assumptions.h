// The Starlancer drawing side's decisions that are assumed rather than traced (docs/shp-drawing.md,
// "Assumptions"), in one place beside interp/shp/assumptions.h. Each is named where it is used.
#pragma once

#include <array>
#include <cstdint>

namespace shapevm::shp::assumed {

// --- Frame and camera ---------------------------------------------------------------------------
// View units per model unit: model coordinates are rounded to 1/16 unit before anything is
// projected (the fighter of the format notes spans ~1,100 units, so 1/16 is far below a pixel).
inline constexpr int64_t kViewUnitsPerModelUnit = 16;
// The near plane, in model units (the ported renderer's 100).
inline constexpr int64_t kNearPlaneModelUnits = 100;
// Focal length as a fraction of the frame height: the ported projection scales by (pixels - 0.1)
// times 0.6 of the width or 0.8 of the height at 4:3; shapevm uses 4/5 of the height for both axes.
inline constexpr int32_t kFocalNumerator = 4, kFocalDenominator = 5;
// Default camera (`--camera fit`): the distance at which the placed level-0 vertices fill the
// frame (interp/common/camera_fit.h; it was 3x the model's radius, half the diagonal of the
// placed level-0 box), every vertex beyond the near plane; heading 0 stands in front of the nose,
// positive pitch looks down on the model.
inline constexpr int kDefaultCameraHeading = 30;
inline constexpr int kDefaultCameraPitch = 20;

// --- Level of detail ----------------------------------------------------------------------------
// The seed's reading (SL-15): level i applies beyond distance[i]: the level is the last one whose
// distance the camera distance exceeds (level 0 when none). Distance = the depth of the part's
// origin in view space, model units (no detail divisor: the seed names none).
// The ported selector (--set lod_rule=ported): depth = that distance / kPortedDetailDivisor;
// level = the first whose distance exceeds the depth; at or beyond the last, the part is not drawn.
inline constexpr int64_t kPortedDetailDivisor = 3;
// Geomorph weight: 4(t - 0.75) for t >= 0.75 within the level's band, toward the next coarser
// level's counterpart vertex (the fact sheet's ported rule, applied to either LOD rule's band).

// --- Lighting -----------------------------------------------------------------------------------
// One directional light in the model frame (X right, Y down, Z forward), toward the light:
// default from above, to the right and in front.
inline constexpr std::array<int32_t, 3> kDefaultLight{1, -2, 2};
// Lit colour = palette colour x (ambient + diffuse x max(0, n.l)), quantised to kShadeLevels rows
// of the nearest palette entries; row kShadeLevels - 1 is the colour itself. Per vertex, from the
// vertex normals (Gouraud across the face).
inline constexpr int32_t kAmbientQ15 = 8192;   // 0.25
inline constexpr int32_t kDiffuseQ15 = 24575;  // 0.75
inline constexpr int kShadeLevels = 32;

// --- Colours and blending in an 8-bit frame ------------------------------------------------------
// Untextured faces (modes 0-2, and textured modes whose texture is missing) have no colour in the
// file; they draw the palette entry nearest to this grey (Direct3D's default white material,
// lit, would be white; a grey keeps lit shading visible).
inline constexpr std::array<uint8_t, 3> kUntexturedRgb{176, 176, 184};
// Wire lines (mode 1) draw the entry nearest to this colour.
inline constexpr std::array<uint8_t, 3> kWireRgb{96, 224, 96};
// Blending (ONE,ONE and SRCALPHA,INVSRCALPHA) on a palette-indexed frame: the two palette entries'
// RGB combined per channel (added and clamped at 255; alpha: (src + dst) / 2, a constant 50%
// since an indexed frame has no per-pixel alpha), then the nearest palette index (squared RGB
// distance, lowest index on ties), as one 256 x 256 table per mode.
inline constexpr int kAlphaNumerator = 1, kAlphaDenominator = 2;
// Blended faces test depth but do not write it, and are drawn after the opaque ones, farthest
// first by mean view depth + sort bias / 3 (the fact sheet's scale; one analysis reads 2/3).
inline constexpr int kSortBiasDivisor = 3;

// --- Textures -----------------------------------------------------------------------------------
// The highlight pass of mode 7 samples a texture named "highlight<sub-mode>" with u = 0.5 + 0.5 nx,
// v = 0.5 + 0.5 ny of the view-space normal, added (ONE,ONE). The cache's real name for it is not
// known.
// Index+alpha texels: the alpha byte is dropped (an indexed frame cannot blend per texel); RGB565
// texels map to the nearest palette entry.
// Texture coordinates repeat outside 0..1 (Direct3D's default WRAP addressing).

// --- Default palette ----------------------------------------------------------------------------
// Without palette.tga (--palette, or beside the input), shapevm's default palette is used
// (docs/raster.md): a grey ramp and seven hue ramps.

// --- Clips --------------------------------------------------------------------------------------
// Playback mode 0 ("none") plays like mode 1 (once). Clip time = the frame counter (25 Hz steps,
// speed 1). The mount point (part 0x98) is in the part's frame, relative to its origin.

}  // namespace shapevm::shp::assumed
