// The registry of engines. interp/engines.cpp is the one list that names them (one line each);
// everything else finds an engine here: by name (--engine, a manifest's "engine"), or by what a
// file contains.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "interp/common/engine.h"

namespace shapevm {

// The registered engines, in registration order. The first call registers interp/engines.cpp's
// list.
const std::vector<const Engine*>& engines();
// Adds an engine (tests register a fake one); it lives until the process ends.
void register_engine(std::unique_ptr<Engine> engine);
// nullptr when no engine has that name.
const Engine* find_engine(std::string_view name);
// The engine called `name`; InputError listing the engines when there is none.
const Engine& engine_named(std::string_view name);
std::vector<std::string> engine_names();

// Reads a file argument (FILE or FILE:MEMBER).
EngineInput read_input(const std::string& spec);

// From this size on, a FILE:MEMBER program argument is read in part where an engine can say which
// parts (read_program_input).
inline constexpr uint64_t kPartialReadMinimum = uint64_t{4} << 20;

// read_input for a program argument (what open_program opens). For FILE:MEMBER on a file of
// `partial_minimum` bytes or more, which no earlier read still held has read whole, an engine's
// load_member_parts may load only the parts of the file the member needs: that input is returned
// when, so loaded, the file is recognised by that engine alone (or `forced` names it). Otherwise
// the whole file is read, as read_input reads it.
EngineInput read_program_input(const std::string& spec, std::string_view forced = "",
                               uint64_t partial_minimum = kPartialReadMinimum);

// The engine whose file `input` is: `forced` ("" = recognise by content) or the one engine that
// claims the bytes. InputError when none or several claim it, naming the candidates.
const Engine& engine_for(const EngineInput& input, std::string_view forced = "");
// The same for assembler text.
const Engine& engine_for_text(std::string_view text, const std::string& source,
                              std::string_view forced = "");

// Opens a program argument: reads it, recognises it (a file, or assembler text its engine
// assembles in memory) and opens it. FILE:MEMBER is read with read_program_input the first time
// FILE is opened with a member in the process, whole after (a run over many members reads the
// container once).
std::unique_ptr<Program> open_program(const std::string& spec, const OpenOptions& options,
                                      std::string_view forced = "");

// Checks `state` against what `program` declares: every option must be one of its option knobs
// (else the error names the engines that take it), every --set name one of its set knobs (else
// the error lists the closest names). InputError.
void validate_state(const Program& program, const StateRequest& state);

// Engine list provided by interp/engines.cpp.
std::vector<std::unique_ptr<Engine>> make_registered_engines();

}  // namespace shapevm
