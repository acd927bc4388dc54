// Every runtime behaviour of the FA interpreter that is this project's assumption rather than
// traced from a seed, and every deliberate deviation from the seed, in one place (docs/fa.md,
// "Decisions of this project" and "Deviations from the seed"). Change them here.
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

// GRAddBrentObj's precision shift (FA-51): the seed traces that the radius is OR-ed with the
// viewer-relative magnitudes before a leading-bit lookup in _shift_table that keeps the shape in
// 16-bit range, but not the table itself. Assumed: the shift brings that OR below 2^14, so a
// vertex (bounded by the radius) plus the object offset, both shifted, stays below 2^15 and fits
// a signed 16-bit word. Both are shifted right (arithmetic) before they are added and the view
// position is scaled back afterwards, so frames keep their size and lose only the low bits, as
// the engine's 16-bit arithmetic does (interpreter.cpp, transform).
inline constexpr int kPrecisionBits = 14;

// JumpToLOD's globals when the run does not set them: aspecty 1, sizeAdjust 256 (so the
// threshold is pixel_threshold unscaled), scrh = the frame height.
inline constexpr int32_t kDefaultAspectY = 1;
inline constexpr int32_t kDefaultSizeAdjust = 256;

// The flag word at 0x515EF0 is `_effects`. The seed tests "_effects & 0x20000" in its JumpToLOD
// text and "flag 0x515EF0 & 0x20000" in its handler table for the same handler; it never puts
// the name and the address side by side. The x86 blocks' `_effects` import reads the same value
// (x86_runner.cpp). The address table (engine_globals.cpp) names it so.

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

// --merged (the seed's reloc harvest): each walk stops where execution reaches an offset some
// earlier walk (or the base run) already executed, as if at a ShortEOF, so no face is emitted
// twice. Which targets it walks: see the deviation below.

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
// coordinates (the seed lists the bit as unknown, naming it "perspective-correct mapping"). The
// other named bits, 0x02 FILL_BACKGROUND and 0x20 "brighter shading", are not applied: their
// effect is untraced (docs/fa.md, decision 20); `info` counts the faces that carry them.
inline constexpr uint8_t kContentFlagPerspective = 0x10;

// ---- Deviations from the seed (deliberate; docs/fa.md, "Deviations from the seed") ----------

// D1. CODE length. The seed says to take SizeOfRawData as the CODE section's length. Raw data is
// zero-padded up to the file alignment (512 bytes), and the trampolines sit at the end of CODE,
// found by scanning backwards from its end: with the padded length the scan starts in zeros and
// finds none. So when VirtualSize is non-zero the length is min(VirtualSize, SizeOfRawData) (as
// the T.O.R.E. tool does; OpenFA slices by VirtualSize); VirtualSize 0 falls back to the seed's
// SizeOfRawData. Used by pe_image.cpp (content_size).
inline constexpr bool kCodeLengthCappedByVirtualSize = true;

// D2. The --merged harvest's targets. The seed's codec keeps every relocation target inside CODE
// that is not an FF 25 trampoline. This project also leaves out targets that lie inside an x86
// block's native bytes or at a block's X86Code head: those are the selector's own internal jumps
// and entry points, not geometry, and the seed's codec could only have decoded them as
// bytecode because it never executes x86 (here a walk from them would run the selector, or
// decode x86 as opcodes). Used by merged_harvest.cpp (walk_unreached_targets).
inline constexpr bool kHarvestSkipsTargetsInX86 = true;

}  // namespace shapevm::fa::assumed
