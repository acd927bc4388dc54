// The regression manifest (docs/regress.md): a JSON file listing cases, each a shape run in one
// state whose frame must match a capture. Engine-neutral: the state uses the names of the CLI's
// state options, and each engine reads what it understands (harness/case_engine.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "raster/framebuffer.h"

namespace shapevm::harness {

inline constexpr int kManifestVersion = 1;

// The state options (--frame, --lod, --detail, --destroyed, --effects, --set, --camera,
// --merged); unset
// fields keep the engine's default.
struct CaseState {
  std::optional<uint32_t> frame;
  std::optional<uint32_t> lod;
  std::optional<uint16_t> detail;
  bool destroyed = false;
  std::optional<uint32_t> effects;
  std::vector<std::string> sets;  // NAME=VALUE
  std::string camera;             // "distance,heading,pitch", empty = default
  bool merged = false;            // --merged: the engine's merged/harvest view (FA: reloc harvest)
};

enum class CaptureFormat { kPng, kRaw };

struct RegressCase {
  size_t index = 0;     // position in the manifest's "cases" array
  std::string pointer;  // JSON pointer of the case, "/cases/3", for messages
  std::string name;
  std::string engine;
  std::string file;  // resolved against the manifest's folder; may be CONTAINER:MEMBER
  CaseState state;
  int width = 640;
  int height = 480;
  std::string palette;   // resolved path (or CONTAINER:MEMBER); empty = the engine's default
  std::string textures;  // resolved path of the engine's texture folder/container; empty = none
  uint8_t background = 0;
  std::filesystem::path capture;
  CaptureFormat capture_format = CaptureFormat::kPng;
  std::filesystem::path mask;  // empty = none; nonzero pixels are excluded
  std::vector<raster::ClipRect> exclude;
};

struct Manifest {
  std::filesystem::path path;
  std::filesystem::path folder;  // relative paths in the manifest are resolved against this
  std::vector<RegressCase> cases;
};

// Parses and validates a manifest. Every problem is an InputError naming the manifest path and
// the JSON pointer of the offending value with what was expected there (JSON syntax errors give
// the byte offset). `known_engines`, when not empty, are the engine names cases may use.
Manifest parse_manifest(std::string_view text, const std::filesystem::path& path,
                        const std::vector<std::string>& known_engines = {});
Manifest read_manifest(const std::filesystem::path& path,
                       const std::vector<std::string>& known_engines = {});

// A file argument from a manifest, resolved against `folder`: absolute paths stay; a relative
// path that names an existing file is joined to the folder; otherwise a CONTAINER:MEMBER has its
// container part joined to the folder.
std::string resolve_input(const std::filesystem::path& folder, const std::string& spec);

}  // namespace shapevm::harness
