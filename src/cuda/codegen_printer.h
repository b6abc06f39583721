// The AST-to-CUDA printer shared by plain and litmus code generation (private to src/cuda).
#pragma once

#include "fencelab/cuda/codegen.h"

#include <sstream>
#include <string>
#include <unordered_map>

namespace fencelab::cuda {

/** A scalar or pointer type as CUDA spells it, top-level qualifiers dropped when asked. */
std::string cuda_type(const Type& type, bool keep_top_qualifiers = true);
/** A variable's name as a CUDA identifier: a vector's field variable `v.x` (the front end's
 *  lowering, parse_vector_types.cpp) is printed `v__x`. */
std::string cuda_identifier(const std::string& name);

class CudaPrinter {
public:
  CudaPrinter(const Program& program, bool litmus);

  /** Litmus mode with logical blocks packed into shared physical blocks, each logical block
   *  inside one warp: __syncthreads() becomes __syncwarp(__c.bmask), a barrier over the logical
   *  block's lanes only (see can_pack in codegen.cpp). */
  void set_logical_barriers(bool on) { m_logical_barriers = on; }

  /** Prints every file-scope declaration and function (the launched kernel as __device__). */
  void print_unit(std::ostringstream& out);
  std::string expr(const Expr& e);
  /** `#line N "file"` for the start of a range, so NVRTC errors name the kernel file. */
  std::string line_directive(const SourceRange& range) const;

private:
  /** `f` as CUDA; only its declaration where `prototype`. */
  void function(std::ostringstream& out, const FunctionDecl& f, bool prototype = false);
  void stmt(std::ostringstream& out, const Stmt& s, int depth);
  void declaration(std::ostringstream& out, const VarDecl& v, bool file_scope);
  std::string name_ref(const NameRef& n);
  std::string call(const Call& c);
  std::string note_prefix() const { return m_litmus ? "__fl_note(__c, " : "__fl_note("; }
  std::string postop_prefix(bool increment) const;
  int observed_local(const Expr& e) const;

  const Program& m_program;
  bool m_litmus;
  bool m_logical_barriers = false;
  std::unordered_map<const VarDecl*, uint32_t> m_observed_locals;
  std::unordered_map<uint32_t, uint32_t> m_litmus_object; ///< memory object -> litmus object
};

} // namespace fencelab::cuda
