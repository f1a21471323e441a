# cmake -DBUILD=<lifebench build> -DWORK=<scratch> -DCONSUMER=<project> -DGENERATOR=<g>
#       -DCXX=<compiler> -P check_install.cmake
# Installs BUILD into WORK/prefix, configures CONSUMER against it, builds and runs it.
file(REMOVE_RECURSE "${WORK}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()

run("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${WORK}/prefix")
if(NOT EXISTS "${WORK}/prefix/lib/cmake/lifebench/lifebenchConfig.cmake"
   AND NOT EXISTS "${WORK}/prefix/lib64/cmake/lifebench/lifebenchConfig.cmake")
  message(FATAL_ERROR "no lifebenchConfig.cmake under ${WORK}/prefix")
endif()
run("configuring the consumer" "${CMAKE_COMMAND}" -S "${CONSUMER}" -B "${WORK}/build"
    -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${WORK}/prefix" "-DCMAKE_CXX_COMPILER=${CXX}"
    -DCMAKE_BUILD_TYPE=Release)
run("building the consumer" "${CMAKE_COMMAND}" --build "${WORK}/build")
run("running the consumer" "${WORK}/build/consumer")
