// The full JSON Lines trace of one FA run as text, for comparing two ways of running the same
// state (dispatch kinds, memoised x86 or not) line for line. With `control` false the sink says it
// does not want branch, call and return events, as a frame renderer does, so the run takes the
// interpreter's paths for such sinks; the trace then has every other line.
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "harness/trace_writer.h"
#include "interp/fa/interpreter.h"

namespace shapevm::testing {

// What `run(writer)` writes through a trace writer (op lines when `ops`), as text.
template <typename Run>
std::string written_trace(Run&& run, bool ops = true, WorkLimits limits = {}) {
  char* text = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  REQUIRE(out != nullptr);
  {
    harness::TraceWriter writer(out, ops, limits);
    run(writer);
  }
  std::fclose(out);
  std::string s(text, size);
  std::free(text);
  return s;
}

inline std::string trace_text(fa::Interpreter& interp, const fa::RunState& state,
                              fa::Dispatch dispatch = fa::Dispatch::kThreaded, bool ops = true,
                              WorkLimits limits = {}, bool control = true) {
  return written_trace(
      [&](harness::TraceWriter& writer) {
        struct WithoutControl : MultiSink {
          bool wants_control() const override { return false; }
        } quiet;
        quiet.add(&writer);
        if (control)
          interp.run(state, writer, dispatch);
        else
          interp.run(state, quiet, dispatch);
      },
      ops, limits);
}

}  // namespace shapevm::testing
