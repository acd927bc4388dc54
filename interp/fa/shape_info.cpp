#include "interp/fa/shape_info.h"

#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "core/byte_reader.h"
#include "core/text_bytes.h"
#include "interp/fa/assumptions.h"

namespace shapevm::fa {

ShapeInfo analyze_shape(const Shape& shape, const WalkResult& walk) {
  ShapeInfo info;
  const auto& code = shape.code();
  // Counted per opcode byte first, named once at the end: a string key built and looked up for
  // every instruction was a tenth of `info`'s time.
  std::array<uint32_t, 256> count_of_op{};
  std::array<const OpcodeInfo*, 256> info_of_op{};
  for (const auto& item : walk.items) {
    if (item.kind == ItemKind::kX86) info.x86_bytes += item.size;
    if (item.kind != ItemKind::kInstruction) continue;
    const Instruction& insn = *item.insn;
    ++info.instructions;
    ++count_of_op[insn.op];
    info_of_op[insn.op] = insn.info;
    const uint32_t off = insn.offset;
    switch (insn.op) {
      case 0x82: {
        auto vb = parse_vertex_buffer(code, off);
        ++info.vertex_buffers;
        info.vertices += vb.count;
        info.pool_slots = std::max(info.pool_slots, vb.first_slot() + vb.count);
        break;
      }
      case 0xFC: {
        ++info.faces;
        const uint8_t content = code[off + 1];
        if (content & kFaceHaveTexcoords) ++info.textured_faces;
        if (content & assumed::kContentFlagPerspective) ++info.perspective_faces;
        if (content & kFaceFillBackground) ++info.fill_background_faces;
        if (content & kFaceBrighterShading) ++info.brighter_shading_faces;
        break;
      }
      case 0xE2: {
        auto name = texture_file_name(code, off);
        if (std::find(info.textures.begin(), info.textures.end(), name) == info.textures.end())
          info.textures.push_back(name);
        break;
      }
      case 0xE0:
        ++info.texture_indices;
        break;
      case 0x40:
        ++info.frame_tables;
        info.max_frames = std::max<uint32_t>(info.max_frames, load_u16(code.data() + off + 2));
        break;
      case 0xC8: {
        ++info.lod_sites;
        const uint16_t thr = load_u16(code.data() + off + 4);
        // A zero threshold never branches (projected < 0 is impossible): not a level.
        if (thr) info.lod_thresholds.insert(thr);
        break;
      }
      case 0xA6:
        ++info.detail_sites;
        info.detail_thresholds.insert(load_u16(code.data() + off + 4));
        break;
      case 0xAC:
        ++info.damage_branches;
        break;
      case 0x06:
      case 0x0C:
      case 0x0E:
      case 0x10:
      case 0x6C:
        ++info.selectors;
        break;
      case 0x12:
      case 0x6E:
      case 0xC4:
      case 0xC6:
        ++info.calls;
        break;
      case 0xF0:
        ++info.x86_blocks;
        break;
      default:
        break;
    }
  }
  for (size_t op = 0; op < count_of_op.size(); ++op) {
    if (count_of_op[op] != 0)
      info.opcode_counts.push_back({info_of_op[op]->mnemonic, count_of_op[op]});
  }
  // By name; no two opcodes share a mnemonic (the opcode table's tests check it).
  std::sort(info.opcode_counts.begin(), info.opcode_counts.end(),
            [](const OpcodeCount& a, const OpcodeCount& b) { return a.mnemonic < b.mnemonic; });
  info.obj_end = obj_end_reports(shape, walk);
  info.articulations = analyze_articulations(shape, walk);
  return info;
}

uint32_t ShapeInfo::count_of(std::string_view mnemonic) const {
  const auto it = std::lower_bound(
      opcode_counts.begin(), opcode_counts.end(), mnemonic,
      [](const OpcodeCount& c, std::string_view name) { return c.mnemonic < name; });
  return it != opcode_counts.end() && it->mnemonic == mnemonic ? it->count : 0;
}

namespace {
const char* reading_verdict(const ObjEndReport& r) {
  if (r.absolute_on_end_object && r.relative_on_end_object) return "both readings land on 00";
  if (r.absolute_on_end_object) return "absolute reading lands on EndObject";
  if (r.relative_on_end_object) return "relative reading lands on EndObject";
  return "neither reading lands on 00";
}
}  // namespace

namespace {
// Names read from the file, as JSON text (core/text_bytes.h).
nlohmann::json latin1_names(const std::vector<std::string>& names) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& n : names) out.push_back(latin1_to_utf8(n));
  return out;
}
}  // namespace

nlohmann::json shape_info_json(const Shape& shape, const WalkResult& walk, const ShapeInfo& info) {
  using nlohmann::json;
  const auto& h = shape.header;
  const auto& img = shape.image;
  json imports = json::array();
  for (const auto& i : img.imports)
    imports.push_back(
        {{"name", latin1_to_utf8(i.name)}, {"function", i.is_function}, {"slot_rva", i.slot_rva}});
  json trampolines = json::array();
  for (const auto& t : img.trampolines)
    trampolines.push_back({{"offset", t.code_offset},
                           {"name", latin1_to_utf8(t.import_name)},
                           {"function", t.is_function},
                           {"operand", t.operand},
                           {"operand_includes_image_base", t.operand_includes_image_base}});
  json objend = json::array();
  for (const auto& r : info.obj_end)
    objend.push_back({{"offset", r.f2_offset},
                      {"operand", r.operand},
                      {"absolute_target", r.absolute_target},
                      {"relative_target", r.relative_target},
                      {"absolute_on_end_object", r.absolute_on_end_object},
                      {"relative_on_end_object", r.relative_on_end_object},
                      {"verdict", reading_verdict(r)}});
  json articulations = json::object();
  json articulation_values = json::object();  // one value per distinct selection
  for (const auto& [input, values] : info.articulations.inputs) {
    json cases = json::array();
    for (const auto* c : info.articulations.cases_of(input))
      cases.push_back({{"value", c->value},
                       {"relation", guard_relation_symbol(c->relation)},
                       {"substreams", c->substreams}});
    articulations[latin1_to_utf8(input)] = cases;
    articulation_values[latin1_to_utf8(input)] = info.articulations.distinct_values(input);
  }
  json opcodes = json::object();
  for (const auto& [mnemonic, count] : info.opcode_counts) opcodes[std::string(mnemonic)] = count;
  json diags = json::array();
  for (const auto& d : walk.diagnostics)
    diags.push_back({{"level", d.level == WalkDiagnostic::Level::kError ? "error" : "warning"},
                     {"offset", d.offset},
                     {"message", d.message}});
  return {
      {"source", shape.source()},
      {"engine", "fa"},
      {"header",
       {{"radius_world", h.radius_world},
        {"radius", h.radius},
        {"scale", h.scale},
        {"scale_factor", h.scale_factor()},
        {"scale_in_table", h.scale_in_table()},
        {"extents", h.extents}}},
      {"container",
       {{"signature", latin1_to_utf8(img.signature)},
        {"image_base", img.image_base},
        {"code_va", img.code_va},
        {"code_size", img.code.size()},
        {"stub_area_offset", img.stub_area_offset},
        {"relocations", img.relocations.size()},
        {"reloc_targets", walk.reloc_targets.size()},
        {"import_dll", latin1_to_utf8(img.import_dll)}}},
      {"instructions", info.instructions},
      {"opcodes", opcodes},
      {"vertex_buffers", info.vertex_buffers},
      {"vertices", info.vertices},
      {"pool_slots", info.pool_slots},
      {"faces", info.faces},
      {"textured_faces", info.textured_faces},
      {"face_content_flags",
       {{"perspective_0x10", info.perspective_faces},
        {"fill_background_0x02", info.fill_background_faces},
        {"brighter_shading_0x20", info.brighter_shading_faces},
        {"not_applied", {"0x02", "0x20"}}}},
      {"textures", latin1_names(info.textures)},
      {"texture_indices", info.texture_indices},
      {"frame_tables", info.frame_tables},
      {"max_frames", info.max_frames},
      {"lod_sites", info.lod_sites},
      {"lod_thresholds", info.lod_thresholds},
      {"lod_levels", info.lod_levels()},
      {"detail_sites", info.detail_sites},
      {"detail_thresholds", info.detail_thresholds},
      {"damage_branches", info.damage_branches},
      {"selectors", info.selectors},
      {"calls", info.calls},
      {"x86_blocks", info.x86_blocks},
      {"x86_bytes", info.x86_bytes},
      {"imports", imports},
      {"trampolines", trampolines},
      {"ptr_to_obj_end", objend},
      {"articulations", articulations},
      {"articulation_values", articulation_values},
      {"diagnostics", diags},
  };
}

std::string shape_info_text(const Shape& shape, const WalkResult& walk, const ShapeInfo& info) {
  const auto& h = shape.header;
  const auto& img = shape.image;
  std::string out;
  out.reserve(2048);
  // "{:<18} {}\n" spelled out: formatting every line was a tenth of `info` over a corpus.
  auto key = [&](std::string_view name) {
    out += name;
    if (name.size() < 18) out.append(18 - name.size(), ' ');
    out += ' ';
  };
  auto line = [&](std::string_view name, std::string_view value) {
    key(name);
    out += value;
    out += '\n';
  };
  // A line whose value is formatted straight into the text, its format parsed at compile time:
  // a string per line, and parsing each format at run time, were a third of the text's cost.
  auto formatted = [&](std::string_view name, const auto& format, const auto&... args) {
    key(name);
    fmt::format_to(std::back_inserter(out), format, args...);
    out += '\n';
  };
  line("file", shape.source());
  formatted("header", FMT_COMPILE("radius_world {}, radius {}, scale {} (x{}{}), extents {} {} {}"),
            h.radius_world, h.radius, h.scale, h.scale_factor(),
            h.scale_in_table() ? "" : ", outside the seed's table", h.extents[0], h.extents[1],
            h.extents[2]);
  formatted(
      "container",
      FMT_COMPILE(
          "{} image base 0x{:x}, CODE va 0x{:x}, {} bytes, {} relocations ({} into the stream)"),
      img.signature, img.image_base, img.code_va, img.code.size(), img.relocations.size(),
      walk.reloc_targets.size());
  formatted("instructions", FMT_COMPILE("{}"), info.instructions);
  key("by opcode");
  bool first_opcode = true;
  for (const auto& [name, n] : info.opcode_counts) {
    if (!first_opcode) out += ", ";
    first_opcode = false;
    fmt::format_to(std::back_inserter(out), FMT_COMPILE("{} {}"), name, n);
  }
  out += '\n';
  formatted("vertices", FMT_COMPILE("{} in {} buffers, pool of {} slots"), info.vertices,
            info.vertex_buffers, info.pool_slots);
  formatted("faces", FMT_COMPILE("{} ({} textured)"), info.faces, info.textured_faces);
  formatted("face flags",
            FMT_COMPILE("0x10 perspective-correct {} (applied to textured faces); 0x02 "
                        "FILL_BACKGROUND {}, 0x20 brighter shading {} (not applied: untraced)"),
            info.perspective_faces, info.fill_background_faces, info.brighter_shading_faces);
  if (info.textures.empty())
    line("textures", "none");
  else
    formatted("textures", FMT_COMPILE("{}"), fmt::join(info.textures, ", "));
  formatted("frame tables", FMT_COMPILE("{} (max {} frames)"), info.frame_tables, info.max_frames);
  formatted("LOD", FMT_COMPILE("{} sites, {} levels, thresholds {}"), info.lod_sites,
            info.lod_levels(), fmt::join(info.lod_thresholds, " "));
  formatted("detail", FMT_COMPILE("{} sites, thresholds {}"), info.detail_sites,
            fmt::join(info.detail_thresholds, " "));
  formatted("damage", FMT_COMPILE("{} branches"), info.damage_branches);
  formatted("selectors/calls", FMT_COMPILE("{} draw-order selectors, {} calls"), info.selectors,
            info.calls);
  formatted("x86", FMT_COMPILE("{} blocks, {} bytes"), info.x86_blocks, info.x86_bytes);
  if (img.imports.empty()) {
    line("imports", "none");
  } else {
    std::vector<std::string> names;
    for (const auto& i : img.imports) names.push_back(i.name + (i.is_function ? "()" : ""));
    formatted("imports", FMT_COMPILE("{} from {}: {}"), names.size(), img.import_dll,
              fmt::join(names, ", "));
  }
  formatted("trampolines", FMT_COMPILE("{} at 0x{:x}"), img.trampolines.size(),
            img.stub_area_offset);
  for (const auto& r : info.obj_end) {
    formatted("PtrToObjEnd", FMT_COMPILE("at 0x{:04x}: absolute 0x{:04x}, relative 0x{:04x}: {}"),
              r.f2_offset, r.absolute_target, r.relative_target, reading_verdict(r));
  }
  for (const auto& [input, values] : info.articulations.inputs) {
    std::vector<std::string> cases;
    for (const auto* c : info.articulations.cases_of(input)) {
      std::vector<std::string> subs;
      for (uint32_t s : c->substreams) subs.push_back(fmt::format("0x{:04x}", s));
      const std::string when =
          c->relation == GuardRelation::kEq
              ? std::string()
              : fmt::format(" when {} {}", guard_relation_symbol(c->relation), c->value);
      cases.push_back(fmt::format(
          "{} (selects {}{})", c->value,
          subs.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(subs, ", ")), when));
    }
    if (!cases.empty())
      cases.back() += fmt::format("; distinct states at {}",
                                  fmt::join(info.articulations.distinct_values(input), ", "));
    if (cases.empty())
      formatted("articulation", FMT_COMPILE("{}: read, never compared"), input);
    else
      formatted("articulation", FMT_COMPILE("{}: values {}"), input, fmt::join(cases, ", "));
  }
  for (const auto& d : walk.diagnostics) {
    formatted(d.level == WalkDiagnostic::Level::kError ? "error" : "warning",
              FMT_COMPILE("0x{:04x}: {}"), d.offset, d.message);
  }
  return out;
}

std::string shape_summary_line(const Shape& shape, const ShapeInfo& info) {
  return fmt::format(
      "{}: scale x{}, {} vertices, {} faces, {} LOD levels, {} frames, {} x86 blocks, textures "
      "[{}]",
      shape.source(), shape.header.scale_factor(), info.vertices, info.faces, info.lod_levels(),
      info.max_frames, info.x86_blocks, fmt::join(info.textures, ", "));
}

}  // namespace shapevm::fa
