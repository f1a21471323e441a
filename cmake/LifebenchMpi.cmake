# MPI for the experiments whose ranks mpirun starts (cpu-mpi; cuda-nccl with NCCL), from the
# distribution (Open MPI, tools/setup.sh) or from the offline prefix (tools/setup.sh
# --prefix: Open MPI in openmpi/, NCCL in nccl/). mpirun's path is built into the
# experiments (LIFEBENCH_MPIEXEC overrides it when they run).
if(NOT LIFEBENCH_ENABLE_MPI)
  return()
endif()

if(LIFEBENCH_DEPS_PREFIX AND IS_DIRECTORY "${LIFEBENCH_DEPS_PREFIX}/openmpi" AND NOT MPI_HOME)
  set(MPI_HOME "${LIFEBENCH_DEPS_PREFIX}/openmpi")
endif()
# The C API from C++: the deprecated C++ bindings are neither included nor linked.
set(MPI_CXX_SKIP_MPICXX ON)
find_package(MPI COMPONENTS CXX)
if(NOT MPI_CXX_FOUND OR NOT MPIEXEC_EXECUTABLE)
  message(FATAL_ERROR "MPI (headers, library and mpiexec) not found: run tools/setup.sh (Open MPI), "
                      "set LIFEBENCH_DEPS_PREFIX to a prefix made by tools/setup.sh --prefix, or "
                      "configure with -DLIFEBENCH_ENABLE_MPI=OFF")
endif()

if(LIFEBENCH_ENABLE_CUDA)
  find_package(NCCL)
  if(NOT NCCL_FOUND)
    message(FATAL_ERROR "NCCL (cuda-nccl) not found in the CUDA Toolkit, the system, the "
                        "nvidia-nccl-cu13 package of the python3 on PATH or the offline prefix: "
                        "pip install nvidia-nccl-cu13, set NCCL_ROOT, or configure with "
                        "-DLIFEBENCH_ENABLE_MPI=OFF")
  endif()
endif()
