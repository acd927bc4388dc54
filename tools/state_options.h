// The option groups several commands share, declared once (DESIGN.md, "Contracts"): the input
// (FILE or FILE:MEMBER, --engine), the frame (--size, --palette, --textures, --background), the
// output (-o, --force) and the state options every command that runs a program takes (--frame,
// --lod, --detail, --destroyed, --effects, --set, --camera, --no-x86, --x86-trace, --merged,
// --objend, --max-steps, --max-depth, --objects, and the work budgets --max-faces, --max-pixels
// and --max-trace-bytes). Which state options apply is the engine's
// declaration (interp/common/state.h): a given option the engine does not take is an error naming
// the engines that do, an unknown --set name an error listing the closest.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "interp/common/engine.h"
#include "interp/common/state.h"

namespace shapevm::tools {

// Integer options are kept as the text given: the program's knobs give their ranges
// (validate_state), so `--frame -1` is an error naming the valid range rather than CLI11's
// "could not be converted".
struct StateOptions {
  std::optional<std::string> frame;
  std::optional<std::string> lod;
  std::optional<std::string> detail;
  bool destroyed = false;
  std::optional<std::string> effects;
  std::vector<std::string> sets;
  std::optional<std::string> camera;
  bool no_x86 = false;
  bool no_memo = false;
  bool x86_trace = false;
  bool merged = false;
  bool switch_dispatch = false;
  std::optional<std::string> objend;
  std::optional<std::string> max_steps;
  std::optional<std::string> max_depth;
  std::optional<std::string> objects;
  WorkLimits limits;  // --max-faces, --max-pixels, --max-trace-bytes
};

void add_state_options(CLI::App* cmd, StateOptions& options);

// An option that takes one of `values` (any case; the value is replaced by the listed spelling,
// so add it with ->transform, not ->check, which would drop the replacement).
// Its error lists them plainly: `--objend: "foo" is not one of: absolute, relative`.
CLI::Validator one_of(std::vector<std::string> values);

// --objend, as every command that reads FA programs takes it.
void add_objend_option(CLI::App* cmd, std::optional<std::string>& objend, const std::string& help);

// Only the options given, by their knob names, with the frame size.
StateRequest state_request(const StateOptions& options, int width, int height);

// FILE or FILE:MEMBER and --engine.
struct InputOptions {
  std::string file;
  std::string engine;  // "" = recognised by content
};
void add_input_options(CLI::App* cmd, InputOptions& options, const std::string& what);

// Several inputs (each FILE, CONTAINER:MEMBER or CONTAINER:PATTERN; tools/batch.h) and --engine,
// for the commands that run over many in one process.
struct InputsOptions {
  std::vector<std::string> files;
  std::string engine;  // "" = recognised by content
  unsigned jobs = 1;   // inputs run at a time in a batch (0 = one per core)
  InputOptions one(const std::string& spec) const { return {spec, engine}; }
};
void add_inputs_options(CLI::App* cmd, InputsOptions& options, const std::string& what);
// The help text every such command gives for -o: `what` for one input, a folder for several.
std::string batch_output_help(const std::string& what);

// The frame size every command draws, traces and views at unless --size says otherwise: the
// default StateRequest's, so `view --headless` frame 0 is `render`'s frame and `trace` shows the
// LOD choice both made.
std::string default_frame_size();

// --size, --palette, --textures and --background.
struct FrameOptions {
  std::string size;
  std::string palette;
  std::string textures;
  std::optional<int> background;
};
// --size defaults to default_frame_size().
void add_frame_options(CLI::App* cmd, FrameOptions& options, bool with_background = true);

// "640x480" -> {640, 480}; InputError unless both are 1..8192.
std::pair<int, int> parse_size(const std::string& text);

// The one file a command writes (-o, --diff, --screenshot), checked before anything runs: not a
// folder, in a folder that exists, not an existing file unless `force`, and, when `extensions`
// is not empty, ending in one of them (lowercase, with the dot), since that is the format written
// (`-o out.jpg` for a PNG writer is an error, never a PNG under a JPEG name). InputError naming
// the path.
void check_output_option(const std::string& path, bool force,
                         const std::vector<std::string>& extensions, const std::string& format);

// The extension of `path`, lowercase, with its dot ("" if none).
std::string lowercase_extension(const std::string& path);

// A program opened for a command, with the state it runs in, checked against the program's
// knobs.
struct OpenedProgram {
  std::unique_ptr<Program> program;
  StateRequest state;
};
OpenedProgram open_for_run(const InputOptions& input, const FrameOptions& frame,
                           const StateOptions& state, int width, int height);

}  // namespace shapevm::tools
