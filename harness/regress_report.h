// Reports of a regression run for machines and people: JUnit XML for CI systems, and an HTML page
// with the capture, our frame and the highlighted difference of every failing case.
#pragma once

#include <filesystem>
#include <string>

#include "harness/regress_manifest.h"
#include "harness/regress_runner.h"

namespace shapevm::harness {

// JUnit XML text: one <testsuite> named after the manifest, one <testcase> per case run;
// FAILED cases carry <failure>, ERROR cases <error>, with the case's message.
std::string junit_xml(const Manifest& manifest, const RunSummary& summary);
void write_junit(const std::filesystem::path& path, const Manifest& manifest,
                 const RunSummary& summary);

// Writes DIR/index.html and, for every failing case with frames, DIR/case-<index>-capture.png,
// -ours.png (indexed, with their palettes) and -diff.png (the highlight panel). Creates DIR.
void write_html_report(const std::filesystem::path& dir, const Manifest& manifest,
                       const RunSummary& summary);

// Text escaped for XML/HTML element content and attribute values.
std::string xml_escape(std::string_view text);

}  // namespace shapevm::harness
