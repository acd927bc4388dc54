// `shapevm lib`: list and extract the members of Fighters Anthology EALIB (.LIB) containers.
//
// Extraction never writes a member still compressed: members shapevm cannot decode (LZSS,
// PXPK) are refused when named, and skipped with an error (exit code 2) when extracting all.
// Every check that can be made before writing (names, flags, clashing or existing output files)
// is made first, so a refused extraction leaves the output directory as it was.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "interp/common/file_io.h"
#include "interp/common/input_error.h"
#include "interp/fa/ealib.h"
#include "tools/command.h"

namespace shapevm::tools {
namespace {

namespace fs = std::filesystem;

struct LsOptions {
  std::string lib_path;
  bool json = false;
};

struct ExtractOptions {
  std::string lib_path;
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

std::string flags_text(const fa::LibEntry& entry) {
  return fmt::format("{} {}", entry.flags, fa::compression_name(entry.flags));
}

void note_missing_terminator(const fa::EaLib& lib) {
  if (lib.has_terminator()) return;
  std::fflush(stdout);
  fmt::print(stderr,
             "shapevm: note: {} has no directory terminator; its last member runs to the end "
             "of the file\n",
             lib.source());
}

void run_ls(const LsOptions& options) {
  const std::vector<uint8_t> bytes = read_file(options.lib_path);
  const fa::EaLib lib(bytes, options.lib_path);
  if (options.json) {
    // Ordered, so the keys read in the order a listing shows them.
    nlohmann::ordered_json members = nlohmann::ordered_json::array();
    for (const fa::LibEntry& entry : lib.entries()) {
      members.push_back({
          {"name", entry.name},
          {"flags", entry.flags},
          {"compression", fa::compression_name(entry.flags)},
          {"offset", entry.offset},
          {"stored_size", entry.stored_size},
          {"unpacked_size", entry.unpacked_size_known ? nlohmann::ordered_json(entry.unpacked_size)
                                                      : nlohmann::ordered_json()},
      });
    }
    fmt::print("{}\n", members.dump(2));
  } else {
    fmt::print("{:<12}  {:<11}  {:>10}  {:>10}\n", "NAME", "FLAGS", "STORED", "UNPACKED");
    for (const fa::LibEntry& entry : lib.entries()) {
      fmt::print("{:<12}  {:<11}  {:>10}  {:>10}\n", entry.name, flags_text(entry),
                 entry.stored_size,
                 entry.unpacked_size_known ? fmt::to_string(entry.unpacked_size) : "?");
    }
  }
  note_missing_terminator(lib);
}

void report_skipped(const InputError& error) {
  std::fflush(stdout);
  fmt::print(stderr, "shapevm: error: {} (skipped)\n", error.what());
}

void run_extract(const ExtractOptions& options, CommandContext& ctx) {
  const std::vector<uint8_t> bytes = read_file(options.lib_path);
  const fa::EaLib lib(bytes, options.lib_path);
  const bool extract_all = options.members.empty();

  // Choose the members. Named ones must exist and be decodable; when extracting everything,
  // undecodable members are skipped (and reported once the extraction is known to go ahead).
  std::vector<const fa::LibEntry*> selected;
  std::vector<InputError> undecodable;
  if (extract_all) {
    for (const fa::LibEntry& entry : lib.entries()) {
      try {
        lib.check_supported(entry);
        selected.push_back(&entry);
      } catch (const InputError& error) {
        undecodable.push_back(error);
      }
    }
  } else {
    for (const std::string& name : options.members) {
      const fa::LibEntry* entry = lib.find(name);
      if (entry == nullptr) {
        throw InputError(options.lib_path + ":" + name,
                         fmt::format("no member named {} in {} ({} members)", name,
                                     options.lib_path, lib.entries().size()));
      }
      lib.check_supported(*entry);
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
  for (const fa::LibEntry* entry : selected) {
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
      member = lib.extract(*selected[i]);
    } catch (const InputError& error) {
      if (!extract_all) throw;
      report_skipped(error);
      ++failed;
      continue;
    }
    write_file_atomic(outputs[i], member, overwrite);
    ++written;
  }

  fmt::print("extracted {} of {} members of {} into {}\n", written, lib.entries().size(),
             options.lib_path, options.output_dir);
  note_missing_terminator(lib);
  if (failed > 0) {
    std::fflush(stdout);
    fmt::print(stderr, "shapevm: {} member{} could not be extracted\n", failed,
               failed == 1 ? "" : "s");
    ctx.exit_code = 2;
  }
}

}  // namespace

void register_lib_command(CLI::App& app, CommandContext& ctx) {
  constexpr const char* kFlagsHelp =
      "Member flags: 0 stored, 4 dcl (PKWare DCL with a size prefix) are decoded; 1 lzss and\n"
      "3 pxpk are listed but not decoded. Other commands take a member directly as\n"
      "FILE.LIB:MEMBER (member names are case-insensitive).";
  CLI::App* lib = app.add_subcommand(
      "lib", "List or extract the members of a Fighters Anthology EALIB (.LIB) container");
  lib->require_subcommand(1);
  lib->footer(kFlagsHelp);

  auto ls_options = std::make_shared<LsOptions>();
  CLI::App* ls = lib->add_subcommand("ls", "List the members with their flags and sizes");
  ls->add_option("lib", ls_options->lib_path, "The EALIB container")
      ->required()
      ->type_name("FILE.LIB");
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
  extract->add_option("lib", extract_options->lib_path, "The EALIB container")
      ->required()
      ->type_name("FILE.LIB");
  extract
      ->add_option("members", extract_options->members,
                   "Members to extract (case-insensitive); default: all")
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
