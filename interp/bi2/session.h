// One opened Battle Isle 2 argument as every command, the debugger and the viewer use it: a LIB
// archive (whole: a listing only) or one member of it, or a lone file; TPWM undone; read as a
// 3DOB mesh, a 3DLD record (with the terrain archive its object ids index) or other data; and
// the fight palette (--palette FILE or LIB:MEMBER, else the built-in one).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/shared_bytes.h"
#include "interp/bi2/draw.h"
#include "interp/bi2/engine_name.h"
#include "interp/bi2/layer.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/mesh.h"
#include "raster/palette.h"

namespace shapevm::bi2 {

// The background the examples and golden frames are drawn on: a dark grey of the built-in palette.
inline constexpr uint8_t kExampleBackground = 6;

enum class Kind : uint8_t { kArchive, kMesh, kLayer, kData };

class Session {
 public:
  // `objects`: the --objects archive ("" = LAND000.LIB beside the file, else the same archive).
  // InputError for malformed input or a member that is not there.
  Session(std::string path, SharedBytes bytes, std::optional<std::string> member,
          const std::string& palette, const std::string& objects);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Kind kind() const { return kind_; }
  const std::string& path() const { return path_; }
  std::string source() const { return source_; }
  const LibArchive* archive() const { return archive_ ? &*archive_ : nullptr; }
  const Mesh& mesh() const { return mesh_; }
  const Layer& layer() const { return layer_; }
  const std::vector<uint8_t>& data() const { return data_; }
  const SharedBytes& file() const { return file_; }  // as read
  const raster::Palette& palette() const { return palette_; }
  bool packed() const { return packed_; }  // the member (or file) was TPWM-packed
  // What a run draws: the mesh at the origin, or the layer's placed objects (InputError when a
  // layer's objects cannot be found). Unused slots are skipped.
  const std::vector<Instance>& instances() const;
  // Where a layer's objects come from ("" before they are needed or for a mesh).
  const std::string& objects_source() const { return objects_source_; }

 private:
  void load_objects() const;

  std::string path_, source_;
  SharedBytes file_;            // as read
  std::vector<uint8_t> whole_;  // TPWM undone
  std::optional<LibArchive> archive_;
  Kind kind_ = Kind::kData;
  bool packed_ = false;
  std::vector<uint8_t> data_;  // the member's (or file's) decoded bytes
  Mesh mesh_;
  Layer layer_;
  raster::Palette palette_;
  std::string objects_arg_;
  mutable std::string objects_source_;
  mutable std::vector<uint8_t> objects_bytes_;
  mutable std::vector<std::unique_ptr<Mesh>> objects_;  // by object id; null when unused
  mutable std::vector<Instance> instances_;
  mutable bool loaded_ = false;
};

// What a member's decoded bytes are: "3DOB", "3DLD", "palette" (768 bytes) or "data".
std::string member_kind(std::span<const uint8_t> decoded);

}  // namespace shapevm::bi2
