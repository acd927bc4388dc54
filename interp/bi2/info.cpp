#include "interp/bi2/info.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "core/text_bytes.h"
#include "interp/bi2/assumptions.h"
#include "interp/bi2/draw.h"
#include "interp/bi2/tpwm.h"

namespace shapevm::bi2 {
namespace {

const char* level_name(DiagnosticLevel l) {
  return l == DiagnosticLevel::kInfo      ? "info"
         : l == DiagnosticLevel::kWarning ? "warning"
                                          : "error";
}

nlohmann::json notes_json(const std::vector<Note>& notes) {
  nlohmann::json out = nlohmann::json::array();
  for (const Note& n : notes)
    out.push_back({{"offset", n.offset}, {"level", level_name(n.level)}, {"message", n.message}});
  return out;
}

nlohmann::json mesh_json(const Mesh& m) {
  nlohmann::json parts = nlohmann::json::array();
  for (size_t i = 0; i < m.parts.size(); ++i) {
    const Part& p = m.parts[i];
    parts.push_back({{"part", i},
                     {"polygons", {p.first_polygon, p.first_polygon + p.polygon_count - 1}},
                     {"pivot", p.pivot},
                     {"vertices", p.vertices},
                     {"translation", p.translation},
                     {"angles", p.angles}});
  }
  nlohmann::json polygons = nlohmann::json::array();
  for (size_t f = 0; f < m.polygons.size(); ++f) {
    const Polygon& p = m.polygons[f];
    polygons.push_back({{"polygon", f},
                        {"offset", p.offset},
                        {"vertices", p.vertices},
                        {"shade", p.shade},
                        {"bias", p.bias},
                        {"colour", polygon_colour(p)},
                        {"part", owning_part(m, static_cast<uint32_t>(f))},
                        {"normal", p.normal},
                        {"unknown_10", p.unknown_10},
                        {"unknown_12", p.unknown_12},
                        {"unknown_18", p.unknown_18}});
  }
  return {{"kind", "3DOB"},
          {"vertex_offset", m.vertex_offset},
          {"slot_offset", m.slot_offset},
          {"face_offset", m.face_offset},
          {"trailing_offset", m.trailing_offset},
          {"vertices", m.vertices.size()},
          {"polygons_count", m.polygons.size()},
          {"parts", parts},
          {"polygons", polygons},
          {"notes", notes_json(m.notes)}};
}

nlohmann::json layer_json(const Layer& l) {
  nlohmann::json placements = nlohmann::json::array();
  for (size_t i = 0; i < l.placements.size(); ++i) {
    const Placement& p = l.placements[i];
    const uint16_t id = l.object_ids[p.slot];
    placements.push_back({{"placement", i},
                          {"slot", p.slot},
                          {"object", id},
                          {"unused", unused_object(id)},
                          {"x", p.x},
                          {"z", p.z},
                          {"unknown_02", p.unknown_02}});
  }
  return {{"kind", "3DLD"},
          {"object_ids", l.object_ids},
          {"placements", placements},
          {"notes", notes_json(l.notes)}};
}

}  // namespace

nlohmann::json info_json(const Session& s) {
  nlohmann::json j;
  if (s.kind() == Kind::kArchive) {
    const LibArchive& lib = *s.archive();
    nlohmann::json members = nlohmann::json::array();
    for (const auto& m : lib.members()) {
      const auto stored = lib.stored(m);
      std::string kind = "?";
      std::string compression = is_tpwm_xor(stored) ? "xor" : is_tpwm(stored) ? "tpwm" : "stored";
      try {
        kind = member_kind(lib.decoded(m));
      } catch (const InputError&) {
        kind = "corrupt TPWM";
      }
      members.push_back({{"index", m.index},
                         {"name", latin1_to_utf8(m.name)},  // bytes (core/text_bytes.h)
                         {"offset", m.offset},
                         {"stored", m.size},
                         {"compression", compression},
                         {"kind", kind}});
    }
    j = {{"kind", "LIB"}, {"index_offset", lib.index_offset()}, {"members", members}};
  } else if (s.kind() == Kind::kMesh) {
    j = mesh_json(s.mesh());
  } else if (s.kind() == Kind::kLayer) {
    j = layer_json(s.layer());
  } else {
    j = {{"kind", member_kind(s.data())}, {"bytes", s.data().size()}};
  }
  j["engine"] = "bi2";
  j["source"] = s.source();
  j["packed"] = s.packed();
  return j;
}

std::string info_text(const Session& s) {
  const nlohmann::json j = info_json(s);
  std::string out;
  if (s.kind() == Kind::kArchive) {
    out += fmt::format("{}: Battle Isle 2 LIB, {} members, index at 0x{:x}{}\n", s.source(),
                       j["members"].size(), j["index_offset"].get<uint32_t>(),
                       s.packed() ? " (whole file TPWM-packed)" : "");
    const auto& members = s.archive()->members();
    for (size_t i = 0; i < members.size(); ++i) {
      const auto& m = j["members"][i];
      // The name's bytes as the file has them (the JSON holds them as Latin-1 text).
      out += fmt::format("  #{:<4} {:<8} 0x{:08x} {:>7} bytes {:<6} {}\n", m["index"].get<int>(),
                         members[i].name, m["offset"].get<uint32_t>(), m["stored"].get<uint32_t>(),
                         m["compression"].get<std::string>(), m["kind"].get<std::string>());
    }
    return out;
  }
  if (s.kind() == Kind::kData) {
    return fmt::format("{}: {} ({} bytes{}), not a mesh or scenery list\n", s.source(),
                       j["kind"].get<std::string>(), s.data().size(), s.packed() ? ", TPWM" : "");
  }
  auto notes = [&](const std::vector<Note>& ns) {
    for (const Note& n : ns)
      out += fmt::format("  {} at 0x{:x}: {}\n", level_name(n.level), n.offset, n.message);
  };
  if (s.kind() == Kind::kLayer) {
    const Layer& l = s.layer();
    out += fmt::format("{}: 3DLD scenery list, {} placements{}\n  object ids:", s.source(),
                       l.placements.size(), s.packed() ? " (TPWM)" : "");
    for (uint16_t id : l.object_ids)
      out += unused_object(id) ? fmt::format(" 0x{:04x}(unused)", id) : fmt::format(" {}", id);
    out += "\n";
    for (size_t i = 0; i < l.placements.size(); ++i) {
      const Placement& p = l.placements[i];
      const uint16_t id = l.object_ids[p.slot];
      out += fmt::format(
          "  placement {:<3} slot {} object {:<6} at x {:>6} z {:>6} unknown_02 "
          "0x{:04x}{}\n",
          i, p.slot, unused_object(id) ? "-" : fmt::to_string(id), p.x, p.z, p.unknown_02,
          unused_object(id) ? " (unused slot: skipped)" : "");
    }
    notes(l.notes);
    return out;
  }
  const Mesh& m = s.mesh();
  out += fmt::format("{}: 3DOB mesh, {} vertices, {} polygons, {} parts{}\n", s.source(),
                     m.vertices.size(), m.polygons.size(), m.parts.size(),
                     s.packed() ? " (TPWM)" : "");
  out += fmt::format(
      "  tables: polygons 0x42, vertices 0x{:x}, face normals 0x{:x}, parts 0x{:x}, "
      "runtime slots 0x{:x}\n",
      m.vertex_offset, m.face_offset, m.trailing_offset, m.slot_offset);
  for (size_t i = 0; i < m.parts.size(); ++i) {
    const Part& p = m.parts[i];
    out += fmt::format("  part{}: polygons {}..{}, {} vertices, pivot ({}, {}, {})\n", i,
                       p.first_polygon, p.first_polygon + p.polygon_count - 1, p.vertices.size(),
                       p.pivot[0], p.pivot[1], p.pivot[2]);
  }
  for (size_t f = 0; f < m.polygons.size(); ++f) {
    const Polygon& p = m.polygons[f];
    const int32_t part = owning_part(m, static_cast<uint32_t>(f));
    out += fmt::format(
        "  polygon {:<3} 0x{:04x} {} corners{} shade {:>3} bias {:>2} colour {:>3} "
        "unknown_10 0x{:04x} unknown_12 0x{:04x} unknown_18 0x{:04x}{}\n",
        f, p.offset, p.vertices.size(), p.vertices.size() == 2 ? " (line)" : "", p.shade, p.bias,
        polygon_colour(p), p.unknown_10, p.unknown_12, p.unknown_18,
        part < 0 ? "" : fmt::format(" part{}", part));
  }
  notes(m.notes);
  return out;
}

}  // namespace shapevm::bi2
