#include "interp/shp/pose.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "interp/common/camera_fit.h"
#include "interp/shp/draw_assumptions.h"

namespace shapevm::shp {
namespace {

__extension__ using Wide = __int128;

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

double finite(float v) {
  return std::isfinite(v) ? static_cast<double>(v) : 0.0;
}

int64_t to_units_d(double model_units) {
  return to_units(static_cast<float>(model_units));
}

Q16 radians_q16(double radians) {
  return to_q16(static_cast<float>(radians));
}

// The part's orientation O (row-major) as Q16; identity when the record leaves it all zero.
M3 orientation(const Part& part) {
  M3 o{};
  bool any = false;
  for (size_t r = 0; r < 3; ++r)
    for (size_t c = 0; c < 3; ++c) {
      o[r][c] = to_q16(part.orientation[r * 3 + c]);
      any = any || o[r][c] != 0;
    }
  return any ? o : identity();
}

// The local motion of a part in a clip pose, acting on model-frame points.
Affine local_motion(const Part& part, const ClipPose& pose) {
  std::array<Q16, 3> a{};
  for (size_t i = 0; i < 3; ++i)
    a[i] = part.axis_not_animated[i] != 0 ? 0 : radians_q16(pose.angles[i]);
  const M3 o = orientation(part);
  const M3 m = multiply(multiply(transpose(o), rotation_xyz(a[0], a[1], a[2])), o);
  P3 centre{};
  for (size_t i = 0; i < 3; ++i) centre[i] = to_units(part.origin[i]) + to_units(part.mount[i]);
  const P3 turned = times(m, centre);
  Affine out;
  out.m = m;
  for (size_t i = 0; i < 3; ++i) out.t[i] = centre[i] - turned[i] + to_units_d(pose.offset[i]);
  return out;
}

}  // namespace

const Clip* find_clip(const Part& part, std::string_view name) {
  const Clip* found = nullptr;
  for (const Clip& c : part.clips)
    if (same_name(c.name, name)) found = &c;
  return found;
}

int64_t clip_time(const Clip& clip, int64_t frame) {
  const int64_t length = clip.length;
  if (length <= 0 || frame <= 0) return 0;
  switch (clip.mode) {
    case 2:  // loop
      return frame % length;
    case 3: {  // ping-pong
      const int64_t t = frame % (2 * length);
      return t <= length ? t : 2 * length - t;
    }
    default:  // 1 once; 0 "none" plays as once (assumed)
      return std::min(frame, length);
  }
}

ClipPose clip_pose(const Clip& clip, int64_t time) {
  ClipPose pose;
  if (clip.keyframes.empty()) return pose;
  // Bracketing keyframes; before the first, a zero pose at time 0.
  const Keyframe* next = nullptr;
  const Keyframe* prev = nullptr;
  for (const Keyframe& k : clip.keyframes) {
    if (k.time <= time) prev = &k;
    if (k.time > time) {
      next = &k;
      break;
    }
  }
  auto values = [](const Keyframe& k, ClipPose& out) {
    for (size_t i = 0; i < 3; ++i) {
      out.angles[i] = finite(k.angles[i]);
      out.offset[i] = finite(k.offset[i]);
    }
  };
  if (next == nullptr) {  // at or after the last: hold it
    values(*prev, pose);
    return pose;
  }
  ClipPose a, b;
  int64_t t0 = 0;
  if (prev != nullptr) {
    values(*prev, a);
    t0 = prev->time;
  }
  values(*next, b);
  const int64_t t1 = next->time;
  if (t1 <= t0) return b;
  const double f = static_cast<double>(time - t0) / static_cast<double>(t1 - t0);
  for (size_t i = 0; i < 3; ++i) {
    pose.angles[i] = a.angles[i] + (b.angles[i] - a.angles[i]) * f;
    pose.offset[i] = a.offset[i] + (b.offset[i] - a.offset[i]) * f;
  }
  return pose;
}

std::vector<FiredEvent> fired_events(const Model& model, std::string_view name, uint32_t frame) {
  std::vector<FiredEvent> out;
  if (name.empty() || frame == 0) return out;
  for (uint32_t p = 0; p < model.parts.size(); ++p) {
    const Part& part = model.parts[p];
    const Clip* clip = find_clip(part, name);
    if (clip == nullptr || clip->mode == 3 || clip->length <= 0) continue;
    const int64_t before = clip_time(*clip, int64_t{frame} - 1);
    const int64_t after = clip_time(*clip, frame);
    // Spans of clip time the step covered: [before, after), or on a loop's wrap
    // [before, length) and [0, after).
    std::vector<std::pair<int64_t, int64_t>> spans;
    if (after >= before) {
      spans.emplace_back(before, after);
    } else {
      spans.emplace_back(before, clip->length);
      spans.emplace_back(0, after);
    }
    const uint32_t clip_index = static_cast<uint32_t>(clip - part.clips.data());
    for (const auto& [lo, hi] : spans)
      for (uint32_t e = 0; e < clip->events.size(); ++e) {
        const ClipEvent& ev = clip->events[e];
        if (ev.time >= lo && ev.time < hi) out.push_back({p, clip_index, e, ev.time, ev.kind});
      }
  }
  return out;
}

std::vector<Affine> place_parts(const Model& model, const DrawState& state) {
  const size_t n = model.parts.size();
  std::vector<Affine> local(n);  // the part's own motion (identity at rest)
  for (size_t p = 0; p < n; ++p) {
    const Part& part = model.parts[p];
    if (state.clip.empty()) continue;
    if (const Clip* clip = find_clip(part, state.clip))
      local[p] = local_motion(part, clip_pose(*clip, clip_time(*clip, state.frame)));
  }
  std::vector<Affine> out(n);
  for (size_t p = 0; p < n; ++p) {
    const Part& part = model.parts[p];
    Affine place;  // part frame -> model frame at rest: origin + vertex
    for (size_t i = 0; i < 3; ++i) place.t[i] = to_units(part.origin[i]);
    // Its own motion, then each ancestor's, nearest first.
    size_t at = p;
    for (size_t hops = 0; hops <= n; ++hops) {
      place = compose(local[at], place);
      const int32_t parent = model.parts[at].parent;
      if (parent < 0 || static_cast<size_t>(parent) >= n || static_cast<size_t>(parent) == at)
        break;
      at = static_cast<size_t>(parent);
    }
    out[p] = place;
  }
  return out;
}

LodChoice choose_level(const Part& part, int64_t depth, LodRule rule,
                       std::optional<uint32_t> forced) {
  const size_t n = part.levels.size();
  if (n == 0) return {-1, 0};
  if (forced) return {static_cast<int32_t>(std::min<size_t>(*forced, n - 1)), 0};
  if (n == 1) return {0, 0};  // single-level parts hold 0 and always draw
  std::vector<int64_t> d(n);
  for (size_t i = 0; i < n; ++i) d[i] = to_units(part.levels[i].distance);
  int32_t level = 0;
  int64_t lo = 0, hi = 0;
  bool band = false;
  if (rule == LodRule::kSeed) {
    for (size_t i = 0; i < n; ++i)
      if (depth > d[i]) level = static_cast<int32_t>(i);
    const size_t l = static_cast<size_t>(level);
    if (l + 1 < n) {
      lo = depth > d[l] ? d[l] : 0;
      hi = d[l + 1];
      band = true;
    }
  } else {
    const int64_t scaled = depth / assumed::kPortedDetailDivisor;
    level = -1;
    for (size_t i = 0; i < n; ++i)
      if (scaled < d[i]) {
        level = static_cast<int32_t>(i);
        break;
      }
    if (level < 0) return {-1, 0};
    const size_t l = static_cast<size_t>(level);
    if (l + 1 < n) {
      lo = l == 0 ? 0 : d[l - 1];
      hi = d[l];
      band = true;
    }
    depth = scaled;
  }
  LodChoice out{level, 0};
  const uint32_t flags = part.flags & (kPartGeomorphPositions | kPartGeomorphNormals);
  if (band && flags != 0 && hi > lo) {
    const int64_t t = std::clamp<int64_t>((depth - lo) * kOne / (hi - lo), 0, kOne);
    const int64_t start = kOne * 3 / 4;
    out.morph = t >= start ? std::min<int64_t>(4 * (t - start), kOne) : 0;
  }
  return out;
}

CameraFit fit_camera(const Model& model, const std::vector<Affine>& places, const DrawState& s) {
  P3 lo{INT64_MAX, INT64_MAX, INT64_MAX}, hi{INT64_MIN, INT64_MIN, INT64_MIN};
  bool any = false;
  // Every drawn part's level-0 vertex, placed: what the fit frames, kept only when there is a
  // distance to fit (a given one needs only the target and radius).
  const bool fitting = s.camera_distance <= 0;
  std::vector<P3> placed;
  if (fitting) {
    size_t vertex_count = 0;
    for (const Part& part : model.parts)
      if (!part.levels.empty()) vertex_count += part.levels[0].vertices.size();
    placed.reserve(vertex_count);
  }
  for (size_t p = 0; p < model.parts.size() && p < places.size(); ++p) {
    const Part& part = model.parts[p];
    if (part.levels.empty()) continue;
    if ((part.flags & kPartDamagedModel) != 0 && !s.destroyed) continue;
    for (const Vertex& v : part.levels[0].vertices) {
      const P3 m =
          places[p]({to_units(v.position[0]), to_units(v.position[1]), to_units(v.position[2])});
      for (size_t a = 0; a < 3; ++a) {
        lo[a] = std::min(lo[a], m[a]);
        hi[a] = std::max(hi[a], m[a]);
      }
      if (fitting) placed.push_back(m);
      any = true;
    }
  }
  CameraFit fit;
  int64_t radius = assumed::kViewUnitsPerModelUnit;
  if (any) {
    std::array<int64_t, 3> half{};
    for (size_t a = 0; a < 3; ++a) {
      fit.target[a] = lo[a] + (hi[a] - lo[a]) / 2;
      half[a] = (hi[a] - lo[a]) / 2;
    }
    // Half the diagonal (integer square root through normalise's arithmetic).
    const Wide d2 = static_cast<Wide>(half[0]) * half[0] + static_cast<Wide>(half[1]) * half[1] +
                    static_cast<Wide>(half[2]) * half[2];
    Wide r = 0, bit = Wide{1} << 100;
    Wide n = d2;
    while (bit > n) bit >>= 2;
    while (bit != 0) {
      if (n >= r + bit) {
        n -= r + bit;
        r = (r >> 1) + bit;
      } else {
        r >>= 1;
      }
      bit >>= 2;
    }
    radius = std::max<int64_t>(radius, static_cast<int64_t>(r));
  }
  fit.radius = radius;
  fit.camera.heading = s.camera_heading;
  fit.camera.pitch = s.camera_pitch;
  if (!fitting) {  // given: nothing to fit (the viewer names the distance it fitted)
    fit.camera.distance = s.camera_distance * assumed::kViewUnitsPerModelUnit;
    return fit;
  }
  const int64_t near = assumed::kNearPlaneModelUnits * assumed::kViewUnitsPerModelUnit;
  // `--camera fit`: the placed vertices, turned to the camera's heading and pitch about the
  // target, fill the frame (interp/common/camera_fit.h), every one beyond the near plane.
  const View turn = make_view({0, s.camera_heading, s.camera_pitch}, fit.target);
  std::vector<FitPoint> points;
  points.reserve(placed.size());
  for (const P3& m : placed) {
    const ViewPoint v = turn.to_view(m);
    points.push_back({v.x, v.y, v.z});
  }
  FitProjection projection;
  projection.width = s.width;
  projection.height = s.height;
  projection.focal_pixels =
      std::max(1, s.height * assumed::kFocalNumerator / assumed::kFocalDenominator);
  projection.near = near;
  projection.minimum = near;
  // Whole model units (rounded up, so still inside the frame): `--camera D` can then name the
  // fitted distance exactly, which is how the viewer hands its camera to a run.
  constexpr int64_t kUnit = assumed::kViewUnitsPerModelUnit;
  const int64_t fitted = (fit_distance(points, projection) + kUnit - 1) / kUnit * kUnit;
  fit.camera.distance = fitted;
  return fit;
}

}  // namespace shapevm::shp
