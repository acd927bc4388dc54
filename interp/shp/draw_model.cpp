// draw_model (draw.h): the parts of a loaded Starlancer model drawn as the engine's renderer
// draws them (docs/shp-drawing.md): each part placed (SL-20), its level chosen (SL-15), its
// records assembled into polygons (SL-17), culled by the seed's winding (SL-16), and styled by
// shading mode (SL-18), opaque faces first and blended ones after them, farthest first, through
// the frame renderer's depth buffer. Every part and face is a step: a pause point before it and
// an OpEvent (engine "shp") after it, so trace and debug follow the drawing polygon by polygon.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "interp/shp/draw.h"
#include "interp/shp/draw_assets.h"
#include "interp/shp/draw_assumptions.h"
#include "interp/shp/draw_pause.h"
#include "interp/shp/draw_state.h"
#include "interp/shp/faces.h"
#include "interp/shp/fixed_math.h"
#include "interp/shp/pose.h"

namespace shapevm::shp {
namespace {

constexpr std::string_view kDrawEngine = "shp";
constexpr std::string_view kStopped = "stopped by the debugger";
__extension__ using Wide = __int128;

// A face waiting for the blended pass, with the corners and names it owns.
struct PendingFace {
  FaceEvent event;
  std::vector<FaceCorner> corners;
  std::string texture;
  int64_t key = 0;  // mean view depth + bias / 3 (view units): larger = farther
  uint32_t part = 0, level = 0, face = 0, mode = 0;
};

struct Stop {
  std::string reason;
  bool clean = true;
};

class Drawer {
 public:
  Drawer(const Model& model, const DrawState& state, DrawContext& ctx, const DrawAssets& assets)
      : model_(model), s_(state), ctx_(ctx), assets_(assets), tables_(assets.tables()) {}

  RunOutcome run();

 private:
  struct PartVertex {
    P3 model{};                   // model frame, view units
    ViewPoint view;               // view space
    std::array<Q16, 3> normal{};  // model frame
    int32_t shade = 0;            // 16.16 shade row
  };

  // A step: the budget, then a pause point (its view built only when a debugger listens).
  template <class MakeView>
  void step(MakeView&& make_view);
  void op(std::string_view name, uint32_t offset, uint32_t size, uint32_t code,
          std::span<const EventField> fields);
  void draw_part(uint32_t p, const Affine& place);
  void draw_polygon(uint32_t p, uint32_t level, const Level& lv, const FacePolygon& poly,
                    const std::vector<PartVertex>& verts);
  void emit(FaceEvent& e, std::span<const FaceCorner> corners);
  void check_work_budget() const;
  void defer(FaceEvent e, std::vector<FaceCorner> corners, std::string texture, int64_t bias,
             uint32_t p, uint32_t level, uint32_t face, uint32_t mode);
  const raster::Texture* find_texture(const std::string& key, uint32_t offset);
  int32_t shade_of(const std::array<Q16, 3>& normal) const;

  const Model& model_;
  const DrawState& s_;
  DrawContext& ctx_;
  const DrawAssets& assets_;
  const ColourTables& tables_;
  View view_;
  std::array<Q16, 3> light_{};
  RunOutcome out_;
  uint32_t sequence_ = 0;
  std::set<std::string> warned_;
  std::vector<PendingFace> pending_;
  std::vector<FaceCorner> corners_;    // draw_polygon's, reused from face to face
  std::vector<FacePolygon> polygons_;  // draw_part's, reused from part to part
};

template <class MakeView>
void Drawer::step(MakeView&& make_view) {
  if (ctx_.max_steps != 0 && ctx_.steps >= ctx_.max_steps) throw Stop{"budget: steps", false};
  if (ctx_.pause != nullptr) {
    ++ctx_.pause_ticks;
    const DrawView view = make_view();  // built only for the debugger
    if (ctx_.pause->pause(DrawPausePoint(view))) throw Stop{std::string(kStopped), true};
  }
  ++ctx_.steps;
}

void Drawer::op(std::string_view name, uint32_t offset, uint32_t size, uint32_t code,
                std::span<const EventField> fields) {
  ++out_.ops;
  if (!ctx_.sink.wants_ops()) return;
  OpEvent e;
  e.engine = kDrawEngine;
  e.offset = offset;
  e.size = size;
  e.op = static_cast<uint16_t>(code);
  e.name = name;
  e.fields = fields;
  ctx_.sink.on_op(e);
  check_work_budget();
}

int32_t Drawer::shade_of(const std::array<Q16, 3>& n) const {
  const Q16 lambert = std::clamp<Q16>(dot(n, light_), 0, kOne);
  const int64_t intensity = int64_t{assumed::kAmbientQ15} * 2 +
                            ((int64_t{assumed::kDiffuseQ15} * 2 * lambert) >> 16);  // Q16
  const int64_t top = int64_t{assumed::kShadeLevels} * kOne - 1;
  return static_cast<int32_t>(std::clamp<int64_t>(intensity * assumed::kShadeLevels, 0, top));
}

const raster::Texture* Drawer::find_texture(const std::string& key, uint32_t offset) {
  const raster::Texture* t = assets_.texture(key);
  if (t == nullptr && warned_.insert(key).second) {
    ctx_.sink.on_diagnostic(
        {kDrawEngine, offset, DiagnosticLevel::kWarning,
         assets_.cache() == nullptr
             ? fmt::format("texture \"{}\": no texture cache (--textures); drawn untextured", key)
             : fmt::format("texture \"{}\" is not in {}; drawn untextured", key,
                           assets_.cache()->source())});
  }
  return t;
}

void Drawer::emit(FaceEvent& e, std::span<const FaceCorner> corners) {
  e.engine = kDrawEngine;
  e.sequence = sequence_++;
  e.corners = corners;
  ctx_.sink.on_face(e);
  ++out_.faces;
  check_work_budget();
}

// Ends the draw (Stop) when a sink's work budget (faces, pixels, trace bytes) is exhausted.
void Drawer::check_work_budget() const {
  if (const std::string_view reason = ctx_.sink.stop_requested(); !reason.empty()) [[unlikely]]
    throw Stop{std::string(reason), false};
}

void Drawer::defer(FaceEvent e, std::vector<FaceCorner> corners, std::string texture, int64_t bias,
                   uint32_t p, uint32_t level, uint32_t face, uint32_t mode) {
  PendingFace f;
  int64_t sum = 0;
  for (const auto& c : corners) sum -= c.view.z;
  f.key = sum / static_cast<int64_t>(std::max<size_t>(corners.size(), 1)) +
          bias / assumed::kSortBiasDivisor;
  f.event = e;
  f.corners = std::move(corners);
  f.texture = std::move(texture);
  f.part = p;
  f.level = level;
  f.face = face;
  f.mode = mode;
  pending_.push_back(std::move(f));
}

void Drawer::draw_polygon(uint32_t p, uint32_t level, const Level& lv, const FacePolygon& poly,
                          const std::vector<PartVertex>& verts) {
  const Part& part = model_.parts[p];
  const Face& face = lv.faces[poly.first];
  const uint32_t mode = face.shading_mode();
  const ModeStyle style = mode_style(mode);
  step([&] {
    DrawView dv;
    dv.offset = face.image.offset;
    dv.tag = static_cast<uint16_t>(Tag::kFace);
    dv.struct_size = kFaceStruct;
    dv.mnemonic = fmt::format("draw_face {}.{}.{} {}", p, level, poly.first, mode_name(mode));
    dv.op = mode;
    dv.part = p;
    dv.level = level;
    dv.face = poly.first;
    dv.mode = mode;
    dv.steps = ctx_.steps;
    dv.faces = out_.faces;
    return dv;
  });

  bool valid = true;
  for (uint32_t v : poly.vertices) valid = valid && v < verts.size();
  const bool cap = (face.flags & kFaceCap) != 0;
  const bool two_sided = (face.flags & kFaceTwoSided) != 0;
  bool culled = false;
  if (valid && !two_sided) {
    // Front: (v1 - v0) x (v2 - v0), reversed for an odd strip record; culled when the eye is
    // behind it (or in its plane).
    const P3& a = verts[poly.vertices[0]].model;
    const P3& b = verts[poly.vertices[1]].model;
    const P3& c = verts[poly.vertices[2]].model;
    const Wide e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const Wide e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    Wide n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                 e1[0] * e2[1] - e1[1] * e2[0]};
    if (poly.reversed)
      for (Wide& x : n) x = -x;
    const Wide to_eye[3] = {view_.eye[0] - a[0], view_.eye[1] - a[1], view_.eye[2] - a[2]};
    // Exact in 128 bits: coordinates are clamped to 2^40 view units (to_units), so the normal
    // stays below 2^83, the eye vector below 2^42 and the sum below 2^127.
    const Wide facing = n[0] * to_eye[0] + n[1] * to_eye[1] + n[2] * to_eye[2];
    culled = facing <= 0;
  }
  const bool hidden_cap = cap && !s_.caps;
  const std::array<EventField, 9> fields = {{{"part", p},
                                             {"level", level},
                                             {"face", poly.first},
                                             {"records", poly.records},
                                             {"mode", mode},
                                             {"sub_mode", face.sub_mode()},
                                             {"culled", culled ? 1 : 0},
                                             {"cap_hidden", hidden_cap ? 1 : 0},
                                             {"two_sided", two_sided ? 1 : 0}}};
  op("draw_face", face.image.offset, face.image.reached, mode, fields);
  if (!valid) {
    ctx_.sink.on_diagnostic({kDrawEngine, face.image.offset, DiagnosticLevel::kWarning,
                             fmt::format("part {} level {} face {}: a vertex index past the "
                                         "level's {} vertices; not drawn",
                                         p, level, poly.first, verts.size())});
    return;
  }
  if (culled || hidden_cap) return;

  // The draw's one corner list, refilled per face (a list per face was an allocation per face).
  std::vector<FaceCorner>& corners = corners_;
  corners.clear();
  for (size_t i = 0; i < poly.vertices.size(); ++i) {
    const PartVertex& v = verts[poly.vertices[i]];
    FaceCorner c;
    c.index = poly.vertices[i];
    for (size_t a = 0; a < 3; ++a)
      c.model_wide[a] = static_cast<int32_t>(
          std::clamp<int64_t>(v.model[a] / assumed::kViewUnitsPerModelUnit, INT32_MIN, INT32_MAX));
    c.view = v.view;
    c.shade = style.lit ? v.shade : 0;
    corners.push_back(c);
  }
  const int64_t bias = to_units(face.sort_bias);

  if (style.lines) {
    // Mode 1: edge k of the record unless its edge-mask bit is set (a merged fan never holds a
    // wire record: merging keeps the first record's mode, and lines are drawn per record).
    for (int k = 0; k < 3; ++k) {
      if (!wire_edge_drawn(face.edge_mask, k)) continue;
      std::array<FaceCorner, 2> line = {corners[static_cast<size_t>(k)],
                                        corners[static_cast<size_t>((k + 1) % 3)]};
      FaceEvent e;
      e.offset = face.image.offset;
      e.color = tables_.wire;
      e.wide_model = true;
      emit(e, line);
    }
    return;
  }

  FaceEvent e;
  e.offset = face.image.offset;
  e.wide_model = true;
  e.color = tables_.untextured;
  e.perspective = true;
  e.fine_texcoords = true;
  e.texture_repeat = true;
  if (style.lit) e.shade_rows = tables_.shade_rows;
  e.blend = tables_.blend(style.blend);
  e.depth_write = style.blend == Blend::kNone;
  std::string texture;
  const Material* material =
      face.material < lv.materials.size() ? &lv.materials[face.material] : nullptr;
  if (style.textured && material != nullptr) {
    texture = texture_key(s_.prefix, material->texture);
    if (const raster::Texture* t = find_texture(texture, face.image.offset)) {
      e.textured = true;
      for (size_t i = 0; i < corners.size(); ++i) {
        corners[i].texcoord_fine = {
            static_cast<int32_t>(to_q16(poly.uv[i][0] * static_cast<float>(t->width))),
            static_cast<int32_t>(to_q16(poly.uv[i][1] * static_cast<float>(t->height)))};
      }
    } else {
      texture.clear();
    }
  }
  if (style.blend != Blend::kNone) {
    defer(e, std::vector<FaceCorner>(corners), texture, bias, p, level, poly.first, mode);
  } else {
    e.texture = texture;
    emit(e, corners);
  }

  // Second passes, added over the first (deferred with the blended faces).
  std::string extra;
  if (style.lightmap && (part.flags & kPartLightMap) != 0 && s_.lightmaps && material != nullptr)
    extra = lightmap_key(material->texture);
  if (style.highlight) extra = highlight_key(face.sub_mode());
  if (extra.empty()) return;
  const raster::Texture* t = find_texture(extra, face.image.offset);
  if (t == nullptr) return;
  std::vector<FaceCorner> second = corners;
  for (size_t i = 0; i < second.size(); ++i) {
    std::array<float, 2> uv = poly.uv[i];
    if (style.highlight) {
      // UV from the normal in the camera frame: u = 0.5 + 0.5 nx, v = 0.5 + 0.5 ny.
      const auto n = view_.direction(verts[poly.vertices[i]].normal);
      uv = {0.5f + 0.5f * static_cast<float>(n[0]) / 65536.0f,
            0.5f + 0.5f * static_cast<float>(n[1]) / 65536.0f};
    }
    second[i].texcoord_fine = {static_cast<int32_t>(to_q16(uv[0] * static_cast<float>(t->width))),
                               static_cast<int32_t>(to_q16(uv[1] * static_cast<float>(t->height)))};
    second[i].shade = 0;
  }
  FaceEvent pass;
  pass.offset = face.image.offset;
  pass.wide_model = true;
  pass.textured = true;
  pass.perspective = true;
  pass.fine_texcoords = true;
  pass.texture_repeat = true;
  pass.blend = tables_.blend(Blend::kAdd);
  pass.depth_write = false;
  defer(pass, std::move(second), extra, bias, p, level, poly.first, mode);
}

void Drawer::draw_part(uint32_t p, const Affine& place) {
  const Part& part = model_.parts[p];
  step([&] {
    DrawView dv;
    dv.offset = part.image.offset;
    dv.tag = static_cast<uint16_t>(Tag::kPart);
    dv.struct_size = kPartStruct;
    dv.mnemonic = fmt::format("draw_part {} {}", p, part.name);
    dv.part = p;
    dv.steps = ctx_.steps;
    dv.faces = out_.faces;
    return dv;
  });
  const bool hidden = (part.flags & kPartDamagedModel) != 0 && !s_.destroyed;
  const int64_t depth = -int64_t{view_.to_view(place.t).z};
  const LodChoice lod = choose_level(part, depth, s_.lod_rule, s_.lod);
  const std::array<EventField, 6> fields = {{{"part", p},
                                             {"level", lod.level},
                                             {"distance", depth / assumed::kViewUnitsPerModelUnit},
                                             {"hidden", hidden ? 1 : 0},
                                             {"morph", lod.morph},
                                             {"levels", static_cast<int64_t>(part.levels.size())}}};
  op("draw_part", part.image.offset, part.image.reached, 0, fields);
  if (hidden || lod.level < 0) return;
  const uint32_t level = static_cast<uint32_t>(lod.level);
  const Level& lv = part.levels[level];
  const Level* coarser = level + 1 < part.levels.size() ? &part.levels[level + 1] : nullptr;
  const bool morph_positions = lod.morph > 0 && (part.flags & kPartGeomorphPositions) != 0;
  const bool morph_normals = lod.morph > 0 && (part.flags & kPartGeomorphNormals) != 0;

  std::vector<PartVertex> verts(lv.vertices.size());
  for (size_t i = 0; i < lv.vertices.size(); ++i) {
    const Vertex& v = lv.vertices[i];
    P3 local{to_units(v.position[0]), to_units(v.position[1]), to_units(v.position[2])};
    std::array<Q16, 3> n{to_q16(v.normal[0]), to_q16(v.normal[1]), to_q16(v.normal[2])};
    // Geomorph toward the counterpart in the next coarser level (-1, or a 28-byte record without
    // the field: the vertex itself).
    const Vertex* other = nullptr;
    const int32_t counterpart = v.counterpart_if_present().value_or(-1);
    if (coarser != nullptr && counterpart >= 0 &&
        static_cast<size_t>(counterpart) < coarser->vertices.size())
      other = &coarser->vertices[static_cast<size_t>(counterpart)];
    if (other != nullptr && morph_positions)
      for (size_t a = 0; a < 3; ++a)
        local[a] += ((to_units(other->position[a]) - local[a]) * lod.morph) >> 16;
    if (other != nullptr && morph_normals)
      for (size_t a = 0; a < 3; ++a) n[a] += ((to_q16(other->normal[a]) - n[a]) * lod.morph) >> 16;
    PartVertex& out = verts[i];
    out.model = place(local);
    out.view = view_.to_view(out.model);
    out.normal = times(place.m, n);
    out.shade = shade_of(out.normal);
  }
  const size_t polygons = assemble_polygons(lv, polygons_);
  for (size_t i = 0; i < polygons; ++i) draw_polygon(p, level, lv, polygons_[i], verts);
}

RunOutcome Drawer::run() {
  out_.end_offset = ctx_.end_offset;
  out_.reason = "model drawn";
  try {
    for (const FiredEvent& f : fired_events(model_, s_.clip, s_.frame)) {
      const Part& part = model_.parts[f.part];
      const ClipEvent& ev = part.clips[f.clip].events[f.event];
      step([&] {
        DrawView dv;
        dv.offset = ev.image.offset;
        dv.tag = static_cast<uint16_t>(Tag::kEvent);
        dv.struct_size = kEventStruct;
        dv.clip = f.clip;
        dv.mnemonic = fmt::format("clip_event {} {}", f.part, part.clips[f.clip].name);
        dv.part = f.part;
        dv.steps = ctx_.steps;
        return dv;
      });
      const std::array<EventField, 5> fields = {{{"part", f.part},
                                                 {"clip", f.clip},
                                                 {"event", f.event},
                                                 {"time", f.time},
                                                 {"kind", f.kind}}};
      op("clip_event", ev.image.offset, ev.image.reached, static_cast<uint32_t>(f.kind), fields);
    }
    const std::vector<Affine> places = place_parts(model_, s_);
    const CameraFit fit = fit_camera(model_, places, s_);
    view_ = make_view(fit.camera, fit.target);
    light_ = normalise({s_.light[0], s_.light[1], s_.light[2]});
    for (uint32_t p = 0; p < model_.parts.size(); ++p) draw_part(p, places[p]);
    // The blended faces, farthest first (ties keep drawing order).
    std::stable_sort(pending_.begin(), pending_.end(),
                     [](const PendingFace& a, const PendingFace& b) { return a.key > b.key; });
    for (PendingFace& f : pending_) {
      step([&] {
        DrawView dv;
        dv.offset = f.event.offset;
        dv.tag = static_cast<uint16_t>(Tag::kFace);
        dv.struct_size = kFaceStruct;
        dv.mnemonic = fmt::format("draw_blended {}.{}.{}", f.part, f.level, f.face);
        dv.op = f.mode;
        dv.part = f.part;
        dv.level = f.level;
        dv.face = f.face;
        dv.mode = f.mode;
        dv.steps = ctx_.steps;
        dv.faces = out_.faces;
        return dv;
      });
      const std::array<EventField, 5> fields = {
          {{"part", f.part},
           {"level", f.level},
           {"face", f.face},
           {"mode", f.mode},
           {"depth", f.key / assumed::kViewUnitsPerModelUnit}}};
      op("draw_blended", f.event.offset, 0, f.mode, fields);
      f.event.texture = f.texture;
      emit(f.event, f.corners);
    }
  } catch (const Stop& stop) {
    out_.reason = stop.reason;
    out_.clean = stop.clean;
    ctx_.stopped = stop.clean;
    if (!stop.clean)
      ctx_.sink.on_diagnostic({kDrawEngine, ctx_.end_offset, DiagnosticLevel::kError,
                               fmt::format("drawing stopped: {}", stop.reason)});
  }
  return out_;
}

}  // namespace

std::vector<Knob> draw_knobs() {
  return draw_state_knobs();
}

RunOutcome draw_model(const Model& model, const StateRequest& state, DrawContext& ctx) {
  const DrawState s = parse_draw_state(state);
  const OpenOptions none;
  const OpenOptions& options = ctx.options != nullptr ? *ctx.options : none;
  const auto assets =
      load_draw_assets(options.palette, options.textures, input_path_of(ctx.source));
  Drawer drawer(model, s, ctx, *assets);
  return drawer.run();
}

nlohmann::json draw_state_json(const Model&, const StateRequest& state) {
  return draw_state_to_json(parse_draw_state(state));
}

}  // namespace shapevm::shp
