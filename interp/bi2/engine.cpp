// The Battle Isle 2 engine: LIB archives (recognised by their index structure), TPWM-packed
// files and members, 3DOB meshes and 3DLD scenery lists as programs (their draw), the text form
// (docs/bi2.md), the generator and the bundled examples.
#include "interp/bi2/engine.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/byte_reader.h"
#include "core/input_error.h"
#include "interp/bi2/assumptions.h"
#include "interp/bi2/draw.h"
#include "interp/bi2/export.h"
#include "interp/bi2/generator.h"
#include "interp/bi2/info.h"
#include "interp/bi2/palette.h"
#include "interp/bi2/run_state.h"
#include "interp/bi2/session.h"
#include "interp/bi2/text.h"
#include "interp/bi2/tpwm.h"
#include "interp/bi2/viewer_model.h"

namespace shapevm::bi2 {
namespace {

bool recognised_content(std::span<const uint8_t> b) {
  return is_mesh(b) || is_layer(b) || looks_like_lib(b);
}

// A whole file TPWM-packed (or XOR-obfuscated) is ours when what it unpacks to is.
std::optional<std::vector<uint8_t>> unpacked(std::span<const uint8_t> b) {
  if (!is_tpwm(b) && !is_tpwm_xor(b)) return std::nullopt;
  try {
    return tpwm_decode(b, "");
  } catch (const InputError&) {
    return std::nullopt;
  }
}

class Bi2Program : public Program {
 public:
  explicit Bi2Program(std::shared_ptr<Session> session) : session_(std::move(session)) {}

  std::string_view engine() const override { return kEngine; }
  std::string source() const override { return session_->source(); }

  std::string summary() const override {
    switch (session_->kind()) {
      case Kind::kMesh: {
        const Mesh& m = session_->mesh();
        return fmt::format("{} (3DOB, {} vertices, {} polygons, {} parts)", source(),
                           m.vertices.size(), m.polygons.size(), m.parts.size());
      }
      case Kind::kLayer:
        return fmt::format("{} (3DLD, {} placements)", source(),
                           session_->layer().placements.size());
      case Kind::kArchive:
        return fmt::format("{} (Battle Isle 2 LIB, {} members)", source(),
                           session_->archive()->members().size());
      case Kind::kData:
        break;
    }
    return fmt::format("{} ({} bytes of data)", source(), session_->data().size());
  }

  std::string info_text() const override { return bi2::info_text(*session_); }
  nlohmann::json info_json() const override { return bi2::info_json(*session_); }

  std::string listing_text() const override {
    switch (session_->kind()) {
      case Kind::kMesh:
        return fmt::format("; {} (shapevm bi2 text; docs/bi2.md)\n", source()) +
               mesh_text(session_->mesh());
      case Kind::kLayer:
        return fmt::format("; {} (shapevm bi2 text; docs/bi2.md)\n", source()) +
               layer_text(session_->layer());
      default:
        break;
    }
    if (session_->kind() == Kind::kArchive)
      return disassemble_file(session_->file(), session_->path());
    throw InputError(source(),
                     "is neither a 3DOB mesh nor a 3DLD record: no listing (lib "
                     "extract writes its bytes)");
  }

  std::vector<ListingLine> listing_lines() const override {
    std::vector<ListingLine> out;
    std::istringstream in(listing_text());
    std::string line;
    size_t polygon = 0;
    const bool mesh = session_->kind() == Kind::kMesh;
    while (std::getline(in, line)) {
      ListingLine l;
      l.text = line;
      if (mesh && line.rfind("  polygon ", 0) == 0 && polygon < session_->mesh().polygons.size())
        l.offset = session_->mesh().polygons[polygon++].offset;
      out.push_back(std::move(l));
    }
    return out;
  }

  std::vector<Knob> knobs() const override {
    std::vector<Knob> out = engine_knobs();
    if (session_->kind() != Kind::kMesh) return out;
    const Mesh& m = session_->mesh();
    for (size_t i = 0; i < m.parts.size(); ++i) {
      const Part& p = m.parts[i];
      Knob k = set_knob(fmt::format("part{}", i), KnobType::kText, 0, 0, 0,
                        fmt::format("angles AX,AY,AZ of part {} (polygons {}..{}, pivot {},{},{}); "
                                    "part{}.t=X,Y,Z: its translation",
                                    i, p.first_polygon, p.first_polygon + p.polygon_count - 1,
                                    p.pivot[0], p.pivot[1], p.pivot[2], i));
      k.from_file = true;
      out.push_back(std::move(k));
    }
    return out;
  }

  bool runnable() const override {
    return session_->kind() == Kind::kMesh || session_->kind() == Kind::kLayer;
  }

  nlohmann::json state_json(const StateRequest& state) const override {
    return bi2::state_json(run_state_for(state));
  }

  RunOutcome run(const StateRequest& request, EventSink& sink, PauseHandler* pause) override {
    const RunState state = run_state_for(request);
    return run_draw(session_->instances(), state, sink, pause);
  }

  RenderSetup render_setup(int, int height) override {
    RenderSetup setup;
    setup.palette = session_->palette();
    setup.frame.focal_pixels = height;
    setup.frame.near_z = assumed::kNearZ;
    return setup;
  }

  std::optional<ExportScene> export_scene(const StateRequest& state) override {
    return bi2::export_scene(*session_, run_state_for(state));
  }

  uint8_t example_background() const override { return kExampleBackground; }

  std::unique_ptr<ViewerModel> viewer(const StateRequest& opening, double) override {
    return std::make_unique<Bi2ViewerModel>(session_, opening);
  }

 private:
  RunState run_state_for(const StateRequest& request) const {
    const size_t parts = session_->kind() == Kind::kMesh ? session_->mesh().parts.size() : 0;
    return bi2::run_state(request, parts);
  }

  std::shared_ptr<Session> session_;
};

}  // namespace
}  // namespace shapevm::bi2
namespace shapevm::bi2 {
namespace {

class Bi2Engine : public Engine {
 public:
  std::string_view name() const override { return kEngine; }
  std::string_view title() const override { return "Battle Isle 2"; }
  std::string_view formats() const override {
    return "fight meshes \"3DOB\", scenery lists \"3DLD\" and Blue Byte .LIB archives (a u32 "
           "index offset, 12-byte entries to the end), each possibly TPWM-packed";
  }
  bool recognises(std::span<const uint8_t> bytes) const override {
    if (recognised_content(bytes)) return true;
    const auto u = unpacked(bytes);
    return u && recognised_content(*u);
  }
  bool recognises_text(std::string_view text) const override { return looks_like_bi2_text(text); }
  std::vector<Knob> knobs() const override { return engine_knobs(); }

  std::unique_ptr<Program> open(const EngineInput& input,
                                const OpenOptions& options) const override {
    return std::make_unique<Bi2Program>(
        std::make_shared<Session>(input.path, input.bytes, input.member, options.palette,
                                  options.state.option("objects").value_or("")));
  }

  std::unique_ptr<Program> open_text(std::string_view text, const std::string& source,
                                     const std::optional<std::string>& member,
                                     const OpenOptions& options) const override {
    return std::make_unique<Bi2Program>(
        std::make_shared<Session>(source, assemble_text(text, source), member, options.palette,
                                  options.state.option("objects").value_or("")));
  }

  bool is_container(std::span<const uint8_t> bytes) const override {
    if (looks_like_lib(bytes)) return true;
    const auto u = unpacked(bytes);
    return u && looks_like_lib(*u);
  }

  std::vector<MemberInfo> members(const EngineInput& input) const override {
    const std::vector<uint8_t> whole = tpwm_decode(input.bytes, input.path);
    const LibArchive lib(whole, input.path);
    std::vector<MemberInfo> out;
    for (const auto& m : lib.members()) {
      MemberInfo info;
      info.name = m.name.empty() ? fmt::format("#{}", m.index) : m.name;
      info.index = m.index;
      info.offset = m.offset;
      info.stored = m.size;
      const auto stored = lib.stored(m);
      if (is_tpwm_xor(stored)) {
        info.compression = "xor";
        info.size = m.size - 4;
      } else if (is_tpwm(stored)) {
        info.compression = "tpwm";
        info.size = load_u32(stored.data() + 4);
      } else {
        info.compression = "stored";
        info.size = m.size;
      }
      out.push_back(std::move(info));
    }
    return out;
  }

  std::vector<uint8_t> extract(const EngineInput& input, const MemberInfo& member) const override {
    const std::vector<uint8_t> whole = tpwm_decode(input.bytes, input.path);
    const LibArchive lib(whole, input.path);
    if (member.index >= lib.members().size())
      throw InputError(fmt::format("{}:#{}", input.path, member.index), "no such member");
    return lib.decoded(lib.members()[member.index]);
  }

  void check_extractable(const EngineInput& input, const MemberInfo& member) const override {
    (void)extract(input, member);
  }

  std::vector<std::string> container_notes(const EngineInput& input) const override {
    std::vector<std::string> notes;
    if (is_tpwm(input.bytes))
      notes.emplace_back("the whole LIB is TPWM-packed; offsets are in the unpacked file");
    const std::vector<uint8_t> whole = tpwm_decode(input.bytes, input.path);
    const LibArchive lib(whole, input.path);
    const uint32_t first = lib.members().empty() ? lib.index_offset() : lib.members()[0].offset;
    if (first > 4)
      notes.push_back(
          fmt::format("{} bytes between the index offset and the first member belong "
                      "to no member (a rewrite drops them)",
                      first - 4));
    return notes;
  }

  std::vector<OutputFile> assemble(std::string_view text, const std::string& source,
                                   const std::string& output_name) const override {
    return {{output_name, assemble_text(text, source)}};
  }

  uint32_t default_generate_count() const override { return kGeneratedUnits; }
  uint32_t max_generate_count() const override { return 2000; }

  std::vector<std::string> generated_names(const GenerateRequest& request) const override {
    std::vector<std::string> names = {"UN3D000.LIB", "LAND000.LIB", "PAL000.LIB", "LAYR000.LIB"};
    if (request.text) names.emplace_back("UN3D000.bi2");
    return names;
  }

  void generate(const GenerateRequest& request,
                const std::function<void(OutputFile)>& write) const override {
    const uint32_t units = request.count == 0 ? kGeneratedUnits : request.count;
    if (units > max_generate_count())
      throw InputError("--count " + std::to_string(units),
                       fmt::format("expected 1..{} units", max_generate_count()));
    for (auto& f : generate_archives(request.seed, units)) {
      if (request.text && f.name == "UN3D000.LIB") {
        const std::string text = disassemble_file(f.bytes, f.name);
        write({"UN3D000.bi2", std::vector<uint8_t>(text.begin(), text.end())});
      }
      write({f.name, std::move(f.bytes)});
    }
  }

  std::string generate_help() const override {
    return "Write synthetic Battle Isle 2 archives DIR/UN3D000.LIB (N units, default 240: a hull,\n"
           "a turret part with its gun line), LAND000.LIB (288 terrain objects), PAL000.LIB (41\n"
           "fight palettes) and LAYR000.LIB (96 3DLD scenery lists); every third member\n"
           "TPWM-packed.";
  }

  CheckResult check(const EngineInput& input) const override {
    CheckResult r;
    r.original = input.bytes;
    std::string source = input.path;
    if (input.member) {  // one member, as extracted (TPWM undone)
      const std::vector<uint8_t> whole = tpwm_decode(input.bytes, input.path);
      const LibArchive lib(whole, input.path);
      const LibMember& m = lib.find(*input.member);
      r.original = lib.decoded(m);
      source = lib.member_source(m);
    }
    r.rewritten = assemble_text(disassemble_file(r.original, source), source);
    r.writer = "bi2 text form";
    return r;
  }

  std::optional<raster::Palette> read_palette(const EngineInput& input) const override {
    if (input.member) {
      try {
        return load_fight_palette(input.spec);
      } catch (const InputError&) {
        return std::nullopt;
      }
    }
    if (input.bytes.size() != static_cast<size_t>(assumed::kPaletteBytes)) return std::nullopt;
    return read_fight_palette(input.bytes, input.path);
  }

  // Every mesh and scenery list: "PATH:#N" drawn to bi2_<file stem>_<member name>.png.
  std::vector<ExampleEntry> examples(const EngineInput& input) const override {
    const std::string stem = std::filesystem::path(input.path).stem().string();
    const std::vector<uint8_t> whole = tpwm_decode(input.bytes, input.path);
    if (!looks_like_lib(whole)) return {{input.spec, "bi2_" + stem}};
    const LibArchive lib(whole, input.path);
    std::vector<ExampleEntry> out;
    for (const auto& m : lib.members()) {
      const std::string kind = member_kind(lib.decoded(m));
      if (kind != "3DOB" && kind != "3DLD") continue;
      out.push_back(
          {fmt::format("{}:#{}", input.path, m.index),
           fmt::format("bi2_{}_{}", stem, m.name.empty() ? std::to_string(m.index) : m.name)});
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Engine> make_engine() {
  return std::make_unique<Bi2Engine>();
}

}  // namespace shapevm::bi2
