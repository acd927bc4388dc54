#include "interp/shp/loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <set>

#include "core/byte_reader.h"
#include "core/input_error.h"
#include "interp/shp/records.h"

namespace shapevm::shp {
namespace {

// Ends a run from inside a request: a budget (unclean) or the debugger (clean).
struct Stop {
  std::string reason;
  bool clean = false;
};

struct Chunk {
  bool hit = false;
  ChunkHeader header;
};

class Loader {
 public:
  Loader(std::span<const uint8_t> image, const LoadOptions& options, LoadOutcome& out)
      : image_(image), o_(options), out_(out), m_(out.model) {
    m_.image_size = static_cast<uint32_t>(image.size());
  }

  // model_load: the requests in the order of SL-07.
  void run() {
    const Chunk header = take(Tag::kHeader);
    if (header.hit && header.header.count > 0) {
      std::vector<Header> headers;
      fill(header, headers, 1);  // the engine keeps one header (assumptions.h)
      m_.header = std::move(headers.front());
    }
    fill(take(Tag::kPart), m_.parts);
    for (size_t p = 0; p < m_.parts.size(); ++p) {
      Part& part = m_.parts[p];
      view_.part = static_cast<int64_t>(p);
      const Chunk levels = take(Tag::kLevel);
      if (levels.header.count > assumed::kMaxLevels) {
        throw InputError(o_.source, levels.header.offset,
                         fmt::format("expected at most {} levels of detail in part {}, found {}",
                                     assumed::kMaxLevels, p, levels.header.count));
      }
      fill(levels, part.levels);
      fill(take(Tag::kNode), part.nodes);
      fill(take(Tag::kAttachment), part.attachments);
      fill(take(Tag::kClip), part.clips);
      fill(take(Tag::kPointList), part.point_lists);
      fill(take(Tag::kTrigger), part.triggers);
      for (size_t l = 0; l < part.levels.size(); ++l) {
        view_.level = static_cast<int64_t>(l);
        Level& level = part.levels[l];
        fill(take(Tag::kVertex), level.vertices);
        fill(take(Tag::kFace), level.faces);
        fill(take(Tag::kMaterial), level.materials);
      }
      view_.level = -1;
      for (size_t n = 0; n < part.nodes.size(); ++n) {
        view_.node = static_cast<int64_t>(n);
        fill_face_list(take(Tag::kNodeFaces), part.nodes[n]);
      }
      view_.node = -1;
      for (size_t c = 0; c < part.clips.size(); ++c) {
        view_.clip = static_cast<int64_t>(c);
        fill(take(Tag::kKeyframe), part.clips[c].keyframes);
        fill(take(Tag::kEvent), part.clips[c].events);
      }
      view_.clip = -1;
      for (size_t l = 0; l < part.point_lists.size(); ++l) {
        view_.list = static_cast<int64_t>(l);
        fill(take(Tag::kPoint), part.point_lists[l].points);
      }
      view_.list = -1;
    }
    view_.part = -1;
    fill(take(Tag::kArc), m_.arcs);
  }

  LoaderView& view() { return view_; }
  const std::vector<uint32_t>& hits() const { return hits_; }
  const std::vector<std::pair<uint16_t, uint32_t>>& misses() const { return misses_; }

 private:
  // model_take_chunk: scans from the cursor to `tag` or the terminator. A miss leaves the cursor
  // where it was; a hit, even of no records, moves it past the chunk.
  Chunk take(Tag t) {
    const auto tag = static_cast<uint16_t>(t);
    const uint16_t size = struct_size(tag);
    view_.tag = tag;
    view_.struct_size = size;
    view_.cursor = cursor_;
    view_.steps = out_.requests;
    if (o_.pause != nullptr) {
      view_.mnemonic = fmt::format("take {:02X} {}", tag, tag_name(tag));
      ++out_.pause_ticks;
      if (o_.pause->pause(LoaderPausePoint(view_)))
        throw Stop{std::string(kStoppedByDebugger), true};
    }
    const uint32_t before = cursor_;
    Chunk c;
    uint32_t at = cursor_;
    uint32_t passed = 0;
    while (true) {
      if (out_.examined >= o_.max_steps) throw Stop{"budget: steps", false};
      ++out_.examined;
      const ChunkHeader h = read_chunk_header(image_, at, o_.source);
      if (h.terminator()) break;
      if (h.tag == tag) {
        c.hit = true;
        c.header = h;
        cursor_ = h.next;
        break;
      }
      ++passed;
      at = h.next;
    }
    ++out_.requests;
    out_.cursor = cursor_;
    if (c.hit) {
      hits_.push_back(c.header.offset);
      auto& seen = m_.record_sizes.size[tag];
      seen = std::max<uint16_t>(seen.value_or(0), c.header.record_size);
      sizes_seen_[tag].insert(c.header.record_size);
    } else {
      misses_.push_back({tag, before});
    }
    if (o_.sink != nullptr && o_.sink->wants_ops()) {
      const uint16_t rs = c.hit ? c.header.record_size : 0;
      const std::array<EventField, 9> fields = {{
          {"tag", tag},
          {"struct_size", size},
          {"hit", c.hit ? 1 : 0},
          {"cursor_before", before},
          {"cursor_after", cursor_},
          {"records", c.hit ? c.header.count : 0},
          {"bytes_copied_per_record", c.hit ? std::min(rs, size) : 0},
          {"record_size", rs},
          {"chunks_passed", passed},
      }};
      OpEvent e;
      e.engine = kEngine;
      e.offset = before;
      e.size = cursor_ - before;
      e.op = tag;
      e.name = "model_take_chunk";
      e.handler = "model_take_chunk";
      e.handler_address = kTakeChunkAddress;
      e.fields = fields;
      o_.sink->on_op(e);
      // A sink's work budget (trace bytes) exhausted ends the load there.
      if (const std::string_view reason = o_.sink->stop_requested(); !reason.empty())
        throw Stop{std::string(reason), false};
    }
    return c;
  }

  // Copies min(record size, struct size) bytes of each record into a zero-filled struct image.
  template <class R>
  void fill(const Chunk& c, std::vector<R>& out, size_t at_most = SIZE_MAX) {
    if (!c.hit) return;
    const ChunkHeader& h = c.header;
    const size_t count = std::min<size_t>(h.count, at_most);
    count_records(h, count);
    // Copies of one value-initialised record: resize() value-initialises each record in place,
    // which GCC does with a string store (rep stos) per record, whose start-up cost made it a
    // quarter of loading a model; copying a record is a few vector moves.
    out.assign(count, R{});
    const uint16_t copied = std::min<uint16_t>(h.record_size, kStructBytes<R>);
    for (size_t i = 0; i < count; ++i) {
      R& r = out[i];
      const size_t from = h.offset + kChunkHeaderSize + i * size_t{h.record_size};
      r.image.offset = static_cast<uint32_t>(from);
      r.image.reached = copied;
      std::memcpy(r.image.bytes.data(), image_.data() + from, copied);
      decode_fields(r);
      if constexpr (std::is_same_v<R, Attachment>) {
        // The bytes past the 124 the engine keeps (SL-11): never copied, kept for the rewrite.
        if (h.record_size > kAttachmentStruct)
          r.tail.assign(image_.begin() + static_cast<ptrdiff_t>(from + kAttachmentStruct),
                        image_.begin() + static_cast<ptrdiff_t>(from + h.record_size));
      }
    }
  }

  // The records budget (assumptions.h): refused before anything is allocated.
  void count_records(const ChunkHeader& h, size_t count) {
    records_ += count;
    if (records_ > assumed::kMaxRecords) {
      throw InputError(o_.source, h.offset,
                       fmt::format("expected at most {} records in a model (a limit of "
                                   "shapevm's); this chunk of tag {:02X} brings the total to {}",
                                   assumed::kMaxRecords, h.tag, records_));
    }
  }

  void fill_face_list(const Chunk& c, Node& node) {
    if (!c.hit) return;
    const ChunkHeader& h = c.header;
    const uint16_t copied = std::min<uint16_t>(h.record_size, kNodeFaceStruct);
    count_records(h, h.count);
    node.faces.resize(h.count);
    node.face_offsets.resize(h.count);
    for (size_t i = 0; i < h.count; ++i) {
      const size_t from = h.offset + kChunkHeaderSize + i * size_t{h.record_size};
      std::array<uint8_t, 4> word{};
      std::memcpy(word.data(), image_.data() + from, copied);
      node.faces[i] = load_u32(word.data());
      node.face_offsets[i] = static_cast<uint32_t>(from);
    }
  }

 public:
  std::array<std::set<uint16_t>, kTagSlots> sizes_seen_;

 private:
  std::span<const uint8_t> image_;
  const LoadOptions& o_;
  LoadOutcome& out_;
  Model& m_;
  uint32_t cursor_ = 0;
  uint64_t records_ = 0;
  LoaderView view_;
  std::vector<uint32_t> hits_;
  std::vector<std::pair<uint16_t, uint32_t>> misses_;
};

void emit_error(const LoadOptions& o, uint32_t offset, const std::string& message) {
  if (o.sink != nullptr) o.sink->on_diagnostic({kEngine, offset, DiagnosticLevel::kError, message});
}

// The whole chunk stream walked to its terminator (the reader's part, after model_load): keeps the
// chunks of tags the loader never asks for and notes what a rewrite changes (SL-13).
void walk_layout(std::span<const uint8_t> image, const std::string& source, const Loader& loader,
                 Model& m) {
  const std::set<uint32_t> hits(loader.hits().begin(), loader.hits().end());
  uint32_t at = 0;
  uint32_t named_before = 0;
  while (true) {
    const ChunkHeader h = read_chunk_header(image, at, source);
    if (h.terminator()) {
      const size_t left = image.size() - at;
      if (left < kChunkHeaderSize) {
        m.normalisations.push_back(fmt::format(
            "offset 0x{:x}: the file ends {} bytes into the terminator; it comes back whole, "
            "{{FFFF, 0, 0}}",
            at, left));
      } else {
        const uint16_t size = load_u16(image.data() + at + 2),
                       count = load_u16(image.data() + at + 4);
        if (size != 0 || count != 0)
          m.normalisations.push_back(fmt::format(
              "offset 0x{:x}: the terminator's record size {} and count {} come back as 0", at,
              size, count));
        if (left > kChunkHeaderSize)
          m.normalisations.push_back(
              fmt::format("offset 0x{:x}: {} bytes after the terminator are dropped",
                          at + kChunkHeaderSize, left - kChunkHeaderSize));
      }
      break;
    }
    if (!named_tag(h.tag)) {
      UnnamedChunk u;
      u.tag = h.tag;
      u.record_size = h.record_size;
      u.count = h.count;
      u.records.assign(image.begin() + at + kChunkHeaderSize, image.begin() + h.next);
      u.named_before = named_before;
      u.offset = at;
      m.unnamed_chunks.push_back(std::move(u));
    } else if (hits.count(at) == 0) {
      m.normalisations.push_back(
          fmt::format("offset 0x{:x}: a chunk of tag {:02X} ({}) the loader never takes is dropped",
                      at, h.tag, tag_name(h.tag)));
    } else {
      ++named_before;
      const uint16_t size = struct_size(h.tag);
      if (h.tag == static_cast<uint16_t>(Tag::kHeader) && h.count > 1)
        m.normalisations.push_back(
            fmt::format("offset 0x{:x}: the header chunk's {} records after the first are dropped",
                        at, h.count - 1));
      if (h.record_size > size && h.tag != static_cast<uint16_t>(Tag::kAttachment)) {
        for (uint32_t i = 0; i < h.count; ++i) {
          const size_t from = at + kChunkHeaderSize + size_t{i} * h.record_size;
          const auto past = image.subspan(from + size, h.record_size - size);
          if (std::any_of(past.begin(), past.end(), [](uint8_t b) { return b != 0; })) {
            m.normalisations.push_back(fmt::format(
                "offset 0x{:x}: bytes past the {}-byte struct of a {}-byte {} record come back "
                "as zero",
                from + size, size, h.record_size, tag_name(h.tag)));
            break;
          }
        }
      }
    }
    at = h.next;
  }
  for (uint16_t tag = 0; tag < kTagSlots; ++tag) {
    if (loader.sizes_seen_[tag].size() > 1)
      m.normalisations.push_back(fmt::format(
          "tag {:02X} ({}) has records of {} sizes; all come back at the largest, {}", tag,
          tag_name(tag), loader.sizes_seen_[tag].size(), *loader.sizes_seen_[tag].rbegin()));
  }
  for (const auto& [tag, cursor] : loader.misses()) {
    if (m.record_sizes.of(tag))
      m.normalisations.push_back(fmt::format(
          "offset 0x{:x}: the loader asks for tag {:02X} ({}) and the file has none here; it "
          "comes back as an empty chunk",
          cursor, tag, tag_name(tag)));
  }
}

}  // namespace

ChunkHeader read_chunk_header(std::span<const uint8_t> image, uint32_t offset,
                              const std::string& source) {
  const ByteReader r(image, source);
  ChunkHeader h;
  h.offset = offset;
  if (!r.has(offset, 2)) {
    r.fail(offset, fmt::format("expected a chunk tag or the terminator FFFF (2 bytes), but the "
                               "model ends at 0x{:x} (no terminator)",
                               image.size()));
  }
  h.tag = load_u16(image.data() + offset);
  if (h.terminator()) {
    h.next = offset + 2;
    return h;
  }
  if (!r.has(offset, kChunkHeaderSize)) {
    r.fail(offset, fmt::format("expected a chunk header of tag {:02X} (tag, record size, count: 6 "
                               "bytes), but the model ends at 0x{:x}",
                               h.tag, image.size()));
  }
  h.record_size = load_u16(image.data() + offset + 2);
  h.count = load_u16(image.data() + offset + 4);
  const uint64_t body = uint64_t{h.record_size} * h.count;
  const uint64_t left = image.size() - offset - kChunkHeaderSize;
  if (body > left) {
    r.fail(offset, fmt::format("expected {} records of {} bytes ({} bytes) after the chunk header "
                               "of tag {:02X}, but only {} bytes follow",
                               h.count, h.record_size, body, h.tag, left));
  }
  h.next = static_cast<uint32_t>(offset + kChunkHeaderSize + body);
  return h;
}

std::vector<DebugValue> LoaderPausePoint::registers() const {
  return {
      {"cursor", v_.cursor, ""},
      {"tag", v_.tag, v_.ended ? "" : tag_name(v_.tag)},
      {"struct_size", v_.struct_size, ""},
      {"part", v_.part, ""},
      {"level", v_.level, ""},
      {"node", v_.node, ""},
      {"clip", v_.clip, ""},
      {"list", v_.list, ""},
  };
}

std::optional<int64_t> LoaderPausePoint::read(std::string_view name) const {
  for (const auto& r : registers())
    if (r.name == name) return r.value;
  if (name == "steps") return static_cast<int64_t>(v_.steps);
  if (name == "faces") return static_cast<int64_t>(v_.faces);
  if (name == "offset") return v_.cursor;
  if (name == "depth") return 0;
  return std::nullopt;
}

Snapshot LoaderPausePoint::capture() const {
  Snapshot s;
  s.steps = v_.steps;
  s.offset = v_.cursor;
  s.mnemonic = v_.mnemonic;
  s.faces = v_.faces;
  s.registers = registers();
  s.ended = v_.ended;
  s.end_reason = v_.end_reason;
  s.end_clean = v_.end_clean;
  return s;
}

DebugVocabulary LoaderPausePoint::vocabulary() const {
  DebugVocabulary v;
  for (const auto& r : registers()) v.register_names.push_back(r.name);
  return v;
}

LoadOutcome run_model_load(std::span<const uint8_t> image, const LoadOptions& options) {
  LoadOutcome out;
  Loader loader(image, options, out);
  try {
    loader.run();
  } catch (const InputError& e) {
    out.clean = false;
    out.stopped = true;
    out.reason = e.what();
    out.cursor = static_cast<uint32_t>(e.offset());
    emit_error(options, static_cast<uint32_t>(e.offset()), e.what());
  } catch (const Stop& s) {
    out.clean = s.clean;
    out.stopped = true;
    out.reason = s.reason;
    if (!s.clean) emit_error(options, out.cursor, fmt::format("{}: {}", options.source, s.reason));
  }
  return out;
}

Model load_model(std::span<const uint8_t> image, const std::string& source, uint64_t max_steps) {
  LoadOptions options;
  options.source = source;
  options.max_steps = max_steps;
  LoadOutcome out;
  Loader loader(image, options, out);
  try {
    loader.run();
  } catch (const Stop& s) {
    throw InputError(source, out.cursor, fmt::format("the loader stopped: {}", s.reason));
  }
  walk_layout(image, source, loader, out.model);
  return std::move(out.model);
}

}  // namespace shapevm::shp
