// Names in old game files are bytes, not UTF-8. Every JSON output holds a name's bytes as Latin-1
// text (core/text_bytes.h; docs/trace.md, "Names in JSON"): byte 0x98 is the code point U+0098,
// and the output parses. Each test builds an input whose names hold a 0x98 byte with the engine's
// own assembler (bytes in the text as they are, or as the assembler's \xNN escape).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/text_bytes.h"
#include "interp/common/json_text.h"
#include "tests/fa/lib_builder.h"
#include "tests/tools/json_lines.h"
#include "tests/tools/run_cli.h"

namespace tools_json_names_tests {

namespace {

namespace fs = std::filesystem;

// U+0098 as UTF-8: what a parsed JSON string holds for the byte 0x98.
const std::string kU98 = "\xC2\x98";

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

fs::path assemble(const ScratchDir& dir, const std::string& name, const std::string& text,
                  const std::string& output) {
  write_text(dir / name, text);
  const auto r = run_cli("asm " + shell_quote((dir / name).string()) + " -o " +
                         shell_quote((dir / output).string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return dir / output;
}

nlohmann::json parse_json(const CliResult& r) {
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);  // throws (fails the test) on anything but valid UTF-8 JSON
}

// An FA shape whose import, SourceName and TextureFile each hold the byte 0x98 (the import is
// also an input the trace's start state names when it is --set).
const std::string kFaShape =
    ".image base=0x0 code_va=0x1000 section=CODE stub_relocs=1\n"
    ".import _PL\x98gear\n"
    ".import do_start_interp\n"
    ".header radius_world=0 radius=20 scale=8 extents=10,10,10\n"
    "    SourceName \"s\\x98.asm\"\n"
    "    TextureFile \"_T\\x98.PIC\"\n"
    "    VertexBuffer at=0\n"
    "        v 0, 0, 0\n"
    "        v 10, 0, 0\n"
    "        v 0, 10, 0\n"
    "    Face content=0x04 layout=0x01 color=0x1a shadow=0 idx=0,1,2 uv=0,0,8,0,0,8\n"
    "    ShortEOF\n";

}  // namespace

TEST_CASE("text_bytes: Latin-1 bytes become UTF-8 losslessly; prose keeps its UTF-8") {
  using shapevm::latin1_to_utf8;
  using shapevm::utf8_or_latin1;
  CHECK(latin1_to_utf8("A\x98Z") == "A" + kU98 + "Z");
  CHECK(latin1_to_utf8("\xFF") == "\xC3\xBF");
  CHECK(latin1_to_utf8("\xC3\xA9") == "\xC3\x83\xC2\xA9");  // a name's bytes are never UTF-8
  CHECK(latin1_to_utf8("plain") == "plain");
  // Prose: shapevm's own "—" survives, a stray byte becomes its Latin-1 character.
  CHECK(utf8_or_latin1("a \xE2\x80\x94 b\x98") == "a \xE2\x80\x94 b" + kU98);
  CHECK(utf8_or_latin1("\xE2\x80") == "\xC3\xA2\xC2\x80");              // a cut sequence
  CHECK(utf8_or_latin1("\xC0\xAF") == "\xC3\x80\xC2\xAF");              // an overlong form
  CHECK(utf8_or_latin1("\xED\xA0\x80") == "\xC3\xAD\xC2\xA0\xC2\x80");  // a surrogate
  CHECK(shapevm::is_valid_utf8(utf8_or_latin1("\x80\x98\xFF\xF5")));
  // dump_json: JSON holding a stray byte prints instead of throwing type_error 316.
  const nlohmann::json j = {{"message", "bad \x98 name"}, {"k\x98", 1}};
  CHECK_THROWS(j.dump());
  const auto back = nlohmann::json::parse(shapevm::dump_json(j));
  CHECK(back["message"] == "bad " + kU98 + " name");
  CHECK(back["k" + kU98] == 1);
}

TEST_CASE(
    "FA: info, disasm and trace --json hold an import, SourceName and TextureFile byte 0x98") {
  ScratchDir dir;
  const fs::path shape = assemble(dir, "names.fas", kFaShape, "NAMES.SH");
  const std::string file = shell_quote(shape.string());

  const auto info = parse_json(run_cli("info --json " + file));
  REQUIRE(info["imports"].size() == 2);
  CHECK(info["imports"][0]["name"] == "_PL" + kU98 + "gear");
  REQUIRE(info["textures"].size() == 1);
  CHECK(info["textures"][0] == "_T" + kU98 + ".PIC");
  // The text output keeps the file's bytes.
  const auto text = run_cli("info " + file);
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("_T\x98.PIC") != std::string::npos);

  // disasm --json: a line's assembler text writes the byte as the assembler's escape (so it
  // assembles back), and its operands hold the name itself.
  const auto listing = parse_json(run_cli("disasm --json " + file));
  bool source_name = false, texture_file = false;
  for (const auto& line : listing["lines"]) {
    if (line["mnemonic"] == "SourceName") {
      source_name = true;
      CHECK(line["text"] == "SourceName \"s\\x98.asm\"");
      CHECK(line["operands"]["name"] == "s" + kU98 + ".asm");
    }
    if (line["mnemonic"] == "TextureFile") {
      texture_file = true;
      CHECK(line["operands"]["name"] == "_T" + kU98 + ".PIC");
    }
  }
  CHECK(source_name);
  CHECK(texture_file);
  bool import_directive = false;
  for (const auto& d : listing["directives"])
    import_directive |= d == ".import _PL" + kU98 + "gear";
  CHECK(import_directive);

  // The trace: the face's texture, and --set on the import (the start state's imports).
  const auto trace = run_cli("trace --no-ops " + file + " --set " + shell_quote("_PL\x98gear=1"));
  INFO(trace.err);
  REQUIRE(trace.exit_code == 0);
  CHECK(trace.out.find("\\u0098") != std::string::npos);  // escaped: the trace is ASCII
  const auto events = json_lines(trace.out);
  REQUIRE(!events.empty());
  CHECK(events.front()["state"]["imports"]["_PL" + kU98 + "gear"] == 1);
  bool face = false;
  for (const auto& e : events)
    if (e["ev"] == "face") face |= e["texture"] == "_T" + kU98 + ".PIC";
  CHECK(face);
}

TEST_CASE("Apache: info --json holds a record name and description with byte 0x98") {
  ScratchDir dir;
  const std::string text =
      "model 0 cr\x98te \"desc \x98\"\n"
      "  encoding short\n"
      "  vertex -50 0 -50\n"
      "  vertex 50 0 -50\n"
      "  vertex 50 100 -50\n"
      "program\n"
      "  ret\n"
      "end\n";
  const fs::path bin = assemble(dir, "names.apa", text, "3DOBJS.BIN");
  // Recognition by content wants printable ASCII names (it tells an archive from OBJTEXT.BIN by
  // them), so the engine is named.
  const std::string record = shell_quote(bin.string() + ":#0");
  const auto info = parse_json(run_cli("info --engine apache --json " + record));
  CHECK(info["name"] == "cr" + kU98 + "te");
  CHECK(info["description"] == "desc " + kU98);
  const auto plain = run_cli("info --engine apache " + record);
  CHECK(plain.exit_code == 0);
  CHECK(plain.out.find("\"cr\x98te\"") != std::string::npos);  // text keeps the bytes
}

TEST_CASE("Starlancer: info --json holds a part name with byte 0x98") {
  ScratchDir dir;
  std::ifstream in(SHAPEVM_SOURCE_DIR "/examples/shp/debris.shpt", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string from = "part name=\"debris\"";
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "part name=\"deb\\x98is\"");
  const fs::path model = assemble(dir, "names.shpt", text, "names.shp");
  const auto info = parse_json(run_cli("info --json " + shell_quote(model.string())));
  REQUIRE(!info["parts"].empty());
  CHECK(info["parts"][0]["name"] == "deb" + kU98 + "is");
}

TEST_CASE("Battle Isle 2: info --json holds a LIB member name with byte 0x98") {
  ScratchDir dir;
  std::ifstream in(SHAPEVM_SOURCE_DIR "/examples/bi2/units.bi2", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string from = "member TANK001";
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "member TANK\x98");
  const fs::path lib = assemble(dir, "names.bi2", text, "UNITS.LIB");
  // Recognition by content wants printable member names, so the engine is named.
  const auto info = parse_json(run_cli("info --engine bi2 --json " + shell_quote(lib.string())));
  bool member = false;
  for (const auto& m : info["members"]) member |= m["name"] == "TANK" + kU98;
  CHECK(member);
}

TEST_CASE("FA: lib ls --json and info of a member hold a LIB member name with byte 0x98") {
  ScratchDir dir;
  const fs::path shape = assemble(dir, "names.fas", kFaShape, "NAMES.SH");
  const auto lib = shapevm::test::build_ealib({{"N\x98.SH", 0, shapevm::read_file(shape)}});
  std::ofstream(dir / "FA.LIB", std::ios::binary)
      .write(reinterpret_cast<const char*>(lib.data()), static_cast<std::streamsize>(lib.size()));
  const std::string file = shell_quote((dir / "FA.LIB").string());
  const auto ls = parse_json(run_cli("lib ls --json " + file));
  REQUIRE(ls.size() == 1);
  CHECK(ls[0]["name"] == "N" + kU98 + ".SH");
  // The member's source (FILE:MEMBER) is prose: its stray byte is shown as Latin-1 too.
  const auto info =
      parse_json(run_cli("info --json " + shell_quote((dir / "FA.LIB").string() + ":N\x98.SH")));
  CHECK(info["source"].get<std::string>().ends_with(":N" + kU98 + ".SH"));
  CHECK(info["textures"][0] == "_T" + kU98 + ".PIC");
}

}  // namespace tools_json_names_tests
