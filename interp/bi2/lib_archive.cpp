#include "interp/bi2/lib_archive.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/byte_reader.h"
#include "core/byte_writer.h"
#include "core/input_error.h"
#include "core/member_spec.h"
#include "interp/bi2/expect.h"
#include "interp/bi2/tpwm.h"

namespace shapevm::bi2 {
namespace {

std::string trimmed_name(std::span<const uint8_t> raw) {
  std::string name;
  for (uint8_t c : raw) {
    if (c == 0) break;
    name.push_back(static_cast<char>(c));
  }
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return name;
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

LibArchive::LibArchive(std::span<const uint8_t> bytes, std::string source)
    : bytes_(bytes), source_(std::move(source)) {
  const ByteReader r(bytes, source_);
  index_ = r.u32(0, "the LIB index offset (u32)");
  if (index_ < 4 || index_ > bytes.size()) {
    expected(r, 0,
             fmt::format("an index offset 4..{} (the file size), not {}", bytes.size(), index_));
  }
  const uint64_t index_bytes = bytes.size() - index_;
  if (index_bytes % kLibEntryBytes != 0) {
    expected(r, index_,
             fmt::format("an index of whole 12-byte entries up to the end of the file; "
                         "{} bytes remain, {} too many",
                         index_bytes, index_bytes % kLibEntryBytes));
  }
  const auto count = static_cast<uint32_t>(index_bytes / kLibEntryBytes);
  uint32_t previous = 4;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t entry = index_ + size_t{i} * kLibEntryBytes;
    LibMember m;
    m.index = i;
    const auto raw = r.bytes(entry, kLibNameBytes, "a member name (char[8])");
    m.raw_name.assign(raw.begin(), raw.end());
    m.name = trimmed_name(raw);
    m.offset = r.u32(entry + kLibNameBytes, "a member offset (u32)");
    if (m.offset < previous || m.offset > index_) {
      expected(r, entry + kLibNameBytes,
               fmt::format("member #{} to start at {}..{} (offsets rise, members end before the "
                           "index), not {}",
                           i, previous, index_, m.offset));
    }
    previous = m.offset;
    members_.push_back(std::move(m));
  }
  for (size_t i = 0; i < members_.size(); ++i) {
    const uint32_t end = i + 1 < members_.size() ? members_[i + 1].offset : index_;
    members_[i].size = end - members_[i].offset;
  }
}

const LibMember& LibArchive::find(const std::string& member) const {
  const std::string spec = source_ + ":" + member;
  if (!member.empty() && member[0] == '#') {
    const auto index = member_index(member);
    if (!index) throw InputError(spec, "expected a member number after '#' (e.g. #5)");
    if (*index >= members_.size()) {
      throw InputError(spec,
                       fmt::format("no member #{}: the LIB has {} members (#0..#{})", *index,
                                   members_.size(), members_.empty() ? 0 : members_.size() - 1));
    }
    return members_[*index];
  }
  const std::string wanted = upper(member);
  for (const auto& m : members_)
    if (upper(m.name) == wanted) return m;
  throw InputError(spec, fmt::format("no member named {} among the LIB's {} members (use #N for "
                                     "a number)",
                                     member, members_.size()));
}

std::string LibArchive::member_source(const LibMember& m) const {
  return m.name.empty() ? fmt::format("{}:#{}", source_, m.index)
                        : fmt::format("{}:{}", source_, m.name);
}

std::vector<uint8_t> LibArchive::decoded(const LibMember& m) const {
  return tpwm_decode(stored(m), member_source(m));
}

bool looks_like_lib(std::span<const uint8_t> b) {
  if (b.size() < 4 + kLibEntryBytes) return false;
  const uint32_t index = load_u32(b.data());
  if (index < 4 || index > b.size() - kLibEntryBytes) return false;
  if ((b.size() - index) % kLibEntryBytes != 0) return false;
  uint32_t previous = 4;
  bool named = false;  // at least one member has a name: an all-NUL index is not taken for one
  for (size_t entry = index; entry < b.size(); entry += kLibEntryBytes) {
    named = named || b[entry] != 0;
    bool padding = false;
    for (size_t i = 0; i < kLibNameBytes; ++i) {
      const uint8_t c = b[entry + i];
      if (c == 0)
        padding = true;
      else if (padding || c < 0x20 || c > 0x7e)
        return false;  // printable, then NULs
    }
    const uint32_t offset = load_u32(b.data() + entry + kLibNameBytes);
    if (offset < previous || offset > index) return false;
    previous = offset;
  }
  return named;
}

std::vector<uint8_t> write_lib(const std::vector<LibEntry>& entries) {
  std::vector<uint8_t> out(4, 0);
  std::vector<uint32_t> offsets;
  for (const auto& e : entries) {
    offsets.push_back(static_cast<uint32_t>(out.size()));
    out.insert(out.end(), e.bytes.begin(), e.bytes.end());
  }
  const auto index = static_cast<uint32_t>(out.size());
  put_u32(out, 0, index);
  for (size_t i = 0; i < entries.size(); ++i) {
    std::string name = entries[i].raw_name.substr(0, kLibNameBytes);
    name.resize(kLibNameBytes, '\0');
    out.insert(out.end(), name.begin(), name.end());
    append_u32(out, offsets[i]);
  }
  return out;
}

}  // namespace shapevm::bi2
