#include "interp/apache/session.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "core/input_error.h"
#include "core/member_spec.h"
#include "core/text_bytes.h"
#include "interp/apache/archive_cache.h"
#include "interp/apache/geometry.h"
#include "interp/apache/interpreter.h"
#include "interp/apache/listing.h"

namespace shapevm::apache {
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

Session::Session(std::string path, SharedBytes bytes, std::optional<std::string> member,
                 const std::string& palette, const std::string& textures)
    : path_(std::move(path)), archive_(shared_archive(bytes, path_)) {
  open(std::move(member), std::nullopt, palette.empty() ? beside(path_, "3DPAL.RGB") : palette,
       std::nullopt, textures.empty() ? beside(path_, "OBJTEXT.BIN") : textures);
}

Session::Session(std::string source, AssembledArchive assembled, std::optional<std::string> member,
                 const std::string& palette, const std::string& textures)
    : path_(std::move(source)), archive_(shared_archive(std::move(assembled.archive), path_)) {
  std::optional<std::vector<uint8_t>> palette_bytes, texture_bytes;
  if (palette.empty()) palette_bytes = std::move(assembled.palette);
  if (textures.empty()) texture_bytes = std::move(assembled.textures);
  open(std::move(member), std::move(palette_bytes), palette, std::move(texture_bytes), textures);
}

void Session::open(std::optional<std::string> member,
                   std::optional<std::vector<uint8_t>> palette_bytes,
                   const std::string& palette_path,
                   std::optional<std::vector<uint8_t>> texture_bytes,
                   const std::string& texture_path) {
  if (member) record_ = resolve_record(*archive_, *member);
  if (palette_bytes) {
    tables_ = build_shading_tables(read_3dpal(*palette_bytes, "3DPAL.RGB"));
  } else if (!palette_path.empty()) {
    tables_ = build_shading_tables(read_3dpal(read_file(palette_path), palette_path));
  } else {
    tables_ = build_shading_tables(default_3dpal());
  }
  if (texture_bytes) {
    texture_bytes_ = std::move(*texture_bytes);
    if (!texture_bytes_.empty()) textures_.emplace(texture_bytes_, "OBJTEXT.BIN");
  } else if (!texture_path.empty()) {
    texture_bytes_ = read_file(texture_path);
    textures_.emplace(texture_bytes_, texture_path);
  }
}

uint32_t Session::record() const {
  if (!record_) {
    throw InputError(path_, "name a record: " + path_ + ":#N or " + path_ + ":NAME");
  }
  return *record_;
}

std::string Session::source() const {
  return record_ ? record_source(*record_) : path_;
}

std::string Session::record_source(uint32_t index) const {
  return fmt::format("{}:#{}", path_, index);
}

const raster::Texture* Session::find_texture(std::string_view name) {
  if (auto it = raster_textures_.find(name); it != raster_textures_.end()) return &it->second;
  if (!textures_ || name.size() < 4 || name.substr(0, 3) != "tex") return nullptr;
  const bool masked = name.back() == 'm';
  const std::string digits(name.substr(3, name.size() - 3 - (masked ? 1 : 0)));
  if (digits.empty() || digits.size() > 6) return nullptr;
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return nullptr;
  const ApacheTexture* t = textures_->find(static_cast<uint32_t>(std::stoul(digits)));
  if (t == nullptr) return nullptr;
  auto [it, _] = raster_textures_.emplace(std::string(name), to_raster_texture(*t, masked));
  return &it->second;
}

uint32_t resolve_record(const Archive& archive, const std::string& member) {
  const std::string spec = archive.source() + ":" + member;
  if (!member.empty() && member[0] == '#') {
    const std::optional<uint32_t> index = member_index(member);
    if (!index) throw InputError(spec, "expected a record number after '#' (e.g. #17)");
    if (*index >= archive.count()) {
      throw InputError(
          spec, fmt::format("no record #{}: the archive has {} slots", *index, archive.count()));
    }
    if (archive.record(*index) == nullptr)
      throw InputError(spec, fmt::format("record #{} is an empty slot (offset 0)", *index));
    return *index;
  }
  const ModelRecord* rec = archive.find(member);
  if (rec == nullptr) {
    throw InputError(spec, fmt::format("no record named {} among the archive's {} models", member,
                                       archive.populated()));
  }
  return rec->index;
}

RunState run_state(const StateRequest& request) {
  RunState s;
  s.width = request.width;
  s.height = request.height;
  s.focal_pixels = request.height;
  for (const Setting& o : request.options) {
    if (o.name != "lod" && o.name != "camera" && o.name != "max-steps" && o.name != "max-depth") {
      throw InputError("--" + o.name,
                       "the apache engine does not take this option (it takes --lod, --camera, "
                       "--max-steps, --max-depth and --set anim=N, ...)");
    }
  }
  // The last value given for each option counts.
  if (const auto v = request.option("lod"))
    s.lod = static_cast<uint32_t>(parse_integer(*v, "--lod " + *v, 0, UINT32_MAX));
  if (const auto v = request.option("camera")) {
    const auto c = parse_camera_option(*v, {s.camera.distance, s.camera.heading, s.camera.pitch});
    s.camera = {c[0], c[1], c[2]};
  }
  if (const auto v = request.option("max-steps"))
    s.step_limit = static_cast<uint64_t>(parse_integer(*v, "--max-steps " + *v, 1, INT64_MAX));
  if (const auto v = request.option("max-depth"))
    s.depth_limit = static_cast<uint32_t>(parse_integer(*v, "--max-depth " + *v, 1, UINT32_MAX));
  for (const std::string& assignment : request.sets) apply_set(s, assignment);
  return s;
}

nlohmann::json state_json(const RunState& s) {
  nlohmann::json j = {
      {"anim", s.anim},       {"camera", {s.camera.distance, s.camera.heading, s.camera.pitch}},
      {"light", s.light},     {"shadows", s.shadows},
      {"gouraud", s.gouraud}, {"size", {s.width, s.height}}};
  j["cull_primaries"] = s.cull_primaries;
  j["secondary_length"] = secondary_length_name(s.secondary_length);
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

namespace {

// AP-21: how the record's secondary length bytes read. The seed's reading counts the whole packet
// with the byte; a byte that fits neither reading, or only the other one, is listed (the engine
// skips by the byte, so a run goes where it says).
nlohmann::json secondary_json(const ProgramWalk& walk) {
  return {{"count", walk.secondary_packets},
          {"whole_packet_lengths", walk.secondary_whole},
          {"type_on_lengths", walk.secondary_packet},
          {"mismatches", walk.secondary_mismatches}};
}

nlohmann::json record_json(const Archive& archive, const ModelRecord& rec) {
  const ModelHeader& h = rec.header;
  const ModelGeometry g = read_geometry(archive, rec);
  const ProgramWalk walk = walk_program(archive, rec);
  nlohmann::json sections = nlohmann::json::object();
  for (int s = 0; s < kSectionCount; ++s) {
    sections[section_name(s)] = {{"stored", h.stored[static_cast<size_t>(s)]},
                                 {"relocated", h.sections[static_cast<size_t>(s)]}};
  }
  nlohmann::json ops = nlohmann::json::object();
  for (const auto& [op, n] : walk.opcode_counts) ops[opcode_info(op)->name] = n;
  nlohmann::json packets = nlohmann::json::object();
  for (const auto& [type, n] : walk.packet_counts) packets[packet_type(type)->name] = n;
  std::vector<uint32_t> chain{rec.index};
  for (int32_t next = h.next_record; next >= 0 && chain.size() <= archive.count();) {
    chain.push_back(static_cast<uint32_t>(next));
    const ModelRecord* n = archive.record(static_cast<uint32_t>(next));
    next = n ? n->header.next_record : -1;
  }
  const auto instances = construct_instances(archive, rec.index, {});
  uint32_t gameplay_slots = 0;
  for (const auto& a : g.attachments) gameplay_slots += a.is_slot() ? 1 : 0;
  return {{"record", rec.index},
          {"offset", rec.offset},
          // The header's name and description are bytes (core/text_bytes.h).
          {"name", latin1_to_utf8(h.name)},
          {"description", latin1_to_utf8(h.description)},
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
          {"packets", packets},
          {"secondary_packets", secondary_json(walk)}};
}

}  // namespace

nlohmann::json Session::info_json() const {
  const Archive& archive = *archive_;
  if (record_) {
    nlohmann::json j = record_json(archive, *archive.record(*record_));
    j["engine"] = "apache";
    j["source"] = record_source(*record_);
    return j;
  }
  uint32_t grid = 0, attached = 0;
  for (const auto& rec : archive.records()) {
    grid += rec.header.encoding == 1 ? 1 : 0;
    attached += rec.header.has(kAttached) ? 1 : 0;
  }
  return {{"engine", "apache"},
          {"source", archive.source()},
          {"slots", archive.count()},
          {"records", archive.populated()},
          {"short_encoding", archive.populated() - grid},
          {"grid_encoding", grid},
          {"with_attachments", attached}};
}

std::string Session::info_text() const {
  const nlohmann::json j = info_json();
  const Archive& archive = *archive_;
  if (!record_) {
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
  const ModelHeader& header = archive.record(*record_)->header;  // the bytes, as the file has them
  out += fmt::format("{} \"{}\" — {}\n", j["source"].get<std::string>(), header.name,
                     header.description);
  out += fmt::format("  header at 0x{:x}; encoding {} ({})\n", j["offset"].get<uint32_t>(),
                     j["encoding"].get<int>(),
                     j["encoding"].get<int>() == 0 ? "signed 16-bit x16" : "grid");
  out +=
      fmt::format("  LOD: threshold {}, next record {}, chain {}\n", j["lod_distance"].get<int>(),
                  j["next_record"].get<int>(), j["lod_chain"].dump());
  out += fmt::format("  bounds {} radius {} height {}\n", j["bounds"].dump(),
                     j["radius"].get<int>(), j["height"].get<int>());
  for (int index = 0; index < kSectionCount; ++index) {  // header order, not JSON's
    const std::string name = section_name(index);
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
  const auto& secondary = j["secondary_packets"];
  if (secondary["count"].get<uint64_t>() > 0) {
    out += fmt::format(
        "  secondary packets: {}; length bytes counting the whole packet (the seed) {}, counting "
        "from the type byte {}\n",
        secondary["count"].get<uint64_t>(), secondary["whole_packet_lengths"].get<uint64_t>(),
        secondary["type_on_lengths"].get<uint64_t>());
  }
  for (const auto& offset : secondary["mismatches"]) {
    out += fmt::format(
        "  note: the secondary packet at 0x{:x} has a length byte that is not its whole length; "
        "the engine skips by the byte (disasm shows both)\n",
        offset.get<uint32_t>());
  }
  return out;
}

}  // namespace shapevm::apache
