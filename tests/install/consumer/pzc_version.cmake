# cmake -DPZC=<pzc> -DOUT=<header> -P pzc_version.cmake: `pzc --version` as a #define.
execute_process(COMMAND ${PZC} --version OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT version MATCHES "^pzc [0-9]+\\.[0-9]+\\.[0-9]+$")
  message(FATAL_ERROR "${PZC} --version: exit ${rc}, output '${version}'")
endif()
file(WRITE ${OUT} "#define PZC_TOOL_VERSION \"${version}\"\n")
