# Provenance known at configure time, compiled into the harness and the driver.
# Compiler identity comes from CMake, not from whatever is first on PATH.
string(TOUPPER "${CMAKE_BUILD_TYPE}" _lifebench_build_type_upper)
set(LIFEBENCH_BUILD_CXX_FLAGS "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_lifebench_build_type_upper}}")
string(STRIP "${LIFEBENCH_BUILD_CXX_FLAGS}" LIFEBENCH_BUILD_CXX_FLAGS)
if(LIFEBENCH_ENABLE_CUDA)
  set(LIFEBENCH_BUILD_CUDA "${CMAKE_CUDA_COMPILER_ID} ${CMAKE_CUDA_COMPILER_VERSION}")
  set(LIFEBENCH_BUILD_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
else()
  set(LIFEBENCH_BUILD_CUDA "off")
  set(LIFEBENCH_BUILD_CUDA_ARCHITECTURES "")
endif()
if(LIFEBENCH_ENABLE_HWY)
  set(LIFEBENCH_BUILD_HWY "${hwy_VERSION}")
else()
  set(LIFEBENCH_BUILD_HWY "off")
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/build_info.hpp.in"
               "${CMAKE_BINARY_DIR}/generated/lifebench/build_info.hpp" @ONLY)
