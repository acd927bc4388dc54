// What several fuzz targets do with an opened program or an engine's file: describe it the ways
// the commands do (text and JSON serialised, as `info --json` prints it), run it to a small frame
// under small budgets, and optionally write its trace. Kept in one place so every engine's target
// exercises the same command paths.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "interp/common/engine.h"

namespace shapevm::fuzzing {

// The input's name in every error message.
inline constexpr const char* kFuzzSource = "fuzz-input";

EngineInput input_of(std::span<const uint8_t> bytes, std::optional<std::string> member = {});

// info (text and JSON), listing (text and JSON where the engine has one), static errors: each
// serialised the way the commands print it.
void describe(const Program& program);

// Runs `program` into a 64x48 frame under small budgets; without `trace`, twice more (the paths
// later runs of one program take); with `trace`, once more into a trace writer (every op) that
// discards what it writes. `sets` are --set assignments to try (ignored
// when the program does not know the name).
void run_small(Program& program, bool trace, std::span<const std::string> sets = {},
               std::span<const std::pair<std::string, std::string>> options = {});

// Opens `bytes` as `engine`'s file: a container's member picked by `selector` (its members listed
// and the first few extracted first), else the file itself; describes and, when runnable, runs it.
void open_describe_run(const Engine& engine, std::span<const uint8_t> bytes, uint8_t selector,
                       bool run);

}  // namespace shapevm::fuzzing
