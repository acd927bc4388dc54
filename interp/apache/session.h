// One opened Apache archive as every command, the debugger and the viewer use it: the archive
// ("3DOBJS.BIN", optionally one record of it: "#N" or a short name), its palette and textures
// (given, or 3DPAL.RGB and OBJTEXT.BIN found beside the archive, or the assembler's output when
// the archive was assembled in memory), the run state built from the shared state request, and
// the info text and JSON.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/shared_bytes.h"
#include "interp/apache/archive.h"
#include "interp/apache/assembler.h"
#include "interp/apache/palette.h"
#include "interp/apache/run_state.h"
#include "interp/apache/textures.h"
#include "interp/common/state.h"
#include "raster/texture.h"

namespace shapevm::apache {

// The background the examples and golden frames are drawn on: a mid grey of the built-in ramps, so
// the black shadow meshes show.
inline constexpr uint8_t kApacheExampleBackground = 18;

class Session {
 public:
  // An archive read from `path`. `palette` / `textures`: paths, or "" to look beside the archive
  // (absent files are fine then: the built-in palette, no textures). InputError for malformed
  // files and for a member that names no record.
  Session(std::string path, SharedBytes bytes, std::optional<std::string> member,
          const std::string& palette = "", const std::string& textures = "");
  // An archive assembled in memory (interp/apache/assembler.h): its own palette and textures
  // unless `palette` / `textures` name files.
  Session(std::string source, AssembledArchive assembled, std::optional<std::string> member,
          const std::string& palette = "", const std::string& textures = "");
  // The textures keep a view of the bytes held here: a session never moves.
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const Archive& archive() const { return *archive_; }
  const std::string& path() const { return path_; }
  bool has_member() const { return record_.has_value(); }
  // The record the argument names; InputError "name a record: ..." for the whole archive.
  uint32_t record() const;
  const ModelRecord& model() const { return *archive_->record(record()); }
  // "3DOBJS.BIN:#17" for a record; the archive's path for the whole archive.
  std::string source() const;
  std::string record_source(uint32_t index) const;
  const ShadingTables& tables() const { return tables_; }
  const TextureArchive* textures() const { return textures_ ? &*textures_ : nullptr; }
  // A texture by the name face events use ("tex17", "tex17m"); nullptr when it is not there.
  const raster::Texture* find_texture(std::string_view name);

  // info: the archive (no member) or one record.
  std::string info_text() const;
  nlohmann::json info_json() const;

 private:
  void open(std::optional<std::string> member, std::optional<std::vector<uint8_t>> palette_bytes,
            const std::string& palette_path, std::optional<std::vector<uint8_t>> texture_bytes,
            const std::string& texture_path);

  std::string path_;
  // Holds the bytes read; shared with other sessions on the same bytes (archive_cache.h).
  std::shared_ptr<const Archive> archive_;
  std::optional<uint32_t> record_;
  std::vector<uint8_t> texture_bytes_;
  std::optional<TextureArchive> textures_;
  ShadingTables tables_;
  std::map<std::string, raster::Texture, std::less<>> raster_textures_;
};

// The record a member names: "#N" (core/member_spec.h) or a short name (case-insensitive).
// InputError naming ARCHIVE:MEMBER when there is none or the slot is empty.
uint32_t resolve_record(const Archive& archive, const std::string& member);

// The Apache run state for a state request: the options lod, camera, max-steps, max-depth (any
// other option is an InputError), every --set through apply_set, the frame from width/height.
// Apache's own budgets (assumptions.h) apply when none is given.
RunState run_state(const StateRequest& request);
nlohmann::json state_json(const RunState& state);

}  // namespace shapevm::apache
