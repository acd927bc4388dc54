// Writers of an ExportScene (interp/common/export_scene.h): Wavefront OBJ and glTF 2.0. They
// apply only the formats' own conventions; which faces an export keeps and how they wind is the
// engine's decision, made when it built the scene.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "interp/common/export_scene.h"

namespace shapevm::harness {

// Where a node's position lands in the exported frame: the node's translations up to the root
// added, the engine's axis signs applied, divided by the scene's scale.
std::array<double, 3> exported_position(const ExportScene& scene, size_t node,
                                        const std::array<double, 3>& local);

// Throws std::logic_error (an engine's bug, exit 3) when the scene breaks its own rules: a parent
// after its child, a corner past its node's positions, per-corner lists of another length.
void validate_scene(const ExportScene& scene);

// OBJ: one `o` per node with faces (named after the node), positions in the exported frame
// (OBJ has no hierarchy), `vt` with v counted from the bottom (1 - v), `vn` where the engine gave
// normals, `usemtl` per texture or `color_N` per palette colour, lines as `l`; `mtllib
// mtl_library` first when it is not empty.
std::string scene_to_obj(const ExportScene& scene, const std::string& mtl_library = "");

// The OBJ's material library: a `newmtl` for every material the faces use, in first-use order. A
// palette colour's `Kd` is its RGB from the scene's palette; a texture's is white with `map_Kd
// <texture>.png`, the picture the glTF writer names too.
std::string scene_to_mtl(const ExportScene& scene);

// glTF 2.0: a node per ExportNode under its parent's, translated (not turned) by its translation,
// a mesh per node with faces (one primitive per material; lines as LINES), materials with the
// palette colour or the picture `<texture>.png`, every buffer embedded. `binary` writes GLB.
std::vector<uint8_t> scene_to_gltf(const ExportScene& scene, bool binary);

}  // namespace shapevm::harness
