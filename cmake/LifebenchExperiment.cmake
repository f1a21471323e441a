include(LifebenchOpenCL)

# lifebench_add_experiment(NAME <name> BACKEND cpu|simd|cuda|opencl SOURCES <files...>
#                          [LIBRARIES <targets...>] [TEST_ONLY] [CONFORMANCE_PARTS <n>]
#                          [CONFORMANCE_PARAMS <k=v...>]
#                          [RANK_SOURCES <files...> [RANK_LIBRARIES <targets...>]])
#
# Builds experiments/<name> as the executable lifebench-exp-<name> (target
# lifebench.exp.<name>), linked with the harness main, copies its sweep.toml
# beside it for the driver, and registers its conformance test. An experiment
# whose backend is switched off is not built. TEST_ONLY experiments (fault
# injection for the harness tests) go to a folder the driver does not search
# by default and have no sweep.toml. RANK_SOURCES make an MPI experiment: its rank
# program lifebench-rank-<name> (target lifebench.rank.<name>, kernels/mpi/rank_main.hpp)
# is built beside it, and the experiment links kernels/mpi/ranks_simulator.hpp, which
# starts the ranks; neither is built where MPI is switched off. CONFORMANCE_PARTS splits a
# long conformance matrix into n tests run side by side, lifebench.test.conformance.<name>.part<k>
# (verify --shard k/n), instead of the one test lifebench.test.conformance.<name>.
# CONFORMANCE_PARAMS pins parameters in that matrix: axes whose values another experiment's
# conformance already checks (the kernels it shares), where each case costs much.
function(lifebench_add_experiment)
  cmake_parse_arguments(PARSE_ARGV 0 arg "TEST_ONLY" "NAME;BACKEND;CONFORMANCE_PARTS"
                        "SOURCES;LIBRARIES;RANK_SOURCES;RANK_LIBRARIES;CONFORMANCE_PARAMS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lifebench_add_experiment: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME OR NOT arg_SOURCES)
    message(FATAL_ERROR "lifebench_add_experiment: NAME and SOURCES are required")
  endif()
  if(NOT arg_BACKEND MATCHES "^(cpu|simd|cuda|opencl)$")
    message(FATAL_ERROR "lifebench_add_experiment(${arg_NAME}): BACKEND must be cpu, simd, cuda or "
                        "opencl, not '${arg_BACKEND}'")
  endif()
  if((arg_BACKEND STREQUAL "cuda" AND NOT LIFEBENCH_ENABLE_CUDA)
     OR (arg_BACKEND STREQUAL "opencl" AND NOT LIFEBENCH_ENABLE_OPENCL)
     OR (arg_BACKEND STREQUAL "simd" AND NOT LIFEBENCH_ENABLE_HWY)
     OR (arg_RANK_SOURCES AND NOT LIFEBENCH_ENABLE_MPI))
    return()
  endif()

  set(target lifebench.exp.${arg_NAME})
  add_executable(${target} ${arg_SOURCES})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME lifebench-exp-${arg_NAME})
  target_link_libraries(${target} PRIVATE lifebench::harness lifebench::warnings lifebench::kernels_common
                                          ${arg_LIBRARIES})
  if(arg_BACKEND STREQUAL "cuda")
    target_link_libraries(${target} PRIVATE lifebench::kernels_cuda)
  elseif(arg_BACKEND STREQUAL "opencl")
    target_link_libraries(${target} PRIVATE lifebench::kernels_opencl)
    file(GLOB cl_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cl")
    if(cl_sources)
      lifebench_embed_opencl(${target} ${cl_sources})
    endif()
  elseif(arg_BACKEND STREQUAL "simd")
    target_link_libraries(${target} PRIVATE hwy::hwy)
  endif()
  if(arg_RANK_SOURCES)
    set(ranks lifebench.rank.${arg_NAME})
    add_executable(${ranks} ${arg_RANK_SOURCES})
    set_target_properties(${ranks} PROPERTIES OUTPUT_NAME lifebench-rank-${arg_NAME}
                                              RUNTIME_OUTPUT_DIRECTORY $<TARGET_FILE_DIR:${target}>)
    target_link_libraries(${ranks} PRIVATE lifebench::kernels_mpi_rank lifebench::warnings
                                           ${arg_RANK_LIBRARIES})
    if(arg_BACKEND STREQUAL "cuda")
      target_link_libraries(${ranks} PRIVATE lifebench::kernels_cuda)
    endif()
    target_link_libraries(${target} PRIVATE lifebench::kernels_mpi_launch)
    add_dependencies(${target} ${ranks}) # built with the experiment, which starts it
  endif()

  if(arg_TEST_ONLY)
    set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                               "${LIFEBENCH_TEST_EXPERIMENTS_DIR}")
    return()
  endif()
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${LIFEBENCH_EXPERIMENTS_DIR}")
  set(sweep "${CMAKE_CURRENT_SOURCE_DIR}/sweep.toml")
  if(NOT EXISTS "${sweep}" OR NOT EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/README.md")
    message(FATAL_ERROR "experiment ${arg_NAME} needs sweep.toml and README.md in "
                        "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  configure_file("${sweep}" "${LIFEBENCH_EXPERIMENTS_DIR}/${arg_NAME}.sweep.toml" COPYONLY)

  if(LIFEBENCH_ENABLE_TESTING)
    # Conformance against the reference; exit code 77 (backend unavailable) is a skip.
    set(label unit)
    if(arg_BACKEND STREQUAL "cuda")
      set(label gpu)
    endif()
    set_property(GLOBAL PROPERTY LIFEBENCH_CONFORMANCE_LABELS_${arg_NAME} "${label};conformance")
    set(test lifebench.test.conformance.${arg_NAME})
    list(TRANSFORM arg_CONFORMANCE_PARAMS PREPEND "--param;" OUTPUT_VARIABLE pinned)
    if(NOT arg_CONFORMANCE_PARTS)
      add_test(NAME ${test} COMMAND ${target} verify ${pinned})
      set_tests_properties(${test} PROPERTIES LABELS "${label};conformance" SKIP_RETURN_CODE 77
                                              TIMEOUT 900)
      return()
    endif()
    # A matrix is split because it is long: its parts go first (COST) when tests run side by
    # side, so that they do not set the end of the verify step by starting last.
    foreach(part RANGE 1 ${arg_CONFORMANCE_PARTS})
      add_test(NAME ${test}.part${part} COMMAND ${target} verify ${pinned} --shard
                                                 ${part}/${arg_CONFORMANCE_PARTS})
      set_tests_properties(${test}.part${part} PROPERTIES LABELS "${label};conformance"
                                                           SKIP_RETURN_CODE 77 TIMEOUT 900 COST 100)
    endforeach()
  endif()
endfunction()

# lifebench_add_external_experiment(<folder>)
#
# An experiment that runs a program lifebench does not build: experiments/external-<name>/
# holds external.toml (how to run the program, harness/external/description.hpp), sweep.toml
# and README.md, no code. It becomes the executable lifebench-exp-external-<name> (target
# lifebench.exp.external-<name>, the external adapter) with <name>.external.toml and
# <name>.sweep.toml beside it, and its conformance test runs the program.
function(lifebench_add_external_experiment folder)
  get_filename_component(name "${folder}" NAME)
  foreach(file external.toml sweep.toml README.md)
    if(NOT EXISTS "${folder}/${file}")
      message(FATAL_ERROR "external experiment ${name} needs external.toml, sweep.toml and "
                          "README.md in ${folder}")
    endif()
  endforeach()
  set(target lifebench.exp.${name})
  add_executable(${target})
  target_link_libraries(${target} PRIVATE lifebench::external)
  set_target_properties(${target} PROPERTIES OUTPUT_NAME lifebench-exp-${name}
                                             RUNTIME_OUTPUT_DIRECTORY "${LIFEBENCH_EXPERIMENTS_DIR}")
  configure_file("${folder}/external.toml" "${LIFEBENCH_EXPERIMENTS_DIR}/${name}.external.toml"
                 COPYONLY)
  configure_file("${folder}/sweep.toml" "${LIFEBENCH_EXPERIMENTS_DIR}/${name}.sweep.toml" COPYONLY)
  if(LIFEBENCH_ENABLE_TESTING)
    # Skipped (exit code 77) where the program is not installed.
    add_test(NAME lifebench.test.conformance.${name} COMMAND ${target} verify)
    set_tests_properties(lifebench.test.conformance.${name} PROPERTIES
                         LABELS "unit;conformance" SKIP_RETURN_CODE 77 TIMEOUT 900)
  endif()
endfunction()

# lifebench_add_conformance_variant(NAME <experiment> VARIANT <name> PARAMS <k=v...>)
#
# A second conformance test of an experiment with some parameters pinned (small tiles,
# bands or launches, so that the matrix's grids cross their edges), labelled as the
# experiment's own: lifebench.test.conformance.<experiment>.<name>.
function(lifebench_add_conformance_variant)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;VARIANT" "PARAMS")
  if(NOT arg_NAME OR NOT arg_VARIANT OR NOT arg_PARAMS OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lifebench_add_conformance_variant: NAME, VARIANT and PARAMS are required")
  endif()
  set(test lifebench.test.conformance.${arg_NAME})
  get_property(labels GLOBAL PROPERTY LIFEBENCH_CONFORMANCE_LABELS_${arg_NAME})
  if(NOT LIFEBENCH_ENABLE_TESTING OR NOT labels)
    return()
  endif()
  list(TRANSFORM arg_PARAMS PREPEND "--param;" OUTPUT_VARIABLE args)
  add_test(NAME ${test}.${arg_VARIANT} COMMAND lifebench.exp.${arg_NAME} verify ${args})
  set_tests_properties(${test}.${arg_VARIANT} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77
                                                          TIMEOUT 900)
endfunction()

# lifebench_add_experiment_test(NAME <experiment> TEST <name> SOURCES <files...>
#                               [LIBRARIES <targets...>]
#                               [GPU CASES <cases...> [LARGE_CASES <cases...>]])
#
# A GoogleTest executable of an experiment, target lifebench.test.<experiment>.<name>, linked
# with gtest_main, the shared kernels' headers and the warnings (and LIBRARIES); it is left
# out where CUDA is switched off and a source is .cu. Without GPU: a test of host-side logic
# (a .cu source is compiled by nvcc but runs on the host), test lifebench.test.<experiment>.
# <name>, label unit. With GPU: one test per case (GoogleTest's TEST name), lifebench.test.
# <experiment>.<name>.<case>, labels gpu and conformance, skipped where the case skips
# itself (GTEST_SKIP: no device, too little memory), so that one skip hides no other case.
# LARGE_CASES, some of CASES, take a large share of the device (a universe of tens of GiB):
# label large too, which the quick workflows leave out, and one device-memory lock, so that
# the conformance step, run in parallel, never runs two of them at once.
function(lifebench_add_experiment_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "GPU" "NAME;TEST" "SOURCES;LIBRARIES;CASES;LARGE_CASES")
  if(NOT arg_NAME OR NOT arg_TEST OR NOT arg_SOURCES OR arg_UNPARSED_ARGUMENTS
     OR (arg_GPU AND NOT arg_CASES))
    message(FATAL_ERROR "lifebench_add_experiment_test: NAME, TEST and SOURCES are required, "
                        "and CASES with GPU")
  endif()
  foreach(case IN LISTS arg_LARGE_CASES)
    if(NOT case IN_LIST arg_CASES)
      message(FATAL_ERROR "lifebench_add_experiment_test(${arg_NAME}): LARGE_CASES ${case} is not "
                          "one of CASES")
    endif()
  endforeach()
  set(cuda_sources ${arg_SOURCES})
  list(FILTER cuda_sources INCLUDE REGEX "\\.cu$")
  if(NOT LIFEBENCH_ENABLE_TESTING OR (cuda_sources AND NOT LIFEBENCH_ENABLE_CUDA))
    return()
  endif()
  set(target lifebench.test.${arg_NAME}.${arg_TEST})
  add_executable(${target} ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE GTest::gtest_main lifebench::kernels_common
                        ${arg_LIBRARIES} lifebench::warnings)
  if(NOT arg_GPU)
    add_test(NAME ${target} COMMAND ${target})
    set_tests_properties(${target} PROPERTIES LABELS unit)
    return()
  endif()
  foreach(case IN LISTS arg_CASES)
    add_test(NAME ${target}.${case} COMMAND ${target} --gtest_filter=*.${case})
    # Failed too where no case passed: a case name that matches none runs none, exit 0.
    set_tests_properties(${target}.${case} PROPERTIES
                         LABELS "gpu;conformance" TIMEOUT 900
                         SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]"
                         FAIL_REGULAR_EXPRESSION "\\[  PASSED  \\] 0 tests\\.")
    if(case IN_LIST arg_LARGE_CASES)
      set_tests_properties(${target}.${case} PROPERTIES LABELS "gpu;conformance;large"
                                                        RESOURCE_LOCK lifebench-device-memory)
    endif()
  endforeach()
endfunction()
