// shapevm gen ENGINE --count N --seed S -o DIR: a synthetic corpus from an engine's generator,
// for benchmarks, round-trip tests and fuzzing seeds. One subcommand per registered engine that
// has a generator.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/common/registry.h"
#include "tools/command.h"

namespace shapevm::tools {

void register_gen_command(CLI::App& app, CommandContext&) {
  CLI::App* gen = app.add_subcommand(
      "gen", "Generate synthetic programs for benchmarks, tests and fuzzing seeds.");
  gen->require_subcommand(1);
  struct Options {
    uint32_t count = 0;
    uint64_t seed = 1;
    std::string dir;
    bool force = false;
    bool text = false;
    bool stress = false;
  };
  for (const Engine* engine : engines()) {
    if (engine->generate_help().empty()) continue;
    auto opts = std::make_shared<Options>();
    opts->count = engine->default_generate_count();
    CLI::App* sub =
        gen->add_subcommand(std::string(engine->name()),
                            fmt::format("{}: {}\nThe same --seed always gives the same files.",
                                        engine->title(), engine->generate_help()));
    sub->add_option("--count", opts->count,
                    fmt::format("How many (1..{})", engine->max_generate_count()))
        ->capture_default_str()
        ->check(CLI::Range(1u, engine->max_generate_count()));
    sub->add_option("--seed", opts->seed, "Seed of the run")->capture_default_str();
    sub->add_option("-o,--output", opts->dir, "The directory to write into (created if missing)")
        ->required();
    sub->add_flag("--force", opts->force, "Overwrite existing files");
    sub->add_flag("--text", opts->text, "Also write the assembler text of what is generated");
    if (const std::string stress = engine->generate_stress_help(); !stress.empty())
      sub->add_flag("--stress", opts->stress, stress);
    sub->callback([opts, engine] {
      namespace fs = std::filesystem;
      const fs::path dir(opts->dir);
      std::error_code ec;
      if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw InputError(opts->dir, "the output path exists and is not a directory");
      const GenerateRequest request{opts->count, opts->seed, opts->text, opts->stress};
      // Refuse before writing anything, so a clash never leaves half a run behind.
      if (!opts->force) {
        for (const std::string& name : engine->generated_names(request))
          if (fs::exists(dir / name, ec))
            throw InputError((dir / name).string(),
                             "the file exists; pass --force to overwrite it");
      }
      fs::create_directories(dir, ec);
      if (ec) throw InputError(opts->dir, "cannot create the directory: " + ec.message());
      const Overwrite overwrite = opts->force ? Overwrite::kAllow : Overwrite::kRefuse;
      uint64_t total = 0;
      engine->generate(request, [&](OutputFile f) {
        write_file_atomic(dir / f.name, f.bytes, overwrite);
        total += f.bytes.size();
      });
      fmt::print("generated {} shapes ({} total bytes) in {}\n", opts->count, total, opts->dir);
    });
  }
}

}  // namespace shapevm::tools
