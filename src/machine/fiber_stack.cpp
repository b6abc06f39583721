#include "fiber_stack.h"

#include "fencelab/machine/machine.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <unistd.h>

namespace fencelab {

#if defined(FENCELAB_SANITIZED)
#include <sanitizer/asan_interface.h>
#endif

namespace {

// Guard pages of every pool, for the fault handler. Written under a mutex (pools are created
// and grown outside signal context); read by the handler without locking, which is safe
// because entries are only appended to a fixed-capacity array.
constexpr size_t kMaxGuardPages = 1 << 16;
struct GuardPage {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
};
GuardPage g_guard_pages[kMaxGuardPages];
std::atomic<size_t> g_guard_page_count{0};
std::mutex g_guard_mutex;
/** The simulated thread running on this OS thread (run --jobs runs a Machine per OS thread);
 *  SIGSEGV is delivered to the thread that faulted, so the handler reads its own. */
thread_local const ThreadId* t_running_thread = nullptr;

/** Entries of unmapped stacks' guard pages (cleared, both ends 0), for the next to reuse. */
std::vector<size_t> g_free_guard_slots;

/** Records a guard page; returns its entry's index (kMaxGuardPages when the table is full:
 *  an overflow past that many stacks is still caught, unnamed). */
size_t register_guard_page(uintptr_t begin, uintptr_t end) {
  std::lock_guard lock(g_guard_mutex);
  // Room for every entry to come back, made here (it may throw bad_alloc): forget_guard_page
  // runs in destructors.
  if (g_free_guard_slots.capacity() < kMaxGuardPages) g_free_guard_slots.reserve(kMaxGuardPages);
  size_t slot = g_guard_page_count.load();
  if (!g_free_guard_slots.empty()) {
    slot = g_free_guard_slots.back();
    g_free_guard_slots.pop_back();
  } else if (slot >= kMaxGuardPages) {
    return kMaxGuardPages;
  } else {
    g_guard_page_count = slot + 1;
  }
  g_guard_pages[slot].begin = begin;
  g_guard_pages[slot].end = end;
  return slot;
}

/** Clears the entry of a stack about to be unmapped: a fault there later is not ours. */
void forget_guard_page(size_t slot) {
  if (slot >= kMaxGuardPages) return;
  std::lock_guard lock(g_guard_mutex);
  g_guard_pages[slot].begin = 0;
  g_guard_pages[slot].end = 0;
  g_free_guard_slots.push_back(slot);
}

#if !defined(FENCELAB_SANITIZED)
bool is_guard_page_address(uintptr_t address) {
  const size_t n = g_guard_page_count.load();
  for (size_t i = 0; i < n; ++i)
    if (address >= g_guard_pages[i].begin && address < g_guard_pages[i].end) return true;
  return false;
}

void write_text(const char* text) {
  ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void write_number(uint32_t value) {
  char digits[16];
  int n = 0;
  do {
    digits[n++] = char('0' + value % 10);
    value /= 10;
  } while (value != 0 && n < 15);
  char out[16];
  for (int i = 0; i < n; ++i) out[i] = digits[n - 1 - i];
  out[n] = '\0';
  write_text(out);
}

void on_segmentation_fault(int signal, siginfo_t* info, void*) {
  if (info != nullptr && is_guard_page_address(reinterpret_cast<uintptr_t>(info->si_addr))) {
    write_text("fencelab: internal error: stack overflow in simulated thread");
    if (const ThreadId* t = t_running_thread) {
      write_text(" (");
      write_number(t->block);
      write_text(",");
      write_number(t->warp);
      write_text(",");
      write_number(t->lane);
      write_text(")");
    }
    write_text(": the kernel recurses too deeply for the fiber stack; raise --stack-size\n");
    _exit(3);
  }
  // Not ours: restore the default action and let the fault happen again.
  std::signal(signal, SIG_DFL);
}
#endif

/** Stacks mapped by every pool of the process (the jobs of --jobs each have one). */
std::atomic<size_t> g_stacks_mapped{0};

} // namespace

size_t fiber_stack_capacity() {
  static const size_t capacity = [] {
    size_t max_map_count = 65530; // Linux's default (DEFAULT_MAX_MAP_COUNT)
    if (std::ifstream file("/proc/sys/vm/max_map_count"); file) file >> max_map_count;
    // Left to the rest of the process: libraries, heap arenas, large allocations.
    constexpr size_t kReserved = 8192;
    return max_map_count > 2 * kReserved ? (max_map_count - kReserved) / 2 : max_map_count / 4;
  }();
  return capacity;
}

StackPool::StackPool(size_t stack_size) {
  m_page_size = size_t(::sysconf(_SC_PAGESIZE));
  const size_t minimum = 16 * m_page_size;
  m_stack_size = std::max(minimum, (stack_size + m_page_size - 1) / m_page_size * m_page_size);
}

StackPool::~StackPool() { release_all(); }

void StackPool::release_all() {
  for (const Region& region : m_regions) {
    forget_guard_page(region.guard_slot);
    ::munmap(region.base, region.size);
  }
  g_stacks_mapped -= m_regions.size();
  m_regions.clear();
  m_free_tops.clear();
}

boost::context::stack_context StackPool::allocate() {
  char* top = nullptr;
  if (!m_free_tops.empty()) {
    top = m_free_tops.back();
    m_free_tops.pop_back();
  } else {
    const size_t size = m_stack_size + m_page_size;
    if (g_stacks_mapped.fetch_add(1) >= fiber_stack_capacity()) {
      --g_stacks_mapped;
      throw StackExhausted{m_regions.size(), fiber_stack_capacity()};
    }
    void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base != MAP_FAILED && ::mprotect(base, m_page_size, PROT_NONE) != 0) {
      ::munmap(base, size); // no guard page, no stack: splitting the mapping failed
      base = MAP_FAILED;
    }
    if (base == MAP_FAILED) {
      --g_stacks_mapped;
      throw StackExhausted{m_regions.size()};
    }
    char* bytes = static_cast<char*>(base);
    try {
      m_regions.push_back({bytes, size, kMaxGuardPages});
      // deallocate() is noexcept (Boost.Context calls it while unwinding): room for every
      // stack to come back is made here, where running out of memory can still be reported
      // (hardening issue, case C).
      m_free_tops.reserve(m_regions.size());
    } catch (const std::bad_alloc&) {
      if (!m_regions.empty() && m_regions.back().base == bytes) m_regions.pop_back();
      ::munmap(base, size);
      --g_stacks_mapped;
      throw;
    }
    try {
      m_regions.back().guard_slot =
          register_guard_page(reinterpret_cast<uintptr_t>(bytes), reinterpret_cast<uintptr_t>(bytes + m_page_size));
    } catch (const std::bad_alloc&) {
      // No room to note a freed slot: the stack is kept, its overflow caught unnamed.
    }
    top = bytes + size;
  }
#if defined(FENCELAB_SANITIZED)
  // A reused stack may still carry poison from the fiber that ran on it before.
  ASAN_UNPOISON_MEMORY_REGION(top - m_stack_size, m_stack_size);
#endif
  boost::context::stack_context stack;
  stack.size = m_stack_size;
  stack.sp = top; // Boost.Context stacks grow down from sp
  return stack;
}

void StackPool::deallocate(boost::context::stack_context& stack) {
  m_free_tops.push_back(static_cast<char*>(stack.sp));
}

void install_stack_overflow_handler() {
#if !defined(FENCELAB_SANITIZED)
  // The handler runs on an alternate stack (the faulting one has no room left), and an
  // alternate stack is a per-thread setting (sigaltstack(2)): one for each OS thread that runs
  // a Machine.
  thread_local bool alternate_stack_set = false;
  if (!alternate_stack_set) {
    thread_local char alternate_stack[64 * 1024];
    stack_t ss{};
    ss.ss_sp = alternate_stack;
    ss.ss_size = sizeof(alternate_stack);
    ::sigaltstack(&ss, nullptr);
    alternate_stack_set = true;
  }
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action{};
    action.sa_sigaction = on_segmentation_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGSEGV, &action, nullptr);
  });
#endif
}

void set_running_thread(const ThreadId* thread) { t_running_thread = thread; }

} // namespace fencelab
