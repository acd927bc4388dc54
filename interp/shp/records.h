// Each record's named fields as one list per record type (offset, name, storage), visited by
// the decoder (struct image -> fields), the encoder (fields -> struct image), the text writer and
// the assembler, so a field is named in exactly one place.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "core/byte_reader.h"
#include "interp/shp/model.h"

namespace shapevm::shp {

// A fixed-width NUL-terminated name inside a record.
struct TextField {
  std::string& value;
  size_t width;
};

// The engine struct size of record type R (its image's bytes).
template <class R>
inline constexpr size_t kStructBytes =
    std::tuple_size_v<std::remove_reference_t<decltype(std::declval<R&>().image.bytes)>>;

// visit(name, offset, field) for every named field, in offset order. Field types: uint32_t,
// int32_t, int16_t, F32, std::array of uint32_t/int32_t/uint16_t/F32, TextField.
template <class V>
void visit_fields(Header& r, V&& v) {
  v("version", 0x00, r.version);
  v("unread_04", 0x04, r.unread_04);
  v("eye", 0x08, r.eye);
  v("flags", 0x14, r.flags);
}

template <class V>
void visit_fields(Part& r, V&& v) {
  v("name", 0x00, TextField{r.name, 64});
  v("class", 0x40, r.part_class);
  v("origin", 0x44, r.origin);
  v("bbox_min", 0x50, r.bbox_min);
  v("bbox_max", 0x5C, r.bbox_max);
  v("second_moments", 0x68, r.second_moments);
  v("products", 0x74, r.products);
  v("first_moments", 0x80, r.first_moments);
  v("volume", 0x8C, r.volume);
  v("density", 0x90, r.density);
  v("parent", 0x94, r.parent);
  v("mount", 0x98, r.mount);
  v("orientation", 0xA4, r.orientation);
  v("axis_not_animated", 0xC8, r.axis_not_animated);
  v("link_id", 0xD4, r.link_id);
  v("min_angles", 0xD8, r.min_angles);
  v("max_angles", 0xE4, r.max_angles);
  v("flags", 0xF0, r.flags);
  v("turret_kind", 0xF4, r.turret_kind);
  v("turret_slot", 0xF8, r.turret_slot);
  v("component_armour", 0x104, r.component_armour);
  v("component_group", 0x108, r.component_group);
}

template <class V>
void visit_fields(Level& r, V&& v) {
  v("distance", 0x00, r.distance);
}

template <class V>
void visit_fields(Vertex& r, V&& v) {
  v("position", 0x00, r.position);
  v("normal", 0x0C, r.normal);
  v("unread_18", 0x18, r.unread_18);
  v("counterpart", 0x1C, r.counterpart);
}

template <class V>
void visit_fields(Face& r, V&& v) {
  v("material", 0x00, r.material);
  v("mode", 0x04, r.mode);
  v("flags", 0x08, r.flags);
  v("vertices", 0x0C, r.vertices);
  v("u", 0x18, r.u);
  v("v", 0x24, r.v);
  v("normal", 0x30, r.normal);
  v("unread_3c", 0x3C, r.unread_3c);
  v("sort_bias", 0x40, r.sort_bias);
  v("edge_mask", 0x44, r.edge_mask);
  v("polygon", 0x48, r.polygon);
  v("remaining", 0x4C, r.remaining);
}

template <class V>
void visit_fields(Material& r, V&& v) {
  v("texture", 0x00, TextField{r.texture, 64});
}

template <class V>
void visit_fields(Node& r, V&& v) {
  v("unknown_00", 0x00, r.unknown_00);
  v("axes", 0x04, r.axes);
  v("half_size", 0x28, r.half_size);
  v("centre", 0x34, r.centre);
  v("children", 0x40, r.children);
}

template <class V>
void visit_fields(Attachment& r, V&& v) {
  v("kind", 0x00, r.kind);
  v("position", 0x04, r.position);
  v("orientation", 0x10, r.orientation);
  v("id", 0x34, r.id);
  v("tiers", 0x38, r.tiers);
  v("size", 0x48, r.size);
  v("blink", 0x54, r.blink);
  v("blink_phase", 0x5C, r.blink_phase);
  v("gun_type", 0x64, r.gun_type);
  v("light_range", 0x74, r.light_range);
  v("brightness", 0x78, r.brightness);
}

template <class V>
void visit_fields(Clip& r, V&& v) {
  v("length", 0x00, r.length);
  v("mode", 0x04, r.mode);
  v("name", 0x06, TextField{r.name, 18});
}

template <class V>
void visit_fields(Keyframe& r, V&& v) {
  v("time", 0x00, r.time);
  v("angles", 0x04, r.angles);
  v("offset", 0x10, r.offset);
}

template <class V>
void visit_fields(ClipEvent& r, V&& v) {
  v("time", 0x00, r.time);
  v("kind", 0x04, r.kind);
  v("unknown_08", 0x08, r.unknown_08);
}

template <class V>
void visit_fields(PointList& r, V&& v) {
  v("kind", 0x00, r.kind);
}

template <class V>
void visit_fields(Point& r, V&& v) {
  v("zero_00", 0x00, r.zero_00);
  v("index", 0x04, r.index);
  v("position", 0x08, r.position);
}

template <class V>
void visit_fields(TriggerPolygon&, V&&) {}  // kept as the file holds it (not decoded)

template <class V>
void visit_fields(FiringArc& r, V&& v) {
  v("unread_00", 0x00, r.unread_00);
  v("mask", 0x0C, r.mask);
}

namespace detail {

template <class T>
void load_le(const uint8_t* p, T& out) {
  if constexpr (std::is_same_v<T, F32>) {
    out.bits = load_u32(p);
  } else {
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t{p[i]} << (8 * i);
    out = static_cast<T>(v);
  }
}

template <class T>
void store_le(uint8_t* p, const T& in) {
  uint64_t v = 0;
  if constexpr (std::is_same_v<T, F32>) {
    v = in.bits;
  } else {
    v = static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(in));
  }
  for (size_t i = 0; i < (std::is_same_v<T, F32> ? 4 : sizeof(T)); ++i)
    p[i] = static_cast<uint8_t>(v >> (8 * i));
}

template <class T>
constexpr size_t scalar_size() {
  if constexpr (std::is_same_v<T, F32>) return 4;
  return sizeof(T);
}

struct Decoder {
  std::span<const uint8_t> image;
  template <class T>
  void operator()(const char*, size_t at, T& field) const {
    load_le(image.data() + at, field);
  }
  template <class T, size_t N>
  void operator()(const char*, size_t at, std::array<T, N>& field) const {
    for (size_t i = 0; i < N; ++i) load_le(image.data() + at + i * scalar_size<T>(), field[i]);
  }
  void operator()(const char*, size_t at, TextField field) const {
    field.value.clear();
    for (size_t i = 0; i < field.width && image[at + i] != 0; ++i)
      field.value.push_back(static_cast<char>(image[at + i]));
  }
};

struct Encoder {
  std::span<uint8_t> image;
  template <class T>
  void operator()(const char*, size_t at, T& field) const {
    store_le(image.data() + at, field);
  }
  template <class T, size_t N>
  void operator()(const char*, size_t at, std::array<T, N>& field) const {
    for (size_t i = 0; i < N; ++i) store_le(image.data() + at + i * scalar_size<T>(), field[i]);
  }
  void operator()(const char*, size_t at, TextField field) const {
    const size_t n = std::min(field.value.size(), field.width);
    for (size_t i = 0; i < n; ++i) image[at + i] = static_cast<uint8_t>(field.value[i]);
    if (n < field.width) image[at + n] = 0;
  }
};

}  // namespace detail

// Fields from the struct image (bytes past the record's reach are zero there, so they read 0).
template <class R>
void decode_fields(R& record) {
  visit_fields(record, detail::Decoder{record.image.bytes});
}

// The struct image with the fields written over it: bytes no field names are kept, and a name
// writes its characters and one NUL, so bytes after the NUL are kept too.
template <class R>
auto encode_fields(const R& record) {
  auto image = record.image.bytes;
  // The encoder only reads the fields; the visitors take them by reference for the decoder's sake.
  visit_fields(const_cast<R&>(record), detail::Encoder{image});
  return image;
}

}  // namespace shapevm::shp

namespace shapevm::shp {

// A node face list's record (tag 0x08): one u32 face index. The model keeps these as plain
// indices in Node::faces; this type lets the text form treat them like every other record.
struct FaceRef {
  RecordImage<kNodeFaceStruct> image;
  uint32_t face = 0;
};
template <class V>
void visit_fields(FaceRef& r, V&& v) {
  v("face", 0x00, r.face);
}

// A record of a tag the loader never asks for: no struct, no fields (its bytes are all "tail").
struct OpaqueRecord {
  RecordImage<0> image;
};
template <class V>
void visit_fields(OpaqueRecord&, V&&) {}

// Calls f(R{}) with the record type of `tag` (OpaqueRecord for a tag the loader never asks for).
template <class F>
decltype(auto) with_record_type(uint16_t tag, F&& f) {
  switch (static_cast<Tag>(tag)) {
    case Tag::kHeader:
      return f(Header{});
    case Tag::kPart:
      return f(Part{});
    case Tag::kLevel:
      return f(Level{});
    case Tag::kFace:
      return f(Face{});
    case Tag::kVertex:
      return f(Vertex{});
    case Tag::kMaterial:
      return f(Material{});
    case Tag::kNode:
      return f(Node{});
    case Tag::kNodeFaces:
      return f(FaceRef{});
    case Tag::kAttachment:
      return f(Attachment{});
    case Tag::kClip:
      return f(Clip{});
    case Tag::kKeyframe:
      return f(Keyframe{});
    case Tag::kEvent:
      return f(ClipEvent{});
    case Tag::kPointList:
      return f(PointList{});
    case Tag::kPoint:
      return f(Point{});
    case Tag::kTrigger:
      return f(TriggerPolygon{});
    case Tag::kArc:
      return f(FiringArc{});
    case Tag::kTerminator:
      break;
  }
  return f(OpaqueRecord{});
}

// The text form's keyword for a record of `tag` ("vertex"; "record" for an unnamed tag).
const char* record_keyword(uint16_t tag);

}  // namespace shapevm::shp
