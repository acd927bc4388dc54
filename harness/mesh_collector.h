// The mesh sink: collects the faces a run drew (exactly the state that ran) and writes them as
// Wavefront OBJ with `usemtl` per texture and texture coordinates normalised by the texture's
// size.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "interp/common/events.h"
#include "interp/common/export_scene.h"
#include "interp/common/work_limits.h"

namespace shapevm::harness {

class MeshCollector : public EventSink {
 public:
  struct Face {
    std::vector<uint32_t> vertices;  // indices into vertices()
    std::vector<std::array<uint16_t, 2>> texcoords;
    std::string texture;
    uint8_t color = 0;
  };

  // `limits`: the faces it may collect (interp/common/work_limits.h); past them it asks the
  // engine to stop.
  explicit MeshCollector(WorkLimits limits = {}) : max_faces_(limits.faces) {}
  bool wants_control() const override { return false; }
  void on_face(const FaceEvent& e) override;
  const std::vector<std::array<int32_t, 3>>& vertices() const { return vertices_; }
  const std::vector<Face>& faces() const { return faces_; }

  // OBJ text. Coordinates are the shape's raw units times `scale` (the header's scale factor,
  // so the OBJ is in feet). Texture coordinates are divided by `texture_size` (texels) and kept
  // in 0..1 (the engines clamp to the image; v flipped for the usual bottom-left origin); a face
  // whose texture's size is unknown gets none, since texel units would be meaningless to a 3D
  // tool. `mtllib mtl_library` first when it is not empty.
  std::string to_obj(double scale,
                     const std::map<std::string, std::array<int, 2>>& texture_sizes = {},
                     const std::string& mtl_library = "") const;

  // The same faces as an export scene of one node (for glTF): texture coordinates normalised by
  // the texture's size where known (dropped where not), two-corner faces as lines.
  ExportScene to_scene(std::string name, double scale,
                       const std::map<std::string, std::array<int, 2>>& texture_sizes,
                       const raster::Palette& palette) const;

 private:
  uint64_t max_faces_;
  uint64_t faces_seen_ = 0;
  // Coordinates are kept in 32 bits (FaceCorner::model_wide when the event says so).
  // A vertex is the pool slot's coordinates at the time a face used it: identical coordinates
  // share one OBJ vertex.
  std::map<std::array<int32_t, 3>, uint32_t> vertex_ids_;
  std::vector<std::array<int32_t, 3>> vertices_;
  std::vector<Face> faces_;
};

}  // namespace shapevm::harness
