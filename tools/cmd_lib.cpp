// `shapevm lib`: list and extract the members of any engine's containers (FA EALIB .LIB, Apache
// 3DOBJS.BIN records, ...), the container recognised by its content.
//
// Extraction never writes a member still compressed: members shapevm cannot decode (FA: LZSS,
// PXPK) are refused when named, and skipped with an error (exit code 2) when extracting all.
// Every check that can be made before writing (names, flags, clashing or existing output files)
// is made first, so a refused extraction leaves the output directory as it was.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_error.h"
#include "core/member_spec.h"
#include "core/text_bytes.h"
#include "interp/common/json_text.h"
#include "interp/common/registry.h"
#include "tools/command.h"

namespace shapevm::tools {
namespace {

namespace fs = std::filesystem;

struct LsOptions {
  std::string lib_path;
  std::string engine;
  bool json = false;
};

struct ExtractOptions {
  std::string lib_path;
  std::string engine;
  std::vector<std::string> members;
  std::string output_dir;
  bool force = false;
};

// Member names come from the file, so they must not be able to name a path elsewhere or use
// characters that some file systems reject.
std::string output_file_name(const std::string& member_name) {
  std::string out;
  for (char c : member_name) {
    const bool reserved = std::string_view("&*?\"<>|/\\:").find(c) != std::string_view::npos;
    out.push_back(reserved || static_cast<unsigned char>(c) < 0x20 ? '_' : c);
  }
  // "", "." and ".." would name the directory itself or its parent.
  if (out.find_first_not_of('.') == std::string::npos) out.insert(out.begin(), '_');
  return out;
}

std::string flags_text(const MemberInfo& m) {
  return m.compression.empty() ? std::string("-") : fmt::format("{} {}", m.flags, m.compression);
}

// The container and the engine whose format it is; InputError when no engine's containers
// include it.
struct OpenedContainer {
  EngineInput input;
  const Engine* engine = nullptr;
  std::vector<MemberInfo> members;
};

OpenedContainer open_container(const std::string& path, const std::string& forced) {
  OpenedContainer c;
  c.input = read_input(path);
  if (c.input.member) throw InputError(path, "name the container file itself, without a :MEMBER");
  c.engine = &engine_for(c.input, forced);
  if (!c.engine->is_container(c.input.bytes)) {
    throw InputError(
        path, 0,
        fmt::format("a container; this is a {} file that holds no members", c.engine->title()));
  }
  c.members = c.engine->members(c.input);
  return c;
}

// The member `name` names, by the rule `FILE:NAME` follows: the first exact match, then the first
// that differs only by case (containers may repeat a name in another case), then `#N`.
const MemberInfo* find_member(const std::vector<MemberInfo>& members, const std::string& name) {
  for (const auto& m : members)
    if (m.name == name) return &m;
  for (const auto& m : members)
    if (m.name.size() == name.size() &&
        std::equal(m.name.begin(), m.name.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        }))
      return &m;
  if (const auto index = member_index(name); index && *index < members.size())
    return &members[*index];
  return nullptr;
}

void print_notes(const OpenedContainer& c) {
  for (const auto& note : c.engine->container_notes(c.input)) {
    std::fflush(stdout);
    fmt::print(stderr, "shapevm: note: {}\n", note);
  }
}

void run_ls(const LsOptions& options) {
  const OpenedContainer c = open_container(options.lib_path, options.engine);
  if (options.json) {
    // Ordered, so the keys read in the order a listing shows them.
    nlohmann::ordered_json members = nlohmann::ordered_json::array();
    for (const MemberInfo& m : c.members) {
      members.push_back({
          {"name", latin1_to_utf8(m.name)},
          {"flags", m.flags},
          {"compression", m.compression.empty() ? nlohmann::ordered_json()
                                                : nlohmann::ordered_json(m.compression)},
          {"offset", m.offset},
          {"stored_size", m.stored},
          {"unpacked_size", m.size ? nlohmann::ordered_json(*m.size) : nlohmann::ordered_json()},
      });
    }
    fmt::print("{}\n", dump_json(members, 2));
  } else {
    fmt::print("{:<12}  {:<11}  {:>10}  {:>10}\n", "NAME", "FLAGS", "STORED", "UNPACKED");
    for (const MemberInfo& m : c.members) {
      fmt::print("{:<12}  {:<11}  {:>10}  {:>10}\n", m.name, flags_text(m), m.stored,
                 m.size ? fmt::to_string(*m.size) : "?");
    }
  }
  print_notes(c);
}

void report_skipped(const InputError& error) {
  std::fflush(stdout);
  fmt::print(stderr, "shapevm: error: {} (skipped)\n", error.what());
}

void run_extract(const ExtractOptions& options, CommandContext& ctx) {
  const OpenedContainer c = open_container(options.lib_path, options.engine);
  const bool extract_all = options.members.empty();

  // Choose the members. Named ones must exist and be decodable; when extracting everything,
  // undecodable members are skipped (and reported once the extraction is known to go ahead).
  std::vector<const MemberInfo*> selected;
  std::vector<InputError> undecodable;
  if (extract_all) {
    for (const MemberInfo& entry : c.members) {
      try {
        c.engine->check_extractable(c.input, entry);
        selected.push_back(&entry);
      } catch (const InputError& error) {
        undecodable.push_back(error);
      }
    }
  } else {
    for (const std::string& name : options.members) {
      const MemberInfo* entry = find_member(c.members, name);
      if (entry == nullptr) {
        throw InputError(options.lib_path + ":" + name,
                         fmt::format("no member named {} in {} ({} members)", name,
                                     options.lib_path, c.members.size()));
      }
      c.engine->check_extractable(c.input, *entry);
      if (std::find(selected.begin(), selected.end(), entry) == selected.end()) {
        selected.push_back(entry);
      }
    }
  }

  // Plan the output files; refuse clashes and (without --force) existing files up front.
  const fs::path output_dir(options.output_dir);
  std::error_code ec;
  if (fs::exists(output_dir, ec) && !fs::is_directory(output_dir, ec)) {
    throw InputError(options.output_dir, "exists but is not a directory");
  }
  std::map<std::string, std::string> member_by_output;
  std::vector<fs::path> outputs;
  for (const MemberInfo* entry : selected) {
    const std::string file_name = output_file_name(entry->name);
    auto [it, inserted] = member_by_output.emplace(file_name, entry->name);
    if (!inserted) {
      throw InputError(options.lib_path,
                       fmt::format("members {} and {} would both be written to {}; extract them "
                                   "one at a time into different directories",
                                   it->second, entry->name, file_name));
    }
    outputs.push_back(output_dir / file_name);
    if (!options.force && fs::exists(outputs.back(), ec)) {
      throw InputError(outputs.back().string(),
                       "already exists (nothing was extracted; pass --force to replace it)");
    }
  }
  fs::create_directories(output_dir, ec);
  if (ec) {
    throw InputError(options.output_dir, fmt::format("cannot create directory: {}", ec.message()));
  }

  for (const InputError& error : undecodable) report_skipped(error);
  int failed = static_cast<int>(undecodable.size());
  const Overwrite overwrite = options.force ? Overwrite::kAllow : Overwrite::kRefuse;
  size_t written = 0;
  for (size_t i = 0; i < selected.size(); ++i) {
    std::vector<uint8_t> member;
    try {
      member = c.engine->extract(c.input, *selected[i]);
    } catch (const InputError& error) {
      if (!extract_all) throw;
      report_skipped(error);
      ++failed;
      continue;
    }
    write_file_atomic(outputs[i], member, overwrite);
    ++written;
  }

  fmt::print("extracted {} of {} members of {} into {}\n", written, c.members.size(),
             options.lib_path, options.output_dir);
  print_notes(c);
  if (failed > 0) {
    std::fflush(stdout);
    fmt::print(stderr, "shapevm: {} member{} could not be extracted\n", failed,
               failed == 1 ? "" : "s");
    ctx.exit_code = kExitBadInput;
  }
}

}  // namespace

void register_lib_command(CLI::App& app, CommandContext& ctx) {
  constexpr const char* kFlagsHelp =
      "FA member flags: 0 stored, 4 dcl (PKWare DCL with a size prefix) are decoded; 1 lzss and\n"
      "3 pxpk are listed but not decoded. Other commands take a member directly as\n"
      "FILE.LIB:MEMBER (member names are case-insensitive).";
  CLI::App* lib = app.add_subcommand(
      "lib",
      "List or extract the members of a container of any engine (FA EALIB .LIB, Apache\n"
      "3DOBJS.BIN records), recognised by its content");
  lib->require_subcommand(1);
  lib->footer(kFlagsHelp);

  auto ls_options = std::make_shared<LsOptions>();
  CLI::App* ls = lib->add_subcommand("ls", "List the members with their flags and sizes");
  ls->add_option("lib", ls_options->lib_path, "The container")->required()->type_name("FILE");
  ls->add_option("--engine", ls_options->engine, "Force the engine (default: by content)");
  ls->add_flag("--json", ls_options->json,
               "Print a JSON array of {name, flags, compression, offset, stored_size, "
               "unpacked_size} instead");
  ls->footer(std::string("Prints a header line, then per member: name, flags (number and word), "
                         "stored size\nand unpacked size ('?' in text, null in JSON, when "
                         "unknown).\n") +
             kFlagsHelp);
  ls->callback([ls_options] { run_ls(*ls_options); });

  auto extract_options = std::make_shared<ExtractOptions>();
  CLI::App* extract =
      lib->add_subcommand("extract", "Write decompressed members (default: all) into a directory");
  extract->add_option("lib", extract_options->lib_path, "The container")
      ->required()
      ->type_name("FILE");
  extract->add_option("--engine", extract_options->engine,
                      "Force the engine (default: by content)");
  extract
      ->add_option("members", extract_options->members,
                   "Members to extract (case-insensitive names, or #N); default: all")
      ->type_name("MEMBER");
  extract
      ->add_option("-o,--output", extract_options->output_dir,
                   "Directory to write into (created if missing)")
      ->required()
      ->type_name("DIR");
  extract->add_flag("--force", extract_options->force, "Replace existing files");
  extract->footer(
      std::string(
          "Output files are named after the members, with & * ? \" < > | / \\ : replaced by "
          "'_'.\nWithout --force nothing is written if any output file already exists.\n"
          "A named member that is missing or cannot be decoded is an error (exit code 2).\n"
          "When extracting all, undecodable members are reported and skipped, the rest are\n"
          "written, and the exit code is 2.\n") +
      kFlagsHelp);
  extract->callback([extract_options, &ctx] { run_extract(*extract_options, ctx); });
}

}  // namespace shapevm::tools
