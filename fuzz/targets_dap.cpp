// The Debug Adapter Protocol server: the bytes are what an editor would send on stdin (framed
// requests), served against a small FA program with a sub-stream, so every request (breakpoints,
// stepping both ways, stack, scopes, variables, evaluate, disassembly) meets a live session.
#include <sstream>
#include <stdexcept>
#include <string>

#include "fuzz/target_support.h"
#include "fuzz/targets_by_engine.h"
#include "harness/dap_server.h"
#include "harness/program_debug_engine.h"
#include "interp/common/registry.h"

namespace shapevm::fuzzing {

namespace {

// A square drawn after a two-face sub-stream: calls, returns and faces to step through.
constexpr std::string_view kDapProgram =
    ".image base=0x0 code_va=0x1000 section=CODE stub_relocs=1\n"
    ".header radius_world=0 radius=16 scale=8 extents=8,8,8\n"
    "    VertexBuffer at=0\n"
    "        v -4, -4, 0\n"
    "        v 4, -4, 0\n"
    "        v 4, 4, 0\n"
    "        v -4, 4, 0\n"
    "        v 0, 0, 6\n"
    "    Unmask @roof\n"
    "    Face content=0x00 layout=0x00 color=0x20 shadow=0 idx=0,1,2,3\n"
    "    ShortEOF\n"
    "roof:\n"
    "    Face content=0x00 layout=0x00 color=0x21 shadow=0 idx=0,1,4\n"
    "    Face content=0x00 layout=0x00 color=0x22 shadow=0 idx=2,3,4\n"
    "    ShortEOF\n";

// The launch request's program and arguments are the fuzzer's; the program run is always the one
// above (the target reads no files), under small budgets.
std::unique_ptr<harness::DebugEngine> dap_engine(const nlohmann::json&) {
  auto program = engine_named("fa").open_text(kDapProgram, kFuzzSource, std::nullopt, {});
  StateRequest state;
  state.width = 64;
  state.height = 48;
  state.set_option("max-steps", "2000");
  return std::make_unique<harness::ProgramDebugEngine>(std::move(program), std::move(state));
}

}  // namespace

bool fuzz_dap(std::span<const uint8_t> data) {
  std::istringstream in(std::string(data.begin(), data.end()));
  std::ostringstream out;
  harness::DapServer server(dap_engine, in, out);
  server.forbid_listing_files();
  try {
    server.serve();
  } catch (const std::invalid_argument&) {
    return false;  // a malformed stream, reported as `shapevm dap` reports it (exit 2)
  }
  return true;
}

}  // namespace shapevm::fuzzing
