#include "tools/state_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/common/registry.h"

namespace shapevm::tools {

void add_state_options(CLI::App* cmd, StateOptions& o) {
  cmd->add_option("--frame", o.frame,
                  "The frame counter (FA: _frameCounter, masked to 15 bits; JumpToFrame takes "
                  "slot frame mod nframes)")
      ->type_name("INT");
  cmd->add_option("--lod", o.lod,
                  "LOD level: 0 = finest (overrides the choice by camera distance); at most the "
                  "program's levels less one")
      ->type_name("INT");
  cmd->add_option("--detail", o.detail,
                  "The detail preference (FA: _detail; JumpToDetail branches when it is below the "
                  "site's threshold; default: maximum)")
      ->type_name("INT");
  cmd->add_flag("--destroyed", o.destroyed, "Draw the destroyed state (FA: _destroyed = 1)");
  cmd->add_option("--effects", o.effects, "The effects word (FA: 0x20000 forces the finest LOD)")
      ->type_name("INT");
  cmd->add_option("--set", o.sets,
                  "NAME=VALUE for an engine global or input the engine declares (FA: "
                  "_frameCounter, _detail, health, record+OFF, imports such as _PLgearDown; "
                  "Apache: anim, light, slotN, ...); repeatable")
      ->take_all();
  cmd->add_option("--camera", o.camera,
                  "distance,heading,pitch: model units (0 = chosen from the radius) and degrees");
  cmd->add_flag("--no-x86", o.no_x86,
                "Do not run embedded x86: step over each block to the end of its region (static)");
  cmd->add_flag(
      "--x86-trace", o.x86_trace,
      "Report every x86 instruction and every read of an import (trace: x86_insn, import_read)");
  cmd->add_flag("--merged", o.merged,
                "All articulation variants at once: the base run with x86 stepped over, then the "
                "seed's reloc harvest (every relocation-pinned sub-stream; finest intact path "
                "only)");
  cmd->add_flag("--no-memo", o.no_memo,
                "Run every embedded x86 guard block, even when its outcome for the same inputs is "
                "already known (FA; for comparison: the same events)");
  cmd->add_flag("--switch-dispatch", o.switch_dispatch,
                "Dispatch through the portable switch instead of threaded code (FA; for "
                "comparison: the same events)");
  add_objend_option(cmd, o.objend,
                    "How PtrToObjEnd's operand is read: absolute (the seed, default) or relative "
                    "(to the end of the instruction, as OpenFA reads it)");
  cmd->add_option("--max-steps", o.max_steps,
                  "Budget: opcodes executed before the run is stopped (default: the engine's)")
      ->type_name("INT");
  cmd->add_option("--max-depth", o.max_depth, "Budget: call depth (default: the engine's)")
      ->type_name("INT");
  cmd->add_option("--max-faces", o.limits.faces,
                  "Budget: faces drawn, traced or exported before the run is stopped")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t{1}, UINT64_MAX));
  cmd->add_option("--max-pixels", o.limits.pixels,
                  "Budget: pixels covered by the faces drawn (default: 256 frames' worth)")
      ->type_name("INT")
      ->check(CLI::Range(uint64_t{1}, UINT64_MAX));
  cmd->add_option("--max-trace-bytes", o.limits.trace_bytes,
                  "Budget: bytes of trace written before the run is stopped")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t{1}, UINT64_MAX));
  cmd->add_option("--objects", o.objects,
                  "The archive a scene's object ids index (Battle Isle 2: LAND000.LIB for a 3DLD "
                  "record)");
}

CLI::Validator one_of(std::vector<std::string> values) {
  std::string list, names;
  for (const auto& v : values) {
    list += (list.empty() ? "" : ", ") + v;
    names += (names.empty() ? "" : "|") + v;
  }
  return CLI::Validator(
      [values, list](std::string& given) -> std::string {
        for (const auto& v : values) {
          if (v.size() != given.size()) continue;
          bool same = true;
          for (size_t i = 0; i < v.size() && same; ++i)
            same = std::tolower(static_cast<unsigned char>(v[i])) ==
                   std::tolower(static_cast<unsigned char>(given[i]));
          if (same) {
            given = v;
            return {};
          }
        }
        return fmt::format("\"{}\" is not one of: {}", given, list);
      },
      names);
}

void add_objend_option(CLI::App* cmd, std::optional<std::string>& objend, const std::string& help) {
  cmd->add_option("--objend", objend, help)->transform(one_of({"absolute", "relative"}));
}

StateRequest state_request(const StateOptions& o, int width, int height) {
  StateRequest r;
  r.width = width;
  r.height = height;
  auto number = [&](const char* name, const std::optional<std::string>& v) {
    if (v) r.options.push_back({name, *v});
  };
  auto flag = [&](const char* name, bool v) {
    if (v) r.options.push_back({name, "1"});
  };
  number("frame", o.frame);
  number("lod", o.lod);
  number("detail", o.detail);
  flag("destroyed", o.destroyed);
  number("effects", o.effects);
  if (o.camera) r.options.push_back({"camera", *o.camera});
  flag("no-x86", o.no_x86);
  flag("x86-trace", o.x86_trace);
  flag("no-memo", o.no_memo);
  flag("merged", o.merged);
  flag("switch-dispatch", o.switch_dispatch);
  if (o.objend) r.options.push_back({"objend", *o.objend});
  number("max-steps", o.max_steps);
  number("max-depth", o.max_depth);
  if (o.objects) r.options.push_back({"objects", *o.objects});
  r.sets = o.sets;
  r.limits = o.limits;
  return r;
}

namespace {

void add_engine_option(CLI::App* cmd, std::string& engine) {
  cmd->add_option(
      "--engine", engine, "Force the engine (default: recognised by the file's content): " + [] {
        std::string names;
        for (const auto& n : engine_names()) names += (names.empty() ? "" : ", ") + n;
        return names;
      }());
}

}  // namespace

void add_input_options(CLI::App* cmd, InputOptions& o, const std::string& what) {
  cmd->add_option("file", o.file, what)->required();
  add_engine_option(cmd, o.engine);
}

void add_inputs_options(CLI::App* cmd, InputsOptions& o, const std::string& what) {
  cmd->add_option("files", o.files,
                  what +
                      "; several, or CONTAINER:PATTERN for every member whose name matches "
                      "(FA_2.LIB:*.SH, resource.hog:*), run in this process")
      ->required();
  add_engine_option(cmd, o.engine);
  cmd->add_option("-j,--jobs", o.jobs,
                  "With several inputs, run this many at a time (0 = one per core); what each "
                  "prints still comes out in input order")
      ->check(CLI::Range(0, 256));
}

std::string batch_output_help(const std::string& what) {
  return what + "; with several inputs, the folder to write one file per input into (NAME.EXT)";
}

std::string default_frame_size() {
  const StateRequest defaults;
  return fmt::format("{}x{}", defaults.width, defaults.height);
}

void add_frame_options(CLI::App* cmd, FrameOptions& o, bool with_background) {
  o.size = default_frame_size();
  cmd->add_option("--size", o.size,
                  "WIDTHxHEIGHT of the frame (the same default for every command; the LOD a "
                  "program picks can depend on it)")
      ->capture_default_str();
  cmd->add_option("--palette", o.palette,
                  "The engine's palette file (FA PALETTE.PAL or LIB:MEMBER, Apache 3DPAL.RGB); "
                  "default: the engine's own (Apache: 3DPAL.RGB beside the archive)");
  cmd->add_option("--textures", o.textures,
                  "Where the textures are (FA: a directory or .LIB of PIC files; Apache: "
                  "OBJTEXT.BIN, default beside the archive)");
  if (with_background)
    cmd->add_option("--background", o.background,
                    "Palette index the frame is cleared to (default: the engine's, the same for "
                    "every command, e.g. 0 black for FA, 18 grey for Apache)")
        ->check(CLI::Range(0, 255));
}

std::pair<int, int> parse_size(const std::string& text) {
  const auto x = text.find('x');
  try {
    if (x == std::string::npos) throw std::invalid_argument(text);
    size_t a = 0, b = 0;
    const int w = std::stoi(text.substr(0, x), &a);
    const int h = std::stoi(text.substr(x + 1), &b);
    if (a != x || b != text.size() - x - 1 || w < 1 || h < 1 || w > 8192 || h > 8192)
      throw std::invalid_argument(text);
    return {w, h};
  } catch (const std::exception&) {
    throw InputError("--size " + text, "expected WIDTHxHEIGHT, each 1..8192");
  }
}

std::string lowercase_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

void check_output_option(const std::string& path, bool force,
                         const std::vector<std::string>& extensions, const std::string& format) {
  check_output_file(path);
  if (!extensions.empty() && std::find(extensions.begin(), extensions.end(),
                                       lowercase_extension(path)) == extensions.end()) {
    std::string names;
    for (const auto& e : extensions) names += (names.empty() ? "" : " or ") + e;
    throw InputError(path, fmt::format("this command writes {}: name the file {}", format, names));
  }
  std::error_code ec;
  if (!force && std::filesystem::exists(path, ec))
    throw InputError(path, "already exists (not overwritten; pass --force to replace it)");
}

namespace {

// A forced level the program does not have would silently draw its coarsest one (or nothing):
// the levels are what the viewer cycles through (ViewerCapabilities::lod_levels).
void check_lod_levels(Program& program, const StateRequest& state, const std::string& lod) {
  const int64_t wanted = parse_integer(lod, "--lod", 0);
  const uint32_t levels = program.viewer(state, 0)->capabilities().lod_levels;
  if (wanted >= static_cast<int64_t>(levels))
    throw InputError("--lod " + lod,
                     fmt::format("{} has {} level{} of detail: --lod 0..{}", program.source(),
                                 levels, levels == 1 ? "" : "s", levels - 1));
}

}  // namespace

OpenedProgram open_for_run(const InputOptions& input, const FrameOptions& frame,
                           const StateOptions& state, int width, int height) {
  OpenedProgram out;
  out.state = state_request(state, width, height);
  OpenOptions open{frame.palette, frame.textures, out.state};
  out.program = open_program(input.file, open, input.engine);
  validate_state(*out.program, out.state);
  if (!out.program->runnable())
    throw InputError(input.file, "names a whole container: name one program in it (FILE:MEMBER)");
  if (const auto lod = out.state.option("lod")) check_lod_levels(*out.program, out.state, *lod);
  return out;
}

}  // namespace shapevm::tools
