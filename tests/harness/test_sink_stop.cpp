// How a sink asks an engine to stop (EventSink::stop_requested): the sink raises a work budget's
// reason when an event exhausts it, the first reason raised stays, and a MultiSink raises what its
// members raised, in their order, so that a frame renderer behind one (as in the viewer) still
// ends a runaway run.
#include <doctest/doctest.h>

#include <string>

#include "harness/frame_renderer.h"
#include "harness/trace_writer.h"
#include "interp/common/work_limits.h"
#include "interp/fa/assembler.h"
#include "interp/fa/interpreter.h"
#include "raster/framebuffer.h"
#include "tests/fa/shape_text.h"

namespace harness_sink_stop_tests {

using namespace shapevm;

namespace {

// Raises `reason` at its `at`-th face.
struct RaisingSink : EventSink {
  RaisingSink(uint64_t at, std::string_view reason) : at(at), reason(reason) {}
  void on_face(const FaceEvent&) override {
    if (++faces == at) request_stop(reason);
  }
  uint64_t at;
  std::string_view reason;
  uint64_t faces = 0;
};

fa::Shape face_loop() {
  return fa::load_shape(fa::assemble_fa(testing::face_loop_text(), "loop.fas").file, "loop.SH");
}

}  // namespace

TEST_CASE("sink stop: a raised reason stays, and the first one raised wins") {
  RaisingSink sink(2, kBudgetPixels);
  FaceEvent face;
  sink.on_face(face);
  CHECK(sink.stop_requested().empty());
  sink.on_face(face);
  CHECK(sink.stop_requested() == kBudgetPixels);
  sink.at = 3;
  sink.reason = kBudgetFaces;
  sink.on_face(face);
  CHECK(sink.stop_requested() == kBudgetPixels);
}

TEST_CASE("sink stop: a MultiSink raises its members' reasons, in the members' order") {
  FaceEvent face;
  SUBCASE("the member that raises first") {
    RaisingSink late(3, kBudgetPixels), early(2, kBudgetFaces);
    MultiSink both;
    both.add(&late);
    both.add(&early);
    both.on_face(face);
    CHECK(both.stop_requested().empty());
    both.on_face(face);
    CHECK(both.stop_requested() == kBudgetFaces);
    both.on_face(face);
    CHECK(both.stop_requested() == kBudgetFaces);
  }
  SUBCASE("in one event, the first member") {
    RaisingSink first(1, kBudgetTraceBytes), second(1, kBudgetFaces);
    MultiSink both;
    both.add(&first);
    both.add(&second);
    both.on_face(face);
    CHECK(both.stop_requested() == kBudgetTraceBytes);
  }
}

TEST_CASE("sink stop: a frame renderer behind a MultiSink ends an FA face loop on its budget") {
  const fa::Shape shape = face_loop();
  fa::Interpreter interp(shape);
  WorkLimits limits;
  limits.faces = 7;
  for (const fa::Dispatch dispatch : {fa::Dispatch::kThreaded, fa::Dispatch::kSwitch}) {
    CAPTURE(static_cast<int>(dispatch));
    raster::Framebuffer frame(64, 48);
    harness::FrameRenderer renderer(frame, {}, {}, limits);
    MultiSink sinks;
    sinks.add(&renderer);
    const fa::RunResult r = interp.run({}, sinks, dispatch);
    CHECK(r.stop == fa::StopReason::kWorkBudget);
    CHECK(r.reason == kBudgetFaces);
    CHECK(r.faces == 8);  // the eighth face is the one past the budget
  }
}

TEST_CASE("sink stop: a frame renderer raises the pixel budget after the face that passed it") {
  const fa::Shape shape = face_loop();
  fa::Interpreter interp(shape);
  raster::Framebuffer frame(64, 48);
  WorkLimits limits;
  limits.pixels = 1;  // the first face covers more than one pixel
  harness::FrameRenderer renderer(frame, {}, {}, limits);
  const fa::RunResult r = interp.run({}, renderer);
  CHECK(r.stop == fa::StopReason::kWorkBudget);
  CHECK(r.reason == kBudgetPixels);
  CHECK(r.faces == 1);
  CHECK(renderer.pixels_covered() > 1);
}

TEST_CASE("sink stop: a trace writer raises its byte budget on the line that passes it") {
  const fa::Shape shape = face_loop();
  fa::Interpreter interp(shape);
  std::FILE* out = std::fopen("/dev/null", "w");
  REQUIRE(out != nullptr);
  WorkLimits limits;
  limits.trace_bytes = 4096;
  fa::RunResult r;
  uint64_t written = 0;
  {
    harness::TraceWriter writer(out, true, limits);
    r = interp.run({}, writer);
    written = writer.bytes_written();
  }
  std::fclose(out);
  CHECK(r.stop == fa::StopReason::kWorkBudget);
  CHECK(r.reason == kBudgetTraceBytes);
  CHECK(written > 4096);
  CHECK(written < 4096 + 1024);  // stopped within a few lines of the budget
}

}  // namespace harness_sink_stop_tests
