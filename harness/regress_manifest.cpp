#include "harness/regress_manifest.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/json_input.h"

namespace shapevm::harness {

namespace {

using nlohmann::json;

const char* type_name(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "an integer";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

// Reports every problem as "<manifest>: <JSON pointer>: <what was expected>".
class Validator {
 public:
  explicit Validator(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw InputError(source_, fmt::format("{}: {}", pointer.empty() ? "/" : pointer, what));
  }

  void object(const json& v, const std::string& ptr, const std::set<std::string>& allowed) const {
    if (!v.is_object()) fail(ptr, fmt::format("expected an object, got {}", type_name(v)));
    for (const auto& [key, value] : v.items()) {
      if (allowed.count(key) != 0) continue;
      std::string names;
      for (const auto& a : allowed) names += (names.empty() ? "" : ", ") + a;
      fail(ptr + "/" + escape(key), fmt::format("unknown field; expected one of {}", names));
    }
  }

  std::string string(const json& v, const std::string& ptr) const {
    if (!v.is_string() || v.get_ref<const std::string&>().empty())
      fail(ptr, fmt::format("expected a non-empty string, got {}",
                            v.is_string() ? "an empty string" : type_name(v)));
    return v.get<std::string>();
  }

  uint64_t integer(const json& v, const std::string& ptr, uint64_t max) const {
    if (!(v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0)))
      fail(ptr, fmt::format("expected an integer 0..{}, got {}", max, describe(v)));
    const uint64_t n = v.get<uint64_t>();
    if (n > max) fail(ptr, fmt::format("expected an integer 0..{}, got {}", max, n));
    return n;
  }

  bool boolean(const json& v, const std::string& ptr) const {
    if (!v.is_boolean()) fail(ptr, fmt::format("expected true or false, got {}", describe(v)));
    return v.get<bool>();
  }

  std::pair<int, int> size(const json& v, const std::string& ptr) const {
    const std::string text = string(v, ptr);
    const auto x = text.find('x');
    int w = 0, h = 0;
    size_t a = 0, b = 0;
    try {
      if (x == std::string::npos) throw std::invalid_argument(text);
      w = std::stoi(text.substr(0, x), &a);
      h = std::stoi(text.substr(x + 1), &b);
    } catch (const std::exception&) {
      a = 0;
    }
    if (x == std::string::npos || a != x || b != text.size() - x - 1 || w < 1 || h < 1 ||
        w > raster::Framebuffer::kMaxDimension || h > raster::Framebuffer::kMaxDimension)
      fail(ptr, fmt::format("expected \"WIDTHxHEIGHT\" with each side 1..{}, got \"{}\"",
                            raster::Framebuffer::kMaxDimension, text));
    return {w, h};
  }

  static std::string escape(const std::string& key) {
    std::string out;
    for (char c : key) {
      if (c == '~')
        out += "~0";
      else if (c == '/')
        out += "~1";
      else
        out.push_back(c);
    }
    return out;
  }

 private:
  static std::string describe(const json& v) {
    if (v.is_number() || v.is_boolean()) return v.dump();
    if (v.is_string()) return v.dump();
    return type_name(v);
  }
  std::string source_;
};

const std::set<std::string> kCaseFields{"name",       "engine",  "file",    "state",
                                        "camera",     "size",    "palette", "textures",
                                        "background", "capture", "mask",    "exclude"};
const std::set<std::string> kStateFields{"frame",   "lod", "detail", "destroyed",
                                         "effects", "set", "camera", "merged"};

CaseState parse_state(const Validator& v, const json& j, const std::string& ptr) {
  v.object(j, ptr, kStateFields);
  CaseState s;
  if (j.contains("frame"))
    s.frame = static_cast<uint32_t>(v.integer(j["frame"], ptr + "/frame", 0xFFFFFFFFu));
  if (j.contains("lod")) s.lod = static_cast<uint32_t>(v.integer(j["lod"], ptr + "/lod", 255));
  if (j.contains("detail"))
    s.detail = static_cast<uint16_t>(v.integer(j["detail"], ptr + "/detail", 0xFFFF));
  if (j.contains("destroyed")) s.destroyed = v.boolean(j["destroyed"], ptr + "/destroyed");
  if (j.contains("effects"))
    s.effects = static_cast<uint32_t>(v.integer(j["effects"], ptr + "/effects", 0xFFFFFFFFu));
  if (j.contains("set")) {
    const json& sets = j["set"];
    const std::string sp = ptr + "/set";
    if (!sets.is_array())
      v.fail(sp,
             fmt::format("expected an array of \"NAME=VALUE\" strings, got {}", type_name(sets)));
    for (size_t i = 0; i < sets.size(); ++i) {
      const std::string item = v.string(sets[i], fmt::format("{}/{}", sp, i));
      const auto eq = item.find('=');
      if (eq == 0 || eq == std::string::npos || eq + 1 == item.size())
        v.fail(fmt::format("{}/{}", sp, i),
               fmt::format("expected \"NAME=VALUE\", got \"{}\"", item));
      s.sets.push_back(item);
    }
  }
  if (j.contains("camera")) s.camera = v.string(j["camera"], ptr + "/camera");
  if (j.contains("merged")) s.merged = v.boolean(j["merged"], ptr + "/merged");
  return s;
}

raster::ClipRect parse_rect(const Validator& v, const json& j, const std::string& ptr) {
  const char* expected = "expected [x, y, width, height] with x, y >= 0 and width, height >= 1";
  if (!j.is_array() || j.size() != 4) v.fail(ptr, expected);
  int64_t n[4];
  for (size_t i = 0; i < 4; ++i) {
    if (!j[i].is_number_integer()) v.fail(fmt::format("{}/{}", ptr, i), expected);
    n[i] = j[i].get<int64_t>();
  }
  const int64_t limit = raster::Framebuffer::kMaxDimension;
  if (n[0] < 0 || n[1] < 0 || n[2] < 1 || n[3] < 1 || n[0] + n[2] > limit || n[1] + n[3] > limit)
    v.fail(ptr, fmt::format("{} inside {}x{}, got {}", expected, limit, limit, j.dump()));
  return {static_cast<int32_t>(n[0]), static_cast<int32_t>(n[1]), static_cast<int32_t>(n[0] + n[2]),
          static_cast<int32_t>(n[1] + n[3])};
}

}  // namespace

std::string resolve_input(const std::filesystem::path& folder, const std::string& spec) {
  const std::filesystem::path plain(spec);
  if (plain.is_absolute() || folder.empty()) return spec;
  std::error_code ec;
  const std::filesystem::path joined = folder / plain;
  if (std::filesystem::is_regular_file(joined, ec)) return joined.string();
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0) return joined.string();
  const std::filesystem::path container(spec.substr(0, colon));
  if (container.is_absolute()) return spec;
  return (folder / container).string() + spec.substr(colon);
}

Manifest parse_manifest(std::string_view text, const std::filesystem::path& path,
                        const std::vector<std::string>& known_engines) {
  const std::string source = path.string();
  json root = parse_json_input(text, source);
  const Validator v(source);
  v.object(root, "", {"version", "defaults", "cases"});
  if (!root.contains("version")) v.fail("/version", "missing; expected 1");
  if (v.integer(root["version"], "/version", 1000) != kManifestVersion)
    v.fail("/version", fmt::format("expected {} (the only manifest version)", kManifestVersion));
  json defaults = json::object();
  if (root.contains("defaults")) {
    defaults = root["defaults"];
    v.object(defaults, "/defaults",
             {"engine", "size", "palette", "textures", "background", "state"});
  }
  if (!root.contains("cases")) v.fail("/cases", "missing; expected an array of cases");
  const json& cases = root["cases"];
  if (!cases.is_array() || cases.empty())
    v.fail("/cases", fmt::format("expected a non-empty array of cases, got {}",
                                 cases.is_array() ? "an empty array" : type_name(cases)));

  Manifest m;
  m.path = path;
  m.folder = path.parent_path();
  std::map<std::string, size_t> names;
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string ptr = fmt::format("/cases/{}", i);
    const json& j = cases[i];
    v.object(j, ptr, kCaseFields);
    // A field of the case, or else of "defaults" (reported where it was written).
    auto field = [&](const char* key) -> std::pair<const json*, std::string> {
      if (j.contains(key)) return {&j[key], ptr + "/" + key};
      if (defaults.contains(key)) return {&defaults[key], std::string("/defaults/") + key};
      return {nullptr, {}};
    };
    RegressCase c;
    c.index = i;
    c.pointer = ptr;
    if (!j.contains("name")) v.fail(ptr + "/name", "missing; every case needs a unique name");
    c.name = v.string(j["name"], ptr + "/name");
    if (auto [it, fresh] = names.emplace(c.name, i); !fresh)
      v.fail(ptr + "/name",
             fmt::format("duplicate name \"{}\" (also /cases/{})", c.name, it->second));
    auto [engine, engine_ptr] = field("engine");
    if (engine == nullptr) v.fail(ptr + "/engine", "missing (and no /defaults/engine)");
    c.engine = v.string(*engine, engine_ptr);
    if (!known_engines.empty() &&
        std::find(known_engines.begin(), known_engines.end(), c.engine) == known_engines.end()) {
      std::string list;
      for (const auto& e : known_engines) list += (list.empty() ? "" : ", ") + e;
      v.fail(engine_ptr, fmt::format("unknown engine \"{}\"; expected one of {}", c.engine, list));
    }
    if (!j.contains("file"))
      v.fail(ptr + "/file", "missing; expected the shape file or LIB:MEMBER");
    c.file = resolve_input(m.folder, v.string(j["file"], ptr + "/file"));
    // State fields of the case override those of /defaults/state one by one; each part is
    // validated where it was written so errors point there.
    json state = json::object();
    if (defaults.contains("state")) {
      parse_state(v, defaults["state"], "/defaults/state");
      state = defaults["state"];
    }
    if (j.contains("state")) {
      parse_state(v, j["state"], ptr + "/state");
      for (const auto& [key, value] : j["state"].items()) state[key] = value;
    }
    c.state = parse_state(v, state, ptr + "/state");
    if (j.contains("camera")) {
      if (j.contains("state") && j["state"].contains("camera"))
        v.fail(ptr + "/camera", "given twice: here and in /state/camera; keep one");
      c.state.camera = v.string(j["camera"], ptr + "/camera");
    }
    if (auto [s, sp] = field("size"); s != nullptr) std::tie(c.width, c.height) = v.size(*s, sp);
    if (auto [p, pp] = field("palette"); p != nullptr && !p->is_null())
      c.palette = resolve_input(m.folder, v.string(*p, pp));
    if (auto [t, tp] = field("textures"); t != nullptr && !t->is_null())
      c.textures = resolve_input(m.folder, v.string(*t, tp));
    if (auto [b, bp] = field("background"); b != nullptr)
      c.background = static_cast<uint8_t>(v.integer(*b, bp, 255));
    if (!j.contains("capture"))
      v.fail(ptr + "/capture", "missing; expected the capture file (.png, or .raw)");
    const std::string capture = v.string(j["capture"], ptr + "/capture");
    c.capture = std::filesystem::path(resolve_input(m.folder, capture));
    const std::string ext = c.capture.extension().string();
    if (ext == ".png" || ext == ".PNG")
      c.capture_format = CaptureFormat::kPng;
    else if (ext == ".raw" || ext == ".RAW")
      c.capture_format = CaptureFormat::kRaw;
    else
      v.fail(ptr + "/capture",
             fmt::format("expected a .png or .raw file name, got \"{}\"", capture));
    if (j.contains("mask"))
      c.mask = std::filesystem::path(resolve_input(m.folder, v.string(j["mask"], ptr + "/mask")));
    if (j.contains("exclude")) {
      const json& ex = j["exclude"];
      if (!ex.is_array())
        v.fail(ptr + "/exclude",
               fmt::format("expected an array of [x, y, width, height], got {}", type_name(ex)));
      for (size_t r = 0; r < ex.size(); ++r)
        c.exclude.push_back(parse_rect(v, ex[r], fmt::format("{}/exclude/{}", ptr, r)));
    }
    m.cases.push_back(std::move(c));
  }
  return m;
}

Manifest read_manifest(const std::filesystem::path& path,
                       const std::vector<std::string>& known_engines) {
  const std::vector<uint8_t> bytes = read_file(path);
  return parse_manifest(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                        path, known_engines);
}

}  // namespace shapevm::harness
