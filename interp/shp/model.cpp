#include "interp/shp/model.h"

#include "interp/shp/records.h"

namespace shapevm::shp {

uint16_t struct_size(uint16_t tag) {
  switch (static_cast<Tag>(tag)) {
    case Tag::kHeader:
      return kHeaderStruct;
    case Tag::kPart:
      return kPartStruct;
    case Tag::kLevel:
      return kLevelStruct;
    case Tag::kFace:
      return kFaceStruct;
    case Tag::kVertex:
      return kVertexStruct;
    case Tag::kMaterial:
      return kMaterialStruct;
    case Tag::kNode:
      return kNodeStruct;
    case Tag::kNodeFaces:
      return kNodeFaceStruct;
    case Tag::kAttachment:
      return kAttachmentStruct;
    case Tag::kClip:
      return kClipStruct;
    case Tag::kKeyframe:
      return kKeyframeStruct;
    case Tag::kEvent:
      return kEventStruct;
    case Tag::kPointList:
      return kPointListStruct;
    case Tag::kPoint:
      return kPointStruct;
    case Tag::kTrigger:
      return kTriggerStruct;
    case Tag::kArc:
      return kArcStruct;
    case Tag::kTerminator:
      return 0;
  }
  return 0;
}

const char* tag_name(uint16_t tag) {
  switch (static_cast<Tag>(tag)) {
    case Tag::kHeader:
      return "header";
    case Tag::kPart:
      return "parts";
    case Tag::kLevel:
      return "levels";
    case Tag::kFace:
      return "faces";
    case Tag::kVertex:
      return "vertices";
    case Tag::kMaterial:
      return "materials";
    case Tag::kNode:
      return "nodes";
    case Tag::kNodeFaces:
      return "facelist";
    case Tag::kAttachment:
      return "attachments";
    case Tag::kClip:
      return "clips";
    case Tag::kKeyframe:
      return "keyframes";
    case Tag::kEvent:
      return "events";
    case Tag::kPointList:
      return "pointlists";
    case Tag::kPoint:
      return "points";
    case Tag::kTrigger:
      return "triggers";
    case Tag::kArc:
      return "arcs";
    case Tag::kTerminator:
      return "end";
  }
  return "";
}

bool named_tag(uint16_t tag) {
  return tag < kTagSlots && struct_size(tag) != 0;
}

const char* record_keyword(uint16_t tag) {
  switch (static_cast<Tag>(tag)) {
    case Tag::kHeader:
      return "header";
    case Tag::kPart:
      return "part";
    case Tag::kLevel:
      return "level";
    case Tag::kFace:
      return "face";
    case Tag::kVertex:
      return "vertex";
    case Tag::kMaterial:
      return "material";
    case Tag::kNode:
      return "node";
    case Tag::kNodeFaces:
      return "faceref";
    case Tag::kAttachment:
      return "attachment";
    case Tag::kClip:
      return "clip";
    case Tag::kKeyframe:
      return "keyframe";
    case Tag::kEvent:
      return "event";
    case Tag::kPointList:
      return "pointlist";
    case Tag::kPoint:
      return "point";
    case Tag::kTrigger:
      return "trigger";
    case Tag::kArc:
      return "arc";
    case Tag::kTerminator:
      return "end";
  }
  return "record";
}

RecordSizes RecordSizes::whole() {
  RecordSizes out;
  for (uint16_t tag = 0; tag < kTagSlots; ++tag)
    if (named_tag(tag)) out.size[tag] = struct_size(tag);
  return out;
}

}  // namespace shapevm::shp
