// The sanitized build switches fibers with ucontext (BOOST_USE_UCONTEXT), because ASan cannot
// follow Boost.Context's assembly switches. Boost.Context's ucontext fibers keep, per OS
// thread, a pointer to the activation record that is running; the library defines the
// accessor only when it was itself built for ucontext, and Debian's is built for fcontext. So
// the sanitized build defines it here. Normal builds compile this file to nothing.
#include <boost/context/fiber.hpp>

#if defined(BOOST_USE_UCONTEXT)
#include <memory>

namespace boost::context::detail {

fiber_activation_record*& fiber_activation_record::current() noexcept {
  // The OS thread's own context is the first record; fibers replace the pointer as they run.
  thread_local const std::unique_ptr<fiber_activation_record> thread_record =
      std::make_unique<fiber_activation_record>();
  thread_local fiber_activation_record* running = thread_record.get();
  return running;
}

} // namespace boost::context::detail
#endif
