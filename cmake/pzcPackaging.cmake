# Installing and packaging pzc (issue 47): `cmake --install build --prefix P`,
# `cpack -G DEB` (run in the build directory), and a CMake package for
# find_package(pzc CONFIG) in the install tree and in the build tree.
#
#   P/bin/pzc                     the compiler
#   P/include/pz/...              the runtime headers generated solvers include
#                                 (and pz/pz_c.h, the C ABI)
#   P/lib/libpz_c.a               the C ABI's library (PIC: it can go into a
#                                 shared object)
#   P/share/pzc/puzzles/...       the shipped puzzle library (+ anima/levels)
#   P/share/pzc/web/...           the browser page, what `pzc serve` serves by default (docs/web.md)
#   P/share/doc/pzc/...           README.md and docs/*.md
#   P/lib/cmake/pzc/...           pzcConfig.cmake, pzcConfigVersion.cmake,
#                                 pzcTargets*.cmake: pzc::runtime, pzc::c, pzc::pzc
#
# bin/ and include/ are fixed, not GNUInstallDirs variables: an installed pzc
# finds its headers at <exe dir>/../include (note [finding the runtime] in
# compiler/driver/native_build.cpp), so they must stay siblings.
# Tested by tests/install (label install).
include(CMakePackageConfigHelpers)

set(PZC_INSTALL_CMAKEDIR lib/cmake/pzc)

install(TARGETS pzc pz_runtime pz_c EXPORT pzcTargets RUNTIME DESTINATION bin ARCHIVE DESTINATION lib)
# The whole header tree, recursively: headers may move into subfolders of
# pz/, and no header is listed by name.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/pz DESTINATION include)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/puzzles/ DESTINATION share/pzc/puzzles)
# Found by pzc serve at <exe dir>/../share/pzc/web (note [finding the web page] in cmd_serve.cpp).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/web/ DESTINATION share/pzc/web)
# docs/ keeps its name so README.md's links (docs/language.md) still work.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/pzc)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs DESTINATION share/doc/pzc FILES_MATCHING PATTERN "*.md")

# The CMake package. SameMinorVersion: pzc is 0.y.z, and under semantic
# versioning a 0.y release may break anything, so find_package(pzc 0.46)
# accepts 0.46.z (z >= the request) but not 0.47. Switch to SameMajorVersion
# at 1.0.0, when minor releases promise compatibility.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pzcConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
# Installed: pzcConfig.cmake built for lib/cmake/pzc, beside the exported targets.
# PZC_PUZZLE_DIR: the shipped puzzle library (share/pzc/puzzles; in the build tree, the sources').
set(PZC_PUZZLE_DIR share/pzc/puzzles)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pzcConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/cmake/install/pzcConfig.cmake
                              INSTALL_DESTINATION ${PZC_INSTALL_CMAKEDIR} PATH_VARS PZC_PUZZLE_DIR)
install(EXPORT pzcTargets NAMESPACE pzc:: DESTINATION ${PZC_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_BINARY_DIR}/cmake/install/pzcConfig.cmake ${PROJECT_BINARY_DIR}/pzcConfigVersion.cmake
        DESTINATION ${PZC_INSTALL_CMAKEDIR})
# The build tree as a package directory (-Dpzc_DIR=<build dir>): the same
# config, with targets naming the build's pzc and the source's headers.
set(PZC_PUZZLE_DIR ${PROJECT_SOURCE_DIR}/puzzles)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pzcConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pzcConfig.cmake
                              INSTALL_DESTINATION ${PROJECT_BINARY_DIR} INSTALL_PREFIX ${PROJECT_BINARY_DIR}
                              PATH_VARS PZC_PUZZLE_DIR)
export(EXPORT pzcTargets NAMESPACE pzc:: FILE ${PROJECT_BINARY_DIR}/pzcTargets.cmake)
# pzc_generate() (cmake/pzcGenerate.cmake), beside pzcConfig.cmake in both trees.
configure_file(${PROJECT_SOURCE_DIR}/cmake/pzcGenerate.cmake ${PROJECT_BINARY_DIR}/pzcGenerate.cmake COPYONLY)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/pzcGenerate.cmake DESTINATION ${PZC_INSTALL_CMAKEDIR})

# The Debian package: `cpack -G DEB` in the build directory (after a build).
set(PZC_PACKAGE_MAINTAINER "pzc maintainers <pzc@localhost>" CACHE STRING "Maintainer field of the .deb")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pzc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${PZC_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "compiler from puzzle definitions to specialised solvers")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "pzc reads a declarative puzzle definition (.pz, YAML or ksolve/twsearch .tws),
analyses it (exact group order, symmetries, subgroups) and emits specialised C++
solvers (IDA*, A*, phased and sift solvers with disk-cached pruning tables),
compiled on the user's machine against the header runtime in /usr/include/pz.
Ships the puzzle library in /usr/share/pzc/puzzles and a CMake package
(find_package(pzc): pzc::runtime, pzc::c, pzc::pzc).")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${PZC_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Depends: the shared libraries of bin/pzc, from dpkg-shlibdeps (none when
# pzc links its libraries statically, note [static dependencies]; else
# libc, the antlr4 runtime, yaml-cpp, gmp, libstdc++ and libgcc), and a
# C++20 compiler: `pzc solve` and
# `pzc build` compile generated C++ with $CXX, else c++ (g++ provides
# /usr/bin/c++ and pulls libstdc++-12-dev and libc6-dev, all the runtime
# headers need).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "g++ (>= 4:12)")
include(CPack)
