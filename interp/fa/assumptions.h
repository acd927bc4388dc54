// Every runtime behaviour of the FA interpreter that is this project's assumption rather than
// traced from a seed, in one place (docs/fa.md, "Decisions of this project"). Change them here.
#pragma once

#include <cstdint>

namespace shapevm::fa::assumed {

// The engine's vertex pool size is not documented. 8-byte slots; 64 KiB of pool.
inline constexpr uint32_t kPoolSlots = 8192;

// Budgets that stop runaway programs (not engine facts).
inline constexpr uint64_t kDefaultStepLimit = 1'000'000;
inline constexpr uint32_t kDefaultCallDepthLimit = 64;

// The view matrix m1..m9 is Q15 (1.0 = 0x7FFF) (facts: "[I]"). JumpToLOD's depth
// -(xv*m3 + yv*m6 + zv*m9) is therefore shifted right by 15 to return to shape units.
inline constexpr int kMatrixFractionBits = 15;

// JumpToLOD's globals when the run does not set them: aspecty 1, sizeAdjust 256 (so the
// threshold is pixel_threshold unscaled), scrh = the frame height.
inline constexpr int32_t kDefaultAspectY = 1;
inline constexpr int32_t kDefaultSizeAdjust = 256;

// _detail when not set: the maximum, so every JumpToDetail falls through to full detail.
inline constexpr uint16_t kDefaultDetail = 0xFFFF;

// Draw-order selector conditions. The seed says each selector calls one chain and continues at
// the other, the condition only swapping the order; which outcome keeps the authored order is not
// traced. Assumed: OrderField (0x6C) keeps it when the object-record word at `field` equals `cmp`;
// the plane forms keep it when the plane test is >= 0. Plane data: OrderPlane's six words are
// (nx, ny, nz, px, py, pz) and the test is n·(p + v) for the viewer-relative object position v;
// the short forms' four words are (n_a, n_b, p_a, p_b) over their two axes (0x0C y/z, 0x0E x/z,
// 0x10 x/y).
inline constexpr bool kOrderFieldNaturalWhenEqual = true;

// With --no-x86, X86Code (0xF0) is not executed: execution continues at the end of the x86 region
// as the static walker bounds it (the next relocation anchor) and the trace says so.

// --merged (the seed's reloc harvest) walks from each relocation target in CODE that is not a
// trampoline (walker: reloc_targets) and not inside an x86 region's native bytes: a target in x86
// code is a jump inside the selector, not geometry, and the seed's codec only decodes geometry
// from its targets. Each walk stops where execution reaches an offset some earlier walk (or the
// base run) already executed, as if at a ShortEOF, so no face is emitted twice.

// XformUnmask's operands (t0 t1 t2 a0 a1 a2 rel) are partially traced: the translation t is
// added to the object's position (in shape units) for the called chain (interpreter.cpp,
// h_XformUnmask); the angles are shown by disasm but not applied.

// The default camera for `--camera`: heading 150°, pitch 20°, a vertical field of view whose
// focal length in pixels equals the frame height, and the distance at which every vertex of the
// shape's VertexBuffers (and, when an XformUnmask moves parts, the corners of the header's
// extents, read as half sizes about the origin) fill the frame (`--camera fit`,
// interp/common/camera_fit.h; it was 3x the header radius, which left small shapes a speck and
// picked a coarse LOD).
inline constexpr int kDefaultCameraHeading = 150;
inline constexpr int kDefaultCameraPitch = 20;

// How fast `shapevm view` advances _frameCounter. The seed traces one increment per rendered
// frame (FA-32) but not how many frames FA rendered per second; assumed 20 (`view --fps` changes
// it).
inline constexpr double kViewerFramesPerSecond = 20.0;

// Textured faces whose content flag has bit 0x10 set are drawn with perspective-correct texture
// coordinates (untraced: the seed names the flag only with a question mark, "perspective?").
inline constexpr uint8_t kContentFlagPerspective = 0x10;

}  // namespace shapevm::fa::assumed
