// shapevm regress MANIFEST: every case of a manifest (docs/regress.md) rendered and compared with
// its capture, in parallel, optionally one shard of them; JUnit XML and HTML reports.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "core/input_error.h"
#include "harness/program_case_renderer.h"
#include "harness/regress_report.h"
#include "harness/regress_runner.h"
#include "tools/command.h"

namespace shapevm::tools {

namespace {

// A one-line bar redrawn in place; only for a terminal, so logs and CI output stay clean.
void draw_progress(size_t done, size_t total) {
  constexpr size_t kWidth = 30;
  const size_t filled = total == 0 ? kWidth : done * kWidth / total;
  fmt::print(stderr, "\r[{}{}] {}/{}", std::string(filled, '#'), std::string(kWidth - filled, ' '),
             done, total);
  if (done == total) fmt::print(stderr, "\r{}\r", std::string(kWidth + 24, ' '));
  std::fflush(stderr);
}

}  // namespace

void register_regress_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string manifest;
    int jobs = 1;
    std::string shard = "1/1";
    bool update = false;
    std::string junit;
    std::string html;
    bool verbose = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "regress",
      "Run the cases of a regression manifest (JSON, docs/regress.md): render each case's shape in "
      "its\n"
      "state and compare the frame pixel for pixel with its capture, outside excluded pixels. "
      "Prints\n"
      "each failing case and ends with \"N passed, M failed\". Exit 0 all passed, 1 a case "
      "differed,\n"
      "2 a bad manifest, or a case whose shape, capture, mask or palette is unusable.");
  cmd->add_option("manifest", o->manifest, "The manifest (paths in it are relative to its folder)")
      ->required();
  cmd->add_option("-j,--jobs", o->jobs, "Worker threads (0 = one per core)")
      ->check(CLI::Range(0, 256))
      ->capture_default_str();
  cmd->add_option("--shard", o->shard,
                  "K/N: run only shard K of N (case i is in shard i mod N + 1); the N shards "
                  "together run every case once. Without it, Bazel's TEST_TOTAL_SHARDS and "
                  "TEST_SHARD_INDEX or GitLab's CI_NODE_TOTAL and CI_NODE_INDEX choose the shard")
      ->capture_default_str();
  cmd->add_flag("--update", o->update,
                "Re-bless: write our frame as the capture of every case that differs or has no "
                "capture (atomically)");
  cmd->add_option("--junit", o->junit, "Write a JUnit XML report to this file");
  cmd->add_option(
      "--html", o->html,
      "Write an HTML report (index.html + images of each failing case) into this folder");
  cmd->add_flag("-v,--verbose", o->verbose, "Also list passing cases");
  cmd->callback([o, cmd, &ctx] {
    const harness::EngineRegistry engines = harness::registered_case_engines();
    const harness::Manifest manifest = harness::read_manifest(o->manifest, engines.names());
    harness::RunnerOptions options;
    if (cmd->count("--shard") != 0) {
      options.shard = harness::parse_shard(o->shard);
    } else {
      const harness::EnvironmentShard env =
          harness::shard_from_environment([](const char* name) { return std::getenv(name); });
      if (!env.status_file.empty()) harness::touch_shard_status_file(env.status_file);
      if (!env.source.empty()) {
        options.shard = env.shard;
        fmt::print("shard {}/{} ({})\n", env.shard.index, env.shard.count, env.source);
      }
    }
    options.jobs =
        o->jobs > 0 ? o->jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    options.update = o->update;
    if (isatty(STDERR_FILENO) != 0) options.progress = draw_progress;
    const harness::RunSummary summary = harness::run_regression(manifest, engines, options);

    for (const auto& w : harness::distinct_warnings(summary)) {
      if (w.cases == 1) {
        fmt::print(stderr, "shapevm: warning: {} {}: {}\n", w.first->pointer, w.first->name,
                   w.text);
      } else {
        fmt::print(stderr, "shapevm: warning: {} ({} cases, the first {} {})\n", w.text, w.cases,
                   w.first->pointer, w.first->name);
      }
    }
    for (const auto& r : summary.results) {
      if (r.status == harness::CaseStatus::kPassed && !o->verbose) continue;
      fmt::print("{:<7} {} {}{}{}\n", harness::case_status_name(r.status), r.c->pointer, r.c->name,
                 r.message.empty() ? "" : ": ", r.message);
    }
    if (!o->junit.empty()) harness::write_junit(o->junit, manifest, summary);
    if (!o->html.empty()) harness::write_html_report(o->html, manifest, summary);
    if (summary.updated != 0) fmt::print("{} captures updated\n", summary.updated);
    if (summary.errors != 0)
      fmt::print("{} of the failed cases had unusable input (ERROR)\n", summary.errors);
    fmt::print("{} passed, {} failed\n", summary.passed, summary.failed);
    std::fflush(stdout);
    if (summary.errors != 0)
      ctx.exit_code = kExitBadInput;
    else if (summary.failed != 0)
      ctx.exit_code = kExitDifferences;
  });
}

}  // namespace shapevm::tools
