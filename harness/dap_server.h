// A Debug Adapter Protocol server (https://microsoft.github.io/debug-adapter-protocol/) over the
// debugger core, so editors can debug shape programs. Messages are JSON with Content-Length
// framing on a pair of streams (stdio for `shapevm dap`). The program's listing is served as its
// source (sourceReference 1, or a file written at launch), so breakpoints sit on listing lines.
// Engine neutral: the engine comes from a factory given the launch request's arguments.
#pragma once

#include <functional>
#include <istream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "harness/debugger.h"

namespace shapevm::harness {

// Builds the engine for a launch request's `arguments`; throws InputError or
// std::invalid_argument with a message the client is shown.
using EngineFactory = std::function<std::unique_ptr<DebugEngine>(const nlohmann::json& arguments)>;

// Reads one Content-Length framed message; nullopt at the end of input. Throws
// std::invalid_argument on a malformed header or body.
std::optional<nlohmann::json> read_dap_message(std::istream& in);
void write_dap_message(std::ostream& out, const nlohmann::json& message);

class DapServer {
 public:
  DapServer(EngineFactory factory, std::istream& in, std::ostream& out);
  ~DapServer();
  // Refuses launch requests that ask for the listing to be written to a file ("listingPath"),
  // for a server whose client may not write files (the fuzz target).
  void forbid_listing_files() { listing_files_ = false; }
  // Serves until `disconnect` or the end of input. Returns the number of requests answered with
  // an error (a protocol error on the stream itself throws).
  int serve();

 private:
  struct Session;
  void handle(const nlohmann::json& request);
  void respond(const nlohmann::json& request, bool success, nlohmann::json body = nullptr,
               const std::string& message = "");
  // The error response to `request`, or an output event when it was already answered.
  void fail_once(const nlohmann::json& request, const std::string& message);
  void event(const std::string& name, nlohmann::json body = nullptr);
  void stopped(const MoveResult& r, const std::string& default_reason);
  nlohmann::json source_json() const;
  nlohmann::json variables(int reference) const;
  int line_of(uint32_t offset, bool native) const;

  EngineFactory factory_;
  std::istream& in_;
  std::ostream& out_;
  int seq_ = 1;
  int errors_ = 0;
  bool done_ = false;
  bool responded_ = false;  // whether the request being handled has had its response
  bool stop_on_entry_ = true;
  bool listing_files_ = true;
  std::unique_ptr<Session> session_;
};

}  // namespace shapevm::harness
