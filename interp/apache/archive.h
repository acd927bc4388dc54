// 3DDATA/3DOBJS.BIN: a counted table of 32-bit file offsets to 188-byte model headers (seed 003,
// AP-01..AP-03, AP-34). The seven internal offsets of a header are relative to their model and are
// relocated as initialise_3d_objects_ does: the model's address is added to every nonzero offset
// (here: its file offset, so relocated offsets are file offsets). Zero means absent.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shapevm::apache {

inline constexpr uint32_t kHeaderSize = 188;

// Indices of ModelHeader::sections (header offsets 0x2c..0x44, in that order).
enum Section : int {
  kAttached = 0,     // 0x2c attached-model definitions
  kBoundingBox = 1,  // 0x30 eight bounding-box vertices
  kVertices = 2,     // 0x34 vertex list
  kNormals = 3,      // 0x38 normal list
  kProgram = 4,      // 0x3c face drawing program
  kShadow = 5,       // 0x40 shadow data
  kGridLighting = 6  // 0x44 additional grid-lighting data
};
inline constexpr int kSectionCount = 7;
const char* section_name(int section);

// Every field of the 188-byte header at its offset.
struct ModelHeader {
  int32_t encoding = 0;             // 0x00 0 = signed 16-bit, 1 = grid
  int32_t lod_distance = 0;         // 0x04 distance threshold for the next level of detail
  int32_t next_record = -1;         // 0x08 next model record, or -1
  std::array<int32_t, 6> bounds{};  // 0x0c min x, max x, min y, max y, min z, max z
  int32_t radius = 0;               // 0x24 horizontal bounding radius
  int32_t height = 0;               // 0x28
  // 0x2c..0x44 as stored (model-relative) and relocated (file offsets); 0 = absent.
  std::array<uint32_t, kSectionCount> stored{};
  std::array<uint32_t, kSectionCount> sections{};
  std::string name;              // 0x48 char[16]
  std::string description;       // 0x58 char[64]
  uint32_t properties = 0;       // 0x98 bit 0 casts, bit 1 receives shadows, bit 2 collision
  int32_t target_filter = 0;     // 0x9c 10,000 / 30,000 / 50,000 = level 1 / 2 / 3
  int32_t metadata_a0 = 0;       // 0xa0
  int32_t metadata_a4 = 0;       // 0xa4 patched for ship type
  int32_t damage_threshold = 0;  // 0xa8
  int32_t explosion = 0;         // 0xac
  int32_t auxiliary_model = 0;   // 0xb0
  int32_t radar_symbol = 0;      // 0xb4
  uint32_t gameplay_flags = 0;   // 0xb8 bit 0 target-class scoring

  bool has(int section) const { return sections[static_cast<size_t>(section)] != 0; }
  bool casts_shadow() const { return (properties & 1u) != 0; }
  bool receives_shadows() const { return (properties & 2u) != 0; }
  bool mobile_collision() const { return (properties & 4u) != 0; }
  // 1..3 for the traced codes 10,000 / 30,000 / 50,000; 0 otherwise.
  int target_level() const;
};

struct ModelRecord {
  uint32_t index = 0;
  uint32_t offset = 0;  // file offset of the header
  ModelHeader header;
};

// A parsed archive over bytes the caller keeps alive. Construction validates the offset table and
// every present record's header and section offsets (each must lie inside the file).
class Archive {
 public:
  Archive(std::span<const uint8_t> bytes, std::string source);

  const std::string& source() const { return source_; }
  std::span<const uint8_t> bytes() const { return bytes_; }
  uint32_t count() const { return static_cast<uint32_t>(slots_.size()); }
  // The offset table entry (0 = no model).
  uint32_t slot_offset(uint32_t index) const { return slots_.at(index); }
  // nullptr for an empty slot; throws InputError for an index beyond the table.
  const ModelRecord* record(uint32_t index) const;
  // The first record whose short name equals `name` (case-insensitive); nullptr if none.
  const ModelRecord* find(std::string_view name) const;
  const std::vector<ModelRecord>& records() const { return records_; }
  // How many slots hold a model.
  uint32_t populated() const { return static_cast<uint32_t>(records_.size()); }

 private:
  std::span<const uint8_t> bytes_;
  std::string source_;
  std::vector<uint32_t> slots_;
  std::vector<ModelRecord> records_;
  std::vector<int32_t> record_of_slot_;  // index into records_ or -1
};

ModelHeader read_header(std::span<const uint8_t> bytes, uint32_t offset, const std::string& source);

}  // namespace shapevm::apache
