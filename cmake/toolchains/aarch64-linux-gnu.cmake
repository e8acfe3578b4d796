# 64-bit ARM (arm64 phones, Linux on ARM boards): see debian-cross.cmake.
set(TFI_CROSS_TRIPLE aarch64-linux-gnu)
set(TFI_CROSS_DEBIAN_ARCH arm64)
set(TFI_CROSS_LOADER ld-linux-aarch64.so.1)
set(TFI_QEMU qemu-aarch64)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
