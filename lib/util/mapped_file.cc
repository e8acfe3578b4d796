#include "util/mapped_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace tflite_inspect {
namespace {

// File systems whose files can change under a mapping without the kernel keeping the
// mapped pages (statfs f_type values from linux/magic.h and the file systems' sources).
bool IsNetworkFileSystem(int fd) {
  struct statfs fs {};
  if (::fstatfs(fd, &fs) != 0) return false;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case 0x6969UL:      // NFS
    case 0x517BUL:      // SMB
    case 0xFF534D42UL:  // CIFS
    case 0xFE534D42UL:  // SMB2
    case 0x01021997UL:  // 9P (v9fs)
    case 0x65735546UL:  // FUSE (sshfs, ...)
    case 0x47504653UL:  // GPFS
    case 0x0BD00BD0UL:  // Lustre
      return true;
    default:
      return false;
  }
}

// Live mappings, for the SIGBUS handler: fixed slots claimed with a compare-exchange so
// that the handler reads them without locks or allocation.
struct Slot {
  std::atomic<bool> used{false};
  std::atomic<uintptr_t> begin{0};
  std::atomic<size_t> size{0};
  char path[256] = {};
};
constexpr int kSlots = 64;
Slot g_slots[kSlots];

int Register(const uint8_t* data, size_t size, const std::string& path) {
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_slots[i].used.compare_exchange_strong(expected, true)) continue;
    g_slots[i].size.store(0);
    const size_t n = std::min(path.size(), sizeof(g_slots[i].path) - 1);
    std::memcpy(g_slots[i].path, path.data(), n);
    g_slots[i].path[n] = '\0';
    g_slots[i].begin.store(reinterpret_cast<uintptr_t>(data));
    g_slots[i].size.store(size);  // last: the handler ignores a slot of size 0
    return i;
  }
  return -1;  // more than kSlots files mapped at once: a SIGBUS there stays a signal
}

void Unregister(int slot) {
  if (slot < 0) return;
  g_slots[slot].size.store(0);
  g_slots[slot].used.store(false);
}

// Async-signal-safe output: write(2) and hand-made decimal numbers.
void Put(const char* s) {
  for (size_t n = std::strlen(s); n > 0;) {
    const ssize_t w = ::write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<size_t>(w);
  }
}

void PutNumber(uint64_t v) {
  char buf[24];
  int i = sizeof(buf) - 1;
  buf[i] = '\0';
  do {
    buf[--i] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  Put(buf + i);
}

void OnSigbus(int sig, siginfo_t* info, void*) {
  const uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& s : g_slots) {
    const size_t size = s.size.load();
    const uintptr_t begin = s.begin.load();
    if (size == 0 || addr < begin || addr - begin >= size) continue;
    Put("tflite-inspect: error: the model file '");
    Put(s.path);
    Put("' changed while it was mapped (truncated or rewritten by another process?): "
        "reading byte ");
    PutNumber(addr - begin);
    Put(" of the ");
    PutNumber(size);
    Put(" it had when loaded failed (SIGBUS)\n");
    ::_exit(1);
  }
  // Not a model mapping: the default action, when the faulting access runs again (or
  // now, for a SIGBUS sent by kill/raise, which has no access to repeat).
  ::signal(sig, SIG_DFL);
  if (info->si_code <= 0) ::raise(sig);
}

}  // namespace

Result<std::unique_ptr<MappedFile>> MappedFile::Open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO nobody writes to would otherwise wait forever.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return IoError("cannot open '" + path + "': " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return IoError("cannot stat '" + path + "': " + std::strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return IoError("'" + path + "' is a directory");
  }
  // A device (a terminal, /dev/zero, a disk) is not a model file: reading it would wait
  // for typing or never end.
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
    ::close(fd);
    return IoError("'" + path + "' is a " +
                   (S_ISCHR(st.st_mode) ? std::string("character") : std::string("block")) +
                   " device, not a model file");
  }
  // Reads block again (a pipe's writer may still be producing the model).
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (S_ISREG(st.st_mode) && !IsNetworkFileSystem(fd)) {
    const size_t size = static_cast<size_t>(st.st_size);
    const uint8_t* data = nullptr;
    if (size > 0) {
      void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        int e = errno;
        ::close(fd);
        return IoError("cannot map '" + path + "': " + std::strerror(e));
      }
      data = static_cast<const uint8_t*>(p);
    }
    ::close(fd);  // the mapping stays valid after close
    const int slot = data != nullptr ? Register(data, size, path) : -1;
    return std::unique_ptr<MappedFile>(new MappedFile(data, size, /*mapped=*/true, slot));
  }
  // A pipe or a network file: read it whole, into 64-byte aligned
  // memory (as a mapping's start is aligned, buffers' alignment holds).
  size_t capacity = 1 << 20, size = 0;
  int fifo_waits = 0;
  auto* buf = static_cast<uint8_t*>(std::aligned_alloc(64, capacity));
  for (;;) {
    if (buf == nullptr) {
      ::close(fd);
      return IoError("cannot read '" + path + "': out of memory after " +
                     std::to_string(size) + " bytes");
    }
    if (size == capacity) {
      if (capacity >= kMaxReadBytes) {
        std::free(buf);
        ::close(fd);
        return IoError("cannot read '" + path + "': more than " +
                       std::to_string(kMaxReadBytes) +
                       " bytes, the most a model read from a pipe or a network file system "
                       "may have (copy it to a local disk)");
      }
      auto* bigger = static_cast<uint8_t*>(std::aligned_alloc(64, capacity * 2));
      if (bigger != nullptr) std::memcpy(bigger, buf, size);
      std::free(buf);
      buf = bigger;
      capacity *= 2;
      continue;
    }
    const ssize_t n = ::read(fd, buf + size, capacity - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      std::free(buf);
      ::close(fd);
      return IoError("cannot read '" + path + "': " + std::strerror(e));
    }
    if (n == 0) {
      // A FIFO's writer may open it just after we did: give it two seconds to appear.
      if (size == 0 && S_ISFIFO(st.st_mode) && fifo_waits++ < 200) {
        ::usleep(10000);
        continue;
      }
      break;
    }
    size += static_cast<size_t>(n);
  }
  ::close(fd);
  if (size == 0 && S_ISFIFO(st.st_mode)) {
    std::free(buf);
    return IoError("'" + path + "' is a FIFO (named pipe) and nothing was written to it");
  }
  return std::unique_ptr<MappedFile>(new MappedFile(buf, size, /*mapped=*/false, -1));
}

MappedFile::~MappedFile() {
  Unregister(slot_);
  if (data_ == nullptr) return;
  if (mapped_) {
    ::munmap(const_cast<uint8_t*>(data_), size_);
  } else {
    std::free(const_cast<uint8_t*>(data_));
  }
}

void MappedFile::InstallFaultHandler() {
  static const bool installed = [] {
    struct sigaction sa {};
    sa.sa_sigaction = OnSigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    return ::sigaction(SIGBUS, &sa, nullptr) == 0;
  }();
  (void)installed;
}

}  // namespace tflite_inspect
