// The Apache engine's implementation of the engine interface (interp/common/engine.h): 3DOBJS.BIN
// archives (recognised by their offset table and record headers), their records as programs, the
// assembler text (docs/apache.md), the generator and the bundled examples.
#include "interp/apache/engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/input_error.h"
#include "core/text_statements.h"
#include "interp/apache/analysis.h"
#include "interp/apache/assembler.h"
#include "interp/apache/assumptions.h"
#include "interp/apache/generator.h"
#include "interp/apache/interpreter.h"
#include "interp/apache/listing.h"
#include "interp/apache/session.h"
#include "interp/apache/viewer_model.h"

namespace shapevm::apache {
namespace {

constexpr uint32_t kDefaultGenerateCount = 1300;  // like the reference archive's 1,314
constexpr uint32_t kMaxGenerateCount = 20000;

uint32_t u32_at(std::span<const uint8_t> b, size_t at) {
  return uint32_t{b[at]} | uint32_t{b[at + 1]} << 8 | uint32_t{b[at + 2]} << 16 |
         uint32_t{b[at + 3]} << 24;
}

// A fixed-width header string: printable ASCII up to its NUL (or the end of the field).
bool printable_field(std::span<const uint8_t> b, size_t at, size_t width) {
  for (size_t i = 0; i < width; ++i) {
    const uint8_t c = b[at + i];
    if (c == 0) return true;
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

// The structure Archive's constructor validates (archive.cpp), checked without building anything:
// a record count whose offset table fits; every nonzero offset past the table with a whole
// 188-byte header; coordinate encoding 0 or 1; the next LOD record -1 or a slot; every section
// offset inside the file; printable name and description; and at least one record whose drawing
// program starts with an opcode byte (0..7). OBJTEXT.BIN has the same offset table, but its
// "headers" are texture types and pixels, which fail the string, section or program tests.
bool looks_like_archive(std::span<const uint8_t> b) {
  if (b.size() < 8) return false;
  if (b.size() >= 5 && std::equal(b.begin(), b.begin() + 5, "EALIB")) return false;  // FA library
  if (b[0] == 'M' && b[1] == 'Z') return false;                                      // PE file
  const uint32_t count = u32_at(b, 0);
  if (count == 0 || uint64_t{count} * 4 > b.size() - 4) return false;
  const uint64_t table_end = 4 + uint64_t{count} * 4;
  bool program = false;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t off = u32_at(b, 4 + size_t{i} * 4);
    if (off == 0) continue;
    if (off < table_end || uint64_t{off} + kHeaderSize > b.size()) return false;
    const uint32_t encoding = u32_at(b, off);
    if (encoding != 0 && encoding != 1) return false;
    const auto next = static_cast<int32_t>(u32_at(b, off + 0x08));
    if (next != -1 && (next < 0 || static_cast<uint32_t>(next) >= count)) return false;
    // Only the record headers' shape is checked here: section offsets and program bytes are the
    // reader's to check, so a corrupted archive is still recognised and gets a precise error.
    if (!printable_field(b, off + 0x48, 16) || !printable_field(b, off + 0x58, 64)) return false;
    program = true;
  }
  return program;
}

// The first statement of Apache assembler text is a top-level directive (a model, a texture, a
// palette colour or a slot count), and the text defines a model ("model INDEX NAME"). FA's text
// starts with dot directives (.image, .header).
bool looks_like_apache_text(std::string_view text) {
  bool first = true, model = false;
  for_each_statement(text, [&](const std::vector<std::string_view>& words) {
    const std::string_view head = words[0];
    if (first) {
      static constexpr std::string_view kTopLevel[] = {"model", "texture", "colour",
                                                       "color", "slots",   "textureslots"};
      if (std::find(std::begin(kTopLevel), std::end(kTopLevel), head) == std::end(kTopLevel))
        return false;
      first = false;
    }
    if (head == "model" && words.size() > 1 &&
        std::all_of(words[1].begin(), words[1].end(),
                    [](unsigned char c) { return std::isdigit(c); })) {
      model = true;
      return false;
    }
    return true;
  });
  return model;
}

std::vector<Knob> engine_knobs() {
  const int kHeading = assumed::kDefaultCameraHeading, kPitch = assumed::kDefaultCameraPitch;
  std::vector<Knob> out = {
      option_knob("lod", KnobType::kInteger, 0, UINT32_MAX, 0,
                  "follow the LOD chain this many times (default: by camera distance)"),
      option_knob("camera", KnobType::kCamera, 0, INT32_MAX, 0,
                  fmt::format("distance,heading,pitch or fit (defaults: the distance at which "
                              "the model's box fills the frame, {}, {})",
                              kHeading, kPitch)),
      option_knob("max-steps", KnobType::kInteger, 1, INT64_MAX,
                  static_cast<int64_t>(assumed::kDefaultStepLimit),
                  "budget: opcodes executed before the run is stopped"),
      option_knob("max-depth", KnobType::kInteger, 1, UINT32_MAX, assumed::kDefaultDepthLimit,
                  "budget: call depth (branch calls and attached models)"),
      set_knob("anim", KnobType::kInteger, 0, UINT32_MAX, 0,
               "the animation value the ifmask, choose and select opcodes test"),
      set_knob("lod", KnobType::kInteger, 0, UINT32_MAX, 0,
               "follow the LOD chain this many times (as --lod)"),
      set_knob("light", KnobType::kText, 0, 0, 0,
               fmt::format("x,y,z toward the light and the sun, world axes, not all zero "
                           "(default {},{},{})",
                           assumed::kDefaultLight[0], assumed::kDefaultLight[1],
                           assumed::kDefaultLight[2])),
      set_knob("shadows", KnobType::kFlag, 0, 1, 1,
               "draw the shadow pass of models that cast one (property bit 0)"),
      set_knob("ground", KnobType::kInteger, INT32_MIN, INT32_MAX, 0,
               "shadow plane height (default: the model's minimum y)"),
      set_knob("cloud", KnobType::kInteger, INT32_MIN, INT32_MAX, 0,
               "cloud layer height: the shadow plane when the model is above it (default: none)"),
      set_knob("receiver", KnobType::kInteger, 0, UINT32_MAX, 0,
               "a record with property bit 1 under the model whose deck takes the shadow "
               "(default: none)"),
      set_knob("receiver_heading", KnobType::kInteger, INT32_MIN, INT32_MAX, 0,
               "the receiver's rotation about y, degrees"),
      set_knob("gouraud", KnobType::kFlag, 0, 1, 1,
               "Gouraud shading; 0: Gouraud faces use their face normal and only the normal "
               "list's second count of normals is kept"),
      set_knob("cull_primaries", KnobType::kFlag, 0, 1, assumed::kDefaultCullPrimaries ? 1 : 0,
               "1: primary polygons winding away from the viewer are not drawn (default 0: the "
               "seed's op 0 draws its face)"),
      set_knob("secondary_length", KnobType::kText, 0, 0, 0,
               "how a secondary packet's length byte is read: whole (default, the seed: the "
               "whole packet, itself included) or packet (from the type byte on)"),
  };
  Knob slot = set_knob("slot", KnobType::kInteger, 0, UINT32_MAX, 0,
                       "slotN=RECORD: draw RECORD in gameplay-filled attachment slot N (model "
                       "ID 0; default: empty)");
  slot.prefix = true;
  out.push_back(std::move(slot));
  return out;
}

// One ListingLine per line of the disasm text, with the offset of the instruction on it: lines
// that are neither comments nor labels are the walk's instructions, in offset order.
std::vector<ListingLine> split_listing(const std::string& text, const ProgramWalk& walk) {
  std::vector<ListingLine> out;
  auto next = walk.instructions.begin();
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    ListingLine l;
    l.text = line;
    const bool comment = !line.empty() && line[0] == ';';
    const bool label = !line.empty() && line[0] != ' ' && line.back() == ':';
    if (!comment && !label && !line.empty() && next != walk.instructions.end()) {
      l.offset = next->first;
      ++next;
    }
    out.push_back(std::move(l));
  }
  return out;
}

class ApacheProgram : public Program {
 public:
  explicit ApacheProgram(std::shared_ptr<Session> session) : session_(std::move(session)) {}

  std::string_view engine() const override { return kEngine; }
  std::string source() const override { return session_->source(); }

  std::string summary() const override {
    if (!session_->has_member()) {
      const Archive& a = session_->archive();
      return fmt::format("{} (Apache 3DOBJS.BIN, {} records)", a.source(), a.populated());
    }
    const ModelHeader& h = session_->model().header;
    return fmt::format("{} \"{}\" ({})", source(), h.name, h.description);
  }

  std::string info_text() const override { return session_->info_text(); }
  nlohmann::json info_json() const override { return session_->info_json(); }

  std::string listing_text() const override {
    const ModelRecord& rec = session_->model();
    return program_listing(session_->archive(), rec, walk_program(session_->archive(), rec));
  }

  std::vector<ListingLine> listing_lines() const override {
    const ModelRecord& rec = session_->model();
    const ProgramWalk walk = walk_program(session_->archive(), rec);
    return split_listing(program_listing(session_->archive(), rec, walk), walk);
  }

  std::vector<Knob> knobs() const override {
    std::vector<Knob> out = engine_knobs();
    if (!session_->has_member()) return out;
    const StateAnalysis analysis = analyse_record(session_->archive(), session_->record());
    for (Knob& k : out)
      if (!k.option && k.name == "anim") k.values = analysis.anim_values;
    for (uint32_t slot : analysis.slots) {
      Knob k = set_knob(fmt::format("slot{}", slot), KnobType::kInteger, 0, UINT32_MAX, 0,
                        fmt::format("the record drawn in gameplay-filled attachment slot {} "
                                    "(default: empty)",
                                    slot));
      k.from_file = true;
      out.push_back(std::move(k));
    }
    return out;
  }

  // The record's program walked statically (a malformed instruction the walk reaches).
  std::vector<std::string> static_errors() const override {
    if (!session_->has_member()) return {};
    try {
      (void)walk_program(session_->archive(), session_->model());
    } catch (const InputError& e) {
      return {e.what()};
    }
    return {};
  }

  bool runnable() const override { return session_->has_member(); }

  nlohmann::json state_json(const StateRequest& state) const override {
    return apache::state_json(apache::run_state(state));
  }

  RunOutcome run(const StateRequest& request, EventSink& sink, PauseHandler* pause) override {
    const uint32_t record = session_->record();
    const RunState state = apache::run_state(request);
    const RunResult r = interpreter().run(record, state, sink, pause);
    RunOutcome out;
    out.clean = r.clean;
    out.reason = r.reason;
    out.end_offset = r.end_offset;
    out.ops = r.ops;
    out.faces = r.faces;
    out.counts = {{"shadow faces", r.shadow_faces}};
    return out;
  }

  RenderSetup render_setup(int, int height) override {
    RenderSetup setup;
    setup.palette = session_->tables().frame;
    if (session_->textures() != nullptr) {
      setup.textures = [session = session_](std::string_view name) {
        return session->find_texture(name);
      };
    }
    // What the run state's frame uses (run_state): the frame height as the focal length, the
    // default near plane.
    setup.frame.focal_pixels = height;
    setup.frame.near_z = RunState{}.near_z;
    return setup;
  }

  uint8_t example_background() const override { return kApacheExampleBackground; }

  std::unique_ptr<ViewerModel> viewer(const StateRequest& opening, double) override {
    return std::make_unique<ApacheViewerModel>(session_, opening);
  }

 private:
  Interpreter& interpreter() {
    // One interpreter per program: it keeps the decoded geometry between runs.
    if (!interp_)
      interp_ = std::make_unique<Interpreter>(session_->archive(), session_->tables(),
                                              session_->textures());
    return *interp_;
  }

  std::shared_ptr<Session> session_;
  std::unique_ptr<Interpreter> interp_;
};

class ApacheEngine : public Engine {
 public:
  std::string_view name() const override { return kEngine; }
  std::string_view title() const override { return "Apache"; }
  std::string_view formats() const override {
    return "3DOBJS.BIN archives (a record offset table, 188-byte record headers)";
  }
  bool recognises(std::span<const uint8_t> bytes) const override {
    return looks_like_archive(bytes);
  }
  bool recognises_text(std::string_view text) const override {
    return looks_like_apache_text(text);
  }
  std::vector<Knob> knobs() const override { return engine_knobs(); }

  std::unique_ptr<Program> open(const EngineInput& input,
                                const OpenOptions& options) const override {
    return std::make_unique<ApacheProgram>(std::make_shared<Session>(
        input.path, input.bytes, input.member, options.palette, options.textures));
  }

  // The text's archive with its palette and textures. Text that defines one model opens as that
  // record; with several it opens as the whole archive (assemble it and name a record to run one).
  std::unique_ptr<Program> open_text(std::string_view text, const std::string& source,
                                     const std::optional<std::string>& named,
                                     const OpenOptions& options) const override {
    AssembledArchive assembled = assemble_apache(text, source);
    std::optional<std::string> member = named;
    if (!member) {
      const Archive archive(assembled.archive, source);
      if (archive.populated() == 1) member = fmt::format("#{}", archive.records()[0].index);
    }
    return std::make_unique<ApacheProgram>(std::make_shared<Session>(
        source, std::move(assembled), member, options.palette, options.textures));
  }

  bool is_container(std::span<const uint8_t> bytes) const override {
    return looks_like_archive(bytes);
  }

  std::vector<MemberInfo> members(const EngineInput& input) const override {
    const Archive archive(input.bytes, input.path);
    std::vector<MemberInfo> out;
    for (const auto& rec : archive.records()) {
      MemberInfo m;
      m.name = rec.header.name.empty() ? fmt::format("#{}", rec.index) : rec.header.name;
      m.index = rec.index;
      m.offset = rec.offset;
      m.stored = span_of(archive, rec).size();
      m.size = m.stored;  // records are stored as they are
      out.push_back(std::move(m));
    }
    return out;
  }

  std::vector<uint8_t> extract(const EngineInput& input, const MemberInfo& member) const override {
    const Archive archive(input.bytes, input.path);
    const ModelRecord* rec = archive.record(member.index);
    if (rec == nullptr) {
      throw InputError(fmt::format("{}:#{}", input.path, member.index),
                       "record is an empty slot (offset 0)");
    }
    const auto span = span_of(archive, *rec);
    return {span.begin(), span.end()};
  }

  std::vector<OutputFile> assemble(std::string_view text, const std::string& source,
                                   const std::string& output_name) const override {
    AssembledArchive out = assemble_apache(text, source);
    std::vector<OutputFile> files;
    files.push_back({output_name, std::move(out.archive)});
    if (!out.textures.empty()) files.push_back({"OBJTEXT.BIN", std::move(out.textures)});
    files.push_back({"3DPAL.RGB", std::move(out.palette)});
    return files;
  }

  // 3DPAL.RGB (exactly 672 bytes) as the frame palette the engine builds from it.
  std::optional<raster::Palette> read_palette(const EngineInput& input) const override {
    if (input.bytes.size() != k3dPalBytes) return std::nullopt;
    return build_shading_tables(read_3dpal(input.bytes, input.path)).frame;
  }

  uint32_t default_generate_count() const override { return kDefaultGenerateCount; }
  uint32_t max_generate_count() const override { return kMaxGenerateCount; }

  std::vector<std::string> generated_names(const GenerateRequest& request) const override {
    std::vector<std::string> names = {"3DOBJS.BIN", "OBJTEXT.BIN", "3DPAL.RGB"};
    if (request.text) names.emplace_back("3DOBJS.apa");
    return names;
  }

  void generate(const GenerateRequest& request,
                const std::function<void(OutputFile)>& write) const override {
    const uint32_t count = request.count == 0 ? kDefaultGenerateCount : request.count;
    if (count > kMaxGenerateCount) {
      throw InputError("--count " + std::to_string(count),
                       fmt::format("expected 1..{} records", kMaxGenerateCount));
    }
    const std::string text = generate_apache_archive(request.seed, count);
    AssembledArchive out = assemble_apache(text, "generated.apa");
    write({"3DOBJS.BIN", std::move(out.archive)});
    write({"OBJTEXT.BIN", std::move(out.textures)});
    write({"3DPAL.RGB", std::move(out.palette)});
    if (request.text) write({"3DOBJS.apa", std::vector<uint8_t>(text.begin(), text.end())});
  }

  std::string generate_help() const override {
    return "Write a synthetic Apache archive DIR/3DOBJS.BIN of N records (default 1,300, like the\n"
           "reference archive's 1,314) with 3DPAL.RGB and OBJTEXT.BIN beside it: two thirds "
           "signed\n16-bit, one third grid records, every packet type, decisions, masks, selects, "
           "LOD links\nand attached models.";
  }

  // Every record: "PATH:#N" drawn to apache_<the archive's folder>_<record name or index>.png.
  std::vector<ExampleEntry> examples(const EngineInput& input) const override {
    const Archive archive(input.bytes, input.path);
    const std::string group = std::filesystem::path(input.path).parent_path().filename().string();
    std::vector<ExampleEntry> out;
    for (const auto& rec : archive.records()) {
      const std::string stem =
          rec.header.name.empty() ? fmt::format("{}", rec.index) : rec.header.name;
      out.push_back(
          {fmt::format("{}:#{}", input.path, rec.index), fmt::format("apache_{}_{}", group, stem)});
    }
    return out;
  }

 private:
  // The record's span in the archive: from its header to the next record's header in file
  // order, or to the end of the file (its sections are stored after the header, model-relative).
  static std::span<const uint8_t> span_of(const Archive& archive, const ModelRecord& rec) {
    uint64_t end = archive.bytes().size();
    for (const auto& other : archive.records())
      if (other.offset > rec.offset) end = std::min<uint64_t>(end, other.offset);
    return archive.bytes().subspan(rec.offset, end - rec.offset);
  }
};

}  // namespace

std::unique_ptr<Engine> make_engine() {
  return std::make_unique<ApacheEngine>();
}

}  // namespace shapevm::apache
