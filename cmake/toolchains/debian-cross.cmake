# Shared by the per-target toolchain files: cross-compiles with Debian's cross g++
# (g++-<triple>) against TFI_SYSROOT, a folder holding Debian's :<arch> packages unpacked
# (scripts/cross_build.sh makes it; nothing is installed on the host). The C and C++
# runtimes come from the cross toolchain's own /usr/<triple>; code generators (flatc) run
# on the host.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${TFI_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${TFI_CROSS_TRIPLE}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${TFI_CROSS_TRIPLE})
# x86-64's baseline has no FMA, so GCC never fuses a * b + c there; ARM's has, and GCC's
# default (-ffp-contract=fast) would fuse the portable kernels' multiply-adds: 1-ulp
# differences from the x86 build and from TFLite's reference goldens (tflite_goldens_test
# under qemu). Explicit FMA intrinsics are not affected.
set(CMAKE_C_FLAGS_INIT "-ffp-contract=off")
set(CMAKE_CXX_FLAGS_INIT "-ffp-contract=off")

# try_compile projects re-read this file without the cache: pass the sysroot on, and
# fall back to the environment.
if(NOT TFI_SYSROOT AND DEFINED ENV{TFI_SYSROOT})
  set(TFI_SYSROOT "$ENV{TFI_SYSROOT}")
endif()
if(NOT TFI_SYSROOT)
  message(FATAL_ERROR "Cross build for ${TFI_CROSS_TRIPLE}: set TFI_SYSROOT to the unpacked "
                      ":${TFI_CROSS_DEBIAN_ARCH} packages (scripts/cross_build.sh does)")
endif()
set(ENV{TFI_SYSROOT} "${TFI_SYSROOT}")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TFI_SYSROOT TFI_CROSS_TRIPLE)

set(CMAKE_FIND_ROOT_PATH "${TFI_SYSROOT}" "/usr/${TFI_CROSS_TRIPLE}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# libXNNPACK.so needs libcpuinfo/libpthreadpool at link time: tell ld where they are.
set(_tfi_libdir "${TFI_SYSROOT}/usr/lib/${TFI_CROSS_TRIPLE}")
foreach(kind EXE SHARED MODULE)
  set(CMAKE_${kind}_LINKER_FLAGS_INIT "-Wl,-rpath-link,${_tfi_libdir}")
endforeach()

# No RPATH into the sysroot: a cross-built program runs from the phone bundle (its own
# lib/) or under the emulator below, never from this machine's folders.
# (A cache entry, forced: CMake creates CMAKE_SKIP_RPATH in the cache on the first
# configure, which would hide a plain variable set here.)
set(CMAKE_SKIP_RPATH ON CACHE BOOL "cross builds run from the phone bundle or the emulator" FORCE)

# Run target programs (ctest, try_run) under qemu-user through the target's own dynamic
# loader, with the sysroot's and the cross toolchain's libraries.
set(CMAKE_CROSSCOMPILING_EMULATOR
    ${TFI_QEMU} /usr/${TFI_CROSS_TRIPLE}/lib/${TFI_CROSS_LOADER}
    --library-path "${_tfi_libdir}:/usr/${TFI_CROSS_TRIPLE}/lib")
