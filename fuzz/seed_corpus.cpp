#include "fuzz/seed_corpus.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "core/byte_writer.h"
#include "core/file_io.h"
#include "harness/dap_server.h"
#include "harness/program_frame.h"
#include "harness/trace_writer.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/tpwm.h"
#include "interp/common/registry.h"
#include "interp/shp/hog.h"
#include "interp/shp/refpack.h"
#include "raster/diff_image.h"
#include "raster/png_fast_write.h"
#include "raster/png_io.h"
#include "tests/fa/lib_builder.h"
#include "tests/fa/pic_builder.h"

namespace shapevm::fuzzing {
namespace {

std::vector<uint8_t> bytes_of(std::string_view text) {
  return {text.begin(), text.end()};
}

std::vector<uint8_t> prefixed(uint8_t first, std::span<const uint8_t> rest) {
  std::vector<uint8_t> out(rest.size() + 1);
  out[0] = first;
  std::copy(rest.begin(), rest.end(), out.begin() + 1);
  return out;
}

// A PNG of `rows` (each its filter byte, then its samples), with a palette when `plte` is not
// empty.
std::vector<uint8_t> png_of(const raster::Framebuffer& frame, uint8_t depth, uint8_t colour_type,
                            const std::vector<uint8_t>& rows, const std::vector<uint8_t>& plte) {
  libdeflate_compressor* compressor = libdeflate_alloc_compressor(6);
  std::vector<uint8_t> stream(libdeflate_zlib_compress_bound(compressor, rows.size()));
  stream.resize(
      libdeflate_zlib_compress(compressor, rows.data(), rows.size(), stream.data(), stream.size()));
  libdeflate_free_compressor(compressor);
  std::vector<uint8_t> png(raster::kPngSignature.begin(), raster::kPngSignature.end());
  std::vector<uint8_t> header;
  append_u32_be(header, static_cast<uint32_t>(frame.width()));
  append_u32_be(header, static_cast<uint32_t>(frame.height()));
  header.insert(header.end(), {depth, colour_type, 0, 0, 0});
  raster::append_png_chunk(png, "IHDR", header);
  if (!plte.empty()) raster::append_png_chunk(png, "PLTE", plte);
  raster::append_png_chunk(png, "IDAT", stream);
  raster::append_png_chunk(png, "IEND", {});
  return png;
}

// The frame's indices as the samples of an 8-bit grey PNG (colour type 0), or grey and alpha
// (4, the alpha a pattern), each row unfiltered: a mask as an image editor saves one.
std::vector<uint8_t> grey_png(const raster::Framebuffer& frame, bool alpha) {
  std::vector<uint8_t> rows;
  for (int y = 0; y < frame.height(); ++y) {
    rows.push_back(0);  // filter: none
    for (int x = 0; x < frame.width(); ++x) {
      rows.push_back(frame.at(x, y));
      if (alpha) rows.push_back(static_cast<uint8_t>(x * 16 + y));
    }
  }
  return png_of(frame, 8, alpha ? 4 : 0, rows, {});
}

// The frame's indices packed `depth` bits to a sample (index & (2^depth - 1), the first sample
// in the highest bits), indexed with a palette of 2^depth entries or grey: as a PNG optimiser
// writes a frame or a mask of few colours.
std::vector<uint8_t> packed_png(const raster::Framebuffer& frame, uint8_t depth, bool indexed) {
  const size_t per_byte = 8 / depth;
  const size_t row_bytes = (static_cast<size_t>(frame.width()) + per_byte - 1) / per_byte;
  std::vector<uint8_t> rows;
  for (int y = 0; y < frame.height(); ++y) {
    rows.push_back(0);  // filter: none
    const size_t start = rows.size();
    rows.resize(start + row_bytes);
    for (int x = 0; x < frame.width(); ++x) {
      const size_t k = static_cast<size_t>(x) % per_byte;
      const auto sample = static_cast<uint8_t>(frame.at(x, y) & ((1 << depth) - 1));
      rows[start + static_cast<size_t>(x) / per_byte] |=
          static_cast<uint8_t>(sample << (8 - depth * (k + 1)));
    }
  }
  std::vector<uint8_t> plte;
  if (indexed)
    for (int i = 0; i < (1 << depth); ++i)
      plte.insert(plte.end(), {static_cast<uint8_t>(i * 15), static_cast<uint8_t>(i * 7),
                               static_cast<uint8_t>(255 - i)});
  return png_of(frame, depth, indexed ? 3 : 0, rows, plte);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

uint8_t engine_index(std::string_view name) {
  const auto& all = engines();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i]->name() == name) return static_cast<uint8_t>(i);
  return 0;
}

// A dense 4x4 PIC: 64-byte header, the pixels at 64, then the row heads (the layout the game's
// files use).
std::vector<uint8_t> small_pic() {
  std::vector<uint8_t> pixels(16);
  for (uint8_t i = 0; i < 16; ++i) pixels[i] = i;
  return test::build_dense_pic(4, 4, pixels);
}

class Seeds {
 public:
  void add(const std::string& target, const std::string& name, std::vector<uint8_t> bytes) {
    const std::string unique = name + "-" + std::to_string(++count_[target]);
    out.push_back({target, unique, std::move(bytes)});
  }

  // A file one engine wrote, routed to every target that reads its kind.
  void add_file(const Engine& engine, const std::string& name, const std::vector<uint8_t>& bytes) {
    const std::string n = lower(name);
    const std::string e(engine.name());
    if (e == "fa" && ends_with(n, ".pal")) return add("fa_pic_pal", name, prefixed(1, bytes));
    if (e == "apache" && n.find("objtext") != std::string::npos)
      return add("apache_assets", name, prefixed(0, bytes));
    if (e == "apache" && n.find("3dpal") != std::string::npos)
      return add("apache_assets", name, prefixed(1, bytes));
    if (e == "shp" && ends_with(n, ".tga")) return add("shp_files", name, prefixed(2, bytes));
    if (e == "shp" && n.find("tcache") != std::string::npos)
      return add("shp_files", name, prefixed(3, bytes));
    if (!engine.recognises(bytes)) return;
    if (e == "fa") {
      add("fa_shape", name, bytes);
      add("fa_run", name, prefixed(0x00, bytes));
      add("fa_run", name, prefixed(0x9E, bytes));  // x86 traced, frame 3, detail 1, destroyed
      add("fa_run", name, prefixed(0x61, bytes));  // no x86, merged, switch dispatch
    } else if (e == "apache") {
      for (uint8_t record = 0; record < 4; ++record)
        add("apache_run", name, prefixed(record | (record == 1 ? 0x80 : 0), bytes));
    } else if (e == "shp") {
      add("shp_run", name, prefixed(0x80, bytes));
      if (ends_with(n, ".hog")) {
        add("shp_files", name, prefixed(0, bytes));
        for (uint8_t member : {0, 3, 9}) add("member_parts", name, prefixed(member, bytes));
        add_matched_refpack(name, bytes);
      }
    } else if (e == "bi2") {
      for (uint8_t member = 0; member < 3; ++member)
        add("bi2_run", name, prefixed(member | (member == 0 ? 0x80 : 0), bytes));
      add("bi2_lib", name, prefixed(0, bytes));
      add_matched_tpwm(name, bytes);
    }
  }

  std::vector<SeedInput> out;

 private:
  // Raw TPWM streams with references for bi2_lib (the generated LIBs pack literals only): the
  // start of the first members, packed by the matching packer.
  void add_matched_tpwm(const std::string& name, const std::vector<uint8_t>& lib_bytes) {
    constexpr size_t kSeedOutput = 4096;
    const bi2::LibArchive lib(lib_bytes, name);
    size_t n = 0;
    for (const auto& m : lib.members()) {
      if (++n > 2) break;
      auto decoded = lib.decoded(m);
      decoded.resize(std::min(decoded.size(), kSeedOutput));
      add("bi2_lib", name + "-matched", prefixed(1, bi2::tpwm_pack(decoded)));
    }
  }

  // Raw RefPack streams with copies of every form for shp_files (the HOG's own members hold
  // literal runs only): the start of the first model members, compressed by the matching encoder.
  void add_matched_refpack(const std::string& name, const std::vector<uint8_t>& hog_bytes) {
    constexpr size_t kSeedOutput = 4096;
    const shp::Hog hog = shp::read_hog(hog_bytes, name);
    for (size_t i = 0; i < hog.entries.size() && i < 3; ++i) {
      auto image = shp::member_image(hog_bytes, hog.entries[i], name);
      image.resize(std::min(image.size(), kSeedOutput));
      add("shp_files", name + "-matched", prefixed(1, shp::refpack_compress(image)));
    }
  }

  std::map<std::string, int> count_;
};

// The examples' assembler text: assembled by their engine (each output file routed by kind) and
// kept as text for the assembler target.
void add_examples(Seeds& seeds, const std::filesystem::path& source_dir) {
  std::vector<std::filesystem::path> sources;
  for (const auto& e : std::filesystem::recursive_directory_iterator(source_dir / "examples"))
    if (e.is_regular_file() && e.path().extension() != ".txt" &&
        e.path().filename() != "CMakeLists.txt")
      sources.push_back(e.path());
  std::sort(sources.begin(), sources.end());
  for (const auto& path : sources) {
    const auto text_bytes = read_file(path);
    const std::string_view text(reinterpret_cast<const char*>(text_bytes.data()),
                                text_bytes.size());
    const std::string stem = path.stem().string();
    for (const Engine* engine : engines()) {
      if (!engine->recognises_text(text)) continue;
      seeds.add("assemblers", stem, prefixed(engine_index(engine->name()), text_bytes));
      for (const auto& file : engine->assemble(text, path.string(), stem + ".out"))
        seeds.add_file(
            *engine,
            file.name == stem + ".out" ? stem + "." + std::string(engine->name()) : file.name,
            file.bytes);
      break;
    }
  }
}

// A few files from each engine's generator (FA's stress profile as well: every structure).
void add_generated(Seeds& seeds) {
  for (const Engine* engine : engines()) {
    if (engine->generate_help().empty()) continue;
    for (bool stress : {false, true}) {
      if (stress && engine->generate_stress_help().empty()) continue;
      GenerateRequest request;
      request.count = 6;
      request.seed = 20240601;
      request.stress = stress;
      engine->generate(request, [&](OutputFile file) {
        seeds.add_file(*engine, (stress ? "stress-" : "gen-") + file.name, file.bytes);
      });
    }
  }
}

// EALIB containers of the FA examples, stored and DCL-imploded, and the DCL streams on their own.
void add_fa_containers(Seeds& seeds) {
  std::vector<test::LibMemberSpec> members;
  for (const auto& s : seeds.out) {
    if (s.target != "fa_shape" || members.size() >= 3) continue;
    members.push_back(
        {members.empty() ? "JET.SH" : "M" + std::to_string(members.size()) + ".SH", 0, s.bytes});
  }
  if (members.empty()) return;
  std::vector<test::LibMemberSpec> packed = members;
  for (auto& m : packed) {
    m.flags = 4;
    m.stored = test::dcl_member_payload(m.stored);
    seeds.add("fa_lib", "dcl-" + m.name, prefixed(1, {m.stored.begin() + 4, m.stored.end()}));
  }
  const auto stored_lib = test::build_ealib(members);
  const auto packed_lib = test::build_ealib(packed);
  for (uint8_t mode : {0, 2}) {
    seeds.add("fa_lib", "stored.LIB", prefixed(mode, stored_lib));
    seeds.add("fa_lib", "packed.LIB", prefixed(mode, packed_lib));
  }
  seeds.add("fa_shape", "packed.LIB", packed_lib);
  for (uint8_t member : {0, 2}) {
    seeds.add("member_parts", "stored.LIB", prefixed(member, stored_lib));
    seeds.add("member_parts", "packed.LIB", prefixed(member, packed_lib));
  }
  const auto pic = small_pic();
  seeds.add("fa_pic_pal", "small.PIC", prefixed(0, pic));
  seeds.add("fa_pic_pal", "textures.LIB",
            prefixed(2, test::build_ealib({{"_JET.PIC", 0, pic},
                                           {"_A10.PIC", 4, test::dcl_member_payload(pic)}})));
}

// Frames and traces of the examples, for the PNG and trace-diff targets; the golden manifest.
void add_harness_inputs(Seeds& seeds, const std::filesystem::path& source_dir) {
  int png_count = 0;
  for (const auto& s : std::vector<SeedInput>(seeds.out)) {
    const bool fa = s.target == "fa_shape";
    const bool apache = s.target == "apache_run" && s.bytes[0] == 0;
    if ((!fa && !apache) || png_count >= 4) continue;
    EngineInput input;
    input.spec = input.path = s.name;
    input.bytes = fa ? s.bytes : std::vector<uint8_t>(s.bytes.begin() + 1, s.bytes.end());
    const Engine& engine = engine_named(fa ? "fa" : "apache");
    if (engine.is_container(input.bytes)) {
      const auto members = engine.members(input);
      if (members.empty()) continue;
      input.member = "#" + std::to_string(members.front().index);
    }
    auto program = engine.open(input, OpenOptions{});
    StateRequest state;
    state.width = 48;
    state.height = 32;
    const auto frame = harness::render_program(*program, state, program->example_background());
    const auto png = raster::encode_indexed_png(frame.frame, frame.palette);
    seeds.add("png", "frame.png", prefixed(0, png));
    seeds.add("png", "frame.png", prefixed(2, png));
    // The same frame as a screenshot tool's RGB capture, read against the default palette.
    seeds.add("png", "frame_rgb.png",
              prefixed(1, raster::encode_rgb_png(
                              raster::frame_to_rgb(frame.frame, raster::default_palette()))));
    // Masks saved as grey, and as grey with alpha.
    seeds.add("png", "mask_grey.png", prefixed(2, grey_png(frame.frame, false)));
    seeds.add("png", "mask_grey_alpha.png", prefixed(2, grey_png(frame.frame, true)));
    // Packed: a 4-bit indexed capture, a 1-bit grey mask.
    seeds.add("png", "frame_4bit.png", prefixed(0, packed_png(frame.frame, 4, true)));
    seeds.add("png", "mask_1bit.png", prefixed(2, packed_png(frame.frame, 1, false)));
    ++png_count;
    char* text = nullptr;
    size_t size = 0;
    if (std::FILE* mem = open_memstream(&text, &size)) {
      {
        harness::TraceWriter writer(mem);
        writer.start(program->engine(), program->source(), program->state_json(state).dump());
        (void)program->run(state, writer);
      }
      std::fclose(mem);
      seeds.add("trace_reference", "trace.jsonl", std::vector<uint8_t>(text, text + size));
      std::free(text);
    }
  }
  seeds.add(
      "trace_reference", "plain.txt",
      bytes_of(
          "# the original's state\n0x515EEE=1\n_frameCounter=3\n0xE 0x4D416C\n22 VertexBuffer\n"));
  seeds.add("regress_manifest", "manifest.json",
            read_file(source_dir / "tests/golden/manifest.json"));
}

// DAP sessions as an editor sends them: a full one (breakpoints, stepping both ways, stack,
// scopes, variables, evaluate, disassembly, restart) and one that stops on entry and steps.
void add_dap_sessions(Seeds& seeds) {
  const auto request = [](int seq, const char* command, nlohmann::json arguments) {
    return nlohmann::json{
        {"seq", seq}, {"type", "request"}, {"command", command}, {"arguments", arguments}};
  };
  const auto framed = [](const std::vector<nlohmann::json>& requests) {
    std::ostringstream out;
    for (const auto& r : requests) harness::write_dap_message(out, r);
    return bytes_of(out.str());
  };
  using nlohmann::json;
  const json source = {{"sourceReference", 1}};
  seeds.add(
      "dap", "full.dap",
      framed(
          {request(1, "initialize", {{"adapterID", "shapevm"}}),
           request(2, "launch", {{"program", "any.SH"}, {"stopOnEntry", false}}),
           request(3, "setBreakpoints",
                   {{"source", source}, {"breakpoints", {{{"line", 11}}, {{"line", 14}}}}}),
           request(4, "setFunctionBreakpoints", {{"breakpoints", {{{"name", "Face"}}}}}),
           request(5, "configurationDone", json::object()), request(6, "threads", json::object()),
           request(7, "stackTrace", {{"threadId", 1}}), request(8, "scopes", {{"frameId", 0}}),
           request(9, "variables", {{"variablesReference", 1}}),
           request(10, "evaluate", {{"expression", "steps"}}),
           request(11, "continue", {{"threadId", 1}}), request(12, "stepBack", {{"threadId", 1}}),
           request(13, "reverseContinue", {{"threadId", 1}}),
           request(14, "disassemble", {{"memoryReference", "0x0"}, {"instructionCount", 8}}),
           request(15, "source", {{"sourceReference", 1}}), request(16, "restart", json::object()),
           request(17, "continue", {{"threadId", 1}}), request(18, "disconnect", json::object())}));
  seeds.add(
      "dap", "steps.dap",
      framed({request(1, "initialize", json::object()),
              request(2, "launch", {{"program", "any.SH"}}),
              request(3, "stepIn", {{"threadId", 1}}),
              request(4, "stepIn", {{"threadId", 1}, {"granularity", "instruction"}}),
              request(5, "next", {{"threadId", 1}}), request(6, "stepOut", {{"threadId", 1}}),
              request(7, "variables", {{"variablesReference", 2}}),
              request(8, "pause", {{"threadId", 1}}), request(9, "terminate", json::object())}));
}

}  // namespace

std::vector<SeedInput> seed_inputs(const std::filesystem::path& source_dir) {
  Seeds seeds;
  add_examples(seeds, source_dir);
  add_generated(seeds);
  add_fa_containers(seeds);
  add_harness_inputs(seeds, source_dir);
  add_dap_sessions(seeds);
  return std::move(seeds.out);
}

}  // namespace shapevm::fuzzing
