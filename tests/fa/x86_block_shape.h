// Shapes around one embedded x86 block, for the sandbox tests: the block's x86 lines (the
// assembler's `x86 XX ..` syntax, `{label}` / `{import}` for addresses) are followed by three
// arms the x86 can re-enter, and helpers run them through the interpreter.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "interp/fa/interpreter.h"
#include "tests/fa/recording_sink.h"
#include "tests/fa/shape_text.h"

namespace shapevm::testing {

inline const char* const kX86Imports =
    ".import _PLgearDown\n.import _lowMemory\n.import @HARDNumLoaded@8\n.import "
    "_ErrorExit\n.import "
    "do_start_interp\n";
inline const char* const kX86Stubs =
    ".stub _PLgearDown\n.stub _lowMemory\n.stub @HARDNumLoaded@8\n.stub _ErrorExit\n.stub "
    "do_start_interp\n";

// Three vertices in pool slots 0..2 for the faces `idx=0,1,2` of the shapes below.
inline const std::string kTriangleVertices = R"(
    VertexBuffer at=0
        v 0, 10, 0
        v 10, 10, 0
        v 0, 10, 10
)";

// A shape whose only x86 block is `x86`, with three faces of colours 1 (label arm1), 2 (arm2)
// and 9 (after), each arm ending the object.
inline std::string shape_with_block(const std::string& x86) {
  return with_header(std::string(R"(
    VertexBuffer at=0
        v 0, 10, 0
        v 10, 10, 0
        v 0, 10, 10
    X86Code
)") + x86 + R"(
arm1:
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    ShortEOF
arm2:
    Face content=0 layout=0 color=2 shadow=0 idx=0,1,2
    ShortEOF
after:
    Face content=0 layout=0 color=9 shadow=0 idx=0,1,2
    ShortEOF
    EndObject
)" + kX86Stubs,
                     kX86Imports);
}

struct X86Run {
  RecordingSink sink;
  fa::RunResult result;
};

inline X86Run run(fa::Interpreter& interp, const fa::RunState& state) {
  X86Run r;
  r.result = interp.run(state, r.sink);
  return r;
}

inline X86Run run_text(const std::string& text, const fa::RunState& state = {}) {
  static std::vector<std::unique_ptr<BuiltShape>> keep;  // shapes outlive interpreters
  keep.push_back(std::make_unique<BuiltShape>(build_shape(text)));
  fa::Interpreter interp(keep.back()->shape);
  return run(interp, state);
}

inline fa::RunState with(const std::string& assignment) {
  fa::RunState s;
  fa::apply_set(s, assignment);
  return s;
}

}  // namespace shapevm::testing
