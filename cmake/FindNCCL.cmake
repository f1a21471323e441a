# Finds NCCL (nccl.h and libnccl) and defines NCCL::NCCL and NCCL_VERSION. Searched, the
# header and the library from the same place: NCCL_ROOT, the offline prefix's nccl/ (tools/
# setup.sh --prefix), the CUDA Toolkit's folders, NVIDIA's nvidia-nccl-cu13 wheel in the
# python3 on PATH (nvidia/nccl), then the system's folders.
set(_nccl_roots ${NCCL_ROOT} $ENV{NCCL_ROOT})
if(LIFEBENCH_DEPS_PREFIX)
  list(APPEND _nccl_roots "${LIFEBENCH_DEPS_PREFIX}/nccl")
endif()
if(CUDAToolkit_LIBRARY_ROOT)
  list(APPEND _nccl_roots "${CUDAToolkit_LIBRARY_ROOT}")
endif()
foreach(_nccl_dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
  get_filename_component(_nccl_dir "${_nccl_dir}" DIRECTORY)
  list(APPEND _nccl_roots "${_nccl_dir}")
endforeach()
find_program(_nccl_python NAMES python3)
if(_nccl_python)
  execute_process(
    COMMAND "${_nccl_python}" -c
            "import importlib.util as u; s = u.find_spec('nvidia.nccl'); print(s.submodule_search_locations[0])"
    OUTPUT_VARIABLE _nccl_wheel OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _nccl_status
    ERROR_QUIET)
  if(_nccl_status EQUAL 0 AND _nccl_wheel)
    list(APPEND _nccl_roots "${_nccl_wheel}")
  endif()
endif()

if(NOT NCCL_INCLUDE_DIR OR NOT NCCL_LIBRARY)
  foreach(_nccl_root IN LISTS _nccl_roots)
    find_path(_nccl_include nccl.h PATHS "${_nccl_root}/include" NO_DEFAULT_PATH NO_CACHE)
    # The wheel ships libnccl.so.2 alone.
    find_library(_nccl_library NAMES nccl libnccl.so.2
                 PATHS "${_nccl_root}/lib" "${_nccl_root}/lib64" NO_DEFAULT_PATH NO_CACHE)
    if(_nccl_include AND _nccl_library)
      break()
    endif()
    unset(_nccl_include)
    unset(_nccl_library)
  endforeach()
  if(NOT _nccl_include OR NOT _nccl_library)
    find_path(_nccl_include nccl.h NO_CACHE)
    find_library(_nccl_library NAMES nccl libnccl.so.2 NO_CACHE)
  endif()
  set(NCCL_INCLUDE_DIR "${_nccl_include}" CACHE PATH "Folder of nccl.h")
  set(NCCL_LIBRARY "${_nccl_library}" CACHE FILEPATH "libnccl")
endif()

if(NCCL_INCLUDE_DIR AND EXISTS "${NCCL_INCLUDE_DIR}/nccl.h")
  file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _nccl_defines REGEX "#define NCCL_(MAJOR|MINOR|PATCH) ")
  foreach(_nccl_part MAJOR MINOR PATCH)
    string(REGEX REPLACE ".*#define NCCL_${_nccl_part} ([0-9]+).*" "\\1" _nccl_${_nccl_part}
                         "${_nccl_defines}")
  endforeach()
  set(NCCL_VERSION "${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR
                                  VERSION_VAR NCCL_VERSION)
if(NCCL_FOUND AND NOT TARGET NCCL::NCCL)
  add_library(NCCL::NCCL UNKNOWN IMPORTED)
  set_target_properties(NCCL::NCCL PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}"
                                              INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
endif()
