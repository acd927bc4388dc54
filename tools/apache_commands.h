// The Apache side of the commands that run or describe a shape. Each cmd_<name>.cpp checks
// apache::is_apache_spec(file) first and hands Apache arguments to these; FA paths are unchanged.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tools/command.h"
#include "tools/run_options.h"

namespace shapevm::tools {

void apache_info(const std::string& spec, bool json, bool several, CommandContext& ctx);
void apache_disasm(const std::string& spec, const std::string& output, bool force);
void apache_trace(const std::string& spec, const std::string& output, bool no_ops,
                  const RunOptions& run, CommandContext& ctx);
void apache_render(const std::string& spec, const std::string& output, const std::string& size,
                   const std::string& palette, const std::string& textures, int background,
                   bool force, const RunOptions& run, CommandContext& ctx);
void apache_export(const std::string& spec, const std::string& output, const std::string& textures,
                   bool force, const RunOptions& run, CommandContext& ctx);
// examples: every record of every archive rendered in its default state to
// OUT/apache_<dir>_<name>.png with a one-line summary each.
void apache_examples(const std::vector<std::filesystem::path>& archives, const std::string& out,
                     CommandContext& ctx);
// asm: writes 3DOBJS.BIN at `output` and OBJTEXT.BIN / 3DPAL.RGB beside it.
void apache_asm(const std::string& input, const std::string& output, bool force);

}  // namespace shapevm::tools
