#include "interp/bi2/pause.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace shapevm::bi2 {
namespace {

constexpr std::string_view kVertexColumns[] = {"x", "y", "z", "vx", "vy", "vz"};

MemoryViewInfo vertices_view() {
  MemoryViewInfo v;
  v.name = "vertices";
  v.help = "The current mesh's vertices: posed model units (+y down) and view space.";
  v.noun = "vertices";
  v.columns.assign(std::begin(kVertexColumns), std::end(kVertexColumns));
  v.layout = {{"model", 3, 7}, {"view", 3, 9}};
  return v;
}

}  // namespace

std::vector<DebugValue> Bi2PausePoint::registers() const {
  return {
      {"polygon", v_.polygon, ""}, {"part", v_.part, v_.part < 0 ? "<none>" : ""},
      {"shade", v_.shade, ""},     {"bias", v_.bias, ""},
      {"colour", v_.colour, ""},   {"corners", v_.corners, ""},
      {"depth", v_.depth, ""},     {"placement", v_.placement, v_.placement < 0 ? "<none>" : ""}};
}

std::vector<DebugValue> Bi2PausePoint::globals() const {
  std::vector<DebugValue> out;
  if (v_.state == nullptr) return out;
  const RunState& s = *v_.state;
  out.push_back({"camera.distance", s.camera.distance, s.camera.distance == 0 ? "<auto>" : ""});
  out.push_back({"camera.heading", s.camera.heading, ""});
  out.push_back({"camera.pitch", s.camera.pitch, ""});
  static constexpr const char* kNames[] = {"ax", "ay", "az", "tx", "ty", "tz"};
  for (size_t i = 0; i < s.poses.size(); ++i) {
    if (!s.posed[i]) continue;
    const auto& p = s.poses[i];
    const int64_t values[] = {p.angles[0],      p.angles[1],      p.angles[2],
                              p.translation[0], p.translation[1], p.translation[2]};
    for (size_t k = 0; k < 6; ++k)
      out.push_back({fmt::format("part{}.{}", i, kNames[k]), values[k], ""});
  }
  return out;
}

DebugVocabulary Bi2PausePoint::vocabulary() const {
  DebugVocabulary v;
  v.memory.push_back(vertices_view());
  for (const auto& r : registers()) v.register_names.push_back(r.name);
  return v;
}

std::optional<int64_t> Bi2PausePoint::read(std::string_view name) const {
  if (auto p = parse_memory_name(name); p && p->view == "vertices") {
    const auto* column = std::find(std::begin(kVertexColumns), std::end(kVertexColumns), p->column);
    if (column == std::end(kVertexColumns)) return std::nullopt;
    if (p->index >= v_.posed.size() || p->index >= v_.view.size()) return std::nullopt;
    const size_t c = static_cast<size_t>(column - std::begin(kVertexColumns));
    const Vec3& m = v_.posed[p->index];
    const ViewPoint& w = v_.view[p->index];
    const int64_t values[] = {m[0], m[1], m[2], w.x, w.y, w.z};
    return values[c];
  }
  for (const auto& r : registers())
    if (r.name == name && r.text.empty()) return r.value;
  for (const auto& g : globals())
    if (g.name == name && g.text.empty()) return g.value;
  if (name == "steps") return static_cast<int64_t>(v_.steps);
  if (name == "offset") return v_.offset;
  return std::nullopt;
}

Snapshot Bi2PausePoint::capture() const {
  Snapshot s;
  s.steps = v_.steps;
  s.offset = v_.offset;
  s.mnemonic = std::string(v_.mnemonic);
  s.faces = v_.steps;
  s.registers = registers();
  s.globals = globals();
  MemoryView vertices{vertices_view(), {}};
  const size_t n = std::min(v_.posed.size(), v_.view.size());
  for (size_t i = 0; i < n; ++i) {
    const Vec3& m = v_.posed[i];
    const ViewPoint& w = v_.view[i];
    vertices.rows.push_back({static_cast<uint32_t>(i), {m[0], m[1], m[2], w.x, w.y, w.z}});
  }
  s.memory.push_back(std::move(vertices));
  if (v_.ended) {
    s.ended = true;
    s.end_reason = std::string(v_.reason);
    s.end_clean = v_.clean;
  }
  return s;
}

}  // namespace shapevm::bi2
