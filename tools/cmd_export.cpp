// shapevm export FILE -o out.obj|out.gltf|out.glb [state]: a program's geometry for one state as
// Wavefront OBJ or glTF 2.0. Engines whose models have parts give their part tree
// (Program::export_scene); the others export the faces one run drew.
#include <fmt/format.h>

#include <array>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/mesh_collector.h"
#include "harness/scene_export.h"
#include "tools/batch.h"
#include "tools/command.h"
#include "tools/console.h"
#include "tools/state_options.h"

namespace shapevm::tools {
namespace {

// The format the output's extension names (.obj, .gltf, .glb); --format must agree with a known
// extension and is needed for any other name, so the file's name never lies about its format.
std::string export_format(const std::string& given, const std::string& output) {
  const std::string ext = lowercase_extension(output);
  const std::string named = ext == ".obj"    ? "obj"
                            : ext == ".gltf" ? "gltf"
                            : ext == ".glb"  ? "glb"
                                             : "";
  if (given.empty()) {
    if (named.empty())
      throw InputError(output,
                       "export writes .obj, .gltf or .glb: name the file so (or give --format)");
    return named;
  }
  if (!named.empty() && named != given)
    throw InputError(
        output, fmt::format("--format {} writes {}, but the name says {}", given, given, named));
  return given;
}

size_t face_count(const ExportScene& scene) {
  size_t n = 0;
  for (const auto& node : scene.nodes) n += node.faces.size();
  return n;
}

}  // namespace

void register_export_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputsOptions inputs;
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
  add_inputs_options(cmd, o->inputs, "The program: a file or CONTAINER:MEMBER");
  cmd->add_option("-o,--output", o->output, batch_output_help("The .obj, .gltf or .glb to write"))
      ->required();
  cmd->add_option("--format", o->format,
                  "obj, gltf or glb (default: from the output's extension; with several inputs, "
                  "obj)")
      ->transform(one_of({"obj", "gltf", "glb"}));
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
    const std::string batch_format = o->format.empty() ? "obj" : o->format;
    run_each_input(
        o->inputs.files, o->inputs.engine, {o->output, "." + batch_format, o->force}, true,
        o->inputs.jobs, ctx,
        [&](const std::string& spec, const std::string& output, CommandContext& status) {
          const std::string format = export_format(o->format, output);
          // An OBJ refers to its materials by file name: OUT.mtl beside it, checked and written
          // with it.
          std::filesystem::path mtl = output;
          mtl.replace_extension(".mtl");
          check_output_option(output, o->force, {}, format);
          if (format == "obj") {
            if (lowercase_extension(output) == ".mtl")
              throw InputError(output,
                               "is the name of the OBJ's material library: name the OBJ .obj");
            check_output_option(mtl.string(), o->force, {}, "MTL");
          }
          const std::string mtl_library = mtl.filename().string();
          const Overwrite overwrite = o->force ? Overwrite::kAllow : Overwrite::kRefuse;
          auto [width, height] = parse_size(o->frame.size);
          OpenedProgram p = open_for_run(o->inputs.one(spec), o->frame, o->state, width, height);
          std::optional<ExportScene> scene = p.program->export_scene(p.state);
          RunOutcome r;
          std::string obj;
          if (scene) {
            r.faces = face_count(*scene);
            if (format == "obj") obj = harness::scene_to_obj(*scene, mtl_library);
          } else {
            harness::MeshCollector mesh(p.state.limits);
            r = p.program->run(p.state, mesh);
            std::map<std::string, std::array<int, 2>> sizes;
            const RenderSetup setup = p.program->render_setup(width, height);
            // The engine's textures (given, or where it looks by default) give their sizes, without
            // which texture coordinates cannot be put in 0..1.
            std::set<std::string> unknown;
            for (const auto& f : mesh.faces()) {
              if (f.texture.empty() || sizes.count(f.texture) || unknown.count(f.texture)) continue;
              const raster::Texture* t = setup.textures ? setup.textures(f.texture) : nullptr;
              if (t != nullptr && t->valid()) {
                sizes[f.texture] = {t->width, t->height};
              } else {
                unknown.insert(f.texture);
              }
            }
            for (const auto& name : unknown)
              console_err(
                  "shapevm: warning: texture {} not found; its faces are exported without "
                  "texture coordinates (--textures says where the textures are)\n",
                  name);
            scene =
                mesh.to_scene(p.program->source(), p.program->export_scale(), sizes, setup.palette);
            if (format == "obj") obj = mesh.to_obj(p.program->export_scale(), sizes, mtl_library);
          }
          if (format == "obj") {
            // The OBJ and its MTL are written together or not at all: when the OBJ cannot be
            // written (a full disk), the MTL just created for it is removed again, so no half
            // export is left.
            std::error_code ec;
            const bool mtl_existed = std::filesystem::exists(mtl, ec);
            write_text_atomic(mtl, harness::scene_to_mtl(*scene), overwrite);
            try {
              write_text_atomic(output, obj, overwrite);
            } catch (...) {
              if (!mtl_existed) std::filesystem::remove(mtl, ec);
              throw;
            }
          } else {
            write_file_atomic(output, harness::scene_to_gltf(*scene, format == "glb"), overwrite);
          }
          report_outcome(p.program->source(), r, status);
        });
  });
}

}  // namespace shapevm::tools
