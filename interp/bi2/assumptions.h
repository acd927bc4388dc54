// Every decision of the Battle Isle 2 engine that is this project's assumption rather than
// traced from the seed, in one place (docs/bi2.md, "Assumed, not traced"). The seed fixes the
// 3DOB/3DLD layouts, the colour rule (palette base + shade step), two-vertex lines and the part
// rotation order (Z, then X, then Y, translation after); it leaves open what a polygon's vertex
// pointer counts in, the angle unit, the projection, the sort key and the back-face rule. Change
// a decision here and the reader, the draw program, the text form and the writer follow.
#pragma once

#include <cstdint>

namespace shapevm::bi2::assumed {

// --- Vertex pointers (polygon vertex_ptrs, first_vertex_ptr) ----------------------------------
// The seed calls every other "_ptr" of the format (a part's polygon_ptr and vertex_list_ptr) a
// file offset, and calls the part's list, by contrast, a vertex-*index* list. We read a polygon's
// vertex pointer the same way as the other pointers: the file offset of a vertex inside the
// vertex table, so it must land on a 6-byte vertex boundary inside [vertex_offset, face_offset).
enum class VertexPointer : uint8_t { kIndex, kTableOffset, kFileOffset };
inline constexpr VertexPointer kVertexPointer = VertexPointer::kFileOffset;
// A part's vertex list holds vertex indices (0-based), as the seed names it.

// --- Angles -------------------------------------------------------------------------------------
// Part angles (i16) are whole degrees, so the rotation uses the project's Q15 sine table
// (core/trig_q15.h) without rounding an angle first.
inline constexpr int kAngleUnitsPerTurn = 360;
// Positive angles: about Z, +x turns toward +y; about X, +y toward +z; about Y, +z toward +x.
// A vertex listed by several parts is moved by each of them, in part order.

// --- Colour -------------------------------------------------------------------------------------
// colour = shade + kRampCentre + bias. The seed's shades are 32 apart and its biases -8..+8; a
// centre of 16 puts bias 0 in the middle of the shade's 32-entry ramp and keeps every traced
// (shade, bias) pair inside it (shade 0 with bias -8 is index 8; any centre 8..23 would). A
// colour outside 0..255 is clamped and reported as a warning.
inline constexpr int kRampCentre = 16;
// Shades the seed has seen: multiples of 32 up to 160; biases -8..+8 (others: a warning).
inline constexpr int kShadeStep = 32;
inline constexpr int kMaxShade = 160;
inline constexpr int kMaxBias = 8;

// --- Palettes -----------------------------------------------------------------------------------
// A fight palette is 768 bytes of R, G, B. When every byte is <= 63 it is read as VGA DAC values
// and widened to 8 bits with v * 4 + v / 16 (63 -> 255). Without --palette: the project's built-in
// palette (raster/palette.h: grey 0..31, then hue ramps of 32 entries).
inline constexpr int kPaletteBytes = 768;

// --- Projection and camera ------------------------------------------------------------------
// Model axes: x right, +y DOWN (traced), z forward (away from a viewer at heading 0). The camera
// orbits the model's bounding-box centre: heading about the up axis, pitch down onto the model.
// View units are model units; the focal length is the frame height in pixels.
inline constexpr int kDefaultCameraHeading = 30;
inline constexpr int kDefaultCameraPitch = 20;
// Default distance (`--camera fit`): the nearest at which every vertex at rest lies inside 7/8 of
// the frame each way from its centre (interp/common/camera_fit.h; it was 3x the larger of the
// bounding-box half diagonal and 100 units), and never nearer than this.
inline constexpr int32_t kMinimumCameraDistance = 300;
inline constexpr int32_t kNearZ = 16;  // view units in front of the eye

// --- Visibility ---------------------------------------------------------------------------------
// The painter's algorithm: polygons are drawn farthest first by the mean view depth of their
// corners; equal depths keep file order (and, in a scene, placement order).
enum class SortKey : uint8_t { kMeanDepth, kMaxDepth, kMinDepth };
inline constexpr SortKey kSortKey = SortKey::kMeanDepth;
// No back-face culling: every polygon is drawn, whichever side faces the viewer.
inline constexpr bool kCullBackFaces = false;

// --- Scenes (3DLD) ------------------------------------------------------------------------------
// A placement's slot picks object_ids[slot]; the id is the member index (#id) of the terrain
// archive (--objects, else LAND000.LIB beside the record's archive, else the record's own
// archive). Objects stand on the ground plane (y = 0) at (x, z); they are not turned.
inline constexpr uint16_t kUnusedObject = 0xFFFF;
inline constexpr uint16_t kUnusedObjectAlt = 0xFFFE;

// --- TPWM ---------------------------------------------------------------------------------------
// The largest unpacked size a TPWM header may declare (the game's archives are far smaller).
inline constexpr uint32_t kMaxUnpackedBytes = 64u << 20;
// XOR variant (a community heuristic): the word at 4 exceeds this many times the file size.
inline constexpr uint64_t kXorTriggerFactor = 10;

// --- Budgets --------------------------------------------------------------------------------
inline constexpr uint64_t kDefaultStepLimit = 1'000'000;  // polygons drawn in one run

}  // namespace shapevm::bi2::assumed
