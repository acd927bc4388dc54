// shapevm gen fa --count N --seed S -o DIR: synthetic FA shapes (tools/gen/fa_generator.h) for
// benchmarks, round-trip tests and fuzzing seeds, written as GEN00001.SH, GEN00002.SH, ...
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "interp/common/file_io.h"
#include "interp/common/input_error.h"
#include "tools/asm/apache_assembler.h"
#include "tools/asm/fa_assembler.h"
#include "tools/command.h"
#include "tools/gen/apache_generator.h"
#include "tools/gen/fa_generator.h"

namespace shapevm::tools {

void register_gen_command(CLI::App& app, CommandContext&) {
  CLI::App* gen = app.add_subcommand(
      "gen", "Generate synthetic shapes for benchmarks, tests and fuzzing seeds.");
  gen->require_subcommand(1);

  struct Options {
    uint32_t count = 10;
    uint64_t seed = 1;
    std::string dir;
    bool force = false;
    bool text = false;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* fa = gen->add_subcommand("fa",
                                     "Write N synthetic Fighters Anthology shapes (GEN00001.SH, "
                                     "...) with the corpus's structure: 2-4\n"
                                     "LOD blocks with hundreds of vertices and faces, Unmask "
                                     "fragments, draw-order selectors, frame\n"
                                     "tables, damage branches, untraced opcodes and, on about 40%, "
                                     "x86 articulation selectors. The\n"
                                     "same --seed always gives the same files.");
  fa->add_option("--count", opts->count, "How many shapes to write (1..100000)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 100000u));
  fa->add_option("--seed", opts->seed, "Seed of the run")->capture_default_str();
  fa->add_option("-o,--output", opts->dir, "The directory to write into (created if missing)")
      ->required();
  fa->add_flag("--force", opts->force, "Overwrite existing files");
  fa->add_flag("--text", opts->text,
               "Also write each shape's assembler text beside it (GEN00001.fas)");
  fa->callback([opts] {
    namespace fs = std::filesystem;
    const fs::path dir(opts->dir);
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
      throw InputError(opts->dir, "the output path exists and is not a directory");
    // Refuse before writing anything, so a clash never leaves half a run behind.
    if (!opts->force) {
      for (uint32_t i = 0; i < opts->count; ++i) {
        const std::string stem = generated_shape_stem(i);
        for (const fs::path& p : {dir / (stem + ".SH"), dir / (stem + ".fas")}) {
          if (p.extension() == ".fas" && !opts->text) continue;
          if (fs::exists(p, ec))
            throw InputError(p.string(), "the file exists; pass --force to overwrite it");
        }
      }
    }
    fs::create_directories(dir, ec);
    if (ec) throw InputError(opts->dir, "cannot create the directory: " + ec.message());
    const Overwrite overwrite = opts->force ? Overwrite::kAllow : Overwrite::kRefuse;
    uint64_t total = 0;
    for (uint32_t i = 0; i < opts->count; ++i) {
      const std::string stem = generated_shape_stem(i);
      const std::string text = generate_fa_shape(opts->seed, i);
      const AssembledShape shape = assemble_fa(text, stem + ".fas");
      write_file_atomic(dir / (stem + ".SH"), shape.file, overwrite);
      if (opts->text) write_text_atomic(dir / (stem + ".fas"), text, overwrite);
      total += shape.file.size();
    }
    fmt::print("generated {} shapes ({} total bytes) in {}\n", opts->count, total, opts->dir);
  });

  auto apache_opts = std::make_shared<Options>();
  apache_opts->count = 1300;
  CLI::App* apache = gen->add_subcommand(
      "apache",
      "Write a synthetic Apache archive DIR/3DOBJS.BIN of N records (default 1,300, like the\n"
      "reference archive's 1,314) with 3DPAL.RGB and OBJTEXT.BIN beside it: two thirds signed\n"
      "16-bit, one third grid records, every packet type, decisions, masks, selects, LOD links\n"
      "and attached models. The same --seed always gives the same files.");
  apache->add_option("--count", apache_opts->count, "How many records (1..20000)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 20000u));
  apache->add_option("--seed", apache_opts->seed, "Seed of the run")->capture_default_str();
  apache->add_option("-o,--output", apache_opts->dir, "The directory to write into (created)")
      ->required();
  apache->add_flag("--force", apache_opts->force, "Overwrite existing files");
  apache->add_flag("--text", apache_opts->text, "Also write the assembler text (3DOBJS.apa)");
  apache->callback([apache_opts] {
    namespace fs = std::filesystem;
    const fs::path dir(apache_opts->dir);
    const std::string text = generate_apache_archive(apache_opts->seed, apache_opts->count);
    const AssembledArchive out = assemble_apache(text, "generated.apa");
    if (!apache_opts->force) {
      for (const char* name : {"3DOBJS.BIN", "OBJTEXT.BIN", "3DPAL.RGB", "3DOBJS.apa"}) {
        std::error_code ec;
        if (fs::exists(dir / name, ec))
          throw InputError((dir / name).string(), "the file exists; pass --force to overwrite it");
      }
    }
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError(apache_opts->dir, "cannot create the directory: " + ec.message());
    const Overwrite overwrite = apache_opts->force ? Overwrite::kAllow : Overwrite::kRefuse;
    write_file_atomic(dir / "3DOBJS.BIN", out.archive, overwrite);
    write_file_atomic(dir / "OBJTEXT.BIN", out.textures, overwrite);
    write_file_atomic(dir / "3DPAL.RGB", out.palette, overwrite);
    if (apache_opts->text) write_text_atomic(dir / "3DOBJS.apa", text, overwrite);
    fmt::print("generated {} Apache records ({} bytes) in {}\n", apache_opts->count,
               out.archive.size(), apache_opts->dir);
  });
}

}  // namespace shapevm::tools
