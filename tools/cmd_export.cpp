// shapevm export FILE -o out.obj|out.gltf|out.glb [state]: a program's geometry for one state as
// Wavefront OBJ or glTF 2.0. Engines whose models have parts give their part tree
// (Program::export_scene); the others export the faces one run drew.
#include <fmt/format.h>

#include <array>
#include <cctype>
#include <filesystem>
#include <map>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/mesh_collector.h"
#include "harness/scene_export.h"
#include "tools/command.h"
#include "tools/state_options.h"

namespace shapevm::tools {
namespace {

// The format `--format` names, or the output's extension says (.gltf, .glb; anything else OBJ).
std::string export_format(const std::string& given, const std::string& output) {
  if (!given.empty()) return given;
  std::string ext = std::filesystem::path(output).extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".gltf") return "gltf";
  if (ext == ".glb") return "glb";
  return "obj";
}

size_t face_count(const ExportScene& scene) {
  size_t n = 0;
  for (const auto& node : scene.nodes) n += node.faces.size();
  return n;
}

}  // namespace

void register_export_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputOptions input;
    FrameOptions frame;
    std::string output;
    std::string format;
    bool force = false;
    StateOptions state;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Write a program's geometry for one state as Wavefront OBJ or glTF 2.0 (by the output's\n"
      "extension or --format). Engines with parts (Starlancer, Battle Isle 2) write a node per\n"
      "part under its parent's, turned to Y up; the others write the faces one run drew (FA in\n"
      "feet; a material per texture or palette colour).");
  add_input_options(cmd, o->input, "The program: a file or CONTAINER:MEMBER");
  cmd->add_option("-o,--output", o->output, "The .obj, .gltf or .glb to write")->required();
  cmd->add_option("--format", o->format, "obj, gltf or glb (default: from the output's extension)")
      ->check(CLI::IsMember({"obj", "gltf", "glb"}));
  cmd->add_option("--textures", o->frame.textures,
                  "Where the textures are (for their sizes; FA: a directory or .LIB)");
  o->frame.size = default_frame_size();
  cmd->add_option("--size", o->frame.size,
                  "WIDTHxHEIGHT of the frame the state is chosen for (the LOD a program picks can "
                  "depend on it)")
      ->capture_default_str();
  cmd->add_flag("--force", o->force, "Overwrite the output file if it exists");
  add_state_options(cmd, o->state);
  cmd->callback([o, &ctx] {
    const std::string format = export_format(o->format, o->output);
    const Overwrite overwrite = o->force ? Overwrite::kAllow : Overwrite::kRefuse;
    auto [width, height] = parse_size(o->frame.size);
    OpenedProgram p = open_for_run(o->input, o->frame, o->state, width, height);
    std::optional<ExportScene> scene = p.program->export_scene(p.state);
    RunOutcome r;
    if (scene) {
      r.faces = face_count(*scene);
    } else {
      harness::MeshCollector mesh;
      r = p.program->run(p.state, mesh);
      std::map<std::string, std::array<int, 2>> sizes;
      const RenderSetup setup = p.program->render_setup(width, height);
      // The engine's textures (given, or where it looks by default) give their sizes.
      if (setup.textures) {
        for (const auto& f : mesh.faces()) {
          if (f.texture.empty() || sizes.count(f.texture)) continue;
          if (const auto* t = setup.textures(f.texture)) sizes[f.texture] = {t->width, t->height};
        }
      }
      if (format == "obj") {
        write_text_atomic(o->output, mesh.to_obj(p.program->export_scale(), sizes), overwrite);
        report_outcome(p.program->source(), r, ctx);
        return;
      }
      scene = mesh.to_scene(p.program->source(), p.program->export_scale(), sizes, setup.palette);
    }
    if (format == "obj") {
      write_text_atomic(o->output, harness::scene_to_obj(*scene), overwrite);
    } else {
      write_file_atomic(o->output, harness::scene_to_gltf(*scene, format == "glb"), overwrite);
    }
    report_outcome(p.program->source(), r, ctx);
  });
}

}  // namespace shapevm::tools
