// Shared by the Apache paths of info, disasm, trace, render, export and examples: open an
// archive argument ("3DOBJS.BIN:#N" / ":name"), its textures and palette (given, or OBJTEXT.BIN
// and 3DPAL.RGB found beside the archive), build the run state from the common options, and
// render one frame.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/frame_renderer.h"
#include "interp/apache/archive.h"
#include "interp/apache/archive_input.h"
#include "interp/apache/interpreter.h"
#include "interp/apache/palette.h"
#include "interp/apache/run_state.h"
#include "interp/apache/textures.h"
#include "raster/framebuffer.h"
#include "tools/run_options.h"

namespace shapevm::tools {

class ApacheSession {
 public:
  // `palette` / `textures`: paths, or "" to look beside the archive (absent files are fine then).
  ApacheSession(const std::string& spec, const std::string& palette = "",
                const std::string& textures = "");

  const apache::Archive& archive() const { return *archive_; }
  bool has_member() const { return input_.member.has_value(); }
  // The record the argument names; InputError when it names none.
  uint32_t record() const;
  std::string record_source(uint32_t index) const;
  const apache::ShadingTables& tables() const { return tables_; }
  const apache::TextureArchive* textures() const { return textures_ ? &*textures_ : nullptr; }
  const raster::Texture* find_texture(std::string_view name);

 private:
  apache::ArchiveInput input_;
  std::unique_ptr<apache::Archive> archive_;
  std::vector<uint8_t> texture_bytes_;
  std::optional<apache::TextureArchive> textures_;
  apache::ShadingTables tables_;
  std::map<std::string, raster::Texture, std::less<>> raster_textures_;
};

// The Apache state from the common options (--lod, --camera, --set, budgets); FA-only options
// (--frame, --detail, --destroyed, --effects, --no-x86, --x86-trace, --merged) are refused.
apache::RunState apache_run_state(const RunOptions& options, int width, int height);
nlohmann::json apache_state_json(const apache::RunState& state);

// The background the examples and golden frames are drawn on: a mid grey of the built-in ramps, so
// the black shadow meshes show.
inline constexpr uint8_t kApacheExampleBackground = 18;

struct ApacheFrame {
  raster::Framebuffer frame;
  apache::RunResult result;
  uint64_t faces_filled = 0;
  std::set<std::string> missing_textures;
};

ApacheFrame render_apache_frame(ApacheSession& session, uint32_t record,
                                const apache::RunState& state, uint8_t background);

// info: the archive (no member) or one record.
std::string apache_info_text(ApacheSession& session);
nlohmann::json apache_info_json(ApacheSession& session);

}  // namespace shapevm::tools
