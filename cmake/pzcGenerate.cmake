# pzc_generate(): a solver library from a puzzle definition, at build time,
# in the style of protobuf_generate (docs/library.md). Shipped beside
# pzcConfig.cmake, so find_package(pzc CONFIG REQUIRED) brings it.
#
#   pzc_generate(TARGET cube DEFINITION puzzles/cube3.pz
#                [SOLVERS two_phase optimal]   # default: every declared solver
#                [NAMESPACE ns]                # default: the target's name
#                [OUTPUT_DIR dir]              # default: <binary dir>/pzc/<target>
#                [LEVELS files... | LEVEL_DIRS dirs...]  # grid-actor puzzles
#                [MARCH native|x86-64-v3|...]) # default native, as pzc solve builds
#   target_link_libraries(app PRIVATE cube)    # then #include "cube.hpp" (C: "cube_c.h")
#
# The library `cube` is built from cube.cpp, which `pzc generate` writes by a
# custom command depending on the definition, on pzc and (through pzc's
# depfile) on every level file it read: editing any of them regenerates and
# rebuilds; nothing else does. A bad definition fails the build with pzc's
# located diagnostics. The target is compiled -O3 (but in Debug) and for
# MARCH, like the solvers pzc builds itself.
function(pzc_generate)
  cmake_parse_arguments(PZG "" "TARGET;DEFINITION;NAMESPACE;OUTPUT_DIR;MARCH" "SOLVERS;LEVELS;LEVEL_DIRS" ${ARGN})
  if(PZG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pzc_generate: unknown arguments: ${PZG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT PZG_TARGET OR NOT PZG_DEFINITION)
    message(FATAL_ERROR "pzc_generate: TARGET and DEFINITION are required")
  endif()
  if(NOT PZG_TARGET MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "pzc_generate: TARGET '${PZG_TARGET}' must be a C++ identifier (it names the header and the namespace)")
  endif()
  if(NOT TARGET pzc::pzc)
    message(FATAL_ERROR "pzc_generate: no pzc::pzc target: call find_package(pzc CONFIG REQUIRED) first")
  endif()
  get_filename_component(definition "${PZG_DEFINITION}" ABSOLUTE)
  if(NOT EXISTS "${definition}")
    message(FATAL_ERROR "pzc_generate: DEFINITION ${definition} does not exist")
  endif()
  set(out "${PZG_OUTPUT_DIR}")
  if(NOT out)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/pzc/${PZG_TARGET}")
  endif()
  get_filename_component(out "${out}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  set(args generate "${definition}" -o "${out}" --name "${PZG_TARGET}" --depfile "${out}/${PZG_TARGET}.d")
  if(PZG_NAMESPACE)
    list(APPEND args --namespace "${PZG_NAMESPACE}")
  endif()
  foreach(solver IN LISTS PZG_SOLVERS)
    list(APPEND args --solver "${solver}")
  endforeach()
  foreach(level IN LISTS PZG_LEVELS)
    get_filename_component(level "${level}" ABSOLUTE)
    list(APPEND args --level "${level}")
  endforeach()
  foreach(dir IN LISTS PZG_LEVEL_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND args --levels "${dir}")
  endforeach()
  add_custom_command(
    OUTPUT "${out}/${PZG_TARGET}.hpp" "${out}/${PZG_TARGET}.cpp" "${out}/${PZG_TARGET}_c.h"
    COMMAND pzc::pzc ${args}
    DEPENDS "${definition}" pzc::pzc
    DEPFILE "${out}/${PZG_TARGET}.d"
    COMMENT "pzc: generating solver library ${PZG_TARGET} from ${PZG_DEFINITION}"
    VERBATIM)
  add_library(${PZG_TARGET} STATIC "${out}/${PZG_TARGET}.cpp" "${out}/${PZG_TARGET}.hpp" "${out}/${PZG_TARGET}_c.h")
  target_include_directories(${PZG_TARGET} PUBLIC "$<BUILD_INTERFACE:${out}>")
  target_link_libraries(${PZG_TARGET} PUBLIC pzc::runtime pzc::c)
  target_compile_features(${PZG_TARGET} PUBLIC cxx_std_20)
  set(march "${PZG_MARCH}")
  if(NOT march)
    set(march native)
  endif()
  target_compile_options(${PZG_TARGET} PRIVATE "-march=${march}" "$<$<NOT:$<CONFIG:Debug>>:-O3;-DNDEBUG>")
endfunction()
