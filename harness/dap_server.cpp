#include "harness/dap_server.h"

#include <fmt/format.h>

#include <climits>
#include <sstream>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/debug_repl.h"
#include "harness/debug_views.h"
#include "harness/json_input.h"
#include "interp/common/json_text.h"

namespace shapevm::harness {

using nlohmann::json;

namespace {

constexpr int kThreadId = 1;
constexpr int kSourceReference = 1;
// variablesReference values of the scopes: registers, globals, then one per memory view the engine
// declares (kFirstMemoryScope + its index), then the native registers.
constexpr int kRegistersScope = 1;
constexpr int kGlobalsScope = 2;
constexpr int kFirstMemoryScope = 3;
constexpr size_t kMaxHeaderLine = 1024;
constexpr size_t kMaxMessage = 64 << 20;

// An integer argument of a request, `fallback` when absent. A wrong type or a value outside
// min..max (a huge 2^64+1 parses as a double) is an error naming the argument, not a conversion.
int64_t integer_arg(const json& args, const char* key, int64_t fallback, int64_t min, int64_t max) {
  if (!args.contains(key)) return fallback;
  const json& v = args[key];
  const bool fits = v.is_number_integer() &&
                    (v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(max)
                                            : v.get<int64_t>() >= min && v.get<int64_t>() <= max);
  if (!fits)
    throw std::invalid_argument(
        fmt::format("\"{}\": expected an integer {}..{}, got {}", key, min, max, dump_json(v)));
  return v.get<int64_t>();
}

// The envelope every message needs before anything reads it (a request's "seq" is echoed in its
// response): checked here so a wrong type is a precise error, not a type_error later.
void check_envelope(const json& message) {
  if (!message.is_object() || !message.contains("type") || !message.at("type").is_string())
    throw std::invalid_argument("DAP message: expected an object with a string \"type\"");
  if (message.at("type") == "request") {
    const json& seq = message.contains("seq") ? message.at("seq") : json();
    if (!seq.is_number_integer() || seq.get<int64_t>() < 0 || seq.get<int64_t>() > INT32_MAX ||
        (seq.is_number_unsigned() && seq.get<uint64_t>() > uint64_t{INT32_MAX}))
      throw std::invalid_argument(
          fmt::format("DAP request: \"seq\" must be an integer 0..{}, got {}", INT32_MAX,
                      seq.is_null() ? std::string("nothing") : dump_json(seq)));
    if (!message.contains("command") || !message.at("command").is_string())
      throw std::invalid_argument("DAP request: expected a string \"command\"");
    if (message.contains("arguments") && !message.at("arguments").is_object())
      throw std::invalid_argument("DAP request: \"arguments\" must be an object");
  }
}

std::string hex_offset(uint32_t offset) {
  return fmt::format("0x{:04x}", offset);
}

}  // namespace

std::optional<json> read_dap_message(std::istream& in) {
  size_t length = 0;
  bool have_length = false;
  std::string line;
  bool any = false;
  while (true) {
    line.clear();
    char c;
    while (in.get(c) && c != '\n') {
      line.push_back(c);
      if (line.size() > kMaxHeaderLine) throw std::invalid_argument("DAP header line too long");
    }
    if (!in) {
      if (!any && line.empty()) return std::nullopt;
      throw std::invalid_argument("DAP input ended inside a header");
    }
    any = true;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) break;
    const auto colon = line.find(':');
    if (colon == std::string::npos)
      throw std::invalid_argument(fmt::format("DAP header without ':': \"{}\"", line));
    if (line.substr(0, colon) == "Content-Length") {
      const size_t digits = line.find_first_not_of(' ', colon + 1);
      auto v = parse_integer(digits == std::string::npos ? std::string() : line.substr(digits));
      if (!v || *v <= 0 || static_cast<size_t>(*v) > kMaxMessage)
        throw std::invalid_argument(fmt::format("DAP Content-Length \"{}\" is not valid", line));
      length = static_cast<size_t>(*v);
      have_length = true;
    }
  }
  if (!have_length) throw std::invalid_argument("DAP message without Content-Length");
  std::string body(length, '\0');
  if (!in.read(body.data(), static_cast<std::streamsize>(length)))
    throw std::invalid_argument("DAP input ended inside a message body");
  json message;
  try {
    message = json::parse(body);
  } catch (const json::exception& e) {
    // Any failure, a number beyond a double's range (1e400) included, says where in the body.
    const auto failure = find_json_failure(body);
    throw std::invalid_argument(fmt::format("DAP message body, byte {}: expected JSON ({})",
                                            failure ? failure->offset : 0,
                                            failure ? failure->message : e.what()));
  }
  return message;
}

void write_dap_message(std::ostream& out, const json& message) {
  const std::string body = dump_json(message);  // names from input: json_text.h
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

struct DapServer::Session {
  std::unique_ptr<DebugEngine> engine;
  std::unique_ptr<Debugger> debugger;
  std::string listing_path;  // "" when the listing is served by sourceReference
  std::vector<int> line_breakpoints;
  std::vector<int> function_breakpoints;
  std::vector<int> exception_breakpoints;
};

DapServer::DapServer(EngineFactory factory, std::istream& in, std::ostream& out)
    : factory_(std::move(factory)), in_(in), out_(out) {}

DapServer::~DapServer() = default;

int DapServer::serve() {
  while (!done_) {
    auto message = read_dap_message(in_);
    if (!message) break;
    check_envelope(*message);
    if ((*message)["type"] != "request") continue;
    handle(*message);
  }
  return errors_;
}

void DapServer::respond(const json& request, bool success, json body, const std::string& message) {
  json r = {{"seq", seq_++},
            {"type", "response"},
            {"request_seq", request.value("seq", 0)},
            {"command", request.value("command", "")},
            {"success", success}};
  if (!body.is_null()) r["body"] = std::move(body);
  responded_ = true;
  if (!success) {
    ++errors_;
    r["message"] = message;
  }
  write_dap_message(out_, r);
}

void DapServer::event(const std::string& name, json body) {
  json e = {{"seq", seq_++}, {"type", "event"}, {"event", name}};
  if (!body.is_null()) e["body"] = std::move(body);
  write_dap_message(out_, e);
}

json DapServer::source_json() const {
  json s = {{"name", session_->engine->source() + ".listing"}};
  if (!session_->listing_path.empty()) {
    s["path"] = session_->listing_path;
  } else {
    s["sourceReference"] = kSourceReference;
  }
  return s;
}

int DapServer::line_of(uint32_t offset, bool native) const {
  const auto& lines = session_->engine->listing();
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].offset == offset && lines[i].native == native) return static_cast<int>(i) + 1;
  return 0;
}

void DapServer::stopped(const MoveResult& r, const std::string& default_reason) {
  for (const auto& m : r.messages)
    event("output",
          {{"category", "console"},
           {"output",
            fmt::format("{} at {}: {}\n", m.level == DiagnosticLevel::kError ? "error" : "warning",
                        hex_offset(m.offset), m.text)}});
  std::string reason = default_reason;
  json body = {{"threadId", kThreadId}, {"allThreadsStopped", true}, {"description", r.reason}};
  if (r.reason.rfind("breakpoint ", 0) == 0) {
    reason = "breakpoint";
    body["hitBreakpointIds"] = json::array({std::atoi(r.reason.c_str() + 11)});
  } else if (r.reason.rfind("watchpoint ", 0) == 0) {
    reason = "data breakpoint";
  }
  const Snapshot& s = session_->debugger->current();
  if (s.ended) body["text"] = "end of run: " + s.end_reason;
  body["reason"] = reason;
  event("stopped", body);
}

json DapServer::variables(int reference) const {
  Debugger& d = *session_->debugger;
  const Snapshot& s = d.current();
  const auto& views = d.vocabulary().memory;
  const int native_scope = kFirstMemoryScope + static_cast<int>(views.size());
  json out = json::array();
  auto add = [&](const std::string& name, const std::string& value) {
    out.push_back({{"name", name}, {"value", value}, {"variablesReference", 0}});
  };
  auto add_values = [&](const std::vector<DebugValue>& values) {
    for (const auto& v : values) {
      add(v.name, v.text.empty() ? fmt::format("{}", v.value) : v.text);
      // Where the original program keeps it (DAP's memoryReference).
      if (v.address) out.back()["memoryReference"] = fmt::format("0x{:X}", *v.address);
    }
  };
  if (reference == kRegistersScope) {
    add_values(s.registers);
    add("depth", fmt::format("{}", s.depth));
    add("steps", fmt::format("{}", s.steps));
    add("faces", fmt::format("{}", s.faces));
    add("offset", hex_offset(s.offset));
  } else if (reference == kGlobalsScope) {
    add_values(s.globals);
  } else if (reference >= kFirstMemoryScope && reference < native_scope) {
    const std::string& name = views[static_cast<size_t>(reference - kFirstMemoryScope)].name;
    for (const auto& m : s.memory)
      if (m.name == name)
        for (const auto& row : m.rows)
          add(fmt::format("{}[{}]", m.name, row.index), memory_row_text(m, row, false));
  } else if (reference == native_scope && s.native) {
    // As disasm and the REPL show it: relocated addresses by name, not sandbox addresses.
    add("instruction", native_instruction_text(session_->engine->listing(), *s.native));
    for (const auto& r : s.native->registers)
      add(r.name, fmt::format("0x{:08x}", static_cast<uint32_t>(r.value)));
  }
  return out;
}

void DapServer::handle(const json& request) {
  responded_ = false;
  const std::string command = request.value("command", "");
  const json args = request.value("arguments", json::object());
  try {
    if (command == "initialize") {
      respond(request, true,
              {{"supportsConfigurationDoneRequest", true},
               {"supportsStepBack", true},
               {"supportsDisassembleRequest", true},
               {"supportsSteppingGranularity", true},
               {"supportsInstructionBreakpoints", false},
               {"supportsConditionalBreakpoints", true},
               {"supportsFunctionBreakpoints", true},
               {"supportsRestartRequest", true},
               {"supportsEvaluateForHovers", true},
               {"supportsTerminateRequest", true},
               {"exceptionBreakpointFilters",
                json::array({{{"filter", "diagnostic"}, {"label", "Diagnostics (warnings)"}},
                             {{"filter", "error"}, {"label", "Errors"}}})}});
      event("initialized");
      return;
    }
    if (command == "disconnect" || command == "terminate") {
      respond(request, true);
      if (command == "terminate") event("terminated");
      done_ = true;
      return;
    }
    if (command == "launch") {
      auto s = std::make_unique<Session>();
      s->engine = factory_(args);
      s->debugger = std::make_unique<Debugger>(*s->engine);
      stop_on_entry_ = args.value("stopOnEntry", true);
      if (args.contains("listingPath")) {
        if (!listing_files_)
          throw std::invalid_argument("launch: \"listingPath\": this server writes no files");
        s->listing_path = args["listingPath"].get<std::string>();
        std::string text;
        for (const auto& line : s->engine->listing()) text += line.text + "\n";
        write_text_atomic(s->listing_path, text);
      }
      s->debugger->restart();
      session_ = std::move(s);
      respond(request, true);
      return;
    }
    if (!session_) {
      respond(request, false, nullptr, fmt::format("{}: no program launched", command));
      return;
    }
    Debugger& d = *session_->debugger;
    const auto& lines = session_->engine->listing();
    if (command == "setBreakpoints") {
      for (int id : session_->line_breakpoints) d.remove(id);
      session_->line_breakpoints.clear();
      json result = json::array();
      for (const auto& b : args.value("breakpoints", json::array())) {
        const auto line = static_cast<int>(integer_arg(b, "line", 0, INT32_MIN, INT32_MAX));
        // A line without an instruction (label, vertex, directive) binds to the next one.
        size_t i = line > 0 ? static_cast<size_t>(line - 1) : lines.size();
        while (i < lines.size() && !lines[i].offset) ++i;
        if (i >= lines.size()) {
          result.push_back({{"verified", false}, {"line", line}, {"message", "no instruction"}});
          continue;
        }
        Breakpoint bp;
        bp.kind = BreakKind::kOffset;
        bp.number = *lines[i].offset;
        if (b.contains("condition") && !b["condition"].get<std::string>().empty())
          bp.condition = parse_condition(b["condition"].get<std::string>());
        const int id = d.add_breakpoint(bp);
        session_->line_breakpoints.push_back(id);
        result.push_back({{"id", id},
                          {"verified", true},
                          {"line", static_cast<int>(i) + 1},
                          {"source", source_json()}});
      }
      respond(request, true, {{"breakpoints", result}});
      return;
    }
    if (command == "setFunctionBreakpoints") {
      // A "function" is a mnemonic, `face N`, or the native architecture's name (or `native`) for
      // entering native code, as the REPL's break takes them.
      for (int id : session_->function_breakpoints) d.remove(id);
      session_->function_breakpoints.clear();
      json result = json::array();
      const std::string& native = d.vocabulary().native;
      for (const auto& b : args.value("breakpoints", json::array())) {
        const std::string name = b.value("name", "");
        Breakpoint bp;
        if (name == "native" || (!native.empty() && name == native)) {
          if (native.empty()) {
            result.push_back({{"verified", false}, {"message", kNoNativeCode}});
            continue;
          }
          bp.kind = BreakKind::kNativeEntry;
        } else if (name.rfind("face ", 0) == 0) {
          auto n = parse_integer(name.substr(5));
          if (!n || *n < 0) throw std::invalid_argument("face N: N is a draw-order number");
          bp.kind = BreakKind::kFace;
          bp.number = static_cast<uint32_t>(*n);
        } else {
          bp.kind = BreakKind::kMnemonic;
          bp.mnemonic = name;
        }
        if (b.contains("condition") && !b["condition"].get<std::string>().empty())
          bp.condition = parse_condition(b["condition"].get<std::string>());
        const int id = d.add_breakpoint(bp);
        session_->function_breakpoints.push_back(id);
        result.push_back({{"id", id}, {"verified", true}});
      }
      respond(request, true, {{"breakpoints", result}});
      return;
    }
    if (command == "setExceptionBreakpoints") {
      for (int id : session_->exception_breakpoints) d.remove(id);
      session_->exception_breakpoints.clear();
      for (const auto& f : args.value("filters", json::array())) {
        Breakpoint bp;
        bp.kind = BreakKind::kDiagnostic;
        bp.level = f == "error" ? DiagnosticLevel::kError : DiagnosticLevel::kWarning;
        session_->exception_breakpoints.push_back(d.add_breakpoint(bp));
      }
      respond(request, true);
      return;
    }
    if (command == "configurationDone") {
      if (stop_on_entry_) {
        respond(request, true);
        stopped({"start of run", {}}, "entry");
      } else {
        const MoveResult r = d.cont();  // before the response, so a failure answers once
        respond(request, true);
        stopped(r, "step");
      }
      return;
    }
    if (command == "threads") {
      respond(
          request, true,
          {{"threads", json::array({{{"id", kThreadId}, {"name", session_->engine->source()}}})}});
      return;
    }
    if (command == "source") {
      std::string text;
      for (const auto& line : lines) text += line.text + "\n";
      respond(request, true, {{"content", text}, {"mimeType", "text/plain"}});
      return;
    }
    // A move is made before its response: when it fails (the run has ended, no caller to return
    // to) the request gets one response, the error, and no stopped event. Responding first and
    // then failing would answer the same request twice, success and then failure.
    const bool instruction = args.value("granularity", "") == "instruction";
    auto answer_move = [&](const MoveResult& r, const std::string& reason, json body = nullptr) {
      respond(request, true, std::move(body));
      stopped(r, reason);
    };
    if (command == "continue") {
      answer_move(d.cont(), "step", {{"allThreadsContinued", true}});
      return;
    }
    if (command == "next") {
      answer_move(instruction ? d.stepi() : d.next(), "step");
      return;
    }
    if (command == "stepIn") {
      answer_move(instruction ? d.stepi() : d.step(), "step");
      return;
    }
    if (command == "stepOut") {
      answer_move(d.current().native ? d.native_finish() : d.finish(), "step");
      return;
    }
    if (command == "stepBack") {
      answer_move(instruction ? d.reverse_stepi() : d.reverse_next(), "step");
      return;
    }
    if (command == "reverseContinue") {
      answer_move(d.reverse_continue(), "step");
      return;
    }
    if (command == "restart") {
      answer_move(d.restart(), "entry");
      return;
    }
    if (command == "pause") {
      respond(request, true);  // runs are synchronous: the program is always stopped
      return;
    }
    if (command == "stackTrace") {
      const Snapshot& s = d.current();
      json frames = json::array();
      const size_t depth = s.frames.size();
      uint32_t pc = s.offset;
      for (size_t k = 0; k <= depth; ++k) {
        const bool native = k == 0 && s.native && s.native->offset;
        const uint32_t at = native ? *s.native->offset : pc;
        std::string name =
            k < depth ? fmt::format("fragment {}", hex_offset(s.frames[depth - 1 - k].entry))
                      : std::string("top level");
        if (native)
          name = s.native->arch + ": " +
                 native_instruction_text(session_->engine->listing(), *s.native);
        if (k == 0 && s.ended) name = "end: " + s.end_reason;
        frames.push_back({{"id", k},
                          {"name", name},
                          {"source", source_json()},
                          {"line", line_of(at, native)},
                          {"column", 1},
                          {"instructionPointerReference", hex_offset(at)}});
        if (k < depth) pc = s.frames[depth - 1 - k].call;
      }
      respond(request, true, {{"stackFrames", frames}, {"totalFrames", frames.size()}});
      return;
    }
    if (command == "scopes") {
      json scopes = json::array({{{"name", "Registers"}, {"variablesReference", kRegistersScope}},
                                 {{"name", "Globals"}, {"variablesReference", kGlobalsScope}}});
      const DebugVocabulary& vocabulary = d.vocabulary();
      int reference = kFirstMemoryScope;
      for (const auto& view : vocabulary.memory)
        scopes.push_back({{"name", view.name}, {"variablesReference", reference++}});
      if (d.current().native)
        scopes.push_back({{"name", d.current().native->arch}, {"variablesReference", reference}});
      respond(request, true, {{"scopes", scopes}});
      return;
    }
    if (command == "variables") {
      respond(request, true,
              {{"variables", variables(static_cast<int>(
                                 integer_arg(args, "variablesReference", 0, 0, INT32_MAX)))}});
      return;
    }
    if (command == "evaluate") {
      // A name gives its value; anything else is a debugger command (the REPL's).
      const std::string expression = args.value("expression", "");
      if (auto v = snapshot_value(d.current(), expression)) {
        respond(request, true, {{"result", fmt::format("{}", *v)}, {"variablesReference", 0}});
        return;
      }
      std::ostringstream text;
      DebugRepl repl(d, text);
      const uint64_t before = d.runs();
      repl.execute(expression);
      if (repl.errors() > 0) {
        respond(request, false, nullptr, text.str());
        return;
      }
      respond(request, true, {{"result", text.str()}, {"variablesReference", 0}});
      if (d.runs() != before) stopped({"evaluate", {}}, "step");
      return;
    }
    if (command == "disassemble") {
      const std::string reference = args.value("memoryReference", "0");
      auto base = parse_integer(reference);
      if (!base) throw std::invalid_argument("memoryReference is not a number");
      const int64_t count = integer_arg(args, "instructionCount", 0, 0, INT32_MAX);
      const int64_t skip = integer_arg(args, "instructionOffset", 0, INT32_MIN, INT32_MAX);
      std::vector<size_t> code_lines;
      size_t anchor = 0;
      bool found = false;
      for (size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].offset) continue;
        if (!found && *lines[i].offset >= *base) {
          anchor = code_lines.size();
          found = true;
        }
        code_lines.push_back(i);
      }
      if (!found) anchor = code_lines.size();
      json out = json::array();
      for (int64_t k = 0; k < count; ++k) {
        const int64_t at = static_cast<int64_t>(anchor) + skip + k;
        if (at < 0 || at >= static_cast<int64_t>(code_lines.size())) {
          out.push_back({{"address", fmt::format("0x{:x}", std::max<int64_t>(at, 0))},
                         {"instruction", "??"},
                         {"presentationHint", "invalid"}});
          continue;
        }
        const size_t i = code_lines[static_cast<size_t>(at)];
        // The instruction without the listing's comment and indentation.
        std::string text = lines[i].text.substr(0, lines[i].text.find(" ; "));
        text.erase(0, text.find_first_not_of(' '));
        text.erase(text.find_last_not_of(' ') + 1);
        out.push_back({{"address", hex_offset(*lines[i].offset)},
                       {"instruction", text},
                       {"location", source_json()},
                       {"line", static_cast<int>(i) + 1}});
      }
      respond(request, true, {{"instructions", out}});
      return;
    }
    respond(request, false, nullptr, fmt::format("unsupported request \"{}\"", command));
  } catch (const DebugError& e) {
    fail_once(request, e.what());
  } catch (const InputError& e) {
    fail_once(request, e.what());
  } catch (const std::invalid_argument& e) {
    fail_once(request, e.what());
  } catch (const json::exception& e) {
    fail_once(request, fmt::format("malformed arguments: {}", e.what()));
  }
}

void DapServer::fail_once(const json& request, const std::string& message) {
  // Every request gets exactly one response. An error after the response was sent (while
  // describing a stop) cannot become a second response: the client is told on its console.
  if (!responded_) {
    respond(request, false, nullptr, message);
    return;
  }
  ++errors_;
  event("output", {{"category", "stderr"}, {"output", message + "\n"}});
}

}  // namespace shapevm::harness
