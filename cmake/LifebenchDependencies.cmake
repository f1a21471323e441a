# Every dependency comes from the distribution (or from the offline prefix that
# tools/setup.sh --prefix unpacks from the distribution's packages).
if(LIFEBENCH_DEPS_PREFIX)
  if(NOT IS_DIRECTORY "${LIFEBENCH_DEPS_PREFIX}/usr")
    message(FATAL_ERROR "LIFEBENCH_DEPS_PREFIX=${LIFEBENCH_DEPS_PREFIX} has no usr/ folder; "
                        "make it with tools/setup.sh --prefix ${LIFEBENCH_DEPS_PREFIX}")
  endif()
  list(PREPEND CMAKE_PREFIX_PATH "${LIFEBENCH_DEPS_PREFIX}/usr")
endif()

macro(lifebench_require package hint)
  find_package(${package} ${ARGN})
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "${package} not found: ${hint} (run tools/setup.sh, or set "
                        "LIFEBENCH_DEPS_PREFIX to a prefix made by tools/setup.sh --prefix)")
  endif()
endmacro()

find_package(Threads REQUIRED)
lifebench_require(tomlplusplus "toml++ reads sweep and table files" CONFIG)
lifebench_require(CLI11 "CLI11 parses the command line" CONFIG)
lifebench_require(benchmark "Google Benchmark times the experiments" CONFIG)
lifebench_require(nlohmann_json "nlohmann-json reads and writes the results" CONFIG)
lifebench_require(valijson "valijson checks the results the driver reads against their schema"
                  CONFIG)

if(LIFEBENCH_ENABLE_HWY)
  lifebench_require(hwy "Highway is LIFEBENCH_ENABLE_HWY's SIMD library" CONFIG)
  # Every user of Highway compiles AVX3_DL too (Ice Lake and later Xeons: VPSHLDQ, VBMI2),
  # which Highway leaves out unless asked; dispatch decides at run time. One definition, so
  # that the kernels and the list of targets the manifests record agree.
  set_property(TARGET hwy::hwy APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS HWY_WANT_AVX3_DL)
endif()

if(LIFEBENCH_ENABLE_OPENCL)
  lifebench_require(OpenCL "the OpenCL headers and ICD loader are needed by LIFEBENCH_ENABLE_OPENCL")
  find_path(LIFEBENCH_OPENCL_HPP_DIR CL/opencl.hpp HINTS ${OpenCL_INCLUDE_DIRS})
  if(NOT LIFEBENCH_OPENCL_HPP_DIR)
    message(FATAL_ERROR "CL/opencl.hpp (OpenCL-CLHPP) not found: run tools/setup.sh")
  endif()
endif()

if(LIFEBENCH_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "LIFEBENCH_ENABLE_CUDA is ON but no CUDA compiler was found: install the "
                        "CUDA Toolkit (nvcc) or configure with -DLIFEBENCH_ENABLE_CUDA=OFF")
  endif()
  enable_language(CUDA)
  # nvcc names its intermediate files after its process id and writes that name into the
  # object, so two builds of one source differ, and `bench --resume` (which keeps the results
  # of unchanged experiment binaries) would measure every CUDA experiment again after a
  # rebuild. Beside the object they are named after it, and the object is the same.
  # (Checked before CMAKE_CUDA_STANDARD is set, which CMake < 3.26 cannot pass to the check.)
  include(CheckCompilerFlag)
  check_compiler_flag(CUDA --objdir-as-tempdir LIFEBENCH_NVCC_HAS_OBJDIR_AS_TEMPDIR)
  if(LIFEBENCH_NVCC_HAS_OBJDIR_AS_TEMPDIR)
    add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:--objdir-as-tempdir>)
  endif()
  # CMake < 3.26 does not know nvcc 12+ takes -std=c++20.
  if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION
     AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
endif()

if(LIFEBENCH_ENABLE_TESTING)
  lifebench_require(GTest "GoogleTest runs the unit tests" CONFIG)
endif()

if(LIFEBENCH_ENABLE_REPORT)
  set(Python3_FIND_UNVERSIONED_NAMES FIRST)
  find_package(Python3 3.11 COMPONENTS Interpreter REQUIRED)
  execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import matplotlib"
                  RESULT_VARIABLE _lifebench_mpl OUTPUT_QUIET ERROR_QUIET)
  if(NOT _lifebench_mpl EQUAL 0)
    message(FATAL_ERROR "${Python3_EXECUTABLE} cannot import matplotlib, which the report needs: "
                        "run tools/setup.sh, or configure with -DLIFEBENCH_ENABLE_REPORT=OFF")
  endif()
  # jsonschema checks results against the schema: the interpreter's own, or on an offline
  # machine the one the prefix carries for this Python version (tools/setup.sh --prefix).
  set(LIFEBENCH_REPORT_PYTHONPATH "")
  set(_lifebench_python_dir
      "${LIFEBENCH_DEPS_PREFIX}/python/${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
  foreach(_lifebench_path "" "${_lifebench_python_dir}")
    if(_lifebench_path AND NOT (LIFEBENCH_DEPS_PREFIX AND IS_DIRECTORY "${_lifebench_path}"))
      continue()
    endif()
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${_lifebench_path}"
                            "${Python3_EXECUTABLE}" -c "import jsonschema"
                    RESULT_VARIABLE _lifebench_jsonschema OUTPUT_QUIET ERROR_QUIET)
    if(_lifebench_jsonschema EQUAL 0)
      set(LIFEBENCH_REPORT_PYTHONPATH "${_lifebench_path}")
      break()
    endif()
  endforeach()
  if(NOT _lifebench_jsonschema EQUAL 0)
    message(FATAL_ERROR "${Python3_EXECUTABLE} cannot import jsonschema, which the report needs "
                        "to check results: run tools/setup.sh (or tools/setup.sh --prefix DIR for "
                        "an offline machine), or configure with -DLIFEBENCH_ENABLE_REPORT=OFF")
  endif()
endif()

include(LifebenchMpi)
