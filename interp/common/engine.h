// The engine interface (DESIGN.md, "Layout"): everything a command, the debugger, the viewer and
// the regression runner need from an engine, so none of them names one. An engine is a folder
// under interp/ with one class implementing Engine, registered in interp/engines.cpp.
//
// Engine: what a format is (recognised by content, never by file name), its containers, and its
// writers (assembler, generator, check). Program: one opened program (a shape, a record), which
// describes itself (info, listing, the state knobs it takes) and runs for a state into an event
// sink, with an optional pause handler for the debugger. docs/architecture.md walks through it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/shared_bytes.h"
#include "interp/common/events.h"
#include "interp/common/export_scene.h"
#include "interp/common/pause.h"
#include "interp/common/render_setup.h"
#include "interp/common/state.h"
#include "interp/common/viewer_model.h"

namespace shapevm {

class PartialFile;  // core/partial_file.h

// A file argument read: the whole file and, for FILE:MEMBER, the member named.
struct EngineInput {
  std::string spec;                   // as given
  std::string path;                   // the file read
  std::optional<std::string> member;  // what followed the ':'
  SharedBytes bytes;  // the whole file, shared with other reads of it (core/file_io.h)
};

// What a program is opened with besides its file.
struct OpenOptions {
  std::string palette;   // --palette: the engine's palette file, "" = its default
  std::string textures;  // --textures: where its textures are, "" = its default
  // The state options given, for the few an engine needs when it opens a program (FA: --objend).
  StateRequest state;
};

// How one run ended (docs/architecture.md, "Execution model"). Bad input discovered while running
// is not thrown: the run stops, `clean` is false and `reason` says why, as the end event does.
struct RunOutcome {
  bool clean = true;
  std::string reason;
  uint32_t end_offset = 0;
  uint64_t ops = 0;
  uint64_t faces = 0;
  // Engine-specific counts worth a summary line, e.g. {"shadow faces", 3}.
  std::vector<std::pair<std::string, uint64_t>> counts;
};

// One opened program. Not reentrant: one Program per thread.
class Program {
 public:
  virtual ~Program() = default;
  virtual std::string_view engine() const = 0;
  virtual std::string source() const = 0;  // "FA_2.LIB:A10.SH", "3DOBJS.BIN:#17"
  // A one-line description for `examples` (name, size, counts).
  virtual std::string summary() const = 0;
  virtual std::string info_text() const = 0;
  virtual nlohmann::json info_json() const = 0;
  // The listing `disasm` prints (text the engine's assembler reads back, where it has one).
  virtual std::string listing_text() const = 0;
  virtual nlohmann::json listing_json() const;  // default: InputError (no JSON listing)
  // The listing the debugger shows, one entry per text line.
  virtual std::vector<ListingLine> listing_lines() const = 0;
  // Errors found in the program without running it (a static walk), each "offset ...: what";
  // info and disasm still print, then exit 2.
  virtual std::vector<std::string> static_errors() const { return {}; }
  // Every knob this program takes: the engine's options and globals plus the inputs found in the
  // file.
  virtual std::vector<Knob> knobs() const = 0;
  // False when the argument named a whole container (info only); run() then throws InputError.
  virtual bool runnable() const { return true; }
  // The engine's full state for a request as one JSON object (the trace's "state"). InputError
  // on a malformed value.
  virtual nlohmann::json state_json(const StateRequest& state) const = 0;
  // Runs for `state`, every event into `sink`; with `pause`, stops at every pause point (native
  // instructions included). InputError when the state is malformed or the program cannot start.
  virtual RunOutcome run(const StateRequest& state, EventSink& sink,
                         PauseHandler* pause = nullptr) = 0;
  // Palette, textures and projection for a frame of this size.
  virtual RenderSetup render_setup(int width, int height) = 0;
  // Model units per exported OBJ unit (FA: the header's scale, so the OBJ is in feet).
  virtual double export_scale() const { return 1.0; }
  // What `export` writes for `state` (interp/common/export_scene.h): engines whose models have
  // parts build it; nullopt (the default) exports the faces a run for `state` draws, as one node.
  virtual std::optional<ExportScene> export_scene(const StateRequest& /*state*/) {
    return std::nullopt;
  }
  // The background index every command clears a frame to unless --background is given (render,
  // view, examples, the debugger's frames), chosen so everything the engine's programs draw under
  // its default palette, shadows included, stands apart from it. Golden frames use it too.
  virtual uint8_t example_background() const { return 0; }
  // The viewer's model, opening in `opening` (the command line's state).
  virtual std::unique_ptr<ViewerModel> viewer(const StateRequest& opening,
                                              double frames_per_second) = 0;
};

// A member of a container.
struct MemberInfo {
  std::string name;
  uint32_t index = 0;
  uint64_t offset = 0;           // where its stored bytes start in the container
  uint64_t stored = 0;           // bytes in the container
  std::optional<uint64_t> size;  // bytes once extracted, when known without decoding
  uint32_t flags = 0;            // the container's own flags for it (0 when it has none)
  std::string compression;       // "stored", "dcl", ...; "" when the format has none
};

// A file a writer produced: a name (relative to the output's folder) and its bytes.
struct OutputFile {
  std::string name;
  std::vector<uint8_t> bytes;
};

struct GenerateRequest {
  uint32_t count = 0;  // 0 = the engine's default
  uint64_t seed = 1;
  bool text = false;  // also write the assembler text
  // The engine's stress profile (`gen --stress`) instead of its default, corpus-like mix: every
  // structure often, for coverage and fuzzing seeds. Only for engines with generate_stress_help().
  bool stress = false;
};

// `check`: the file as read, and as the engine's writer writes it again.
struct CheckResult {
  SharedBytes original;
  std::vector<uint8_t> rewritten;
  std::string writer;  // what wrote it ("PE writer", "assembler")
};

// One bundled example to run: the argument to open and the PNG's stem.
struct ExampleEntry {
  std::string spec;
  std::string stem;
};

// `variants`: declared here, defined in interp/common/variants.h (its report holds JSON).
struct VariantsRequest;
struct VariantsReport;

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string_view name() const = 0;   // "fa": --engine, manifests, the trace's "eng"
  virtual std::string_view title() const = 0;  // "Fighters Anthology"
  // The files it reads, with what tells them apart, for "no engine recognises" errors.
  virtual std::string_view formats() const { return ""; }
  // Whether `bytes` (a whole file) is this engine's program or container: magic bytes and
  // structure, never the file name.
  virtual bool recognises(std::span<const uint8_t> bytes) const = 0;
  // Whether `text` is this engine's assembler source.
  virtual bool recognises_text(std::string_view) const { return false; }
  // The shared state options (Knob::option) this engine takes and the --set names every program
  // of it knows; Program::knobs adds what a file names.
  virtual std::vector<Knob> knobs() const = 0;
  // Opens the program `input` names. InputError for bad input.
  virtual std::unique_ptr<Program> open(const EngineInput& input,
                                        const OpenOptions& options) const = 0;
  // Assembler text (recognised by recognises_text) opened as the program it assembles to;
  // `member` names one program of it as FILE:MEMBER would in the assembled container.
  virtual std::unique_ptr<Program> open_text(std::string_view text, const std::string& source,
                                             const std::optional<std::string>& member,
                                             const OpenOptions& options) const;

  // For FILE:MEMBER on a large file, which a command would otherwise read whole: loads through
  // `file` every part of it that recognising the file (recognises()), opening that member and
  // running it read, and returns true; the member is then opened from the partly loaded file
  // (read_program_input, registry.h), with the same result as from the whole one. False (the
  // default) when the file is not this engine's container or the engine cannot tell those parts:
  // the whole file is read.
  virtual bool load_member_parts(PartialFile& /*file*/, const std::string& /*member*/) const {
    return false;
  }
  // Containers: the members of `input`'s file, and one member's bytes. Default: InputError (the
  // engine's files are no container).
  virtual bool is_container(std::span<const uint8_t>) const { return false; }
  virtual std::vector<MemberInfo> members(const EngineInput& input) const;
  virtual std::vector<uint8_t> extract(const EngineInput& input, const MemberInfo& member) const;
  // Throws the InputError extract() would throw for a member that cannot be decoded, without
  // decoding it (so a command can refuse before writing anything). Default: every member can.
  virtual void check_extractable(const EngineInput&, const MemberInfo&) const {}
  // Remarks about the container as a whole for listings ("no directory terminator ...").
  virtual std::vector<std::string> container_notes(const EngineInput&) const { return {}; }

  // Writers; each defaults to InputError "the ENGINE engine has no ...".
  // Assembler text -> files; the first is the one `-o` names, the rest go beside it.
  virtual std::vector<OutputFile> assemble(std::string_view text, const std::string& source,
                                           const std::string& output_name) const;
  virtual uint32_t default_generate_count() const { return 10; }
  virtual uint32_t max_generate_count() const { return 100000; }
  // The names generate() writes for `request`, so a command can refuse before writing anything.
  virtual std::vector<std::string> generated_names(const GenerateRequest& request) const;
  virtual void generate(const GenerateRequest& request,
                        const std::function<void(OutputFile)>& write) const;
  virtual std::string generate_help() const { return ""; }  // "" = no generator
  // What `gen ENGINE --stress` changes; "" = the engine has no stress profile (the default).
  virtual std::string generate_stress_help() const { return ""; }
  virtual CheckResult check(const EngineInput& input) const;
  // Whole-model variants; `variants_help` "" = the engine has none (the default).
  virtual std::string variants_help() const { return ""; }
  virtual VariantsReport variants(const VariantsRequest& request) const;
  // `input` read as one of this engine's palette files (for `compare --palette`); nullopt when
  // the bytes are not one.
  virtual std::optional<raster::Palette> read_palette(const EngineInput&) const {
    return std::nullopt;
  }
  // The bundled examples held in `input`'s file (the built examples folder holds many files).
  virtual std::vector<ExampleEntry> examples(const EngineInput& input) const;
};

}  // namespace shapevm
