#include "interp/apache/archive.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/byte_reader.h"
#include "core/input_error.h"

namespace shapevm::apache {

const char* section_name(int section) {
  static constexpr const char* kNames[kSectionCount] = {
      "attached-model definitions", "bounding-box vertices", "vertex list",       "normal list",
      "face drawing program",       "shadow data",           "grid-lighting data"};
  return section >= 0 && section < kSectionCount ? kNames[section] : "?";
}

int ModelHeader::target_level() const {
  switch (target_filter) {
    case 10000:
      return 1;
    case 30000:
      return 2;
    case 50000:
      return 3;
    default:
      return 0;
  }
}

ModelHeader read_header(std::span<const uint8_t> bytes, uint32_t offset,
                        const std::string& source) {
  const ByteReader r(bytes, source);
  r.require(offset, kHeaderSize, "a 188-byte model header");
  ModelHeader h;
  h.encoding = r.i32(offset + 0x00, "coordinate encoding");
  if (h.encoding != 0 && h.encoding != 1) {
    r.fail(offset,
           fmt::format("expected coordinate encoding 0 (signed 16-bit) or 1 (grid), found {}",
                       h.encoding));
  }
  h.lod_distance = r.i32(offset + 0x04, "LOD distance");
  h.next_record = r.i32(offset + 0x08, "next model record");
  for (size_t i = 0; i < 6; ++i) h.bounds[i] = r.i32(offset + 0x0c + 4 * i, "bounds");
  h.radius = r.i32(offset + 0x24, "radius");
  h.height = r.i32(offset + 0x28, "height");
  for (int s = 0; s < kSectionCount; ++s) {
    const uint32_t field = offset + 0x2c + 4 * static_cast<uint32_t>(s);
    const uint32_t stored = r.u32(field, section_name(s));
    h.stored[static_cast<size_t>(s)] = stored;
    if (stored == 0) continue;  // absent
    const uint64_t relocated = uint64_t{offset} + stored;
    if (relocated >= bytes.size()) {
      r.fail(field, fmt::format("expected the {} offset (model-relative) to lie inside the file: "
                                "0x{:x} + 0x{:x} = 0x{:x}, the file is 0x{:x} bytes",
                                section_name(s), offset, stored, relocated, bytes.size()));
    }
    h.sections[static_cast<size_t>(s)] = static_cast<uint32_t>(relocated);
  }
  h.name = r.fixed_string(offset + 0x48, 16, "short name");
  h.description = r.fixed_string(offset + 0x58, 64, "description");
  h.properties = r.u32(offset + 0x98, "properties");
  h.target_filter = r.i32(offset + 0x9c, "target filtering code");
  h.metadata_a0 = r.i32(offset + 0xa0, "metadata");
  h.metadata_a4 = r.i32(offset + 0xa4, "metadata");
  h.damage_threshold = r.i32(offset + 0xa8, "damage threshold");
  h.explosion = r.i32(offset + 0xac, "explosion size");
  h.auxiliary_model = r.i32(offset + 0xb0, "auxiliary model");
  h.radar_symbol = r.i32(offset + 0xb4, "radar symbol");
  h.gameplay_flags = r.u32(offset + 0xb8, "gameplay flags");
  return h;
}

Archive::Archive(std::span<const uint8_t> bytes, std::string source)
    : bytes_(bytes), source_(std::move(source)) {
  const ByteReader r(bytes_, source_);
  const uint32_t count = r.u32(0, "the archive's record count");
  // Each slot needs four bytes: a count the file cannot hold is malformed, not a huge allocation.
  if (uint64_t{count} * 4 > bytes_.size() - 4) {
    r.fail(0, fmt::format("expected a record count whose offset table fits in the file: {} "
                          "offsets need {} bytes, {} remain",
                          count, uint64_t{count} * 4, bytes_.size() - 4));
  }
  slots_.resize(count);
  record_of_slot_.assign(count, -1);
  for (uint32_t i = 0; i < count; ++i) {
    slots_[i] = r.u32(4 + 4 * size_t{i}, "a record offset");
    if (slots_[i] == 0) continue;
    ModelRecord rec;
    rec.index = i;
    rec.offset = slots_[i];
    if (!r.has(rec.offset, kHeaderSize)) {
      r.fail(4 + 4 * size_t{i},
             fmt::format("expected record {}'s offset 0x{:x} to leave room for a 188-byte header "
                         "in the 0x{:x}-byte file",
                         i, rec.offset, bytes_.size()));
    }
    rec.header = read_header(bytes_, rec.offset, fmt::format("{}:#{}", source_, i));
    record_of_slot_[i] = static_cast<int32_t>(records_.size());
    records_.push_back(std::move(rec));
  }
  for (const auto& rec : records_) {
    const int32_t next = rec.header.next_record;
    if (next != -1 && (next < 0 || static_cast<uint32_t>(next) >= count)) {
      throw InputError(
          source_, rec.offset + 0x08,
          fmt::format("expected record {}'s next LOD record to be -1 or an index below "
                      "{}, found {}",
                      rec.index, count, next));
    }
  }
}

const ModelRecord* Archive::record(uint32_t index) const {
  if (index >= slots_.size()) {
    throw InputError(source_,
                     fmt::format("no record #{}: the archive has {} slots", index, slots_.size()));
  }
  const int32_t at = record_of_slot_[index];
  return at < 0 ? nullptr : &records_[static_cast<size_t>(at)];
}

const ModelRecord* Archive::find(std::string_view name) const {
  auto lower = [](std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
  };
  const std::string wanted = lower(name);
  for (const auto& rec : records_)
    if (lower(rec.header.name) == wanted) return &rec;
  return nullptr;
}

}  // namespace shapevm::apache
