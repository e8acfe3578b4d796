# 32-bit ARM, hard float (armv7 phones; Debian's armhf baseline is ARMv7-A with VFPv3-D16,
# NEON not assumed): see debian-cross.cmake.
set(TFI_CROSS_TRIPLE arm-linux-gnueabihf)
set(TFI_CROSS_DEBIAN_ARCH armhf)
set(TFI_CROSS_LOADER ld-linux-armhf.so.3)
set(TFI_QEMU qemu-arm)
set(CMAKE_SYSTEM_PROCESSOR armv7-a)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
