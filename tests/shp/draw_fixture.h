// Builders for the drawing tests: Starlancer models made in memory from the record fields the
// specification names (interp/shp/model.h), and a sink that keeps what a drawing emits.
#pragma once

#include <string>
#include <vector>

#include "interp/common/events.h"
#include "interp/shp/draw.h"
#include "interp/shp/model.h"

namespace shapevm::shp::testing {

inline Vec3 v3(float x, float y, float z) {
  return {F32::of(x), F32::of(y), F32::of(z)};
}

inline Vertex vertex(float x, float y, float z, float nx = 0, float ny = 0, float nz = 1) {
  Vertex v;
  v.position = v3(x, y, z);
  v.normal = v3(nx, ny, nz);
  return v;
}

inline Face face(uint32_t a, uint32_t b, uint32_t c, uint32_t mode = 0, uint32_t flags = 0) {
  Face f;
  f.vertices = {a, b, c};
  f.mode = mode;
  f.flags = flags;
  f.normal = v3(0, 0, 1);
  for (int i = 0; i < 3; ++i) {
    f.u[i] = F32::of(i == 1 ? 1.0f : 0.0f);
    f.v[i] = F32::of(i == 2 ? 1.0f : 0.0f);
  }
  return f;
}

inline Part part(std::string name, Vec3 origin = v3(0, 0, 0), int32_t parent = -1) {
  Part p;
  p.name = std::move(name);
  p.origin = origin;
  p.parent = parent;
  return p;
}

// A level of one triangle facing +Z (toward a camera at heading 0, in front of the nose), about
// 200 units across.
inline Level front_triangle(uint32_t mode = 0, float distance = 0) {
  Level l;
  l.distance = F32::of(distance);
  l.vertices = {vertex(-100, 100, 0), vertex(100, 100, 0), vertex(0, -100, 0)};
  // (v1 - v0) x (v2 - v0) = (200,0,0) x (100,-200,0) = (0,0,-40000): faces -Z. Wind it the other
  // way for +Z.
  l.faces = {face(0, 2, 1, mode)};
  return l;
}

inline Model one_part(Level level) {
  Model m;
  Part p = part("hull");
  p.levels.push_back(std::move(level));
  m.parts.push_back(std::move(p));
  return m;
}

struct KeptOp {
  std::string name;
  uint32_t offset = 0;
  std::vector<std::pair<std::string, int64_t>> fields;
  int64_t field(std::string_view n) const {
    for (const auto& [k, v] : fields)
      if (k == n) return v;
    return -999;
  }
};

// A blend table's bytes, to compare with a kept face's copy.
inline std::vector<uint8_t> blend_bytes(std::span<const uint8_t> table) {
  return {table.begin(), table.end()};
}

struct KeptFace {
  FaceEvent event;  // spans cleared; see the copies below
  std::vector<FaceCorner> corners;
  std::string texture;
  bool has_shade_rows = false;
  std::vector<uint8_t> blend;
};

class KeepSink : public EventSink {
 public:
  bool wants_ops() const override { return true; }
  void on_op(const OpEvent& e) override {
    KeptOp k{std::string(e.name), e.offset, {}};
    for (const auto& f : e.fields) k.fields.emplace_back(std::string(f.name), f.value);
    ops.push_back(std::move(k));
  }
  void on_face(const FaceEvent& e) override {
    KeptFace k;
    k.event = e;
    k.corners.assign(e.corners.begin(), e.corners.end());
    k.texture = std::string(e.texture);
    k.has_shade_rows = !e.shade_rows.empty();
    k.blend.assign(e.blend.begin(), e.blend.end());
    k.event.corners = {};
    k.event.texture = {};
    k.event.shade_rows = {};
    k.event.blend = {};
    faces.push_back(std::move(k));
  }
  void on_diagnostic(const DiagnosticEvent& e) override { diagnostics.push_back(e); }
  std::vector<KeptOp> ops;
  std::vector<KeptFace> faces;
  std::vector<DiagnosticEvent> diagnostics;
  std::vector<KeptOp> ops_named(std::string_view n) const {
    std::vector<KeptOp> out;
    for (const auto& o : ops)
      if (o.name == n) out.push_back(o);
    return out;
  }
};

inline StateRequest request(std::vector<Setting> options = {}, std::vector<std::string> sets = {}) {
  StateRequest r;
  r.options = std::move(options);
  r.sets = std::move(sets);
  return r;
}

// Draws `model` for `state`; `options` gives --palette/--textures.
inline RunOutcome draw(const Model& model, const StateRequest& state, KeepSink& sink,
                       const OpenOptions* options = nullptr) {
  DrawContext ctx(sink);
  ctx.source = "test.shp";
  ctx.options = options;
  ctx.max_steps = 1000000;
  return draw_model(model, state, ctx);
}

// The camera straight in front of the nose, `distance` model units from the model's centre.
inline Setting camera_front(int distance = 1000) {
  return {"camera", std::to_string(distance) + ",0,0"};
}

}  // namespace shapevm::shp::testing
