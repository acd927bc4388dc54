// What `export` writes (OBJ and glTF 2.0), engine neutral: a tree of nodes (an engine's parts),
// each with its own mesh in its own frame. An engine whose models have parts builds the scene
// itself (Program::export_scene) and decides there which faces an export keeps and how their
// corners wind; an engine without one is exported from the faces a run drew, as one node.
// The writers (harness/scene_obj, harness/scene_gltf) only apply the format's conventions: the
// engine's axis signs to reach a Y-up frame, and OBJ's bottom-up texture v.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "raster/palette.h"

namespace shapevm {

struct ExportFace {
  std::vector<uint32_t> corners;                 // indices into the node's positions
  std::vector<std::array<double, 3>> normals;    // per corner, in the node's frame; empty = none
  std::vector<std::array<double, 2>> texcoords;  // per corner, 0..1, v from the top; empty = none
  std::string material;                          // texture name ("" = the palette colour only)
  uint8_t color = 0;  // palette index (the material's colour when it has no texture)
  bool line = false;  // two corners: a line, not a face
};

struct ExportNode {
  std::string name;
  int32_t parent = -1;  // index into ExportScene::nodes of the node it hangs from; -1 = root
  // Where the node's frame sits in its parent's (model units, the engine's frame, not turned).
  std::array<double, 3> translation{};
  std::vector<std::array<double, 3>> positions;  // in the node's frame, model units
  std::vector<ExportFace> faces;
};

struct ExportScene {
  std::string name;  // the program's source
  // Parents come before their children.
  std::vector<ExportNode> nodes;
  double scale = 1.0;  // model units per exported unit
  // Multiplies each axis (positions, normals, translations) to turn the engine's frame into a
  // right-handed Y-up one; {1, 1, 1} keeps the engine's frame.
  std::array<int, 3> axis_signs{1, 1, 1};
  raster::Palette palette;  // gives each colour-only material its RGB
};

}  // namespace shapevm
