// Work budgets: how much a run may draw and write, whatever its step budget allows. A program
// that loops over faces (an FA `Face, Face, Jump back`, an Apache branch that calls itself) stays
// within its step budget while it fills the frame again and again, or writes a trace of hundreds of
// megabytes; these budgets end such a run with a clear "budget: ..." stop. The defaults are far
// above what any real shape does, and every command that runs a program takes --max-faces,
// --max-pixels and --max-trace-bytes. The sinks that do the work enforce them (the frame
// renderer, the trace writer, the mesh collector raise the reason when an event exhausts one);
// engines read EventSink::stop_requested after every face and op event they emit.
#pragma once

#include <cstdint>
#include <string_view>

namespace shapevm {

inline constexpr std::string_view kBudgetFaces = "budget: faces";
inline constexpr std::string_view kBudgetPixels = "budget: pixels";
inline constexpr std::string_view kBudgetTraceBytes = "budget: trace bytes";

struct WorkLimits {
  // Faces a run may emit (drawn, traced or exported). Real shapes emit hundreds to a few thousand.
  uint64_t faces = 250'000;
  // Pixels a run may cover (each face's on-screen bounding box, clipped to the frame; a line's
  // length); 0 = 256 times the frame's area, i.e. 256 full-frame overdraws.
  uint64_t pixels = 0;
  // Bytes a trace may reach (64 MiB; a real shape's full trace is tens of kilobytes).
  uint64_t trace_bytes = uint64_t{64} << 20;

  uint64_t pixels_for(int width, int height) const {
    return pixels != 0
               ? pixels
               : uint64_t{256} * static_cast<uint64_t>(width) * static_cast<uint64_t>(height);
  }
};

}  // namespace shapevm
