#include "tools/apache_session.h"

#include <fmt/format.h>

#include <filesystem>

#include "interp/apache/geometry.h"
#include "interp/apache/listing.h"
#include "interp/common/file_io.h"
#include "interp/common/input_error.h"

namespace shapevm::tools {
namespace {

// A sibling file of the archive by any common capitalisation; "" if none exists.
std::string beside(const std::string& archive, const char* name) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(archive).parent_path();
  std::string lower = name;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const std::string& candidate : {std::string(name), lower}) {
    std::error_code ec;
    const fs::path p = dir / candidate;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return "";
}

}  // namespace

ApacheSession::ApacheSession(const std::string& spec, const std::string& palette,
                             const std::string& textures)
    : input_(apache::load_archive_input(spec)) {
  archive_ = std::make_unique<apache::Archive>(input_.bytes, input_.path);
  const std::string palette_path = palette.empty() ? beside(input_.path, "3DPAL.RGB") : palette;
  if (palette_path.empty()) {
    tables_ = apache::build_shading_tables(apache::default_3dpal());
  } else {
    const auto bytes = read_file(palette_path);
    tables_ = apache::build_shading_tables(apache::read_3dpal(bytes, palette_path));
  }
  const std::string texture_path = textures.empty() ? beside(input_.path, "OBJTEXT.BIN") : textures;
  if (!texture_path.empty()) {
    texture_bytes_ = read_file(texture_path);
    textures_.emplace(texture_bytes_, texture_path);
  }
}

uint32_t ApacheSession::record() const {
  if (!input_.member) {
    throw InputError(input_.path,
                     "name a record: " + input_.path + ":#N or " + input_.path + ":NAME");
  }
  return apache::resolve_member(*archive_, *input_.member);
}

std::string ApacheSession::record_source(uint32_t index) const {
  return fmt::format("{}:#{}", input_.path, index);
}

const raster::Texture* ApacheSession::find_texture(std::string_view name) {
  if (auto it = raster_textures_.find(name); it != raster_textures_.end()) return &it->second;
  if (!textures_ || name.size() < 4 || name.substr(0, 3) != "tex") return nullptr;
  const bool masked = name.back() == 'm';
  const std::string digits(name.substr(3, name.size() - 3 - (masked ? 1 : 0)));
  if (digits.empty() || digits.size() > 6) return nullptr;
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return nullptr;
  const apache::ApacheTexture* t = textures_->find(static_cast<uint32_t>(std::stoul(digits)));
  if (t == nullptr) return nullptr;
  auto [it, _] = raster_textures_.emplace(std::string(name), apache::to_raster_texture(*t, masked));
  return &it->second;
}

apache::RunState apache_run_state(const RunOptions& o, int width, int height) {
  if (o.frame != 0 || o.detail || o.destroyed || o.effects != 0 || o.no_x86 || o.x86_trace ||
      o.merged) {
    throw InputError("options",
                     "--frame, --detail, --destroyed, --effects, --no-x86, --x86-trace and "
                     "--merged are FA state; Apache uses --set anim=N and --lod");
  }
  apache::RunState s;
  s.width = width;
  s.height = height;
  s.focal_pixels = height;
  s.lod = o.lod;
  s.step_limit = o.step_limit;
  s.depth_limit = o.call_depth_limit;
  if (!o.camera.empty()) {
    int values[3] = {0, s.camera.heading, s.camera.pitch};
    size_t start = 0;
    int n = 0;
    while (n < 3) {
      const size_t comma = o.camera.find(',', start);
      const std::string part =
          o.camera.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      try {
        size_t used = 0;
        values[n] = std::stoi(part, &used);
        if (used != part.size()) throw std::invalid_argument(part);
      } catch (const std::exception&) {
        throw InputError("--camera " + o.camera, "expected distance,heading,pitch as integers");
      }
      ++n;
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (values[0] < 0)
      throw InputError("--camera " + o.camera, "the distance must not be negative");
    s.camera = {values[0], values[1], values[2]};
  }
  for (const auto& a : o.sets) apache::apply_set(s, a);
  return s;
}

nlohmann::json apache_state_json(const apache::RunState& s) {
  nlohmann::json j = {
      {"anim", s.anim},       {"camera", {s.camera.distance, s.camera.heading, s.camera.pitch}},
      {"light", s.light},     {"shadows", s.shadows},
      {"gouraud", s.gouraud}, {"size", {s.width, s.height}}};
  if (s.lod) j["lod"] = *s.lod;
  if (s.ground) j["ground"] = *s.ground;
  if (s.cloud) j["cloud"] = *s.cloud;
  if (s.receiver) j["receiver"] = *s.receiver;
  if (!s.slots.empty()) {
    nlohmann::json slots = nlohmann::json::object();
    for (const auto& [slot, record] : s.slots) slots[std::to_string(slot)] = record;
    j["slots"] = slots;
  }
  return j;
}

ApacheFrame render_apache_frame(ApacheSession& session, uint32_t record,
                                const apache::RunState& state, uint8_t background) {
  ApacheFrame out{raster::Framebuffer(state.width, state.height, background), {}, 0, {}};
  harness::FrameSettings settings;
  settings.focal_pixels = state.focal_pixels;
  settings.near_z = state.near_z;
  harness::FrameRenderer renderer(out.frame, settings, [&session](std::string_view name) {
    return session.find_texture(name);
  });
  apache::Interpreter interp(session.archive(), session.tables(), session.textures());
  out.result = interp.run(record, state, renderer);
  out.faces_filled = renderer.faces_filled();
  out.missing_textures = renderer.missing_textures();
  return out;
}

namespace {

nlohmann::json record_json(const apache::Archive& archive, const apache::ModelRecord& rec) {
  const apache::ModelHeader& h = rec.header;
  const apache::ModelGeometry g = apache::read_geometry(archive, rec);
  const apache::ProgramWalk walk = apache::walk_program(archive, rec);
  nlohmann::json sections = nlohmann::json::object();
  for (int s = 0; s < apache::kSectionCount; ++s) {
    sections[apache::section_name(s)] = {{"stored", h.stored[static_cast<size_t>(s)]},
                                         {"relocated", h.sections[static_cast<size_t>(s)]}};
  }
  nlohmann::json ops = nlohmann::json::object();
  for (const auto& [op, n] : walk.opcode_counts) ops[apache::opcode_info(op)->name] = n;
  nlohmann::json packets = nlohmann::json::object();
  for (const auto& [type, n] : walk.packet_counts) packets[apache::packet_type(type)->name] = n;
  std::vector<uint32_t> chain{rec.index};
  for (int32_t next = h.next_record; next >= 0 && chain.size() <= archive.count();) {
    chain.push_back(static_cast<uint32_t>(next));
    const apache::ModelRecord* n = archive.record(static_cast<uint32_t>(next));
    next = n ? n->header.next_record : -1;
  }
  const auto instances = apache::construct_instances(archive, rec.index, {});
  uint32_t gameplay_slots = 0;
  for (const auto& a : g.attachments) gameplay_slots += a.is_slot() ? 1 : 0;
  return {{"record", rec.index},
          {"offset", rec.offset},
          {"name", h.name},
          {"description", h.description},
          {"encoding", h.encoding},
          {"lod_distance", h.lod_distance},
          {"next_record", h.next_record},
          {"lod_chain", chain},
          {"bounds", h.bounds},
          {"radius", h.radius},
          {"height", h.height},
          {"sections", sections},
          {"properties", h.properties},
          {"casts_shadow", h.casts_shadow()},
          {"receives_shadows", h.receives_shadows()},
          {"mobile_collision", h.mobile_collision()},
          {"target_filter", h.target_filter},
          {"target_level", h.target_level()},
          {"metadata", {h.metadata_a0, h.metadata_a4}},
          {"damage_threshold", h.damage_threshold},
          {"explosion", h.explosion},
          {"auxiliary_model", h.auxiliary_model},
          {"radar_symbol", h.radar_symbol},
          {"gameplay_flags", h.gameplay_flags},
          {"vertices", g.vertices.local.size()},
          {"normals", g.normals.count},
          {"flat_normals", g.normals.flat_count},
          {"attachments", g.attachments.size()},
          {"gameplay_slots", gameplay_slots},
          {"instances", instances.size()},
          {"instructions", walk.instructions.size()},
          {"opcodes", ops},
          {"packets", packets}};
}

}  // namespace

nlohmann::json apache_info_json(ApacheSession& session) {
  const apache::Archive& archive = session.archive();
  if (session.has_member()) {
    const apache::ModelRecord* rec = archive.record(session.record());
    nlohmann::json j = record_json(archive, *rec);
    j["engine"] = "apache";
    j["source"] = session.record_source(rec->index);
    return j;
  }
  uint32_t grid = 0, attached = 0;
  for (const auto& rec : archive.records()) {
    grid += rec.header.encoding == 1 ? 1 : 0;
    attached += rec.header.has(apache::kAttached) ? 1 : 0;
  }
  return {{"engine", "apache"},
          {"source", archive.source()},
          {"slots", archive.count()},
          {"records", archive.populated()},
          {"short_encoding", archive.populated() - grid},
          {"grid_encoding", grid},
          {"with_attachments", attached}};
}

std::string apache_info_text(ApacheSession& session) {
  const nlohmann::json j = apache_info_json(session);
  const apache::Archive& archive = session.archive();
  if (!session.has_member()) {
    std::string out = fmt::format(
        "{}: Apache 3DOBJS.BIN, {} slots, {} records ({} signed 16-bit, {} grid), {} with "
        "attached models\n",
        archive.source(), archive.count(), archive.populated(), j["short_encoding"].get<int>(),
        j["grid_encoding"].get<int>(), j["with_attachments"].get<int>());
    for (const auto& rec : archive.records()) {
      out += fmt::format("  #{:<5} 0x{:08x} {:<16} enc {} next {:>5} {}\n", rec.index, rec.offset,
                         rec.header.name, rec.header.encoding, rec.header.next_record,
                         rec.header.description);
    }
    return out;
  }
  std::string out;
  out += fmt::format("{} \"{}\" — {}\n", j["source"].get<std::string>(),
                     j["name"].get<std::string>(), j["description"].get<std::string>());
  out += fmt::format("  header at 0x{:x}; encoding {} ({})\n", j["offset"].get<uint32_t>(),
                     j["encoding"].get<int>(),
                     j["encoding"].get<int>() == 0 ? "signed 16-bit x16" : "grid");
  out +=
      fmt::format("  LOD: threshold {}, next record {}, chain {}\n", j["lod_distance"].get<int>(),
                  j["next_record"].get<int>(), j["lod_chain"].dump());
  out += fmt::format("  bounds {} radius {} height {}\n", j["bounds"].dump(),
                     j["radius"].get<int>(), j["height"].get<int>());
  for (int index = 0; index < apache::kSectionCount; ++index) {  // header order, not JSON's
    const std::string name = apache::section_name(index);
    const auto& s = j["sections"][name];
    if (s["stored"].get<uint32_t>() == 0) {
      out += fmt::format("  {:<28} absent\n", name);
    } else {
      out += fmt::format("  {:<28} +0x{:x} -> 0x{:x}\n", name, s["stored"].get<uint32_t>(),
                         s["relocated"].get<uint32_t>());
    }
  }
  out += fmt::format(
      "  properties 0x{:x} (casts shadow {}, receives shadows {}, mobile collision {}), target "
      "filter {} (level {})\n",
      j["properties"].get<uint32_t>(), j["casts_shadow"].get<bool>(),
      j["receives_shadows"].get<bool>(), j["mobile_collision"].get<bool>(),
      j["target_filter"].get<int>(), j["target_level"].get<int>());
  out += fmt::format(
      "  metadata {}, damage threshold {}, explosion {}, auxiliary model {}, radar {}, gameplay "
      "flags 0x{:x}\n",
      j["metadata"].dump(), j["damage_threshold"].get<int>(), j["explosion"].get<int>(),
      j["auxiliary_model"].get<int>(), j["radar_symbol"].get<int>(),
      j["gameplay_flags"].get<uint32_t>());
  out += fmt::format(
      "  {} vertices, {} normals ({} without Gouraud), {} attachments ({} gameplay slots), {} "
      "instances when constructed\n",
      j["vertices"].get<size_t>(), j["normals"].get<int>(), j["flat_normals"].get<int>(),
      j["attachments"].get<size_t>(), j["gameplay_slots"].get<int>(), j["instances"].get<size_t>());
  out += fmt::format("  {} instructions: {}\n  packets: {}\n", j["instructions"].get<size_t>(),
                     j["opcodes"].dump(), j["packets"].dump());
  return out;
}

}  // namespace shapevm::tools
