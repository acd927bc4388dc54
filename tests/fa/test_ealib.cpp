// EALIB containers: directory parsing, lookup, extraction, every rejection, FILE.LIB:MEMBER
// resolution, and the `shapevm lib` subcommand run end to end.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/byte_writer.h"
#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/fa/ealib.h"
#include "interp/fa/shape_input.h"
#include "tests/fa/lib_builder.h"
#include "tests/tools/run_cli.h"

namespace fa_ealib_tests {

using shapevm::InputError;
using shapevm::put_u32;
using shapevm::fa::EaLib;
using shapevm::fa::LibEntry;
using shapevm::test::build_ealib;
using shapevm::test::dcl_member_payload;
using shapevm::test::ealib_entry_at;
using shapevm::test::ealib_offset_field_at;
using shapevm::test::LibMemberSpec;
using shapevm::test::read_u32;
using shapevm::test::to_bytes;

namespace {

const std::string kSource = "TEST.LIB";

std::vector<uint8_t> sample_text(size_t size) {
  std::vector<uint8_t> out;
  for (size_t i = 0; out.size() < size; ++i) {
    std::string line = "vertex " + std::to_string(i % 37) + " " + std::to_string(i % 11) + "\n";
    out.insert(out.end(), line.begin(), line.end());
  }
  out.resize(size);
  return out;
}

// A library with one member of every kind the tests need.
std::vector<LibMemberSpec> sample_members() {
  return {
      {"A10.SH", 0, to_bytes("hello")},
      {"F16.PT", 4, dcl_member_payload(sample_text(3000))},
      {"EMPTY.DAT", 0, {}},
      {"LZ.BIN", 1, to_bytes("\x05\x00\x00\x00lzss?")},
      {"PX.PIC", 3, to_bytes("PXPK data")},
  };
}

// The size of the directory (count entries plus the terminator) of a built library.
size_t data_start(size_t count) {
  return ealib_entry_at(count + 1);
}

InputError parse_error(const std::vector<uint8_t>& bytes) {
  try {
    EaLib lib(bytes, kSource);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected the library to be rejected");
  throw std::logic_error("unreachable");
}

InputError extract_error(const std::vector<uint8_t>& bytes, const std::string& member) {
  EaLib lib(bytes, kSource);
  const LibEntry* entry = lib.find(member);
  REQUIRE(entry != nullptr);
  try {
    lib.extract(*entry);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected extracting " << member << " to fail");
  throw std::logic_error("unreachable");
}

std::string fmt_hex(uint64_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The message must carry the offset the error reports, in the "offset 0x.." form.
void check_offset(const InputError& e, uint64_t offset) {
  CAPTURE(e.what());
  CHECK(e.has_offset());
  CHECK(e.offset() == offset);
  CHECK(contains(e.what(), "offset " + fmt_hex(offset) + ":"));
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

// ---- parsing and extraction ----

TEST_CASE("ealib: parse a built library: names, flags, offsets, stored and unpacked sizes") {
  const auto members = sample_members();
  const auto bytes = build_ealib(members);
  EaLib lib(bytes, kSource);
  CHECK(lib.source() == kSource);
  CHECK(lib.has_terminator());
  REQUIRE(lib.entries().size() == members.size());
  size_t expected_offset = data_start(members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    const LibEntry& entry = lib.entries()[i];
    CAPTURE(entry.name);
    CHECK(entry.name == members[i].name);
    CHECK(entry.flags == members[i].flags);
    CHECK(entry.offset == expected_offset);
    CHECK(entry.stored_size == members[i].stored.size());
    expected_offset += members[i].stored.size();
  }
  CHECK(expected_offset == bytes.size());
  CHECK(lib.entries()[0].unpacked_size == 5);
  CHECK(lib.entries()[1].unpacked_size == 3000);
  CHECK(lib.entries()[1].unpacked_size_known);
  CHECK(lib.entries()[2].unpacked_size == 0);
  CHECK(lib.entries()[2].unpacked_size_known);
  CHECK_FALSE(lib.entries()[3].unpacked_size_known);
  CHECK_FALSE(lib.entries()[4].unpacked_size_known);
}

TEST_CASE("ealib: find ignores case but needs the exact name") {
  const auto bytes = build_ealib(sample_members());
  EaLib lib(bytes, kSource);
  REQUIRE(lib.find("A10.SH") != nullptr);
  CHECK(lib.find("a10.sh") == lib.find("A10.SH"));
  CHECK(lib.find("f16.Pt")->name == "F16.PT");
  CHECK(lib.find("A10") == nullptr);
  CHECK(lib.find("A10.SH ") == nullptr);
  CHECK(lib.find("A10.S") == nullptr);
  CHECK(lib.find("") == nullptr);
}

TEST_CASE("ealib: find prefers the exact name, then one differing by case, then #N") {
  const auto bytes = build_ealib({{"TANK.SH", 0, to_bytes("a")},
                                  {"tank.sh", 0, to_bytes("b")},
                                  {"TANK.SH", 0, to_bytes("c")}});
  EaLib lib(bytes, kSource);
  CHECK(lib.find("TANK.SH") == &lib.entries()[0]);
  CHECK(lib.find("tank.sh") == &lib.entries()[1]);
  CHECK(lib.find("Tank.Sh") == &lib.entries()[0]);
  // The position reaches every member, a repeated name's later ones included.
  CHECK(lib.find("#2") == &lib.entries()[2]);
  CHECK(lib.find("#0") == &lib.entries()[0]);
  CHECK(lib.find("#3") == nullptr);
  CHECK(lib.find("#") == nullptr);
}

TEST_CASE("ealib: extract stored and DCL members") {
  const auto bytes = build_ealib(sample_members());
  EaLib lib(bytes, kSource);
  CHECK(lib.extract(*lib.find("A10.SH")) == to_bytes("hello"));
  CHECK(lib.extract(*lib.find("F16.PT")) == sample_text(3000));
  CHECK(lib.extract(*lib.find("EMPTY.DAT")).empty());
}

TEST_CASE("ealib: DCL members round-trip random and empty payloads (literal-only and greedy)") {
  for (size_t size : {size_t{0}, size_t{1}, size_t{777}, size_t{100 * 1024}}) {
    CAPTURE(size);
    std::vector<uint8_t> data(size);
    for (size_t i = 0; i < size; ++i) data[i] = static_cast<uint8_t>((i * 2654435761u) >> 13);
    const auto bytes = build_ealib(
        {{"LIT.BIN", 4, dcl_member_payload(data, shapevm::test::DclMatches::kLiteralsOnly)},
         {"GREEDY.BIN", 4, dcl_member_payload(data)}});
    EaLib lib(bytes, kSource);
    CHECK(lib.extract(*lib.find("lit.bin")) == data);
    CHECK(lib.extract(*lib.find("greedy.bin")) == data);
  }
}

TEST_CASE("ealib: a library without the terminator is accepted (its last member runs to EOF)") {
  const auto bytes = build_ealib({{"ONE.SH", 0, to_bytes("first")}, {"TWO.SH", 0, to_bytes("2nd")}},
                                 /*with_terminator=*/false);
  EaLib lib(bytes, kSource);
  CHECK_FALSE(lib.has_terminator());
  REQUIRE(lib.entries().size() == 2);
  CHECK(lib.entries()[0].offset == ealib_entry_at(2));
  CHECK(lib.extract(lib.entries()[0]) == to_bytes("first"));
  CHECK(lib.extract(lib.entries()[1]) == to_bytes("2nd"));
}

TEST_CASE("ealib: empty libraries with and without the terminator") {
  const auto with = build_ealib({});
  CHECK(with.size() == 25);
  CHECK(EaLib(with, kSource).entries().empty());
  CHECK(EaLib(with, kSource).has_terminator());
  const auto without = build_ealib({}, false);
  CHECK(without.size() == 7);
  CHECK_FALSE(EaLib(without, kSource).has_terminator());
}

TEST_CASE("ealib: flags 1 (LZSS) and 3 (PXPK) are reported unsupported, never returned raw") {
  const auto bytes = build_ealib(sample_members());
  InputError lzss = extract_error(bytes, "LZ.BIN");
  CHECK(lzss.source() == "TEST.LIB:LZ.BIN");
  CHECK(contains(lzss.what(),
                 "member LZ.BIN uses compression flags 1 (LZSS), which shapevm does not decode"));
  InputError pxpk = extract_error(bytes, "px.pic");
  CHECK(pxpk.source() == "TEST.LIB:PX.PIC");
  CHECK(contains(pxpk.what(),
                 "member PX.PIC uses compression flags 3 (PXPK), which shapevm does not decode"));
  auto unknown = build_ealib({{"ODD.BIN", 7, to_bytes("abc")}});
  CHECK(contains(extract_error(unknown, "ODD.BIN").what(), "unknown compression flags 7"));
}

// ---- rejected libraries: each error names where it stopped ----

TEST_CASE("ealib error: too short for the header") {
  const auto whole = build_ealib({});
  for (size_t size = 0; size < 7; ++size) {
    CAPTURE(size);
    InputError e = parse_error(std::vector<uint8_t>(whole.begin(), whole.begin() + size));
    check_offset(e, size < 5 ? 0 : 5);
    CHECK(contains(e.what(), size < 5 ? "EALIB magic" : "member count"));
    CHECK(e.source() == kSource);
  }
}

TEST_CASE("ealib error: bad magic") {
  auto bytes = build_ealib(sample_members());
  bytes[2] = 'X';
  InputError e = parse_error(bytes);
  check_offset(e, 0);
  CHECK(contains(e.what(), "expected the magic \"EALIB\", found \"EAXIB\""));
}

TEST_CASE("ealib error: directory truncated") {
  auto bytes = build_ealib(sample_members());
  bytes.resize(ealib_entry_at(2) + 10);  // entry 3 of 5 cut short
  InputError e = parse_error(bytes);
  check_offset(e, ealib_entry_at(2));
  CHECK(contains(e.what(), "directory entry 3 of 5"));

  auto no_terminator_room = build_ealib({{"A.SH", 0, {}}});  // only the terminator is cut
  no_terminator_room.resize(ealib_entry_at(1) + 4);
  put_u32(no_terminator_room, ealib_offset_field_at(0), 0x30);
  check_offset(parse_error(no_terminator_room), ealib_entry_at(1));
}

TEST_CASE("ealib error: member offset beyond the end of the file") {
  auto bytes = build_ealib(sample_members());
  put_u32(bytes, ealib_offset_field_at(1), static_cast<uint32_t>(bytes.size() + 1));
  InputError e = parse_error(bytes);
  check_offset(e, ealib_offset_field_at(1));
  CHECK(contains(e.what(), "F16.PT"));
  CHECK(contains(e.what(), fmt_hex(bytes.size() + 1)));
}

TEST_CASE("ealib error: member offsets decreasing") {
  auto bytes = build_ealib(sample_members());
  const uint32_t first_offset = read_u32(bytes, ealib_offset_field_at(0));
  put_u32(bytes, ealib_offset_field_at(2), first_offset + 2);  // before F16.PT's offset
  InputError e = parse_error(bytes);
  check_offset(e, ealib_offset_field_at(2));
  CHECK(contains(e.what(), "increasing order"));
  CHECK(contains(e.what(), "EMPTY.DAT"));
}

TEST_CASE("ealib error: member offset inside the directory") {
  auto bytes = build_ealib(sample_members());
  put_u32(bytes, ealib_offset_field_at(1), 0x10);
  InputError e = parse_error(bytes);
  check_offset(e, ealib_offset_field_at(1));
  CHECK(contains(e.what(), "after the directory"));
}

TEST_CASE("ealib error: terminator offset != file size names the offset and both values") {
  auto bytes = build_ealib(sample_members());
  const size_t terminator_field = ealib_offset_field_at(5);
  put_u32(bytes, terminator_field, static_cast<uint32_t>(bytes.size() + 0x20));
  InputError e = parse_error(bytes);
  check_offset(e, terminator_field);
  CHECK(contains(e.what(), fmt_hex(bytes.size())));
  CHECK(contains(e.what(), fmt_hex(bytes.size() + 0x20)));

  bytes.push_back(0);  // a file longer than the terminator says
  put_u32(bytes, terminator_field, static_cast<uint32_t>(bytes.size() - 1));
  check_offset(parse_error(bytes), terminator_field);
}

TEST_CASE("ealib error: a terminator that is not 14 zero bytes") {
  auto bytes = build_ealib(sample_members());
  bytes[ealib_entry_at(5) + 3] = 'Q';
  InputError e = parse_error(bytes);
  check_offset(e, ealib_entry_at(5));
  CHECK(contains(e.what(), "terminator"));
}

TEST_CASE("ealib error: a name not NUL-terminated within 13 bytes") {
  auto bytes = build_ealib({{"A.SH", 0, {}}, {"ABCDEFGHIJKLM", 0, to_bytes("x")}});
  InputError e = parse_error(bytes);
  check_offset(e, ealib_entry_at(1));
  CHECK(contains(e.what(), "NUL"));
  CHECK(contains(e.what(), "ABCDEFGHIJKLM"));
  // Twelve characters plus the NUL is the longest valid name.
  auto longest = build_ealib({{"ABCDEFGH.IJK", 0, {}}});
  CHECK(EaLib(longest, kSource).entries()[0].name == "ABCDEFGH.IJK");
}

TEST_CASE("ealib error: DCL size prefix truncated") {
  auto bytes = build_ealib({{"SHORT.PT", 4, {0x10, 0x00, 0x00}}});
  EaLib lib(bytes, kSource);
  CHECK_FALSE(lib.entries()[0].unpacked_size_known);
  InputError e = extract_error(bytes, "SHORT.PT");
  CHECK(e.source() == "TEST.LIB:SHORT.PT");
  check_offset(e, 0);
  CHECK(contains(e.what(), "4-byte decompressed-size prefix"));
  CHECK(contains(e.what(), "only 3 bytes"));
}

TEST_CASE("ealib error: size claim over 64 MiB") {
  auto payload = dcl_member_payload(to_bytes("tiny"));
  put_u32(payload, 0, (64u << 20) + 1);
  InputError e = extract_error(build_ealib({{"HUGE.PT", 4, payload}}), "HUGE.PT");
  check_offset(e, 0);
  CHECK(contains(e.what(), "64 MiB"));
  CHECK(contains(e.what(), std::to_string((64u << 20) + 1)));
}

TEST_CASE("ealib error: produced size != claimed size (fewer and more bytes)") {
  // The stream decodes to 13 bytes.
  const std::vector<uint8_t> stream = {0x00, 0x04, 0x82, 0x24, 0x25, 0x8F, 0x80, 0x7F};
  auto with_claim = [&](uint32_t claim) {
    std::vector<uint8_t> payload(4);
    put_u32(payload, 0, claim);
    payload.insert(payload.end(), stream.begin(), stream.end());
    return build_ealib({{"AI.TXT", 4, payload}});
  };
  const auto exact_bytes = with_claim(13);  // must outlive the EaLib
  EaLib exact_lib(exact_bytes, kSource);
  CHECK(exact_lib.extract(exact_lib.entries()[0]) == to_bytes("AIAIAIAIAIAIA"));

  InputError fewer = extract_error(with_claim(20), "AI.TXT");
  check_offset(fewer, 0);
  CHECK(contains(fewer.what(), "expected 20 bytes"));
  CHECK(contains(fewer.what(), "producing 13 bytes"));

  // The decoder is bounded by the claim; the 11-byte match at stream byte 4 would pass 12.
  InputError more = extract_error(with_claim(12), "AI.TXT");
  CHECK(more.source() == "TEST.LIB:AI.TXT");
  check_offset(more, 4 + 4);
  CHECK(contains(more.what(), "within 12 bytes"));
}

TEST_CASE("ealib error: DCL stream errors count offsets from the start of the member") {
  std::vector<uint8_t> payload = {13, 0, 0, 0, 0x00, 0x09, 0x82, 0x24};  // dictionary bits 9
  InputError e = extract_error(build_ealib({{"BAD.PT", 4, payload}}), "BAD.PT");
  check_offset(e, 5);
  CHECK(e.source() == "TEST.LIB:BAD.PT");
}

// ---- FILE.LIB:MEMBER resolution ----

TEST_CASE("shape_input: resolves LIB:member case-insensitively and reads plain paths") {
  ScratchDir dir;
  const std::string lib_path = (dir / "FA_TEST.LIB").string();
  shapevm::write_file_atomic(lib_path, build_ealib(sample_members()));
  shapevm::write_file_atomic(dir / "plain.sh", to_bytes("plain bytes"));

  auto member = shapevm::fa::load_input(lib_path + ":a10.sh");
  CHECK(member.source == lib_path + ":A10.SH");
  CHECK(member.bytes == to_bytes("hello"));
  CHECK(shapevm::fa::load_input(lib_path + ":F16.PT").bytes == sample_text(3000));

  auto plain = shapevm::fa::load_input((dir / "plain.sh").string());
  CHECK(plain.source == (dir / "plain.sh").string());
  CHECK(plain.bytes == to_bytes("plain bytes"));

  // An existing file whose name contains ':' is read as a file, not split.
  shapevm::write_file_atomic(dir / "odd:name", to_bytes("colon"));
  CHECK(shapevm::fa::load_input((dir / "odd:name").string()).bytes == to_bytes("colon"));
}

TEST_CASE("shape_input: errors for a missing member, container, file and undecodable member") {
  ScratchDir dir;
  const std::string lib_path = (dir / "FA_TEST.LIB").string();
  shapevm::write_file_atomic(lib_path, build_ealib(sample_members()));

  auto error_of = [](const std::string& spec) -> InputError {
    try {
      shapevm::fa::load_input(spec);
    } catch (const InputError& e) {
      return e;
    }
    FAIL("expected " << spec << " to be rejected");
    throw std::logic_error("unreachable");
  };

  InputError missing_member = error_of(lib_path + ":NOPE.SH");
  CHECK(missing_member.source() == lib_path + ":NOPE.SH");
  CHECK(contains(missing_member.what(), "no member named NOPE.SH in " + lib_path + " (5 members)"));

  InputError missing_container = error_of((dir / "GONE.LIB").string() + ":A10.SH");
  CHECK(contains(missing_container.what(), "GONE.LIB"));
  CHECK(contains(missing_container.what(), "no such file"));

  InputError missing_file = error_of((dir / "gone.sh").string());
  CHECK(contains(missing_file.what(), "gone.sh"));

  CHECK(contains(error_of(lib_path + ":").what(), "member name"));
  CHECK(contains(error_of(lib_path + ":LZ.BIN").what(), "LZSS"));
}

// ---- the `shapevm lib` subcommand ----

TEST_CASE("cli lib ls: exit 0, a header line and one line per member with flags and sizes") {
  ScratchDir dir;
  const std::string lib_path = (dir / "FA_TEST.LIB").string();
  shapevm::write_file_atomic(lib_path, build_ealib(sample_members()));
  CliResult r = run_cli("lib ls " + shell_quote(lib_path));
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "NAME"));
  CHECK(contains(r.out, "UNPACKED"));
  CHECK(contains(r.out, "A10.SH"));
  CHECK(contains(r.out, "4 dcl"));
  CHECK(contains(r.out, "1 lzss"));
  CHECK(contains(r.out, "3 pxpk"));
  CHECK(contains(r.out, "0 stored"));
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 6);
}

TEST_CASE("cli lib ls --json: an array with names, flags and sizes") {
  ScratchDir dir;
  const std::string lib_path = (dir / "FA_TEST.LIB").string();
  shapevm::write_file_atomic(lib_path, build_ealib(sample_members()));
  CliResult r = run_cli("lib ls --json " + shell_quote(lib_path));
  REQUIRE(r.exit_code == 0);
  nlohmann::json members = nlohmann::json::parse(r.out);
  REQUIRE(members.is_array());
  REQUIRE(members.size() == 5);
  CHECK(members[1]["name"] == "F16.PT");
  CHECK(members[1]["flags"] == 4);
  CHECK(members[1]["compression"] == "dcl");
  CHECK(members[1]["unpacked_size"] == 3000);
  CHECK(members[3]["unpacked_size"].is_null());
}

TEST_CASE("cli lib extract: writes named members, refuses to overwrite without --force") {
  ScratchDir dir;
  const std::string lib_path = (dir / "FA_TEST.LIB").string();
  shapevm::write_file_atomic(lib_path, build_ealib(sample_members()));
  const auto out = dir / "out";

  CliResult first = run_cli("lib extract " + shell_quote(lib_path) + " a10.sh F16.PT -o " +
                            shell_quote(out.string()));
  CAPTURE(first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(slurp(out / "A10.SH") == "hello");
  const auto text = sample_text(3000);
  CHECK(slurp(out / "F16.PT") == std::string(text.begin(), text.end()));
  CHECK_FALSE(std::filesystem::exists(out / "EMPTY.DAT"));

  shapevm::write_file_atomic(out / "A10.SH", to_bytes("changed"));
  CliResult refused =
      run_cli("lib extract " + shell_quote(lib_path) + " A10.SH -o " + shell_quote(out.string()));
  CHECK(refused.exit_code == 2);
  CHECK(contains(refused.err, "A10.SH"));
  CHECK(contains(refused.err, "--force"));
  CHECK(slurp(out / "A10.SH") == "changed");

  CliResult forced = run_cli("lib extract " + shell_quote(lib_path) + " A10.SH -o " +
                             shell_quote(out.string()) + " --force");
  CHECK(forced.exit_code == 0);
  CHECK(slurp(out / "A10.SH") == "hello");
}

TEST_CASE("cli lib extract: all members, unsupported ones reported and exit code 2") {
  ScratchDir dir;
  const std::string lib_path = (dir / "FA_TEST.LIB").string();
  auto members = sample_members();
  members.push_back({"A?B<C>.D", 0, to_bytes("mapped")});
  shapevm::write_file_atomic(lib_path, build_ealib(members));
  const auto out = dir / "all";

  CliResult r =
      run_cli("lib extract " + shell_quote(lib_path) + " -o " + shell_quote(out.string()));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "LZ.BIN"));
  CHECK(contains(r.err, "PX.PIC"));
  CHECK(slurp(out / "A10.SH") == "hello");
  CHECK(std::filesystem::file_size(out / "F16.PT") == 3000);
  CHECK(std::filesystem::exists(out / "EMPTY.DAT"));
  CHECK(slurp(out / "A_B_C_.D") == "mapped");
  CHECK_FALSE(std::filesystem::exists(out / "LZ.BIN"));
  CHECK_FALSE(std::filesystem::exists(out / "PX.PIC"));
}

TEST_CASE("cli lib extract: a named unsupported or missing member is an error, nothing written") {
  ScratchDir dir;
  const std::string lib_path = (dir / "FA_TEST.LIB").string();
  shapevm::write_file_atomic(lib_path, build_ealib(sample_members()));
  const auto out = dir / "none";

  CliResult unsupported = run_cli("lib extract " + shell_quote(lib_path) + " A10.SH LZ.BIN -o " +
                                  shell_quote(out.string()));
  CHECK(unsupported.exit_code == 2);
  CHECK(contains(unsupported.err, "LZSS"));
  CHECK_FALSE(std::filesystem::exists(out / "A10.SH"));

  CliResult missing =
      run_cli("lib extract " + shell_quote(lib_path) + " NOPE.SH -o " + shell_quote(out.string()));
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.err, "no member named NOPE.SH"));
}

TEST_CASE("cli lib: a bad or missing file exits 2 and names the file") {
  ScratchDir dir;
  const std::string bad_path = (dir / "BROKEN.LIB").string();
  shapevm::write_file_atomic(bad_path, to_bytes("NOTALIB"));
  CliResult bad = run_cli("lib ls " + shell_quote(bad_path));
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.err, bad_path));
  CHECK(contains(bad.err, "EALIB"));

  CliResult missing = run_cli("lib ls " + shell_quote((dir / "MISSING.LIB").string()));
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.err, "MISSING.LIB"));

  CliResult extract_bad =
      run_cli("lib extract " + shell_quote(bad_path) + " -o " + shell_quote((dir / "x").string()));
  CHECK(extract_bad.exit_code == 2);
  CHECK(contains(extract_bad.err, bad_path));

  CliResult no_subcommand = run_cli("lib");
  CHECK(no_subcommand.exit_code == 2);
}

}  // namespace fa_ealib_tests
