// Every decision of the Apache engine that is this project's assumption rather than traced from
// the seed, in one place (docs/apache.md, "Assumed, not traced"). The seed fixes the archive, the
// header, the packet sizes and the meaning of the eight opcodes; it leaves operand widths and
// orders of opcodes 2..6, axis conventions, palette ramps and several renderer details open.
// Change a decision here and the reader, interpreter, disassembler and assembler follow.
#pragma once

#include <cstdint>

namespace shapevm::apache::assumed {

// --- Drawing-language operands (opcodes 2..6). All multi-byte operands little-endian. ---------
// Every branch displacement is a signed 16-bit value relative to the byte after it (traced).
// Which displacements each opcode carries and in which order is assumed:
//   0 face       : 00, primary packet
//   1 face2      : 01, length byte (the whole secondary packet, itself included: traced), packet
//   2 winding    : 02, count u8, count vertex-index bytes, front d16, back d16, continue d16
//   3 ifmask     : 03, mask u32, branch d16, continue d16
//   4 choose     : 04, mask u32, set d16, clear d16, continue d16
//   5 select     : 05, shift u8, mask u32, case count u8, count x case d16, continue d16
//   6 attached   : 06, slot u8 (index into the model's attached-model records)
//   7 ret        : 07
// The secondary packet's length byte follows the seed (opcodes.h, SecondaryLength): it counts the
// whole packet, itself included. Assumed: the engine uses the byte only to skip a packet it does
// not draw; a drawn packet is read through its vertices and execution resumes after them.

// Opcode 2: a nonnegative winding means the viewer sees the polygon's front; the back branch is
// then drawn first and the front branch last (the painter's algorithm puts the near side on top).
// A negative winding draws front first, then back.

// Opcode 5: an index at or beyond the authored case count draws no case (a diagnostic says so)
// and execution continues; the seed says only that selection is restricted to authored entries.

// --- Packet header bytes after type and count (sizes traced; the order is assumed) -----------
//   colour types          : colour u8
//   two-colour types      : colour u8, second colour u8
//   textured types        : texture number u16, colour u8 (used by shadows and missing textures)
//   shaded / Gouraud types: the above, then the face normal index u8 (Gouraud faces use it when
//                           Gouraud shading is disabled; shaded faces always)
// Masked textures treat texel index 0 as transparent.
inline constexpr int kMaskedTransparentTexel = 0;

// --- Primary faces -----------------------------------------------------------------------------
// The seed says op 0 draws a primary face and updates its winding result, while op 1 draws "if"
// the winding allows: it leans against culling primaries, so by default every primary polygon is
// drawn whatever its winding. `--set cull_primaries=1` culls primary polygons whose winding is
// negative (this project's earlier reading); points and polylines are always drawn and leave a
// winding result of 0. A polygon of fewer than three vertices has nothing to fill.
inline constexpr bool kDefaultCullPrimaries = false;

// --- Winding -----------------------------------------------------------------------------------
// The cross product is formed from integer screen pixels (y down) as a wrapping 32-bit product:
// (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0); its signed high word is the winding result, so
// clockwise-on-screen polygons are nonnegative (front-facing). Vertices behind the near plane
// are projected as if they were on it.

// --- Coordinates and camera ---------------------------------------------------------------------
// Model axes: x right, y up, z forward (away from a viewer at heading 0). Attached-model rotation
// coefficients are row-major: child-in-parent = M * v + t, Q31 (0x7FFFFFFF = 1.0).
inline constexpr int kRotationFractionBits = 31;
// Signed 16-bit vertices are multiplied by 16 when transformed (traced); the grid encoding's
// scales are traced as well. View units are these transformed model units.
inline constexpr int32_t kShortCoordinateScale = 16;
inline constexpr int32_t kGridCoarseUnit = 4096;
inline constexpr int32_t kGridFineUnit = 64;
inline constexpr int32_t kGridBias = 32;
// The eight bounding-box vertices are stored like the vertex list's entries (six bytes each, in
// the model's encoding) but without a count.
inline constexpr uint32_t kBoundingBoxVertices = 8;

// Default camera: heading 30 degrees (front-left, so the -z front is seen), pitch 20 degrees, and
// the distance at which the header's bounding box fills the frame (`--camera fit`,
// interp/common/camera_fit.h; it was 3x the larger of the radius and half the box's diagonal).
inline constexpr int kDefaultCameraHeading = 30;
inline constexpr int kDefaultCameraPitch = 20;

// LOD: "next model record" is a record index in the same archive; the next record is used when
// the camera distance exceeds the threshold.

// --- Lighting -----------------------------------------------------------------------------------
// Normal components are signed bytes with 127 = 1.0. The light direction (pointing from the
// surface toward the light) is given in world axes and normalised to 127. The dot product (up to
// 127 * 127) clamped at zero picks one of kIntensityLevels rows of the intensity table.
inline constexpr int kIntensityLevels = 16;
inline constexpr int32_t kUnitComponent = 127;
// Row L scales the colour's RGB by (kAmbient + (256 - kAmbient) * L / (levels - 1)) / 256 and
// takes the nearest of the 224 model colours; the authored colour at full intensity is row 15.
inline constexpr int32_t kAmbientScale = 64;
inline constexpr int kDefaultLight[3] = {80, 100, -40};

// --- Palette ------------------------------------------------------------------------------------
// The 224 colours of 3DPAL.RGB occupy frame indices 0..223 as 8-bit RGB; 224..255 (sky, fog and
// warzone terrain colours in the game) are filled with a fixed sky/fog/terrain set by this
// project. Index 0 is black (shadow colour).
inline constexpr int kModelColours = 224;
inline constexpr uint8_t kShadowColour = 0;
// Glass darkens the pixel below to 3/4 of its RGB with a 1/4 blue-grey tint; heat haze brightens
// it by 1/8 toward white. Each remap takes the nearest model colour.

// --- Meshes (4x4 stipple masks, bit (y & 3) * 4 + (x & 3) set = pixel drawn) -----------------
inline constexpr uint16_t kFineMesh = 0xA5A5;    // one-pixel checkerboard
inline constexpr uint16_t kMediumMesh = 0x0505;  // every other pixel of every other row
inline constexpr uint16_t kCoarseMesh = 0x33CC;  // two-pixel checkerboard
// Alternating two-colour polygons use the one-pixel checkerboard: set bits take the first colour.
inline constexpr uint16_t kTwoColourPattern = 0xA5A5;

// --- State, budgets ------------------------------------------------------------------------------
inline constexpr uint64_t kDefaultStepLimit = 1'000'000;
inline constexpr uint32_t kDefaultDepthLimit = 64;

// --- Textures -----------------------------------------------------------------------------------
// Texture type 0/1/2 selects row stride 16/32/64 (traced) and the image is stride pixels wide;
// samples address the 4096-pixel allocation linearly (v * stride + u) as the original does.
inline constexpr uint32_t kTexturePixels = 4096;

}  // namespace shapevm::apache::assumed
