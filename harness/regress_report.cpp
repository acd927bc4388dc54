#include "harness/regress_report.h"

#include <fmt/format.h>

#include <string_view>
#include <system_error>
#include <utility>

#include "core/file_io.h"
#include "core/input_error.h"
#include "raster/diff_image.h"
#include "raster/image_zoom.h"
#include "raster/png_io.h"

namespace shapevm::harness {

std::string xml_escape(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters even as references: show them as '?'.
        if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
          out.push_back('?');
        else
          out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::string junit_xml(const Manifest& manifest, const RunSummary& summary) {
  const std::string suite = xml_escape(manifest.path.string());
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += fmt::format(
      "<testsuites name=\"shapevm regress\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
      "time=\"{:.3f}\">\n",
      summary.results.size(), summary.failed - summary.errors, summary.errors, summary.seconds);
  xml += fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" "
      "time=\"{:.3f}\">\n",
      suite, summary.results.size(), summary.failed - summary.errors, summary.errors,
      summary.seconds);
  for (const auto& r : summary.results) {
    xml += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"", suite,
                       xml_escape(r.c->name), r.seconds);
    const std::string message = xml_escape(r.message);
    switch (r.status) {
      case CaseStatus::kPassed:
        xml += "/>\n";
        break;
      case CaseStatus::kUpdated:
        xml += fmt::format(">\n      <system-out>{}</system-out>\n    </testcase>\n", message);
        break;
      case CaseStatus::kFailed:
        xml += fmt::format(
            ">\n      <failure message=\"{}\" type=\"frame\">{}: {}</failure>\n    </testcase>\n",
            message, xml_escape(r.c->pointer), message);
        break;
      case CaseStatus::kError:
        xml += fmt::format(
            ">\n      <error message=\"{}\" type=\"input\">{}: {}</error>\n    </testcase>\n",
            message, xml_escape(r.c->pointer), message);
        break;
    }
  }
  xml += "  </testsuite>\n</testsuites>\n";
  return xml;
}

void write_junit(const std::filesystem::path& path, const Manifest& manifest,
                 const RunSummary& summary) {
  write_text_atomic(path, junit_xml(manifest, summary));
}

namespace {

std::string figure(const std::string& file, const std::string& caption) {
  return fmt::format("<figure><img src=\"{0}\" alt=\"{1}\"><figcaption>{1}</figcaption></figure>",
                     file, caption);
}

// Writes a failing case's images into `dir` and returns their HTML: capture, ours and the
// difference side by side, and below them, when the difference is small, the same three cropped
// to it and scaled up.
std::string case_images(const std::filesystem::path& dir, const CaseResult& r) {
  const std::string stem = fmt::format("case-{}", r.c->index);
  raster::write_indexed_png(dir / (stem + "-capture.png"), *r.capture, r.capture_palette);
  raster::write_indexed_png(dir / (stem + "-ours.png"), *r.ours, r.ours_palette);
  raster::DiffInput in{&*r.capture, &r.capture_palette, &*r.ours, &r.ours_palette, {}};
  if (r.excluded && r.pixels.same_size) in.options.excluded = &*r.excluded;
  if (r.compared_by_colour) in.options.same_colour = &r.ours_palette;
  const raster::RgbImage diff = raster::difference_panel(in);
  raster::write_rgb_png(dir / (stem + "-diff.png"), diff);
  std::string html = "<div class=\"frames\">" + figure(stem + "-capture.png", "capture") +
                     figure(stem + "-ours.png", "ours") + figure(stem + "-diff.png", "difference") +
                     "</div>";
  if (!r.pixels.same_size) return html;
  const raster::ZoomRegion zoom =
      raster::zoom_region(r.pixels.bounds, r.ours->width(), r.ours->height());
  if (zoom.rect.empty()) return html;
  const std::pair<const char*, raster::RgbImage> crops[] = {
      {"capture", raster::frame_to_rgb(*r.capture, r.capture_palette)},
      {"ours", raster::frame_to_rgb(*r.ours, r.ours_palette)},
      {"difference", diff}};
  html += fmt::format("<p class=\"zoom\">x {}..{}, y {}..{}, {}&times;</p><div class=\"frames\">",
                      zoom.rect.left, zoom.rect.right - 1, zoom.rect.top, zoom.rect.bottom - 1,
                      zoom.factor);
  for (const auto& [what, image] : crops) {
    const std::string file =
        fmt::format("{}-{}-zoom.png", stem, std::string_view(what) == "difference" ? "diff" : what);
    raster::write_rgb_png(dir / file, raster::crop_zoomed(image, zoom));
    html += figure(file, fmt::format("{} (close-up)", what));
  }
  return html + "</div>";
}

}  // namespace

void write_html_report(const std::filesystem::path& dir, const Manifest& manifest,
                       const RunSummary& summary) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir.string(), "cannot create the report folder: " + ec.message());
  std::string rows;
  for (const auto& r : summary.results) {
    if (r.status == CaseStatus::kPassed) continue;
    const RegressCase& c = *r.c;
    rows += fmt::format(
        "<tr class=\"{}\"><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td>",
        r.status == CaseStatus::kUpdated ? "updated" : "failed", case_status_name(r.status),
        xml_escape(c.pointer), xml_escape(c.name), xml_escape(r.message));
    if (r.ours && r.capture) {
      rows += "<td>" + case_images(dir, r) + "</td>";
    } else {
      rows += "<td></td>";
    }
    rows += "</tr>\n";
  }
  const std::string title = xml_escape(manifest.path.string());
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<title>shapevm regress: {0}</title>\n<style>\n"
      "body{{font-family:sans-serif;margin:1em}} table{{border-collapse:collapse}}\n"
      "td,th{{border:1px solid #999;padding:4px;vertical-align:top;text-align:left}}\n"
      "tr.failed td:first-child{{color:#b00;font-weight:bold}}\n"
      ".frames{{display:flex;gap:4px}} figure{{margin:2px;flex:1 1 0;min-width:0}}\n"
      "img{{image-rendering:pixelated;width:100%;max-width:640px}} p.zoom{{margin:4px 2px}}\n"
      "</style></head><body>\n"
      "<h1>shapevm regress: {0}</h1>\n<p>{1} passed, {2} failed ({3} errors), {4} updated, "
      "{5:.2f} s. Difference: red = pixel differs, yellow = same index but different palette "
      "colour, dark blue = excluded.</p>\n",
      title, summary.passed, summary.failed, summary.errors, summary.updated, summary.seconds);
  if (rows.empty()) {
    html += "<p>Every case passed.</p>\n";
  } else {
    html +=
        "<table><tr><th>status</th><th>case</th><th>name</th><th>message</th><th>frames</th></"
        "tr>\n" +
        rows + "</table>\n";
  }
  html += "</body></html>\n";
  write_text_atomic(dir / "index.html", html);
}

}  // namespace shapevm::harness
