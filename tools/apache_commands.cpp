#include "tools/apache_commands.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "harness/mesh_collector.h"
#include "harness/trace_writer.h"
#include "interp/apache/listing.h"
#include "interp/common/file_io.h"
#include "interp/common/input_error.h"
#include "raster/png_io.h"
#include "tools/apache_session.h"
#include "tools/asm/apache_assembler.h"
#include "tools/render_fa.h"

namespace shapevm::tools {
namespace {

void report_unclean(const std::string& source, const apache::RunResult& r, CommandContext& ctx) {
  if (r.clean) return;
  std::fflush(stdout);
  fmt::print(stderr, "shapevm: error: {}: the run stopped at file offset 0x{:x}: {}\n", source,
             r.end_offset, r.reason);
  ctx.exit_code = 2;
}

}  // namespace

void apache_info(const std::string& spec, bool json, bool several, CommandContext&) {
  ApacheSession session(spec);
  if (json) {
    fmt::print("{}\n", apache_info_json(session).dump(several ? -1 : 1));
  } else {
    fmt::print("{}{}", apache_info_text(session), several ? "\n" : "");
  }
}

void apache_disasm(const std::string& spec, const std::string& output, bool force) {
  ApacheSession session(spec);
  const apache::ModelRecord& rec = *session.archive().record(session.record());
  const apache::ProgramWalk walk = apache::walk_program(session.archive(), rec);
  const std::string text = apache::program_listing(session.archive(), rec, walk);
  if (output.empty()) {
    fmt::print("{}", text);
  } else {
    write_text_atomic(output, text, force ? Overwrite::kAllow : Overwrite::kRefuse);
  }
}

void apache_trace(const std::string& spec, const std::string& output, bool no_ops,
                  const RunOptions& run, CommandContext& ctx) {
  ApacheSession session(spec);
  const uint32_t record = session.record();
  const apache::RunState state = apache_run_state(run, 640, 480);
  apache::Interpreter interp(session.archive(), session.tables(), session.textures());
  std::FILE* out = stdout;
  std::string tmp;
  if (!output.empty()) {
    tmp = output + ".tmp";
    out = std::fopen(tmp.c_str(), "wb");
    if (!out) throw InputError(output, "cannot create the trace file");
  }
  apache::RunResult r;
  try {
    harness::TraceWriter writer(out, !no_ops);
    writer.start("apache", session.record_source(record), apache_state_json(state).dump());
    r = interp.run(record, state, writer);
  } catch (...) {
    if (out != stdout) {
      std::fclose(out);
      std::filesystem::remove(tmp);
    }
    throw;
  }
  if (out != stdout) {
    std::fclose(out);
    std::filesystem::rename(tmp, output);
  }
  if (!r.clean) ctx.exit_code = 2;
}

void apache_render(const std::string& spec, const std::string& output, const std::string& size,
                   const std::string& palette, const std::string& textures, int background,
                   bool force, const RunOptions& run, CommandContext& ctx) {
  auto [width, height] = parse_size(size);
  ApacheSession session(spec, palette, textures);
  const uint32_t record = session.record();
  const apache::RunState state = apache_run_state(run, width, height);
  ApacheFrame frame = render_apache_frame(session, record, state, static_cast<uint8_t>(background));
  if (!force && std::filesystem::exists(output))
    throw InputError(output, "already exists (not overwritten; pass --force to replace it)");
  raster::write_indexed_png(output, frame.frame, session.tables().frame);
  for (const auto& name : frame.missing_textures)
    fmt::print(stderr, "shapevm: warning: texture {} not found; its faces are drawn in colour\n",
               name);
  report_unclean(session.record_source(record), frame.result, ctx);
}

void apache_export(const std::string& spec, const std::string& output, const std::string& textures,
                   bool force, const RunOptions& run, CommandContext& ctx) {
  ApacheSession session(spec, "", textures);
  const uint32_t record = session.record();
  const apache::RunState state = apache_run_state(run, 640, 480);
  apache::Interpreter interp(session.archive(), session.tables(), session.textures());
  harness::MeshCollector mesh;
  const apache::RunResult r = interp.run(record, state, mesh);
  std::map<std::string, std::array<int, 2>> sizes;
  for (const auto& f : mesh.faces()) {
    if (f.texture.empty() || sizes.count(f.texture)) continue;
    if (const auto* t = session.find_texture(f.texture)) sizes[f.texture] = {t->width, t->height};
  }
  // Model units are 1/16 of the stored short coordinates; the OBJ keeps model units.
  write_text_atomic(output, mesh.to_obj(1.0, sizes),
                    force ? Overwrite::kAllow : Overwrite::kRefuse);
  report_unclean(session.record_source(record), r, ctx);
}

void apache_examples(const std::vector<std::filesystem::path>& archives, const std::string& out,
                     CommandContext& ctx) {
  for (const auto& path : archives) {
    ApacheSession session(path.string());
    const std::string group = path.parent_path().filename().string();
    for (const auto& rec : session.archive().records()) {
      const apache::RunState state = apache_run_state(RunOptions{}, 640, 480);
      ApacheFrame frame = render_apache_frame(session, rec.index, state, kApacheExampleBackground);
      const std::string stem =
          rec.header.name.empty() ? fmt::format("{}", rec.index) : rec.header.name;
      const auto png = std::filesystem::path(out) / fmt::format("apache_{}_{}.png", group, stem);
      raster::write_indexed_png(png, frame.frame, session.tables().frame);
      fmt::print("{} \"{}\" ({}) -> {} ({} faces drawn, {} shadow faces, {} ops, {})\n",
                 session.record_source(rec.index), rec.header.name, rec.header.description,
                 png.string(), frame.faces_filled, frame.result.shadow_faces, frame.result.ops,
                 frame.result.reason);
      if (!frame.result.clean) ctx.exit_code = 2;
    }
  }
}

void apache_asm(const std::string& input, const std::string& output, bool force) {
  namespace fs = std::filesystem;
  const auto bytes = read_file(input);
  const AssembledArchive out = assemble_apache(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), input);
  const Overwrite overwrite = force ? Overwrite::kAllow : Overwrite::kRefuse;
  const fs::path dir = fs::path(output).parent_path();
  const fs::path textures = dir / "OBJTEXT.BIN";
  const fs::path palette = dir / "3DPAL.RGB";
  if (!force) {
    for (const fs::path& p : {fs::path(output), textures, palette}) {
      if (p == textures && out.textures.empty()) continue;
      if (fs::exists(p))
        throw InputError(p.string(), "already exists (pass --force to replace it)");
    }
  }
  write_file_atomic(output, out.archive, overwrite);
  if (!out.textures.empty()) write_file_atomic(textures, out.textures, overwrite);
  write_file_atomic(palette, out.palette, overwrite);
}

}  // namespace shapevm::tools
