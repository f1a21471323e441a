# `cmake --install`: the problem model (lifebench::core: impl/'s library and headers) and the
# kernels' headers (lifebench::kernels_common: kernels/common, kernels/cpu and kernels/cuda,
# included as "common/bpbc.hpp"; lifebench::kernels_cuda adds the CUDA runtime where CUDA is
# on, and lifebench::kernels_cuda_life_wide the compiled kernels of cuda/life_wide.cuh), with a
# package config, so that another project can
#
#   find_package(lifebench)
#   target_link_libraries(app PRIVATE lifebench::core lifebench::kernels_common)
#
# The experiment contract (lifebench/experiment.hpp), which the kernels' shared simulator
# bases implement, is installed with them; the harness that runs experiments is not.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(lifebench_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/lifebench")
set(lifebench_kernels_dir "${CMAKE_INSTALL_INCLUDEDIR}/lifebench/kernels")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/impl/include/lifebench"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" FILES_MATCHING PATTERN "*.hpp")
install(FILES "${PROJECT_SOURCE_DIR}/harness/include/lifebench/experiment.hpp"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/lifebench")
foreach(part common cpu cuda)
  # blocked_tiles is a compiled library of Highway code, not a header-only kernel.
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/kernels/${part}" DESTINATION "${lifebench_kernels_dir}"
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh" PATTERN "blocked_tiles.hpp" EXCLUDE)
endforeach()

set(exported lifebench_core lifebench_kernels_common lifebench_warnings)
if(LIFEBENCH_ENABLE_CUDA)
  list(APPEND exported lifebench_kernels_cuda lifebench_kernels_cuda_life_wide)
endif()
# Exported under the names the build uses: lifebench::core, lifebench::kernels_common, ...
foreach(target IN LISTS exported)
  string(REPLACE "lifebench_" "" name "${target}")
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
endforeach()
# lifebench_warnings comes along only as the static library's link-only dependency: it
# carries no flags to the project that links lifebench.
install(TARGETS ${exported} EXPORT lifebench_targets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(EXPORT lifebench_targets NAMESPACE lifebench:: FILE lifebenchTargets.cmake
        DESTINATION "${lifebench_cmake_dir}")

configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/lifebenchConfig.cmake.in"
                              "${CMAKE_BINARY_DIR}/lifebenchConfig.cmake"
                              INSTALL_DESTINATION "${lifebench_cmake_dir}")
write_basic_package_version_file("${CMAKE_BINARY_DIR}/lifebenchConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/lifebenchConfig.cmake"
              "${CMAKE_BINARY_DIR}/lifebenchConfigVersion.cmake"
        DESTINATION "${lifebench_cmake_dir}")
