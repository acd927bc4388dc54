// A Starlancer .SHP model as model_load (0x004A44D0) fills it (docs/shp.md): the header, the parts
// with their levels of detail, collision tree, attachments, clips, point lists and trigger
// polygons, then the firing arcs; plus what the writer needs to write the file back as it was:
// each tag's record size in the file (or that the file has none), the chunks of tags the loader
// never asks for, and, per record, the bytes the record actually reached.
//
// Every record keeps its engine struct image (RecordImage: struct-size bytes, zero past what the
// file's record reached) so bytes no field names survive a rewrite. The named fields are decoded
// from it and are what the writer encodes back over the image; a field past `reached` is absent
// (has() says so; it reads as zero, as the zero-filling reader makes it). Floats are F32: the
// file's bits, read as a float on demand, so every float round-trips bit for bit.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shapevm::shp {

// Chunk tags (SL-07 names the order the loader asks for them in).
enum class Tag : uint16_t {
  kHeader = 0x00,
  kPart = 0x01,
  kLevel = 0x02,
  kFace = 0x03,
  kVertex = 0x04,
  kMaterial = 0x06,
  kNode = 0x07,
  kNodeFaces = 0x08,
  kAttachment = 0x09,
  kClip = 0x0A,
  kKeyframe = 0x0B,
  kEvent = 0x0C,
  kPointList = 0x0D,
  kPoint = 0x0E,
  kTrigger = 0x0F,
  kArc = 0x10,
  kTerminator = 0xFFFF,
};
inline constexpr size_t kTagSlots = 0x11;  // tags 0x00..0x10 (0x05 is never asked for)
inline constexpr size_t kChunkHeaderSize = 6;

// The engine's struct sizes (SL-10): each record copies min(record size, struct size) bytes.
inline constexpr uint16_t kHeaderStruct = 0x68;
inline constexpr uint16_t kPartStruct = 0x258;
inline constexpr uint16_t kLevelStruct = 0x1C;
inline constexpr uint16_t kFaceStruct = 0x50;
inline constexpr uint16_t kVertexStruct = 0x20;
inline constexpr uint16_t kMaterialStruct = 0x48;
inline constexpr uint16_t kNodeStruct = 0x5C;
inline constexpr uint16_t kNodeFaceStruct = 4;
inline constexpr uint16_t kAttachmentStruct = 0x7C;
inline constexpr uint16_t kClipStruct = 0x28;
inline constexpr uint16_t kKeyframeStruct = 0x1C;
inline constexpr uint16_t kEventStruct = 0x0C;
inline constexpr uint16_t kPointListStruct = 0x0C;
inline constexpr uint16_t kPointStruct = 0x14;
inline constexpr uint16_t kTriggerStruct = 0x54;
inline constexpr uint16_t kArcStruct = 0x4C;

// The struct size the loader passes to model_take_chunk for `tag`; 0 for a tag it never asks for.
uint16_t struct_size(uint16_t tag);
// "vertices", "faces", ...; "" for a tag the loader never asks for.
const char* tag_name(uint16_t tag);
// Whether model_load asks for `tag` (the table of SL-07).
bool named_tag(uint16_t tag);

// A 32-bit float kept as the file's bits.
struct F32 {
  uint32_t bits = 0;
  float value() const { return std::bit_cast<float>(bits); }
  operator float() const { return value(); }  // NOLINT: reads like the float it is
  static F32 of(float v) { return F32{std::bit_cast<uint32_t>(v)}; }
  bool operator==(const F32&) const = default;
};
using Vec3 = std::array<F32, 3>;

// One record as the engine's struct holds it: `bytes` is the struct image (the first `reached`
// bytes copied from the file, the rest zero), `offset` where the record starts in the model image.
template <size_t N>
struct RecordImage {
  std::array<uint8_t, N> bytes{};
  uint16_t reached = N;  // min(record size, struct size); a record built from scratch is whole
  uint32_t offset = 0;   // in the (decompressed) model image; 0 for a record built from scratch
  // Whether the file's record reached [at, at + width): a field past it is absent.
  bool has(size_t at, size_t width) const { return at + width <= reached; }
  bool operator==(const RecordImage&) const = default;
};

// Tag 0x00 (the first record only; the loader keeps one header).
struct Header {
  RecordImage<kHeaderStruct> image;
  uint32_t version = 0;  // 0x00: 107 (200 in a few); unread
  F32 unread_04;         // 0x04: unread by the engine, preserved
  Vec3 eye{};            // 0x08: cockpit eye point
  uint32_t flags = 0;    // 0x14: bit 0 list components, bit 1 build the cloak mesh set
};

// Tag 0x02: the distance beyond which the level applies (0 for a single-level part) and its
// geometry (tags 0x04, 0x03, 0x06 in that order).
struct Vertex {
  RecordImage<kVertexStruct> image;
  Vec3 position{};           // 0x00, part frame
  Vec3 normal{};             // 0x0C
  uint32_t unread_18 = 0;    // 0x18: 1..4, unread
  int32_t counterpart = -1;  // 0x1C: the vertex in the next coarser level, -1 none
  // Absent from 28-byte records (SL-09).
  std::optional<int32_t> counterpart_if_present() const {
    if (!image.has(0x1C, 4)) return std::nullopt;
    return counterpart;
  }
};

struct Face {
  RecordImage<kFaceStruct> image;
  uint32_t material = 0;               // 0x00: index into the level's materials
  uint32_t mode = 0;                   // 0x04: bits 0-3 shading mode, bits 4-7 sub-mode
  uint32_t flags = 0;                  // 0x08: bit 0 cap, bit 1 two-sided
  std::array<uint32_t, 3> vertices{};  // 0x0C
  std::array<F32, 3> u{};              // 0x18
  std::array<F32, 3> v{};              // 0x24
  Vec3 normal{};                       // 0x30
  uint32_t unread_3c = 0;              // 0x3C: unread by the engine, preserved
  F32 sort_bias;                       // 0x40 (0 when shipped)
  uint32_t edge_mask = 0;              // 0x44
  uint32_t polygon = 0;                // 0x48: 0 triangle, 1 fan, 2 strip even, 3 strip odd
  uint32_t remaining = 0;              // 0x4C: records of the polygon still to come
  uint32_t shading_mode() const { return mode & 0x0F; }
  uint32_t sub_mode() const { return (mode >> 4) & 0x0F; }
  // 72-byte records stop before the polygon fields: always plain triangles.
  bool has_polygon_fields() const { return image.has(0x48, 8); }
};

struct Material {
  RecordImage<kMaterialStruct> image;
  std::string texture;  // 0x00: char[64], NUL-terminated, no extension
};

struct Level {
  RecordImage<kLevelStruct> image;
  F32 distance;  // 0x00
  std::vector<Vertex> vertices;
  std::vector<Face> faces;
  std::vector<Material> materials;
};

// Tag 0x07: a node of the part's collision tree (an OBB tree over level-0 faces), root first,
// with its face list (tag 0x08). A node with a non-empty list is a leaf and its children are not
// read (SL-22).
struct Node {
  RecordImage<kNodeStruct> image;
  uint32_t unknown_00 = 0;                  // 0x00
  std::array<F32, 9> axes{};                // 0x04
  Vec3 half_size{};                         // 0x28
  Vec3 centre{};                            // 0x34
  std::array<int32_t, 2> children{-1, -1};  // 0x40: absent from 64-byte records
  std::vector<uint32_t> faces;              // tag 0x08: level-0 face indices
  std::vector<uint32_t> face_offsets;       // where each face-list record stood (0 = from scratch)
  bool leaf() const { return !faces.empty(); }
  bool has_children_fields() const { return image.has(0x40, 8); }
};

// Tag 0x09: where the engine mounts something on a part. The engine keeps 124 bytes; longer
// records' bytes past them (SL-11) are the tail, never copied by the loader, kept for the rewrite.
struct Attachment {
  RecordImage<kAttachmentStruct> image;
  uint32_t kind = 0;                 // 0x00
  Vec3 position{};                   // 0x04, part frame
  std::array<F32, 9> orientation{};  // 0x10
  uint32_t id = 0;                   // 0x34
  std::array<uint32_t, 4> tiers{};   // 0x38
  Vec3 size{};                       // 0x48
  std::array<int32_t, 2> blink{};    // 0x54: on, off
  int32_t blink_phase = 0;           // 0x5C
  uint32_t gun_type = 0;             // 0x64
  F32 light_range;                   // 0x74
  F32 brightness;                    // 0x78
  std::vector<uint8_t> tail;         // bytes past 124 in the file's record
};

// Tag 0x0B.
struct Keyframe {
  RecordImage<kKeyframeStruct> image;
  int32_t time = 0;  // 0x00
  Vec3 angles{};     // 0x04, radians
  Vec3 offset{};     // 0x10
};

// Tag 0x0C.
struct ClipEvent {
  RecordImage<kEventStruct> image;
  int32_t time = 0;         // 0x00
  int32_t kind = 0;         // 0x04: 0 fire muzzles, 2 kind-7 particles
  uint32_t unknown_08 = 0;  // 0x08
};

// Tag 0x0A: an animation track; 8-byte records stop two bytes into the name (SL-23).
struct Clip {
  RecordImage<kClipStruct> image;
  int32_t length = 0;  // 0x00
  int16_t mode = 0;    // 0x04: 0 none, 1 once, 2 loop, 3 ping-pong
  std::string name;    // 0x06: char[18] (what the record reached of it)
  std::vector<Keyframe> keyframes;
  std::vector<ClipEvent> events;
};

// Tag 0x0E.
struct Point {
  RecordImage<kPointStruct> image;
  uint32_t zero_00 = 0;  // 0x00
  uint32_t index = 0;    // 0x04
  Vec3 position{};       // 0x08
};

// Tag 0x0D: a point list {kind, count, points}; the file's record holds only the kind.
struct PointList {
  RecordImage<kPointListStruct> image;
  uint32_t kind = 0;  // 0x00
  std::vector<Point> points;
};

// Tag 0x0F: not decoded (i32[4] level-0 vertices per the prior art); kept as the file holds it.
struct TriggerPolygon {
  RecordImage<kTriggerStruct> image;
};

// Tag 0x01.
struct Part {
  RecordImage<kPartStruct> image;
  std::string name;         // 0x00: char[64]
  uint32_t part_class = 0;  // 0x40: 1 hull, 2 cockpit, 3/9/10/18 turret, 5 engine, 6 shield
  Vec3 origin{};            // 0x44, model frame whatever the parent
  Vec3 bbox_min{};          // 0x50 (a hint)
  Vec3 bbox_max{};          // 0x5C
  std::array<F32, 3> second_moments{};          // 0x68: integrals of x², y², z²
  std::array<F32, 3> products{};                // 0x74: xy, yz, xz
  std::array<F32, 3> first_moments{};           // 0x80: x, y, z
  F32 volume;                                   // 0x8C
  F32 density;                                  // 0x90
  int32_t parent = -1;                          // 0x94: -1 root
  Vec3 mount{};                                 // 0x98: mount / pivot point
  std::array<F32, 9> orientation{};             // 0xA4: row-major
  std::array<uint32_t, 3> axis_not_animated{};  // 0xC8: X, Y, Z
  uint32_t link_id = 0;                         // 0xD4
  std::array<F32, 3> min_angles{};              // 0xD8: degrees (yaw, pitch, roll)
  std::array<F32, 3> max_angles{};              // 0xE4 (equal = free)
  uint32_t flags = 0;                           // 0xF0 (kPart* below)
  uint32_t turret_kind = 0;                     // 0xF4: 0 fixed, 1 aimed, 2 spin, 3 missile
  int32_t turret_slot = 0;                      // 0xF8
  int32_t component_armour = 0;                 // 0x104
  uint32_t component_group = 0;                 // 0x108

  std::vector<Level> levels;
  std::vector<Node> nodes;
  std::vector<Attachment> attachments;
  std::vector<Clip> clips;
  std::vector<PointList> point_lists;
  std::vector<TriggerPolygon> triggers;
};

// Part flags (0xF0).
inline constexpr uint32_t kPartComponent = 0x02;
inline constexpr uint32_t kPartDamagedModel = 0x04;
inline constexpr uint32_t kPartGeomorphNormals = 0x10;
inline constexpr uint32_t kPartGeomorphPositions = 0x20;
inline constexpr uint32_t kPartStaticLight = 0x40;
inline constexpr uint32_t kPartLightMap = 0x80;
inline constexpr uint32_t kPartTargetable = 0x1000;

// Tag 0x10: one per component; 12-byte records have no mask (SL-24).
struct FiringArc {
  RecordImage<kArcStruct> image;
  Vec3 unread_00{};                 // 0x00
  std::array<uint16_t, 32> mask{};  // 0x0C: row r around Y, bit c
  bool has_mask() const { return image.has(0x0C, 64); }
};

// A chunk of a tag model_load never asks for (SL-08), kept whole, with how many chunks of named
// tags stand before it in the file.
struct UnnamedChunk {
  uint16_t tag = 0;
  uint16_t record_size = 0;
  uint16_t count = 0;
  std::vector<uint8_t> records;  // count * record_size bytes
  uint32_t named_before = 0;
  uint32_t offset = 0;  // where its header stood
};

// Each tag's record size in the file, or absent (the file has no chunk of it). A model built
// from scratch has whole records (each tag's struct size) and a chunk for every tag.
struct RecordSizes {
  std::array<std::optional<uint16_t>, kTagSlots> size{};
  static RecordSizes whole();
  std::optional<uint16_t> of(uint16_t tag) const {
    return tag < kTagSlots ? size[tag] : std::nullopt;
  }
};

struct Model {
  std::optional<Header> header;  // absent when the file has no header chunk
  std::vector<Part> parts;
  std::vector<FiringArc> arcs;

  RecordSizes record_sizes;
  std::vector<UnnamedChunk> unnamed_chunks;
  // What a rewrite changes because the file is laid out as no shipped model is (SL-13), each
  // "offset 0x..: what and how it comes back"; empty for a shipped layout.
  std::vector<std::string> normalisations;
  uint32_t image_size = 0;  // bytes of the model image read
};

}  // namespace shapevm::shp
