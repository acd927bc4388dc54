# shapevm_rewrite_after_link(TARGET): after each link, the program is copied to a new file in one
# sequential pass and the copy replaces it.
#
# Why: the linker writes its output a few kilobytes at a time, out of order, and a kernel that
# keeps large page-cache blocks for a file (Linux 6.x on ext4 does) keeps that file in small
# ones, as it was written. Until the file leaves the page cache, every process that runs the
# program then maps it page by page. Researchers run a freshly built shapevm over thousands of
# files from shell loops, where start-up is most of the cost: on the development machine (Linux
# 6.18, ext4), `shapevm info` on one shape in its own process took 1.24 ms as linked and 1.07 ms
# as copied (1,275 processes: 1.585 -> 1.365 s), and `--version` 1.04 -> 0.92 ms. The bytes are
# the same; where the kernel caches files otherwise the copy changes nothing.
#
# `cp` (coreutils) writes large blocks; `cmake -E copy` was measured to give no gain, so it is not
# used here. The copy is made beside the program and renamed over it, so the program is never
# half written.
function(shapevm_rewrite_after_link target)
  if(CMAKE_HOST_UNIX)
    add_custom_command(
      TARGET ${target} POST_BUILD
      COMMAND cp $<TARGET_FILE:${target}> $<TARGET_FILE:${target}>.rewritten
      COMMAND ${CMAKE_COMMAND} -E rename $<TARGET_FILE:${target}>.rewritten $<TARGET_FILE:${target}>
      COMMENT "Rewriting ${target} in one pass (cmake/rewrite_program.cmake)"
      VERBATIM)
  endif()
endfunction()
