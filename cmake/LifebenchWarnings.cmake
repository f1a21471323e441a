# Warnings live on an INTERFACE target that our own targets link, never in
# CMAKE_CXX_FLAGS, so dependencies' headers are not held to them.
add_library(lifebench_warnings INTERFACE)
add_library(lifebench::warnings ALIAS lifebench_warnings)
target_compile_options(lifebench_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
  $<$<AND:$<BOOL:${LIFEBENCH_WERROR}>,$<COMPILE_LANGUAGE:CXX>>:-Werror>
  # GCC 12 reports false -Wrestrict positives inside std::string at -O3 (GCC PR 105329).
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>,$<COMPILE_LANGUAGE:CXX>>:-Wno-restrict>
  $<$<AND:$<BOOL:${LIFEBENCH_WERROR}>,$<COMPILE_LANGUAGE:CUDA>>:-Werror=all-warnings -Xcompiler=-Werror>)
