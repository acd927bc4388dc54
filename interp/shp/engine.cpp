// The Starlancer engine's implementation of the engine interface (interp/common/engine.h): a model
// is opened from a loose .SHP chunk stream, a RefPack stream of one, or a member of a BIGF .HOG;
// running it executes model_load's chunk requests (loader.h), then draws (draw.h).
#include "interp/shp/engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/byte_reader.h"
#include "core/input_error.h"
#include "core/partial_file.h"
#include "core/text_bytes.h"
#include "interp/shp/assembler.h"
#include "interp/shp/draw.h"
#include "interp/shp/generator.h"
#include "interp/shp/hog.h"
#include "interp/shp/info.h"
#include "interp/shp/loader.h"
#include "interp/shp/refpack.h"
#include "interp/shp/text_writer.h"
#include "interp/shp/validate.h"
#include "interp/shp/writer.h"

namespace shapevm::shp {
namespace {

// The shape recognition accepts: a header chunk (tag 0) of a plausible record size and count
// whose records fit the file. The rest is the loader's to check, so a damaged model is still
// recognised and gets a precise error.
constexpr uint16_t kMaxPlausibleHeaderSize = 0x200;
constexpr uint16_t kMaxPlausibleHeaderCount = 16;
// Members a HOG's recognition looks at for a model.
constexpr size_t kMembersProbed = 8;

// `head` is a stream's first bytes (at least kChunkHeaderSize of them, if it has them) and
// `size` its whole length.
bool looks_like_chunk_stream(std::span<const uint8_t> head, size_t size) {
  if (head.size() < kChunkHeaderSize) return false;
  const uint16_t tag = load_u16(head.data()), record_size = load_u16(head.data() + 2),
                 count = load_u16(head.data() + 4);
  return tag == 0 && record_size >= 4 && record_size <= kMaxPlausibleHeaderSize && count >= 1 &&
         count <= kMaxPlausibleHeaderCount &&
         kChunkHeaderSize + size_t{record_size} * count <= size;
}

bool looks_like_model(std::span<const uint8_t> b) {
  if (looks_like_chunk_stream(b, b.size())) return true;
  if (!starts_refpack(b)) return false;
  try {
    // Only the commands that give the first chunk header are walked: a stream broken further on
    // still holds a model, whose opening reports the break.
    const RefPackHead out = refpack_head(b, "probe", kChunkHeaderSize);
    return looks_like_chunk_stream(out.head, out.size);
  } catch (const InputError&) {
    return false;
  }
}

// How much of a probed member is read first. Recognition reads a stored model's first chunk
// header, or a RefPack stream's header and the commands that give that chunk header: each
// command before the end gives at least one byte of output from at most 113 bytes of input, so
// a valid stream's six bytes come within 700. A stream these bytes do not settle is read whole.
constexpr uint64_t kProbeBytes = 4096;

// Whether one of the members a HOG's recognition probes (the first kMembersProbed, in order, up
// to the first for which is_model holds) is one; before_probe(entry) is called before each is
// looked at.
template <typename BeforeProbe, typename IsModel>
bool probed_members_hold_a_model(std::span<const uint8_t> b, const Hog& hog,
                                 BeforeProbe&& before_probe, IsModel&& is_model) {
  for (size_t i = 0; i < hog.entries.size() && i < kMembersProbed; ++i) {
    before_probe(hog.entries[i]);
    if (is_model(member_bytes(b, hog.entries[i]))) return true;
  }
  return false;
}

bool hog_holds_models(std::span<const uint8_t> b) {
  if (!looks_like_hog(b)) return false;
  try {
    return probed_members_hold_a_model(
        b, read_hog(b, "probe"), [](const HogEntry&) {}, looks_like_model);
  } catch (const InputError&) {
  }
  return false;
}

std::vector<Knob> loader_knobs() {
  return {
      option_knob("max-steps", KnobType::kInteger, 1, INT64_MAX,
                  static_cast<int64_t>(assumed::kDefaultMaxSteps),
                  "budget: chunk headers the loader's scans examine, plus the drawing's steps")};
}

std::vector<Knob> engine_knobs() {
  std::vector<Knob> out = loader_knobs();
  for (Knob& k : draw_knobs()) out.push_back(std::move(k));
  return out;
}

uint64_t max_steps_of(const StateRequest& state) {
  if (const auto v = state.option("max-steps"))
    return static_cast<uint64_t>(parse_integer(*v, "--max-steps", 1, INT64_MAX));
  return assumed::kDefaultMaxSteps;
}

// What an argument opened: a model (its image and what the reader made of it), or a whole HOG.
struct Opened {
  std::string source;
  SharedBytes file;
  std::optional<Hog> hog;
  bool container_only = false;
  SharedBytes image;
  std::shared_ptr<const Model> model;
};

std::shared_ptr<Opened> open_image(SharedBytes image, std::string source) {
  auto o = std::make_shared<Opened>();
  o->source = std::move(source);
  o->image = std::move(image);
  o->model = std::make_shared<const Model>(load_model(o->image, o->source));
  return o;
}

std::shared_ptr<Opened> open_input(const EngineInput& input) {
  const std::span<const uint8_t> bytes = input.bytes;
  if (looks_like_hog(bytes)) {
    Hog hog = read_hog(bytes, input.path);
    if (!input.member) {
      auto o = std::make_shared<Opened>();
      o->source = input.path;
      o->file = input.bytes;
      o->hog = std::move(hog);
      o->container_only = true;
      return o;
    }
    const std::string source = input.path + ":" + *input.member;
    const HogEntry* entry = find_member(hog, *input.member);
    if (entry == nullptr) {
      throw InputError(source, fmt::format("no member named {} in {} ({} members)", *input.member,
                                           input.path, hog.entries.size()));
    }
    return open_image(member_image(bytes, *entry, source), source);
  }
  if (input.member) {
    throw InputError(input.spec, fmt::format("{} is a single model, not a HOG container with "
                                             "members",
                                             input.path));
  }
  if (starts_refpack(bytes)) return open_image(refpack_decompress(bytes, input.path), input.path);
  return open_image(input.bytes, input.path);
}

std::string hog_listing(const Opened& o) {
  std::string out =
      fmt::format("{}: Starlancer HOG (BIGF), {} members\n", o.source, o.hog->entries.size());
  for (const HogEntry& e : o.hog->entries) {
    const auto stored = member_bytes(o.file, e);
    out += fmt::format("  #{:<4} {:<24} {:>9} bytes{}\n", e.index, e.name, e.size,
                       starts_refpack(stored) ? " (RefPack)" : "");
  }
  for (const std::string& n : o.hog->notes) out += "note: " + n + "\n";
  return out;
}

class ShpProgram : public Program {
 public:
  ShpProgram(std::shared_ptr<Opened> opened, OpenOptions options)
      : o_(std::move(opened)), options_(std::move(options)) {}

  std::string_view engine() const override { return kEngine; }
  std::string source() const override { return o_->source; }

  std::string summary() const override {
    if (o_->container_only)
      return fmt::format("{} (Starlancer HOG, {} members)", o_->source, o_->hog->entries.size());
    size_t faces = 0;
    for (const Part& p : o_->model->parts)
      if (!p.levels.empty()) faces += p.levels[0].faces.size();
    return fmt::format("{} ({} parts, {} level-0 faces, {} bytes)", o_->source,
                       o_->model->parts.size(), faces, o_->image.size());
  }

  std::string info_text() const override {
    if (o_->container_only) return hog_listing(*o_);
    return model_info_text(*o_->model, o_->source);
  }

  nlohmann::json info_json() const override {
    if (o_->container_only) {
      nlohmann::json j;
      j["source"] = o_->source;
      j["engine"] = "shp";
      nlohmann::json members = nlohmann::json::array();
      for (const HogEntry& e : o_->hog->entries)
        members.push_back({{"index", e.index},
                           {"name", latin1_to_utf8(e.name)},  // bytes (core/text_bytes.h)
                           {"offset", e.offset},
                           {"size", e.size}});
      j["members"] = members;
      j["notes"] = o_->hog->notes;
      return j;
    }
    return model_info_json(*o_->model, o_->source);
  }

  std::string listing_text() const override {
    require_model();
    return model_text(o_->image, o_->source);
  }

  std::vector<ListingLine> listing_lines() const override {
    require_model();
    std::vector<ListingLine> out;
    for (TextLine& l : model_text_lines(o_->image, o_->source))
      out.push_back({l.offset, false, std::move(l.text)});
    return out;
  }

  std::vector<std::string> static_errors() const override {
    if (o_->container_only) return {};
    return validate_model(*o_->model);
  }

  std::vector<Knob> knobs() const override { return engine_knobs(); }
  bool runnable() const override { return !o_->container_only; }

  nlohmann::json state_json(const StateRequest& state) const override {
    require_model();
    nlohmann::json j;
    j["max_steps"] = max_steps_of(state);
    j["draw"] = draw_state_json(*o_->model, state);
    return j;
  }

  // model_load's requests, then the drawing of what they loaded, then the end.
  RunOutcome run(const StateRequest& state, EventSink& sink, PauseHandler* pause) override {
    require_model();
    LoadOptions lo;
    lo.sink = &sink;
    lo.pause = pause;
    lo.max_steps = max_steps_of(state);
    lo.source = o_->source;
    const LoadOutcome loaded = run_model_load(o_->image, lo);
    RunOutcome out;
    uint64_t ticks = loaded.pause_ticks;
    if (loaded.stopped) {
      out.clean = loaded.clean;
      out.reason = loaded.reason;
      out.end_offset = loaded.cursor;
      out.ops = loaded.requests;
    } else {
      DrawContext ctx(sink);
      ctx.pause = pause;
      ctx.source = o_->source;
      ctx.options = &options_;
      ctx.steps = loaded.requests;
      ctx.max_steps = lo.max_steps;
      ctx.pause_ticks = ticks;
      ctx.end_offset = static_cast<uint32_t>(o_->image.size());
      out = draw_model(loaded.model, state, ctx);
      out.ops += loaded.requests;
      ticks = ctx.pause_ticks;
      if (ctx.stopped && out.reason.empty()) out.reason = std::string(kStoppedByDebugger);
    }
    if (out.reason.empty()) out.reason = "model loaded and drawn";
    // The end pause, then the end event (as every engine orders them).
    if (pause != nullptr) {
      LoaderView end;
      end.cursor = out.end_offset;
      end.mnemonic = "end";
      end.steps = out.ops;
      end.faces = out.faces;
      end.ended = true;
      end.end_clean = out.clean;
      end.end_reason = out.reason;
      pause->pause(LoaderPausePoint(end));  // the run has ended: the answer changes nothing
    }
    sink.on_end({kEngine, out.end_offset, out.reason, out.clean, out.ops, out.faces});
    return out;
  }

  RenderSetup render_setup(int width, int height) override {
    require_model();
    return draw_render_setup(*o_->model, options_, o_->source, width, height);
  }

  std::optional<ExportScene> export_scene(const StateRequest& state) override {
    require_model();
    return draw_export_scene(*o_->model, options_, state, o_->source);
  }

  std::unique_ptr<ViewerModel> viewer(const StateRequest& opening, double fps) override {
    require_model();
    return draw_viewer(o_->model, options_, o_->source, opening, fps);
  }

 private:
  void require_model() const {
    if (o_->container_only)
      throw InputError(o_->source, "a HOG container: name a member (FILE:NAME or FILE:#N)");
  }

  std::shared_ptr<Opened> o_;
  OpenOptions options_;
};

class ShpEngine : public Engine {
 public:
  std::string_view name() const override { return kEngine; }
  std::string_view title() const override { return "Starlancer"; }
  std::string_view formats() const override {
    return ".SHP chunk streams (a tag-0 header chunk ... a FFFF terminator), RefPack streams "
           "(10 FB) of them, and BIGF .HOG containers holding them";
  }
  bool recognises(std::span<const uint8_t> bytes) const override {
    return looks_like_model(bytes) || hog_holds_models(bytes);
  }
  bool recognises_text(std::string_view text) const override { return looks_like_shp_text(text); }
  std::vector<Knob> knobs() const override { return engine_knobs(); }

  std::unique_ptr<Program> open(const EngineInput& input,
                                const OpenOptions& options) const override {
    return std::make_unique<ShpProgram>(open_input(input), options);
  }

  std::unique_ptr<Program> open_text(std::string_view text, const std::string& source,
                                     const std::optional<std::string>& member,
                                     const OpenOptions& options) const override {
    if (member)
      throw InputError(source + ":" + *member, "the text form holds one model, not members");
    return std::make_unique<ShpProgram>(open_image(assemble_model(text, source), source), options);
  }

  // A HOG member needs the header and directory (everything before the data offset), what
  // recognises() reads of the members it probes, and its own stored bytes (hog.h). Each probed
  // member is loaded as far as recognition reads it (its first kProbeBytes, or all of it where a
  // RefPack stream's head lies further), up to the first that is a model: recognition of the
  // parts then reads the same bytes as recognition of the whole file, and decides the same.
  bool load_member_parts(PartialFile& file, const std::string& member) const override {
    file.load(0, kHogHeaderSize);
    if (!looks_like_hog(file.bytes())) return false;
    file.load(0, load_u32_be(file.bytes().data() + 12));
    std::optional<Hog> hog;
    try {
      hog = read_hog(file.bytes(), "probe");
    } catch (const InputError&) {
      return false;  // the whole file is read, and opening it reports this
    }
    const auto load_probed_part = [&](const HogEntry& e) {
      file.load(e.offset, std::min<uint64_t>(e.size, kProbeBytes));
      if (e.size <= kProbeBytes) return;
      const auto part = member_bytes(file.bytes(), e).first(kProbeBytes);
      if (!starts_refpack(part)) return;
      try {
        (void)refpack_head(part, "probe", kChunkHeaderSize);
        return;  // walked within the part, as it walks within the whole member
      } catch (const InputError&) {
        // Cut short by the part's end, or broken within it: the whole member decides.
      }
      file.load(e.offset, e.size);
    };
    (void)probed_members_hold_a_model(file.bytes(), *hog, load_probed_part, looks_like_model);
    if (const HogEntry* entry = find_member(*hog, member)) file.load(entry->offset, entry->size);
    return true;
  }

  bool is_container(std::span<const uint8_t> bytes) const override { return looks_like_hog(bytes); }

  std::vector<MemberInfo> members(const EngineInput& input) const override {
    const Hog hog = read_hog(input.bytes, input.path);
    std::vector<MemberInfo> out;
    for (const HogEntry& e : hog.entries) {
      MemberInfo m;
      m.name = e.name;
      m.index = e.index;
      m.offset = e.offset;
      m.stored = e.size;
      const auto stored = member_bytes(input.bytes, e);
      if (starts_refpack(stored)) {
        m.compression = "refpack";
        try {
          m.size = refpack_declared_size(stored, input.path);
        } catch (const InputError&) {
          m.size.reset();  // check_extractable reports it
        }
      } else {
        m.compression = "stored";
        m.size = e.size;
      }
      out.push_back(std::move(m));
    }
    return out;
  }

  std::vector<uint8_t> extract(const EngineInput& input, const MemberInfo& member) const override {
    const Hog hog = read_hog(input.bytes, input.path);
    const HogEntry* e = find_member(hog, fmt::format("#{}", member.index));
    if (e == nullptr) throw InputError(input.path, fmt::format("no member #{}", member.index));
    return member_image(input.bytes, *e, fmt::format("{}:{}", input.path, e->name));
  }

  void check_extractable(const EngineInput& input, const MemberInfo& member) const override {
    const Hog hog = read_hog(input.bytes, input.path);
    const HogEntry* e = find_member(hog, fmt::format("#{}", member.index));
    if (e == nullptr) throw InputError(input.path, fmt::format("no member #{}", member.index));
    const auto stored = member_bytes(input.bytes, *e);
    if (starts_refpack(stored))
      (void)refpack_declared_size(stored, fmt::format("{}:{}", input.path, e->name));
  }

  std::vector<std::string> container_notes(const EngineInput& input) const override {
    const Hog hog = read_hog(input.bytes, input.path);
    std::vector<std::string> out = hog.notes;
    std::map<std::string, std::vector<uint32_t>> by_name;
    for (const HogEntry& e : hog.entries) {
      std::string key = e.name;
      std::transform(key.begin(), key.end(), key.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      by_name[key].push_back(e.index);
    }
    for (const auto& [name, indices] : by_name) {
      if (indices.size() < 2) continue;
      std::string list;
      for (uint32_t i : indices) list += fmt::format("{}#{}", list.empty() ? "" : ", ", i);
      out.push_back(
          fmt::format("the name {} is held by {} members ({}), up to case: a name "
                      "finds the first exact match, then the first case-insensitive "
                      "one; #N reaches the others",
                      name, indices.size(), list));
    }
    return out;
  }

  std::vector<OutputFile> assemble(std::string_view text, const std::string& source,
                                   const std::string& output_name) const override {
    std::vector<uint8_t> image = assemble_model(text, source);
    (void)load_model(image, source);  // what the loader would refuse is refused here too
    return {{output_name, std::move(image)}};
  }

  uint32_t default_generate_count() const override { return kDefaultGeneratedModels; }
  uint32_t max_generate_count() const override { return kMaxGeneratedModels; }
  std::vector<std::string> generated_names(const GenerateRequest&) const override {
    return {"resource.hog"};
  }
  void generate(const GenerateRequest& request,
                const std::function<void(OutputFile)>& write) const override {
    const uint32_t count = request.count == 0 ? kDefaultGeneratedModels : request.count;
    if (count > kMaxGeneratedModels) {
      throw InputError("--count " + std::to_string(count),
                       fmt::format("expected 1..{} models", kMaxGeneratedModels));
    }
    write({"resource.hog", generate_resource_hog(request.seed, count)});
  }
  std::string generate_help() const override {
    return "Write a synthetic Starlancer DIR/resource.hog of N models (default 440, like the\n"
           "game's): fighters of a few hundred faces, capital ships of thousands, several parts,\n"
           "1-4 levels, attachments, clips, collision trees; each member RefPack-compressed\n"
           "(literal runs).";
  }

  CheckResult check(const EngineInput& input) const override {
    const auto o = open_input(input);
    if (o->container_only)
      throw InputError(o->source, "a HOG container: check one member (FILE:NAME or FILE:#N)");
    const std::vector<std::string> invalid = validate_model(*o->model);
    if (!invalid.empty()) {
      std::string text;
      for (size_t i = 0; i < invalid.size() && i < 8; ++i) text += (i ? "; " : "") + invalid[i];
      if (invalid.size() > 8) text += fmt::format("; and {} more", invalid.size() - 8);
      throw InputError(o->source,
                       fmt::format("invalid model ({} problems): {}", invalid.size(), text));
    }
    CheckResult out;
    out.original = o->image;
    out.rewritten = write_model(*o->model);
    // `check` prints the writer's name with its verdict: it carries the stored boxes' classes.
    std::map<BoxKind, size_t> boxes;
    for (const Part& part : o->model->parts) ++boxes[classify_box(part)];
    std::string classes;
    for (const auto& [kind, count] : boxes)
      classes += fmt::format("{}{} {}", classes.empty() ? "" : ", ", count, box_kind_name(kind));
    out.writer =
        fmt::format("the shp writer (stored boxes: {})", classes.empty() ? "no parts" : classes);
    return out;
  }

  std::vector<ExampleEntry> examples(const EngineInput& input) const override {
    if (!looks_like_hog(input.bytes))
      return {{input.spec, "shp_" + std::filesystem::path(input.path).stem().string()}};
    const Hog hog = read_hog(input.bytes, input.path);
    std::vector<ExampleEntry> out;
    std::set<std::string> stems;
    for (const HogEntry& e : hog.entries) {
      if (!looks_like_model(member_bytes(input.bytes, e))) continue;
      std::string stem = fmt::format("shp_{}", std::filesystem::path(e.name).stem().string());
      // A repeated name (HOG names may repeat) gets its index, so no picture overwrites another.
      if (!stems.insert(stem).second) stem += fmt::format("_{}", e.index);
      out.push_back({fmt::format("{}:#{}", input.path, e.index), std::move(stem)});
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Engine> make_engine() {
  return std::make_unique<ShpEngine>();
}

}  // namespace shapevm::shp
