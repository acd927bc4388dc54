#include "interp/shp/writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/shp/records.h"

namespace shapevm::shp {
namespace {

constexpr const char* kSource = "shp writer";
constexpr size_t kMaxCount = 0xFFFF;

class Writer {
 public:
  explicit Writer(const Model& m) : m_(m) {
    for (const UnnamedChunk& u : m.unnamed_chunks) {
      if (named_tag(u.tag) || u.tag == static_cast<uint16_t>(Tag::kTerminator)) {
        throw InputError(kSource, fmt::format("kept chunk of tag {:04X} (from offset 0x{:x}): the "
                                              "loader names that tag, so it would read the chunk",
                                              u.tag, u.offset));
      }
      if (u.records.size() != size_t{u.record_size} * u.count) {
        throw InputError(kSource,
                         fmt::format("kept chunk of tag {:04X} (from offset 0x{:x}): {} bytes are "
                                     "not its {} records of {} bytes",
                                     u.tag, u.offset, u.records.size(), u.count, u.record_size));
      }
    }
  }

  std::vector<uint8_t> write() {
    std::vector<Header> header;
    if (m_.header) header.push_back(*m_.header);
    chunk(Tag::kHeader, header, "the header");
    chunk(Tag::kPart, m_.parts, "the model");
    for (size_t p = 0; p < m_.parts.size(); ++p) {
      const Part& part = m_.parts[p];
      const std::string where = fmt::format("part {}", p);
      chunk(Tag::kLevel, part.levels, where);
      chunk(Tag::kNode, part.nodes, where);
      check_tails(part, where);
      chunk(Tag::kAttachment, part.attachments, where);
      chunk(Tag::kClip, part.clips, where);
      chunk(Tag::kPointList, part.point_lists, where);
      chunk(Tag::kTrigger, part.triggers, where);
      for (size_t l = 0; l < part.levels.size(); ++l) {
        const std::string at = fmt::format("{} level {}", where, l);
        chunk(Tag::kVertex, part.levels[l].vertices, at);
        chunk(Tag::kFace, part.levels[l].faces, at);
        chunk(Tag::kMaterial, part.levels[l].materials, at);
      }
      for (size_t n = 0; n < part.nodes.size(); ++n)
        face_list(part.nodes[n], fmt::format("{} node {}", where, n));
      for (size_t c = 0; c < part.clips.size(); ++c) {
        const std::string at = fmt::format("{} clip {}", where, c);
        chunk(Tag::kKeyframe, part.clips[c].keyframes, at);
        chunk(Tag::kEvent, part.clips[c].events, at);
      }
      for (size_t l = 0; l < part.point_lists.size(); ++l)
        chunk(Tag::kPoint, part.point_lists[l].points, fmt::format("{} point list {}", where, l));
    }
    chunk(Tag::kArc, m_.arcs, "the model");
    unnamed_before(SIZE_MAX);
    append_u16(out_, static_cast<uint16_t>(Tag::kTerminator));
    append_u16(out_, 0);
    append_u16(out_, 0);
    return std::move(out_);
  }

 private:
  // The kept chunks that stood after `named` chunks of named tags (all that are left for
  // SIZE_MAX).
  void unnamed_before(size_t named) {
    while (next_unnamed_ < m_.unnamed_chunks.size() &&
           m_.unnamed_chunks[next_unnamed_].named_before <= named) {
      const UnnamedChunk& u = m_.unnamed_chunks[next_unnamed_++];
      append_u16(out_, u.tag);
      append_u16(out_, u.record_size);
      append_u16(out_, u.count);
      out_.insert(out_.end(), u.records.begin(), u.records.end());
    }
  }

  // Opens a chunk of `count` records of `tag`; false when the model's sizes leave the tag out
  // (then there must be no records).
  bool open_chunk(Tag t, size_t count, const std::string& where, uint16_t& size) {
    const auto tag = static_cast<uint16_t>(t);
    const auto known = m_.record_sizes.of(tag);
    if (!known) {
      if (count == 0) return false;
      throw InputError(kSource, fmt::format("{} has {} {} records (tag {:02X}), but the model's "
                                            "record sizes leave the tag out",
                                            where, count, tag_name(tag), tag));
    }
    if (count > kMaxCount) {
      throw InputError(kSource, fmt::format("{} has {} {} records (tag {:02X}); a chunk counts at "
                                            "most {}",
                                            where, count, tag_name(tag), tag, kMaxCount));
    }
    unnamed_before(named_written_);
    ++named_written_;
    size = *known;
    append_u16(out_, tag);
    append_u16(out_, size);
    append_u16(out_, static_cast<uint16_t>(count));
    return true;
  }

  template <class R>
  void chunk(Tag t, const std::vector<R>& records, const std::string& where) {
    uint16_t size = 0;
    if (!open_chunk(t, records.size(), where, size)) return;
    constexpr size_t kStruct = kStructBytes<R>;
    for (const R& r : records) {
      const auto image = encode_fields(r);
      const size_t kept = std::min<size_t>(size, kStruct);
      out_.insert(out_.end(), image.begin(), image.begin() + static_cast<ptrdiff_t>(kept));
      size_t tail = 0;
      if constexpr (std::is_same_v<R, Attachment>) {
        if (size > kStruct) {
          tail = r.tail.size();
          out_.insert(out_.end(), r.tail.begin(), r.tail.end());
        }
      }
      if (size > kStruct) out_.insert(out_.end(), size - kStruct - tail, uint8_t{0});
    }
  }

  void face_list(const Node& node, const std::string& where) {
    uint16_t size = 0;
    if (!open_chunk(Tag::kNodeFaces, node.faces.size(), where, size)) return;
    for (uint32_t face : node.faces) {
      for (size_t i = 0; i < size; ++i)
        out_.push_back(i < 4 ? static_cast<uint8_t>(face >> (8 * i)) : uint8_t{0});
    }
  }

  // At a record size with room for tails, a part's attachments have a tail each or none; a tail
  // never exceeds the room.
  void check_tails(const Part& part, const std::string& where) {
    const auto size = m_.record_sizes.of(static_cast<uint16_t>(Tag::kAttachment));
    if (!size || part.attachments.empty()) return;
    const size_t room = *size > kAttachmentStruct ? *size - kAttachmentStruct : 0;
    size_t with = 0;
    for (size_t i = 0; i < part.attachments.size(); ++i) {
      const size_t t = part.attachments[i].tail.size();
      if (t > 0) ++with;
      if (room > 0 && t > room) {
        throw InputError(kSource, fmt::format("{} attachment {}: a tail of {} bytes does not fit "
                                              "the {}-byte records ({} bytes past 124)",
                                              where, i, t, *size, room));
      }
    }
    if (room > 0 && with != 0 && with != part.attachments.size()) {
      throw InputError(kSource, fmt::format("{}: {} of its {} attachments have tails; at a record "
                                            "size of {} bytes each needs one or none does",
                                            where, with, part.attachments.size(), *size));
    }
  }

  const Model& m_;
  std::vector<uint8_t> out_;
  size_t named_written_ = 0;
  size_t next_unnamed_ = 0;
};

}  // namespace

std::vector<uint8_t> write_model(const Model& model) {
  return Writer(model).write();
}

}  // namespace shapevm::shp
