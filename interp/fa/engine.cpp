// Fighters Anthology in the engine registry: .SH shapes (Phar Lap PE) and EALIB .LIB containers,
// recognised by their magic bytes; the assembler, generator and check on the project's own
// writers.
#include "interp/fa/engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "core/byte_reader.h"
#include "core/input_error.h"
#include "core/partial_file.h"
#include "interp/fa/assembler.h"
#include "interp/fa/ealib.h"
#include "interp/fa/generator.h"
#include "interp/fa/palette_pal.h"
#include "interp/fa/program.h"
#include "interp/fa/state_knobs.h"
#include "interp/fa/variants_report.h"

namespace shapevm::fa {

namespace {

bool starts_with(std::span<const uint8_t> bytes, std::string_view magic) {
  return bytes.size() >= magic.size() && std::memcmp(bytes.data(), magic.data(), magic.size()) == 0;
}

// A Phar Lap ("PL") or PE ("PE") image: "MZ", then the signature and two zero bytes where
// e_lfanew (0x3C) points.
bool is_pharlap(std::span<const uint8_t> bytes) {
  if (!starts_with(bytes, "MZ") || bytes.size() < 0x40) return false;
  const uint32_t pe =
      static_cast<uint32_t>(bytes[0x3C]) | (static_cast<uint32_t>(bytes[0x3D]) << 8) |
      (static_cast<uint32_t>(bytes[0x3E]) << 16) | (static_cast<uint32_t>(bytes[0x3F]) << 24);
  if (pe > bytes.size() || bytes.size() - pe < 4) return false;
  const uint8_t* s = bytes.data() + pe;
  return s[0] == 'P' && (s[1] == 'L' || s[1] == 'E') && s[2] == 0 && s[3] == 0;
}

constexpr std::string_view kEaLibMagic = "EALIB";

// The member `input` names in an EALIB, decompressed, with its source "LIB:NAME".
std::pair<std::vector<uint8_t>, std::string> lib_member(const EngineInput& input) {
  // Without the other members' sizes: the member's own is read by extract(), and a LIB loaded in
  // part holds only the directory and this member (load_member_parts).
  const EaLib lib(input.bytes, input.path, EaLib::MemberSizes::kSkipped);
  const LibEntry* entry = lib.find(*input.member);
  if (entry == nullptr) {
    throw InputError(input.spec, fmt::format("no member named {} in {} ({} members)", *input.member,
                                             input.path, lib.entries().size()));
  }
  return {lib.extract(*entry), input.path + ":" + entry->name};
}

class FaEngine : public Engine {
 public:
  std::string_view name() const override { return "fa"; }
  std::string_view title() const override { return "Fighters Anthology"; }
  std::string_view formats() const override {
    return ".SH shapes (Phar Lap \"MZ\" + \"PL\"/\"PE\") and .LIB containers (magic \"EALIB\")";
  }

  bool recognises(std::span<const uint8_t> bytes) const override {
    return starts_with(bytes, kEaLibMagic) || is_pharlap(bytes);
  }

  // The assembler's first statement is a directive only it has (docs/fa-asm.md): .header must
  // come first, optionally after .image and .import lines.
  bool recognises_text(std::string_view text) const override {
    size_t at = 0;
    while (at < text.size()) {
      size_t end = text.find('\n', at);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(at, end - at);
      at = end + 1;
      const size_t first = line.find_first_not_of(" \t\r");
      if (first == std::string_view::npos || line[first] == ';') continue;
      line.remove_prefix(first);
      for (std::string_view d : {".header", ".image", ".import"})
        if (line.substr(0, d.size()) == d &&
            (line.size() == d.size() || line[d.size()] == ' ' || line[d.size()] == '\t'))
          return true;
      return false;
    }
    return false;
  }

  std::vector<Knob> knobs() const override { return engine_knobs(); }

  // An EALIB member needs the directory with its terminator and its own stored bytes; the magic
  // alone recognises the file.
  bool load_member_parts(PartialFile& file, const std::string& member) const override {
    file.load(0, kEaLibDirectoryOffset);
    const std::span<const uint8_t> head = file.bytes();
    if (head.size() < kEaLibDirectoryOffset || !starts_with(head, kEaLibMagic)) return false;
    const size_t count = load_u16(head.data() + kEaLibCountOffset);
    file.load(0, kEaLibDirectoryOffset + (count + 1) * kEaLibEntryBytes);
    try {
      const EaLib lib(file.bytes(), "probe", EaLib::MemberSizes::kSkipped);
      if (const LibEntry* entry = lib.find(member)) file.load(entry->offset, entry->stored_size);
    } catch (const InputError&) {
      return false;  // the whole file is read, and opening it reports this
    }
    return true;
  }

  std::unique_ptr<Program> open(const EngineInput& input,
                                const OpenOptions& options) const override {
    if (starts_with(input.bytes, kEaLibMagic)) {
      if (!input.member) {
        throw InputError(input.spec, fmt::format("an EALIB container: name a member ({}:NAME); "
                                                 "`shapevm lib ls {}` lists them",
                                                 input.path, input.path));
      }
      auto [bytes, source] = lib_member(input);
      return std::make_unique<FaProgram>(load_shape(bytes, source), options);
    }
    if (input.member) {
      throw InputError(input.spec, 0,
                       fmt::format("an EALIB container to take member \"{}\" from (the magic "
                                   "\"EALIB\"); {} is a shape file",
                                   *input.member, input.path));
    }
    return std::make_unique<FaProgram>(load_shape(input.bytes, input.path), options);
  }

  std::unique_ptr<Program> open_text(std::string_view text, const std::string& source,
                                     const std::optional<std::string>& member,
                                     const OpenOptions& options) const override {
    if (member)
      throw InputError(source + ":" + *member, "assembler text of one shape has no members");
    const AssembledShape assembled = assemble_fa(text, source);
    return std::make_unique<FaProgram>(load_shape(assembled.file, source), options);
  }

  bool is_container(std::span<const uint8_t> bytes) const override {
    return starts_with(bytes, kEaLibMagic);
  }

  std::vector<MemberInfo> members(const EngineInput& input) const override {
    const EaLib lib(container(input), input.path);
    std::vector<MemberInfo> out;
    uint32_t index = 0;
    for (const LibEntry& e : lib.entries()) {
      MemberInfo m;
      m.name = e.name;
      m.index = index++;
      m.offset = e.offset;
      m.stored = e.stored_size;
      if (e.unpacked_size_known) m.size = e.unpacked_size;
      m.flags = e.flags;
      m.compression = compression_name(e.flags);
      out.push_back(std::move(m));
    }
    return out;
  }

  std::vector<uint8_t> extract(const EngineInput& input, const MemberInfo& member) const override {
    const EaLib lib(container(input), input.path);
    return lib.extract(lib.entries().at(member.index));
  }

  void check_extractable(const EngineInput& input, const MemberInfo& member) const override {
    const EaLib lib(container(input), input.path);
    lib.check_supported(lib.entries().at(member.index));
  }

  std::vector<std::string> container_notes(const EngineInput& input) const override {
    const EaLib lib(container(input), input.path);
    if (lib.has_terminator()) return {};
    return {
        fmt::format("{} has no directory terminator; its last member runs to the end of the "
                    "file",
                    input.path)};
  }

  std::string variants_help() const override {
    return "FA: the whole-model damage variants of an object type (_a.._d, as _SetupOT derives "
           "them, seed 002)";
  }
  VariantsReport variants(const VariantsRequest& request) const override {
    return variants_report(request);
  }

  // PALETTE.PAL: 768 bytes of 6-bit RGB (every byte 0..63), or a member of an EALIB.
  std::optional<raster::Palette> read_palette(const EngineInput& input) const override {
    if (input.member) {
      if (!starts_with(input.bytes, kEaLibMagic)) return std::nullopt;
      auto [bytes, source] = lib_member(input);
      return read_pal(bytes, source);
    }
    if (input.bytes.size() != 768 ||
        !std::all_of(input.bytes.begin(), input.bytes.end(), [](uint8_t b) { return b < 64; }))
      return std::nullopt;
    return read_pal(input.bytes, input.path);
  }

  std::vector<OutputFile> assemble(std::string_view text, const std::string& source,
                                   const std::string& output_name) const override {
    return {{output_name, assemble_fa(text, source).file}};
  }

  uint32_t default_generate_count() const override { return 10; }
  uint32_t max_generate_count() const override { return 100000; }
  std::string generate_help() const override {
    return "N synthetic Fighters Anthology shapes (GEN00001.SH, ...) whose per-file feature counts "
           "follow\nthe shipped corpus (docs/fa-generator.md): about 16% with x86 articulation "
           "selectors, 40% with\nframe tables, 86% with chained LOD blocks and detail switches, "
           "57% with Unmask fragments. Also PALETTE.PAL: the built-in palette in the game's 6-bit\n"
           "form, for --palette.";
  }
  std::string generate_stress_help() const override {
    return "Every structure often, for coverage and fuzzing seeds: 2-4 LOD blocks always, x86 on "
           "about\n40%, XformUnmask, byte/dword compares and je/jge guards (the mix before the "
           "corpus profile)";
  }
  std::vector<std::string> generated_names(const GenerateRequest& request) const override {
    std::vector<std::string> out;
    for (uint32_t i = 0; i < request.count; ++i) {
      out.push_back(generated_shape_stem(i) + ".SH");
      if (request.text) out.push_back(generated_shape_stem(i) + ".fas");
    }
    out.emplace_back(kGeneratedPaletteName);
    return out;
  }
  void generate(const GenerateRequest& request,
                const std::function<void(OutputFile)>& write) const override {
    for (uint32_t i = 0; i < request.count; ++i) {
      const std::string stem = generated_shape_stem(i);
      const std::string text = generate_fa_shape(
          request.seed, i, request.stress ? GeneratorProfile::kStress : GeneratorProfile::kCorpus);
      write({stem + ".SH", assemble_fa(text, stem + ".fas").file});
      if (request.text) write({stem + ".fas", std::vector<uint8_t>(text.begin(), text.end())});
    }
    write({std::string(kGeneratedPaletteName), encode_pal(raster::default_palette())});
  }

  // The PE writer's round trip: the listing `disasm` prints, assembled again (docs/fa-asm.md).
  CheckResult check(const EngineInput& input) const override {
    CheckResult out;
    if (input.member) {
      out.original = lib_member(input).first;
    } else {
      out.original = input.bytes;
    }
    const auto program = open(input, {});
    const std::string source = program->source();
    out.rewritten = assemble_fa(program->listing_text(), source + " (listing)").file;
    out.writer = "the listing assembled by the PE writer";
    return out;
  }

 private:
  static std::span<const uint8_t> container(const EngineInput& input) { return input.bytes; }
};

}  // namespace

std::unique_ptr<Engine> make_engine() {
  return std::make_unique<FaEngine>();
}

}  // namespace shapevm::fa
