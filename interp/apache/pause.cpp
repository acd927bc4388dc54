#include "interp/apache/pause.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <string>

namespace shapevm::apache {

namespace {

// The current instance's vertices: `vertices[N].x|y|z` in model units, `.vx|vy|vz` in view space.
constexpr std::string_view kVertexColumns[] = {"x", "y", "z", "vx", "vy", "vz"};

MemoryViewInfo vertices_view() {
  MemoryViewInfo v;
  v.name = "vertices";
  v.help = "The current model's vertices: model units and view space.";
  v.noun = "vertices";
  v.columns.assign(std::begin(kVertexColumns), std::end(kVertexColumns));
  v.layout = {{"model", 3, 6}, {"view", 3, 9}};
  return v;
}

}  // namespace

std::string_view ApachePausePoint::mnemonic() const {
  if (v_.end != nullptr) return "end";
  if (v_.instruction == nullptr || v_.instruction->info == nullptr) return "?";
  return v_.instruction->info->name;
}

std::vector<DebugValue> ApachePausePoint::registers() const {
  std::vector<DebugValue> out;
  out.push_back({"pass", v_.shadow_pass ? 1 : 0, v_.shadow_pass ? "shadow" : "model"});
  if (v_.model != nullptr) {
    out.push_back({"record", v_.model->index, v_.model->header.name});
  } else {
    out.push_back({"record", v_.drawn, "<none>"});
  }
  const Transform identity;
  const Transform& t = v_.transform != nullptr ? *v_.transform : identity;
  static constexpr const char* kAxes[3] = {"x", "y", "z"};
  for (size_t i = 0; i < 3; ++i)
    out.push_back({fmt::format("pos.{}", kAxes[i]), t.translation[i], ""});
  for (size_t row = 0; row < 3; ++row)
    for (size_t col = 0; col < 3; ++col)
      out.push_back({fmt::format("rot.m{}{}", row, col), t.rotation[row * 3 + col], ""});
  out.push_back({"winding", v_.winding, ""});
  out.push_back({"lod.level", v_.lod_steps, ""});
  out.push_back({"lod.record", v_.drawn, ""});
  out.push_back({"camera.distance", v_.camera_distance, ""});
  out.push_back({"shadow_faces", static_cast<int64_t>(v_.shadow_faces), ""});
  return out;
}

std::vector<DebugValue> ApachePausePoint::globals() const {
  std::vector<DebugValue> out;
  if (v_.state == nullptr) return out;
  const RunState& s = *v_.state;
  auto optional = [&](const char* name, const auto& value, const char* unset) {
    if (value) {
      out.push_back({name, static_cast<int64_t>(*value), ""});
    } else {
      out.push_back({name, 0, unset});
    }
  };
  out.push_back({"anim", s.anim, ""});
  optional("lod", s.lod, "<by distance>");
  out.push_back({"camera.heading", s.camera.heading, ""});
  out.push_back({"camera.pitch", s.camera.pitch, ""});
  out.push_back({"light.x", s.light[0], ""});
  out.push_back({"light.y", s.light[1], ""});
  out.push_back({"light.z", s.light[2], ""});
  out.push_back({"shadows", s.shadows ? 1 : 0, ""});
  out.push_back({"gouraud", s.gouraud ? 1 : 0, ""});
  optional("ground", s.ground, "<model minimum>");
  optional("cloud", s.cloud, "<none>");
  optional("receiver", s.receiver, "<none>");
  out.push_back({"receiver_heading", s.receiver_heading, ""});
  for (const auto& [slot, record] : s.slots)
    out.push_back({fmt::format("slot{}", slot), record, ""});
  return out;
}

std::array<int64_t, 6> ApachePausePoint::vertex_values(size_t i) const {
  const Vec3& l = v_.local[i];
  const ViewPoint& w = v_.view[i];
  return {l[0], l[1], l[2], w.x, w.y, w.z};
}

DebugVocabulary ApachePausePoint::vocabulary() const {
  DebugVocabulary v;
  v.memory.push_back(vertices_view());
  for (const auto& r : registers()) v.register_names.push_back(r.name);
  return v;
}

std::optional<int64_t> ApachePausePoint::read(std::string_view name) const {
  if (auto p = parse_memory_name(name); p && p->view == "vertices") {
    const auto* column = std::find(std::begin(kVertexColumns), std::end(kVertexColumns), p->column);
    if (column == std::end(kVertexColumns)) return std::nullopt;
    if (p->index >= v_.local.size() || p->index >= v_.view.size()) return std::nullopt;
    return vertex_values(p->index)[static_cast<size_t>(column - std::begin(kVertexColumns))];
  }
  for (const auto& r : registers())
    if (r.name == name) return r.value;
  for (const auto& g : globals())
    if (g.name == name && g.text.empty()) return g.value;
  if (name == "depth") return depth();
  if (name == "faces") return static_cast<int64_t>(v_.faces);
  if (name == "steps") return static_cast<int64_t>(v_.steps);
  if (name == "offset") return v_.offset;
  return std::nullopt;
}

Snapshot ApachePausePoint::capture() const {
  Snapshot s;
  s.steps = v_.steps;
  s.offset = v_.offset;
  s.mnemonic = std::string(mnemonic());
  s.depth = v_.depth;
  s.faces = v_.faces;
  s.frames.assign(v_.frames.begin(), v_.frames.end());
  s.registers = registers();
  s.globals = globals();
  MemoryView vertices{vertices_view(), {}};
  const size_t n = std::min(v_.local.size(), v_.view.size());
  vertices.rows.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const auto values = vertex_values(i);
    vertices.rows.push_back({static_cast<uint32_t>(i), {values.begin(), values.end()}});
  }
  s.memory.push_back(std::move(vertices));
  if (v_.end != nullptr) {
    s.ended = true;
    s.end_reason = v_.end->reason;
    s.end_clean = v_.end->clean;
  }
  return s;
}

}  // namespace shapevm::apache
