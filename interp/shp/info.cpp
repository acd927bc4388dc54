#include "interp/shp/info.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "core/text_bytes.h"
#include "interp/shp/text_writer.h"
#include "interp/shp/validate.h"

namespace shapevm::shp {
namespace {

std::string vec_text(const Vec3& v) {
  return fmt::format("({}, {}, {})", float_text(v[0].bits), float_text(v[1].bits),
                     float_text(v[2].bits));
}

size_t depth_of(const Model& m, size_t p) {
  size_t depth = 0;
  int32_t parent = m.parts[p].parent;
  // Parents stand before their children in a valid model; stop on anything else.
  while (parent >= 0 && static_cast<size_t>(parent) < p && depth < m.parts.size()) {
    ++depth;
    p = static_cast<size_t>(parent);
    parent = m.parts[p].parent;
  }
  return depth;
}

}  // namespace

std::string attachment_kind_name(uint32_t kind) {
  static const char* kNames[] = {
      "missile hardpoint", "gun/turret",   "engine glow",  "muzzle",       "light", "pod",
      "eject point",       "case emitter", "launch point", "docking point"};
  return kind < std::size(kNames) ? kNames[kind] : fmt::format("kind {}", kind);
}

std::string model_info_text(const Model& m, const std::string& source) {
  std::string out = fmt::format("{}: Starlancer .SHP model, {} bytes\n", source, m.image_size);
  if (m.header) {
    out += fmt::format("header: version {}, flags 0x{:x}, eye {}\n", m.header->version,
                       m.header->flags, vec_text(m.header->eye));
  } else {
    out += "header: none\n";
  }
  out += fmt::format("parts: {}\n", m.parts.size());
  for (size_t p = 0; p < m.parts.size(); ++p) {
    const Part& part = m.parts[p];
    const std::string indent(2 + 2 * depth_of(m, p), ' ');
    out +=
        fmt::format("{}part {} \"{}\": class {}, parent {}, flags 0x{:x}, origin {}\n", indent, p,
                    part.name, part.part_class, part.parent, part.flags, vec_text(part.origin));
    for (size_t l = 0; l < part.levels.size(); ++l) {
      const Level& level = part.levels[l];
      out += fmt::format("{}  level {}: distance {}, {} vertices, {} faces, {} materials\n", indent,
                         l, float_text(level.distance.bits), level.vertices.size(),
                         level.faces.size(), level.materials.size());
    }
    if (!part.nodes.empty()) {
      size_t leaves = 0;
      for (const Node& n : part.nodes) leaves += n.leaf() ? 1 : 0;
      out += fmt::format("{}  collision tree: {} nodes, {} leaves\n", indent, part.nodes.size(),
                         leaves);
    }
    std::map<uint32_t, size_t> kinds;
    for (const Attachment& a : part.attachments) ++kinds[a.kind];
    for (const auto& [kind, count] : kinds)
      out += fmt::format("{}  attachments: {} x {} (kind {})\n", indent, count,
                         attachment_kind_name(kind), kind);
    for (const Clip& c : part.clips)
      out += fmt::format("{}  clip \"{}\": length {}, mode {}, {} keyframes, {} events\n", indent,
                         c.name, c.length, c.mode, c.keyframes.size(), c.events.size());
    for (const PointList& l : part.point_lists)
      out += fmt::format("{}  point list kind {}: {} points\n", indent, l.kind, l.points.size());
    if (!part.triggers.empty())
      out += fmt::format("{}  trigger polygons: {}\n", indent, part.triggers.size());
    out += fmt::format("{}  stored box: {}\n", indent, box_kind_name(classify_box(part)));
  }
  out += fmt::format("firing arcs: {}\n", m.arcs.size());
  out += "record sizes:";
  for (uint16_t tag = 0; tag < kTagSlots; ++tag) {
    if (!named_tag(tag)) continue;
    const auto size = m.record_sizes.of(tag);
    out += fmt::format(" {}={}", tag_name(tag), size ? fmt::to_string(*size) : "-");
  }
  out += "\n";
  for (const UnnamedChunk& u : m.unnamed_chunks)
    out += fmt::format(
        "unnamed chunk at 0x{:x}: tag {:04X}, {} records of {} bytes, after {} "
        "named chunks\n",
        u.offset, u.tag, u.count, u.record_size, u.named_before);
  for (const std::string& n : m.normalisations) out += fmt::format("rewrite normalises: {}\n", n);
  for (const std::string& e : validate_model(m)) out += fmt::format("invalid: {}\n", e);
  return out;
}

nlohmann::json model_info_json(const Model& m, const std::string& source) {
  nlohmann::json j;
  j["source"] = source;
  j["engine"] = "shp";
  j["bytes"] = m.image_size;
  if (m.header) {
    j["header"] = {
        {"version", m.header->version},
        {"flags", m.header->flags},
        {"eye", {m.header->eye[0].value(), m.header->eye[1].value(), m.header->eye[2].value()}}};
  } else {
    j["header"] = nullptr;
  }
  nlohmann::json parts = nlohmann::json::array();
  for (const Part& part : m.parts) {
    nlohmann::json p;
    p["name"] = latin1_to_utf8(part.name);  // bytes (core/text_bytes.h)
    p["class"] = part.part_class;
    p["parent"] = part.parent;
    p["flags"] = part.flags;
    p["origin"] = {part.origin[0].value(), part.origin[1].value(), part.origin[2].value()};
    nlohmann::json levels = nlohmann::json::array();
    for (const Level& l : part.levels)
      levels.push_back({{"distance", l.distance.value()},
                        {"vertices", l.vertices.size()},
                        {"faces", l.faces.size()},
                        {"materials", l.materials.size()}});
    p["levels"] = levels;
    p["nodes"] = part.nodes.size();
    nlohmann::json kinds = nlohmann::json::object();
    for (const Attachment& a : part.attachments) {
      auto& k = kinds[std::to_string(a.kind)];
      k = k.is_null() ? 1 : k.get<int>() + 1;
    }
    p["attachments_by_kind"] = kinds;
    nlohmann::json clips = nlohmann::json::array();
    for (const Clip& c : part.clips)
      clips.push_back({{"name", latin1_to_utf8(c.name)},
                       {"length", c.length},
                       {"mode", c.mode},
                       {"keyframes", c.keyframes.size()},
                       {"events", c.events.size()}});
    p["clips"] = clips;
    nlohmann::json lists = nlohmann::json::array();
    for (const PointList& l : part.point_lists)
      lists.push_back({{"kind", l.kind}, {"points", l.points.size()}});
    p["point_lists"] = lists;
    p["triggers"] = part.triggers.size();
    p["stored_box"] = box_kind_name(classify_box(part));
    parts.push_back(std::move(p));
  }
  j["parts"] = parts;
  j["firing_arcs"] = m.arcs.size();
  nlohmann::json sizes = nlohmann::json::object();
  for (uint16_t tag = 0; tag < kTagSlots; ++tag) {
    if (!named_tag(tag)) continue;
    const auto size = m.record_sizes.of(tag);
    sizes[tag_name(tag)] = size ? nlohmann::json(*size) : nlohmann::json();
  }
  j["record_sizes"] = sizes;
  nlohmann::json unnamed = nlohmann::json::array();
  for (const UnnamedChunk& u : m.unnamed_chunks)
    unnamed.push_back({{"offset", u.offset},
                       {"tag", u.tag},
                       {"record_size", u.record_size},
                       {"count", u.count},
                       {"named_before", u.named_before}});
  j["unnamed_chunks"] = unnamed;
  j["normalisations"] = m.normalisations;
  j["invalid"] = validate_model(m);
  return j;
}

}  // namespace shapevm::shp
