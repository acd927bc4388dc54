// What the debugger's command line prints about the current position: the location line, call
// stack, registers, globals, memory views, listing ranges, breakpoint table and single values.
// Engine neutral: the engine's vocabulary and listing say what there is to show.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/debugger.h"

namespace shapevm::harness {

// One row of a memory view as text: its layout's groups ("source (1, 2, 3)  view (4, 5, 6)";
// `aligned` pads each number to its group's width and puts two spaces between groups), then
// COLUMN=VALUE for any column no group covers. `hex`: the numbers in hexadecimal.
std::string memory_row_text(const MemoryViewInfo& view, const MemoryRow& row, bool aligned,
                            bool hex = false);

// A native instruction as the listing writes it, with the program's names for relocated
// addresses (`cmp word ptr [_PLgearDown], 1`); the snapshot's own text when the listing has none
// for that offset.
std::string native_instruction_text(const std::vector<ListingLine>& listing,
                                    const NativeState& native);

// The index of the listing line of the current position (the native line inside native code).
std::optional<size_t> current_listing_line(Debugger& d);

void print_location(std::ostream& out, Debugger& d);
void print_backtrace(std::ostream& out, const Snapshot& s);
void print_registers(std::ostream& out, Debugger& d);
void print_globals(std::ostream& out, const Snapshot& s);
// The native state; DebugError outside native code or without any.
void print_native(std::ostream& out, Debugger& d);
// Rows lo..hi of a memory view, or "no ... in that range".
void print_memory(std::ostream& out, const Snapshot& s, const MemoryViewInfo& view, uint32_t lo,
                  uint32_t hi, bool hex);
// Listing lines [first, last), numbered from 1, `=>` before line `current`.
void print_listing(std::ostream& out, const std::vector<ListingLine>& lines, size_t first,
                   size_t last, std::optional<size_t> current);
// gdb's table: number, type, disposition (keep, or del for a temporary breakpoint), enabled,
// what, and how often each stopped the debugger.
void print_breakpoints(std::ostream& out, const Debugger& d);

// NAME's value as `print` shows it ("-60 (0xffffffffffffffc4)", or a register's own text);
// nullopt when NAME has no value here. `hex`: the hexadecimal form only.
std::optional<std::string> value_text(const Snapshot& s, const std::string& name, bool hex);

}  // namespace shapevm::harness
