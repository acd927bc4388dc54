#include "interp/apache/interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "core/input_error.h"
#include "interp/apache/branch_kinds.h"
#include "interp/apache/decoded_instructions.h"
#include "interp/apache/pause.h"
#include "interp/apache/shadow.h"
#include "interp/apache/winding.h"
#include "interp/common/camera_fit.h"
#include "raster/projection.h"

namespace shapevm::apache {

std::array<int64_t, 3> Transform::apply(const Vec3& v) const {
  std::array<int64_t, 3> out{};
  for (size_t row = 0; row < 3; ++row) {
    int64_t sum = 0;
    for (size_t k = 0; k < 3; ++k) sum += (rotation[row * 3 + k] * v[k]) >> 31;
    out[row] = sum + translation[row];
  }
  return out;
}

Transform Transform::then(const Attachment& child) const {
  Transform out;
  for (size_t row = 0; row < 3; ++row) {
    for (size_t col = 0; col < 3; ++col) {
      int64_t sum = 0;
      for (size_t k = 0; k < 3; ++k)
        sum += (rotation[row * 3 + k] * child.rotation[k * 3 + col]) >> 31;
      out.rotation[row * 3 + col] = sum;
    }
  }
  const Vec3 t{child.translation[0], child.translation[1], child.translation[2]};
  out.translation = apply(t);
  return out;
}

std::vector<Instance> construct_instances(const Archive& archive, uint32_t record,
                                          const std::map<uint32_t, uint32_t>& slots,
                                          uint32_t depth_limit) {
  std::vector<Instance> out;
  struct Pending {
    uint32_t record;
    int32_t parent;
    uint32_t via_slot;
    bool gameplay;
    Transform transform;
    uint32_t depth;
  };
  std::vector<Pending> stack{{record, -1, 0, false, Transform{}, 0}};
  while (!stack.empty()) {
    Pending p = stack.back();
    stack.pop_back();
    const ModelRecord* rec = archive.record(p.record);
    if (rec == nullptr) {
      throw InputError(archive.source(),
                       fmt::format("attached model record #{} is an empty slot", p.record));
    }
    if (p.depth > depth_limit) {
      throw InputError(archive.source(), rec->offset,
                       fmt::format("expected attachments to nest at most {} deep (a cycle through "
                                   "record #{}?)",
                                   depth_limit, p.record));
    }
    const auto index = static_cast<int32_t>(out.size());
    out.push_back({p.record, p.parent, p.via_slot, p.gameplay, p.transform});
    if (!rec->header.has(kAttached)) continue;
    const auto attachments =
        read_attachments(archive.bytes(), rec->header.sections[kAttached], archive.source());
    // Push in reverse so instances come out in record order (depth first).
    for (size_t i = attachments.size(); i-- > 0;) {
      const Attachment& a = attachments[i];
      uint32_t target = a.model_id;
      bool gameplay = false;
      if (a.is_slot()) {  // AP-08: filled by gameplay, never the archive's null model
        auto it = slots.find(static_cast<uint32_t>(i));
        if (it == slots.end()) continue;
        target = it->second;
        gameplay = true;
      }
      stack.push_back(
          {target, index, static_cast<uint32_t>(i), gameplay, p.transform.then(a), p.depth + 1});
    }
  }
  return out;
}

uint32_t select_lod(const Archive& archive, uint32_t record, const RunState& state,
                    int64_t camera_distance) {
  uint32_t current = record;
  for (uint32_t step = 0; step < archive.count(); ++step) {
    const ModelRecord* rec = archive.record(current);
    if (rec == nullptr || rec->header.next_record < 0) break;
    if (state.lod) {
      if (step >= *state.lod) break;
    } else if (camera_distance <= rec->header.lod_distance) {
      break;
    }
    const auto next = static_cast<uint32_t>(rec->header.next_record);
    if (archive.record(next) == nullptr) break;
    current = next;
  }
  return current;
}

namespace {

int64_t isqrt(int64_t v) {
  if (v <= 0) return 0;
  auto r = static_cast<int64_t>(std::sqrt(static_cast<double>(v)));
  while (r * r > v) --r;
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

// A direction scaled to length kUnitComponent (127), integer. The components are first scaled so
// the largest is 2^20, which keeps the square root precise for short inputs such as (0, 1, -1).
std::array<int32_t, 3> unit127(const std::array<int64_t, 3>& v) {
  const int64_t largest = std::max({std::abs(v[0]), std::abs(v[1]), std::abs(v[2])});
  if (largest == 0) return {0, assumed::kUnitComponent, 0};
  std::array<int64_t, 3> scaled{};
  for (size_t i = 0; i < 3; ++i) scaled[i] = v[i] * (int64_t{1} << 20) / largest;
  const int64_t length =
      isqrt(scaled[0] * scaled[0] + scaled[1] * scaled[1] + scaled[2] * scaled[2]);
  std::array<int32_t, 3> out{};
  for (size_t i = 0; i < 3; ++i)
    out[i] = static_cast<int32_t>(scaled[i] * assumed::kUnitComponent / length);
  return out;
}

// Ends a run from anywhere in the recursion: a budget (unclean, with an error diagnostic) or the
// debugger (clean).
struct Stop {
  std::string reason;
  uint32_t offset;
  bool clean = false;
};

}  // namespace

struct Interpreter::Impl {
  const Archive& archive;
  const ShadingTables& tables;
  const TextureArchive* textures;
  // Each record's geometry, read on its first draw: found by record index, owned in the order
  // read. Not one vector of owners by index: a batch runs each record in an interpreter of its
  // own, and destroying up to an archive's worth of empty owners was a ninth of a first run.
  std::vector<const ModelGeometry*> geometry;
  std::vector<std::unique_ptr<ModelGeometry>> geometry_read;

  // Per run.
  const RunState* state = nullptr;
  EventSink* sink = nullptr;
  bool want_ops = false;  // per-opcode work: the sink's op events or the pause handler
  bool sink_ops = false;
  bool want_control = false;
  // The debugger (pause.h): null on ordinary runs. `frames` is kept only when it is set.
  PauseHandler* pause = nullptr;
  std::vector<DebugFrame> frames;
  uint32_t requested = 0;
  uint32_t lod_steps = 0;
  int64_t distance = 0;
  View view;
  raster::Projection projection;
  RunResult result;
  uint32_t sequence = 0;
  bool shadow_pass = false;
  int64_t shadow_plane = 0;
  std::array<int32_t, 3> sun{};  // the light normalised to 127 (bounded products when projecting)
  std::array<int32_t, 3> world_light{};  // the state's light normalised to 127, once per run
  // The last light place() normalised, and what it gave: the models of a run (and of run after
  // run in one state) mostly share their rotation, so their light; normalising it (a square
  // root and six divisions) was a twenty-fifth of interpreting an archive.
  std::array<int64_t, 3> last_model_light{};
  std::optional<std::array<int32_t, 3>> last_unit_light;
  // Every instruction run so far, decoded once, per secondary-length reading; `decoded` is the
  // run's. `running[depth]` is the instruction executing at each depth (its branches' links).
  std::array<DecodedInstructions, 2> decoded_by_reading;
  DecodedInstructions* decoded = nullptr;
  std::vector<DecodedInstruction*> running;
  // texture_name per (slot, masked), built once: face events refer to them.
  std::unordered_map<uint32_t, std::string> texture_names;
  std::vector<FaceCorner> corners;
  FaceEvent face_event = [] {  // draw_packet's; the fields no packet changes are set once
    FaceEvent e;
    e.engine = kEngine;
    e.wide_model = true;
    return e;
  }();

  // One model instance being drawn.
  struct Model {
    const ModelRecord* record = nullptr;
    const ModelGeometry* geometry = nullptr;
    Transform transform;
    std::vector<ViewPoint> view;
    std::vector<std::array<int32_t, 2>> screen;
    std::array<int32_t, 3> light{};  // toward the light, model axes, length 127
    int32_t winding = 0;             // the last winding result (signed high word)
  };
  // What placing a model depends on besides its vertices and the run's inputs (RunInputs, which
  // are the same for every kept placement). The same inputs give the same view and screen
  // positions and the same light, which a later run takes from `placed` instead of placing the
  // model again.
  struct PlacementInputs {
    const ModelGeometry* geometry = nullptr;
    Transform transform;
    bool shadow_pass = false;
    int64_t shadow_plane = 0;  // in the shadow pass (the state's ground, cloud or receiver)
    bool operator==(const PlacementInputs&) const = default;
  };
  struct Placement {
    PlacementInputs inputs;
    std::vector<ViewPoint> view;
    std::vector<std::array<int32_t, 2>> screen;
    std::array<int32_t, 3> light{};
  };
  // The last run's placements in the order it made them (the n-th model it drew, shadow pass
  // first), kept from an interpreter's second run on and at most kPlacementsKept of them. A run
  // in the same view and light (the debugger re-running a record to step back, a regress manifest
  // of one record in many animation states) places each model as the run before did: recalling
  // its positions saves transforming every vertex again, about half of such a run's time.
  // Placements are compared and kept only in a steady run: one of the same record in the same
  // view, frame and light as the run before. Otherwise (a batch going from record to record, the
  // viewer turning the camera) nothing would be recalled, and comparing and keeping cost a sixth
  // more per opcode; a run that is not steady drops what was kept, so every kept placement was
  // made with this run's RunInputs.
  static constexpr size_t kPlacementsKept = 1024;
  struct RunInputs {
    uint32_t record = 0;
    View view;
    raster::Projection projection;
    int32_t near_z = 0;
    std::array<int32_t, 3> light{};
    bool shadows = false;
    bool operator==(const RunInputs&) const = default;
  };
  std::vector<Placement> placed;
  uint32_t placements = 0;  // this run's so far
  std::optional<RunInputs> last_run;
  bool steady = false;

  // One per depth, reused across runs so placing a model allocates nothing once warm: the models
  // being drawn at one time are at strictly increasing depths (an attachment is drawn one deeper
  // than the instruction that attaches it). A deque keeps references as it grows.
  std::deque<Model> models;

  Impl(const Archive& a, const ShadingTables& t, const TextureArchive* x)
      : archive(a),
        tables(t),
        textures(x),
        decoded_by_reading{
            DecodedInstructions(a.bytes(), a.source(), SecondaryLength::kWhole),
            DecodedInstructions(a.bytes(), a.source(), SecondaryLength::kAfterItself)} {}

  const ModelGeometry& geometry_of(const ModelRecord& rec) {
    if (geometry.size() <= rec.index) geometry.resize(size_t{rec.index} + 1);
    const ModelGeometry*& slot = geometry[rec.index];
    if (slot == nullptr) {
      geometry_read.push_back(std::make_unique<ModelGeometry>(read_geometry(archive, rec)));
      slot = geometry_read.back().get();
    }
    return *slot;
  }

  void diagnose(uint32_t offset, DiagnosticLevel level, std::string message) {
    ++result.diagnostics;
    sink->on_diagnostic({kEngine, offset, level, std::move(message)});
  }

  // ---- Geometry --------------------------------------------------------------------------------

  void place(Model& m) {
    const auto& local = m.geometry->vertices.local;
    m.view.resize(local.size());
    m.screen.resize(local.size());
    const int64_t near_plane = std::max(projection.near_z, 1);
    const bool identity = m.transform == Transform{};
    for (size_t i = 0; i < local.size(); ++i) {
      // The root instance's transform is the identity, under which apply is exact: skip it.
      std::array<int64_t, 3> world =
          identity ? std::array<int64_t, 3>{local[i][0], local[i][1], local[i][2]}
                   : m.transform.apply(local[i]);
      if (shadow_pass) {
        if (auto flat = project_onto_plane(world, sun, shadow_plane)) world = *flat;
      }
      const ViewPoint& v = m.view[i] = view.to_view(world);
      // Only where the vertex lands is needed (the winding test), so not the full projection.
      const int64_t depth = std::max(-v.z, state->near_z);
      raster::Fixed x = 0, y = 0;  // a point before the near plane lands at the origin
      if (depth >= near_plane) raster::project_position(projection, v.x, v.y, depth, x, y);
      m.screen[i] = {x >> 16, y >> 16};
    }
    // The light in model axes: the transpose of the instance rotation applied to the world light.
    std::array<int64_t, 3> model_light{};
    for (size_t col = 0; col < 3; ++col) {
      int64_t sum = 0;
      for (size_t row = 0; row < 3; ++row)
        sum += (m.transform.rotation[row * 3 + col] * world_light[row]) >> 31;
      model_light[col] = sum;
    }
    if (!last_unit_light || model_light != last_model_light) {
      last_model_light = model_light;
      last_unit_light = unit127(model_light);
    }
    m.light = *last_unit_light;
  }

  // place(), or the same placement the last run made at this point when its inputs are equal.
  void place_or_recall(Model& m) {
    const uint32_t ordinal = placements++;
    if (!steady || ordinal >= kPlacementsKept) {
      place(m);
      return;
    }
    const PlacementInputs inputs{m.geometry, m.transform, shadow_pass,
                                 shadow_pass ? shadow_plane : 0};
    if (ordinal < placed.size() && placed[ordinal].inputs == inputs) {
      const Placement& p = placed[ordinal];
      m.view = p.view;
      m.screen = p.screen;
      m.light = p.light;
      return;
    }
    place(m);
    if (placed.size() <= ordinal) placed.resize(size_t{ordinal} + 1);
    placed[ordinal] = {inputs, m.view, m.screen, m.light};
  }

  [[noreturn, gnu::cold, gnu::noinline]] void bad_vertex_index(const Model& m, uint8_t index,
                                                               uint32_t byte_offset) const {
    throw InputError(archive.source(), byte_offset,
                     fmt::format("expected a vertex index below the model's {} vertices, found {}",
                                 m.view.size(), index));
  }

  // AP-19: the first three screen-space vertices, the signed high word of a wrapping 32-bit cross
  // product.
  static int32_t winding_of(const Model& m, uint8_t a, uint8_t b, uint8_t c) {
    return screen_winding(m.screen[a], m.screen[b], m.screen[c]);
  }

  // AP-25: dot of the model-space light with the normal, clamped at zero, scaled to a row of
  // the intensity table. AP-29: a normal index beyond the list keeps full intensity. AP-24: with
  // Gouraud shading disabled only the second count's subset of the list is there.
  int shade_level(const Model& m, uint8_t normal, uint32_t offset) {
    const auto& normals = m.geometry->normals.vectors;
    if (normal >= normals.size()) {
      diagnose(offset, DiagnosticLevel::kWarning,
               fmt::format("normal index {} is beyond the model's {} normals: the authored colour "
                           "is kept at full intensity",
                           normal, normals.size()));
      return assumed::kIntensityLevels - 1;
    }
    const uint16_t flat = m.geometry->normals.flat_count;
    if (!state->gouraud && normal >= flat) {
      diagnose(offset, DiagnosticLevel::kWarning,
               fmt::format("normal index {} is beyond the {} normals kept without Gouraud shading "
                           "(the list's second count): the authored colour is kept at full "
                           "intensity",
                           normal, flat));
      return assumed::kIntensityLevels - 1;
    }
    const auto& n = normals[normal];
    int32_t dot = n[0] * m.light[0] + n[1] * m.light[1] + n[2] * m.light[2];
    if (dot < 0) dot = 0;
    constexpr int32_t kFull = assumed::kUnitComponent * assumed::kUnitComponent;
    return std::min(dot * (assumed::kIntensityLevels - 1) / kFull, assumed::kIntensityLevels - 1);
  }

  std::string_view texture_name_of(uint16_t slot, bool masked) {
    auto [it, fresh] = texture_names.try_emplace(uint32_t{slot} * 2 + (masked ? 1 : 0));
    if (fresh) it->second = texture_name(slot, masked);
    return it->second;
  }

  // True when nothing needed saying: the packet's texture is there and every coordinate lies
  // on its row inside the allocation.
  bool check_texcoords(const Packet& p, uint32_t offset) {
    uint32_t stride = 64;
    if (textures != nullptr) {
      const ApacheTexture* t = textures->find(p.texture);
      if (t == nullptr) {
        diagnose(offset, DiagnosticLevel::kWarning,
                 fmt::format("texture {} is not in {}: the face is drawn in colour {}", p.texture,
                             textures->source(), p.colour));
        return false;
      }
      stride = t->stride;
    }
    bool clean = true;
    for (size_t i = 0; i < p.count; ++i) {
      const PacketVertex v = p.vertex(i);
      const uint32_t address = uint32_t{v.v} * stride + v.u;
      if (address >= assumed::kTexturePixels) {
        clean = false;
        diagnose(offset, DiagnosticLevel::kWarning,
                 fmt::format("texture coordinate u={} v={} addresses beyond texture {}'s "
                             "allocation: those samples are omitted",
                             v.u, v.v, p.texture));
      } else if (v.u >= stride) {
        clean = false;
        diagnose(offset, DiagnosticLevel::kInfo,
                 fmt::format("texture coordinate u={} on a {}-pixel row samples the next row "
                             "(contiguous addressing)",
                             v.u, stride));
      }
    }
    return clean;
  }

  // ---- Faces ---------------------------------------------------------------------------------

  // Draws the packet of a face or face2 (or its shadow). Returns its winding result.
  int32_t draw_packet(Model& m, DecodedInstruction& decoded_ins) {
    const Packet& p = decoded_ins.ins.packet;
    const uint32_t op_offset = decoded_ins.ins.offset;
    const PacketType& type = *p.type;
    const uint32_t vertex_base = p.offset + type.header_bytes;
    corners.resize(p.count);
    // Every field a corner of this engine carries is set here (texcoord and shade again below
    // when the packet has them); texcoord_fine is never used and stays zero. Read once: the
    // stores into the corners would otherwise make the compiler read them again per corner.
    const ViewPoint* view = m.view.data();
    const size_t vertex_count = m.view.size();
    const auto* local = m.geometry->vertices.local.data();
    const auto* raw = m.record->header.encoding == 0 ? m.geometry->vertices.raw.data() : nullptr;
    const uint8_t* index_byte = p.vertex_bytes.data();
    FaceCorner* corner = corners.data();
    for (size_t i = 0; i < p.count; ++i, index_byte += type.vertex_bytes, ++corner) {
      const uint8_t index = *index_byte;
      if (index >= vertex_count) [[unlikely]]
        bad_vertex_index(m, index, vertex_base + static_cast<uint32_t>(i * type.vertex_bytes));
      corner->index = index;
      corner->view = view[index];
      corner->model_wide = local[index];
      corner->model = raw != nullptr ? raw[index] : std::array<int16_t, 3>{};
      corner->texcoord = {};
      corner->shade = 0;
    }
    int32_t winding = 0;
    if (p.count >= 3) winding = winding_of(m, corners[0].index, corners[1].index, corners[2].index);
    // A polygon needs three vertices to fill. With cull_primaries, polygons facing away are not
    // drawn either; points and lines always are (assumptions.h).
    if (type.primitive == Primitive::kPolygon &&
        (p.count < 3 || (state->cull_primaries && winding < 0)))
      return winding;

    // One event reused by every face of the run, as FA does: constructing its defaults per face
    // was a tenth of a face's cost. Every field a packet may set is reset here.
    FaceEvent& e = face_event;
    e.offset = op_offset;
    e.corners = corners;
    e.shape = FaceShape::kPolygon;
    e.is_shadow = false;
    e.color = 0;
    e.color2 = 0;
    e.pattern = 0xFFFF;
    e.pattern_alternates = false;
    e.remap = {};
    e.textured = false;
    e.texture_linear = false;
    e.texture = {};
    e.shade_rows = {};
    if (shadow_pass) {
      const ShadowStyle style = shadow_style(type);
      if (style == ShadowStyle::kNone) return winding;
      e.is_shadow = true;
      e.color = assumed::kShadowColour;
      e.pattern = style == ShadowStyle::kMediumMesh ? assumed::kMediumMesh : assumed::kFineMesh;
      e.sequence = sequence++;
      ++result.shadow_faces;
      sink->on_face(e);
      check_work_budget(op_offset);
      return winding;
    }
    e.shape = type.primitive == Primitive::kPoints     ? FaceShape::kPoints
              : type.primitive == Primitive::kPolyline ? FaceShape::kPolyline
                                                       : FaceShape::kPolygon;
    e.color = p.colour;
    e.color2 = p.colour2;
    int level = assumed::kIntensityLevels - 1;
    if (type.shading == Shading::kFlat || (type.shading == Shading::kGouraud && !state->gouraud))
      level = shade_level(m, p.face_normal, p.offset);
    switch (type.material) {
      case Material::kColour:
        break;
      case Material::kTwoColour:
        e.pattern = assumed::kTwoColourPattern;
        e.pattern_alternates = true;
        break;
      case Material::kMesh:
        e.pattern = type.coarse_mesh ? assumed::kCoarseMesh : assumed::kFineMesh;
        break;
      case Material::kRemap:
        e.remap = type.remap == Remap::kGlass ? std::span<const uint8_t>(tables.glass)
                                              : std::span<const uint8_t>(tables.haze);
        break;
      case Material::kTexture:
        if (!decoded_ins.kept || !decoded_ins.texcoords_clean) {
          const bool clean = check_texcoords(p, p.offset);
          if (decoded_ins.kept) decoded_ins.texcoords_clean = clean;
        }
        e.textured = true;
        e.texture_linear = true;
        e.texture = texture_name_of(p.texture, type.masked);
        for (size_t i = 0; i < p.count; ++i) {
          const PacketVertex v = p.vertex(i);
          corners[i].texcoord = {v.u, v.v};
        }
        break;
    }
    const bool per_vertex = type.shading == Shading::kGouraud && state->gouraud;
    if (per_vertex) {
      for (size_t i = 0; i < p.count; ++i) {
        const PacketVertex v = p.vertex(i);
        corners[i].shade = shade_level(m, v.normal, p.offset) << 16;
      }
      e.shade_rows = tables.intensity;
    } else if (type.shading != Shading::kNone) {
      if (type.material == Material::kTexture) {
        // Every texel goes through the face's intensity row.
        for (auto& c : corners) c.shade = level << 16;
        e.shade_rows = tables.intensity;
      } else {
        e.color = tables.shade(level, p.colour);
        e.color2 = tables.shade(level, p.colour2);
      }
    }
    e.sequence = sequence++;
    ++result.faces;
    sink->on_face(e);
    check_work_budget(op_offset);
    return winding;
  }

  // ---- Execution -----------------------------------------------------------------------------

  void call(Model& m, const Instruction& ins, uint32_t target, uint32_t resume, uint32_t depth) {
    if (want_control) sink->on_call({kEngine, ins.offset, target, resume, depth + 1});
    if (pause != nullptr) frames.push_back({target, ins.offset, resume});
    execute(m, target, depth + 1);
    if (pause != nullptr) frames.pop_back();
    if (want_control) sink->on_return({kEngine, target, resume, depth});
  }

  // ---- The debugger ----------------------------------------------------------------------------

  PauseView pause_view() const {
    PauseView v;
    v.steps = result.ops;
    v.faces = result.faces;
    v.shadow_faces = result.shadow_faces;
    v.shadow_pass = shadow_pass;
    v.frames = frames;
    v.requested = requested;
    v.drawn = result.record;
    v.lod_steps = lod_steps;
    v.camera_distance = distance;
    v.state = state;
    return v;
  }

  // Before `ins` executes: what the sink and the debugger see of it. Throws Stop when the
  // debugger ends the run.
  void observe_op(const Model& m, const Instruction& ins, uint32_t depth) {
    if (pause != nullptr) {
      PauseView v = pause_view();
      v.offset = ins.offset;
      v.instruction = &ins;
      v.depth = depth;
      v.model = m.record;
      v.transform = &m.transform;
      v.local = m.geometry->vertices.local;
      v.view = m.view;
      v.winding = m.winding;
      if (pause->pause(ApachePausePoint(v)))
        throw Stop{std::string(kStoppedByDebugger), ins.offset, true};
    }
    if (sink_ops) {
      OpEvent e;
      e.engine = kEngine;
      e.offset = ins.offset;
      e.size = ins.size;
      e.op = ins.op;
      e.name = ins.info->name;
      e.depth = depth;
      sink->on_op(e);
      check_work_budget(ins.offset);
    }
  }

  // Ends the run (Stop) when a sink's work budget (faces, pixels, trace bytes) is exhausted.
  void check_work_budget(uint32_t offset) {
    if (const std::string_view reason = sink->stop_requested(); !reason.empty()) [[unlikely]]
      throw Stop{std::string(reason), offset};
  }

  void branch(const Instruction& ins, std::string_view kind, bool taken, uint32_t target,
              int64_t value, int64_t limit) {
    if (want_control) sink->on_branch({kEngine, ins.offset, kind, taken, target, value, limit});
  }

  void execute(Model& m, uint32_t start, uint32_t depth) {
    if (depth > state->depth_limit) throw Stop{"budget: depth", start};
    if (running.size() <= depth) running.resize(size_t{depth} + 1);
    uint32_t pc = start;
    DecodedInstruction* at = nullptr;
    while (true) {
      if (result.ops >= state->step_limit) throw Stop{"budget: steps", pc};
      if (at == nullptr)
        at = depth == 0 || running[depth - 1] == nullptr
                 ? &decoded->at(pc, depth)
                 : &decoded->called(*running[depth - 1], pc, depth);
      else
        at = &decoded->after(*at, pc, depth);
      running[depth] = at;
      if (want_ops) observe_op(m, at->ins, depth);
      ++result.ops;
      if (!run_handler(m, *at, depth, pc)) return;
    }
  }

  // ---- The eight handlers, by opcode. Each sets the next pc; false = ret.

  // A switch rather than a table of member pointers: the handlers that draw a face or return
  // are inlined here, and a call through a member pointer also tested whether it was virtual.
  bool run_handler(Model& m, DecodedInstruction& decoded_ins, uint32_t depth, uint32_t& pc) {
    const Instruction& ins = decoded_ins.ins;
    switch (static_cast<Opcode>(ins.op)) {
      case Opcode::kFace:
        return op_face(m, decoded_ins, pc);
      case Opcode::kFace2:
        return op_face2(m, decoded_ins, pc);
      case Opcode::kWinding:
        return op_winding(m, ins, depth, pc);
      case Opcode::kIfMask:
        return op_ifmask(m, ins, depth, pc);
      case Opcode::kChoose:
        return op_choose(m, ins, depth, pc);
      case Opcode::kSelect:
        return op_select(m, ins, depth, pc);
      case Opcode::kAttached:
        return op_attached(m, ins, depth, pc);
      case Opcode::kReturn:
        return op_return(m, ins, depth, pc);
    }
    // decode_instruction rejects every other byte as an opcode.
    throw std::logic_error(fmt::format("apache: decoded opcode {} has no handler", ins.op));
  }

  bool op_face(Model& m, DecodedInstruction& decoded_ins, uint32_t& pc) {  // AP-10
    const Instruction& ins = decoded_ins.ins;
    m.winding = draw_packet(m, decoded_ins);
    pc = ins.offset + ins.size;
    return true;
  }

  bool op_face2(Model& m, DecodedInstruction& decoded_ins, uint32_t& pc) {  // AP-11, AP-21
    const Instruction& ins = decoded_ins.ins;
    const bool drawn = m.winding >= 0;
    if (ins.secondary_mismatch) {
      // The engine only skips by the byte: a drawn packet is read to its end, a skipped one
      // resumes where the byte says.
      diagnose(
          ins.offset, DiagnosticLevel::kWarning,
          fmt::format("secondary packet length byte {} is not its {} packet's {} length {} "
                      "(secondary_length={}): {}",
                      ins.secondary_length, ins.packet.type->name,
                      state->secondary_length == SecondaryLength::kWhole ? "whole" : "type-on",
                      ins.secondary_expected, secondary_length_name(state->secondary_length),
                      drawn ? fmt::format("drawn, resuming after its vertices at 0x{:x}",
                                          ins.offset + ins.size)
                            : fmt::format("skipped by the byte to 0x{:x}", ins.secondary_skip)));
    }
    if (drawn) draw_packet(m, decoded_ins);
    pc = drawn ? ins.offset + ins.size : ins.secondary_skip;
    return true;
  }

  bool op_winding(Model& m, const Instruction& ins, uint32_t depth, uint32_t& pc) {  // AP-12
    for (uint8_t index : ins.polygon) {
      if (index >= m.view.size()) {
        throw InputError(archive.source(), ins.offset + 2,
                         fmt::format("expected decision-polygon vertex indices below {}, found {}",
                                     m.view.size(), index));
      }
    }
    const int32_t w = winding_of(m, ins.polygon[0], ins.polygon[1], ins.polygon[2]);
    const uint32_t front = ins.branches[0], back = ins.branches[1];
    const bool facing = w >= 0;
    branch(ins, branch_kind::kWinding, facing, facing ? back : front, w, 0);
    // The side away from the viewer first, the viewer's side on top (AP-18: then continue).
    call(m, ins, facing ? back : front, ins.continuation, depth);
    call(m, ins, facing ? front : back, ins.continuation, depth);
    pc = ins.continuation;
    return true;
  }

  bool op_ifmask(Model& m, const Instruction& ins, uint32_t depth, uint32_t& pc) {  // AP-13
    const bool set = (state->anim & ins.mask) != 0;
    branch(ins, branch_kind::kMask, set, set ? ins.branches[0] : ins.continuation, state->anim,
           ins.mask);
    if (set) call(m, ins, ins.branches[0], ins.continuation, depth);
    pc = ins.continuation;
    return true;
  }

  bool op_choose(Model& m, const Instruction& ins, uint32_t depth, uint32_t& pc) {  // AP-14
    const bool set = (state->anim & ins.mask) != 0;
    const uint32_t target = set ? ins.branches[0] : ins.branches[1];
    branch(ins, branch_kind::kMask, set, target, state->anim, ins.mask);
    call(m, ins, target, ins.continuation, depth);
    pc = ins.continuation;
    return true;
  }

  bool op_select(Model& m, const Instruction& ins, uint32_t depth, uint32_t& pc) {  // AP-15
    const uint32_t index = (state->anim >> ins.shift) & ins.mask;
    const bool authored = index < ins.branches.size();
    branch(ins, branch_kind::kSelector, authored, authored ? ins.branches[index] : ins.continuation,
           index, static_cast<int64_t>(ins.branches.size()));
    if (authored) {
      call(m, ins, ins.branches[index], ins.continuation, depth);
    } else {
      diagnose(ins.offset, DiagnosticLevel::kInfo,
               fmt::format("select value {} is beyond the {} authored cases: no case drawn", index,
                           ins.branches.size()));
    }
    pc = ins.continuation;
    return true;
  }

  bool op_attached(Model& m, const Instruction& ins, uint32_t depth, uint32_t& pc) {  // AP-16
    draw_attached(m, ins, depth);
    pc = ins.offset + ins.size;
    return true;
  }

  bool op_return(Model&, const Instruction&, uint32_t, uint32_t&) { return false; }  // AP-16

  void draw_attached(Model& m, const Instruction& ins, uint32_t depth) {
    const auto& attachments = m.geometry->attachments;
    if (ins.slot >= attachments.size()) {
      diagnose(ins.offset, DiagnosticLevel::kWarning,
               fmt::format("attached-model slot {} is beyond the model's {} attachment records",
                           ins.slot, attachments.size()));
      return;
    }
    const Attachment& a = attachments[ins.slot];
    uint32_t target = a.model_id;
    if (a.is_slot()) {
      auto it = state->slots.find(ins.slot);
      if (it == state->slots.end()) {
        diagnose(ins.offset, DiagnosticLevel::kInfo,
                 fmt::format("attached-model slot {} is filled by gameplay and empty in this "
                             "state (--set slot{}=RECORD fills it)",
                             ins.slot, ins.slot));
        return;
      }
      target = it->second;
    }
    const ModelRecord* rec = target < archive.count() ? archive.record(target) : nullptr;
    if (rec == nullptr) {
      diagnose(ins.offset, DiagnosticLevel::kWarning,
               fmt::format("attached model {} is not a record of the archive", target));
      return;
    }
    draw_model(*rec, m.transform.then(a), depth + 1, &ins);
  }

  void draw_model(const ModelRecord& rec, const Transform& transform, uint32_t depth,
                  const Instruction* caller) {
    if (depth > state->depth_limit) throw Stop{"budget: depth", rec.offset};
    if (models.size() <= depth) models.resize(size_t{depth} + 1);
    Model& m = models[depth];
    m.record = &rec;
    m.geometry = &geometry_of(rec);
    m.transform = transform;
    m.light = {};
    m.winding = 0;
    place_or_recall(m);
    if (!rec.header.has(kProgram)) {
      diagnose(rec.offset + 0x3c, DiagnosticLevel::kInfo,
               fmt::format("record {} has no face drawing program", rec.index));
      return;
    }
    const uint32_t start = rec.header.sections[kProgram];
    if (caller != nullptr) {
      const uint32_t resume = caller->offset + caller->size;
      if (want_control) sink->on_call({kEngine, caller->offset, start, resume, depth});
      if (pause != nullptr) frames.push_back({start, caller->offset, resume});
      execute(m, start, depth);
      if (pause != nullptr) frames.pop_back();
      if (want_control) sink->on_return({kEngine, start, resume, depth - 1});
    } else {
      execute(m, start, depth);
    }
  }

  RunResult run(uint32_t index, const RunState& s, EventSink& out, PauseHandler* handler) {
    state = &s;
    sink = &out;
    pause = handler;
    decoded = &decoded_by_reading[s.secondary_length == SecondaryLength::kWhole ? 0 : 1];
    decoded->begin_run();
    placements = 0;
    frames.clear();
    sink_ops = out.wants_ops();
    want_ops = sink_ops || pause != nullptr;
    want_control = out.wants_control();
    result = RunResult{};
    sequence = 0;
    requested = index;
    lod_steps = 0;
    const ModelRecord* requested_record = archive.record(index);
    if (requested_record == nullptr) {
      throw InputError(archive.source(), fmt::format("record #{} is empty (offset 0)", index));
    }
    distance = camera_distance(*requested_record, s);
    result.record = select_lod(archive, index, s, distance);
    for (uint32_t at = index; at != result.record && lod_steps < archive.count(); ++lod_steps)
      at = static_cast<uint32_t>(archive.record(at)->header.next_record);
    const ModelRecord& rec = *archive.record(result.record);
    result.end_offset = rec.offset;
    CameraSpec camera = s.camera;
    camera.distance = static_cast<int32_t>(std::min<int64_t>(distance, INT32_MAX));
    const auto& b = requested_record->header.bounds;
    view = make_view(camera, {(int64_t{b[0]} + b[1]) / 2, (int64_t{b[2]} + b[3]) / 2,
                              (int64_t{b[4]} + b[5]) / 2});
    projection = raster::make_projection(s.width, s.height, s.focal_pixels, s.near_z);
    world_light = unit127({s.light[0], s.light[1], s.light[2]});
    const RunInputs inputs{index, view, projection, s.near_z, s.light, s.shadows};
    steady = last_run == inputs;
    if (!steady) placed.clear();
    last_run = inputs;
    try {
      if (s.shadows && rec.header.casts_shadow()) {
        shadow_pass = true;
        sun = unit127({s.light[0], s.light[1], s.light[2]});
        shadow_plane = plane_for(rec);
        if (sun[1] > 0) {
          draw_model(shadow_geometry(rec), Transform{}, 0, nullptr);
        } else {
          diagnose(rec.offset, DiagnosticLevel::kInfo,
                   "the sun is not above the horizon: no shadow");
        }
      }
      shadow_pass = false;
      draw_model(rec, Transform{}, 0, nullptr);
      result.reason = "ret at top level";
    } catch (const Stop& stop) {
      shadow_pass = false;
      result.clean = stop.clean;
      result.reason = stop.reason;
      result.end_offset = stop.offset;
      if (!stop.clean) diagnose(stop.offset, DiagnosticLevel::kError, stop.reason);
    } catch (const InputError& error) {
      shadow_pass = false;
      result.clean = false;
      result.reason = error.what();
      result.end_offset = static_cast<uint32_t>(error.offset());
      diagnose(result.end_offset, DiagnosticLevel::kError, error.what());
    }
    if (pause != nullptr) {
      frames.clear();
      PauseView v = pause_view();
      v.offset = result.end_offset;
      v.end = &result;
      pause->pause(ApachePausePoint(v));  // the run has ended: the answer changes nothing
    }
    EndEvent end;
    end.engine = kEngine;
    end.offset = result.end_offset;
    end.reason = result.reason;
    end.clean = result.clean;
    end.ops = result.ops;
    end.faces = result.faces + result.shadow_faces;  // every face event the run emitted
    out.on_end(end);
    return result;
  }

  // The record whose face program and attachments draw `rec`'s shadow: model 0x40a for 0x4ba
  // and 0x4bb when the archive holds it (a note says which), otherwise `rec` itself.
  const ModelRecord& shadow_geometry(const ModelRecord& rec) {
    const std::optional<uint32_t> shared = shadow_geometry_record(rec.index);
    if (!shared) return rec;
    const ModelRecord* source = *shared < archive.count() ? archive.record(*shared) : nullptr;
    if (source == nullptr) {
      diagnose(rec.offset, DiagnosticLevel::kInfo,
               fmt::format("record 0x{:x} takes its shadow geometry from record 0x{:x}, which this "
                           "archive does not hold: its own geometry casts the shadow",
                           rec.index, *shared));
      return rec;
    }
    diagnose(rec.offset, DiagnosticLevel::kInfo,
             fmt::format("record 0x{:x} casts its shadow with record 0x{:x}'s geometry", rec.index,
                         *shared));
    return *source;
  }

  // AP-31, AP-33: terrain height under the model (the model's lowest point unless set), the
  // cloud layer when the model is above it, or a receiver's deck.
  int64_t plane_for(const ModelRecord& rec) {
    int64_t plane = state->ground ? *state->ground : rec.header.bounds[2];
    if (state->cloud && *state->cloud < 0) plane = *state->cloud;
    if (state->receiver) {
      const ModelRecord* receiver = archive.record(*state->receiver);
      if (receiver == nullptr) {
        throw InputError(archive.source(),
                         fmt::format("receiver record #{} is empty", *state->receiver));
      }
      // The model's origin projected to sea level (y = 0) decides whether it is over the deck.
      if (auto at = project_onto_plane({0, 0, 0}, sun, 0)) {
        if (auto deck =
                receiver_plane(receiver->header, state->receiver_heading, (*at)[0], (*at)[2]))
          plane = *deck;
      }
    }
    return plane;
  }

  int64_t camera_distance(const ModelRecord& rec, const RunState& s) const {
    if (s.camera.distance > 0) return s.camera.distance;
    // `--camera fit`: the eight corners of the header's bounding box, turned to the camera's
    // heading and pitch about the box's centre (where the camera looks), fill the frame.
    const auto& b = rec.header.bounds;
    const std::array<int64_t, 3> centre = {(int64_t{b[0]} + b[1]) / 2, (int64_t{b[2]} + b[3]) / 2,
                                           (int64_t{b[4]} + b[5]) / 2};
    const View turn = make_view({0, s.camera.heading, s.camera.pitch}, {0, 0, 0});
    std::vector<FitPoint> corners;
    // With shadows on, where the box's corners fall along the sun onto the ground (AP-31) is
    // framed too, so the shadow is not cut off at the frame's edge.
    const bool shadowed = s.shadows && rec.header.casts_shadow();
    const auto sun = unit127({s.light[0], s.light[1], s.light[2]});
    const int64_t ground = s.ground ? *s.ground : b[2];
    for (int k = 0; k < 8; ++k) {
      const std::array<int64_t, 3> corner = {
          k & 1 ? int64_t{b[1]} : b[0], k & 2 ? int64_t{b[3]} : b[2], k & 4 ? int64_t{b[5]} : b[4]};
      auto add = [&](const std::array<int64_t, 3>& p) {
        const ViewPoint v = turn.to_view({p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]});
        corners.push_back({v.x, v.y, v.z});
      };
      add(corner);
      if (shadowed)
        if (auto flat = project_onto_plane(corner, sun, ground)) add(*flat);
    }
    FitProjection projection;
    projection.width = s.width;
    projection.height = s.height;
    projection.focal_pixels = s.focal_pixels;
    projection.near = s.near_z;
    // An empty box (no bounds written) still gets a camera outside the near plane.
    projection.minimum = int64_t{s.near_z} * 4;
    return fit_distance(corners, projection);
  }
};

Interpreter::Interpreter(const Archive& archive, const ShadingTables& tables,
                         const TextureArchive* textures)
    : impl_(std::make_unique<Impl>(archive, tables, textures)) {}

Interpreter::~Interpreter() = default;

RunResult Interpreter::run(uint32_t record, const RunState& state, EventSink& sink,
                           PauseHandler* pause) {
  return impl_->run(record, state, sink, pause);
}

int64_t Interpreter::camera_distance(const ModelRecord& record, const RunState& state) const {
  return impl_->camera_distance(record, state);
}

}  // namespace shapevm::apache
